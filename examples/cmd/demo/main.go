// Command demo shows the example Widget operator at work on a real control
// plane: it starts etcd and kube-apiserver on 127.0.0.1 (internal/testing/testcluster,
// binaries from `make testbin`), installs the example CRDs, runs the
// widget-controller binary against it with --kubeconfig, creates a few
// objects, prints what the controller did and what the generated index
// lookups answer, runs the explore binary (examples/cmd/explore) against the
// same kubeconfig to show discovery of the shop group and a dynamic
// informer's run-time index lookups, and stops everything it started.
// `make demo` builds and runs it.
//
//	demo --controller bin/widget-controller --explore bin/explore [--crds examples/config/crd]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/informers/externalversions"
	kubeinformers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions"
	"github.com/informer-gen-plus/informer-gen-plus/examples/widgetcontroller"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testcluster"
)

// namespace is where the demo's objects go.
const namespace = "demo"

func main() {
	controllerBin := flag.String("controller", "bin/widget-controller", "the widget-controller binary to run")
	exploreBin := flag.String("explore", "bin/explore", "the explore binary to run at the end")
	crds := flag.String("crds", "examples/config/crd", "directory of the example CRDs")
	logPath := flag.String("controller-log", "_output/demo/widget-controller.log", "where the controller's log goes")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *controllerBin, *exploreBin, *crds, *logPath); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, controllerBin, exploreBin, crds, logPath string) (err error) {
	step("Starting etcd and kube-apiserver on 127.0.0.1")
	cluster, err := testcluster.Start(ctx, testcluster.Options{})
	if err != nil {
		return err
	}
	defer func() {
		step("Stopping the control plane")
		err = errors.Join(err, cluster.Stop())
	}()
	config := cluster.Config()
	fmt.Printf("  kube-apiserver at %s\n", config.Host)
	if err := cluster.InstallCRDs(ctx, crds); err != nil {
		return err
	}
	fmt.Printf("  installed the CRDs of %s\n", crds)
	kubeconfig := filepath.Join(cluster.Dir(), "kubeconfig")
	if err := cluster.WriteKubeconfig(kubeconfig, namespace); err != nil {
		return err
	}

	kube, err := kubernetes.NewForConfig(config)
	if err != nil {
		return err
	}
	shop, err := versioned.NewForConfig(config)
	if err != nil {
		return err
	}
	if _, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{}); err != nil {
		return err
	}

	step("Running " + controllerBin + " --kubeconfig " + kubeconfig)
	controller := exec.Command(controllerBin, "--kubeconfig", kubeconfig, "--metrics-bind-address", "0", "--namespace", namespace)
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return err
	}
	logFile, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logFile.Close()
	controller.Stdout, controller.Stderr = logFile, logFile
	if err := controller.Start(); err != nil {
		return err
	}
	defer func() {
		step("Stopping the controller (SIGTERM)")
		_ = controller.Process.Signal(syscall.SIGTERM)
		err = errors.Join(err, controller.Wait(), printWrites(logPath))
	}()

	step("Creating a ConfigMap and three Widgets")
	if _, err := kube.CoreV1().ConfigMaps(namespace).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "settings"}, Data: map[string]string{"mode": "fast"},
	}, metav1.CreateOptions{}); err != nil {
		return err
	}
	for _, w := range []struct{ name, color, configRef string }{
		{"gizmo", "red", "settings"}, {"sprocket", "blue", ""}, {"doohickey", "red", "not-yet"},
	} {
		widget := &shopv1.Widget{
			ObjectMeta: metav1.ObjectMeta{Name: w.name, Labels: map[string]string{"team": "t-" + w.color}},
			Spec:       shopv1.WidgetSpec{Color: w.color, Size: 3, ConfigRef: w.configRef},
		}
		widget.Spec.SKU = "sku-" + w.name
		if _, err := shop.ShopV1().Widgets(namespace).Create(ctx, widget, metav1.CreateOptions{}); err != nil {
			return err
		}
		fmt.Printf("  widget %s: color %s, configRef %q\n", w.name, w.color, w.configRef)
	}
	if err := waitForStatuses(ctx, shop, 3); err != nil {
		return err
	}
	if err := report(ctx, kube, shop); err != nil {
		return err
	}

	step(`Creating ConfigMap "not-yet", which doohickey refers to, and deleting gizmo`)
	if _, err := kube.CoreV1().ConfigMaps(namespace).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "not-yet"}, Data: map[string]string{"mode": "slow"},
	}, metav1.CreateOptions{}); err != nil {
		return err
	}
	if err := shop.ShopV1().Widgets(namespace).Delete(ctx, "gizmo", metav1.DeleteOptions{}); err != nil {
		return err
	}
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		w, err := shop.ShopV1().Widgets(namespace).Get(ctx, "doohickey", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		_, gone := kube.CoreV1().ConfigMaps(namespace).Get(ctx, "gizmo"+widgetcontroller.ConfigMapSuffix, metav1.GetOptions{})
		return w.Status.Phase == shopv1.WidgetReady && gone != nil, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for the controller: %w", err)
	}
	if err := report(ctx, kube, shop); err != nil {
		return err
	}
	return runExplore(ctx, exploreBin, kubeconfig)
}

// runExplore runs the explore binary against the demo's cluster: discovery
// of the shop group, then a dynamic informer of Widgets with indexes
// declared on the command line, and lookups in them. It prints the command
// and its output.
func runExplore(ctx context.Context, exploreBin, kubeconfig string) error {
	args := []string{
		"--kubeconfig", kubeconfig,
		"--group", shopv1.SchemeGroupVersion.Group,
		"--resource", "widgets." + shopv1.SchemeGroupVersion.Version + "." + shopv1.SchemeGroupVersion.Group,
		"--index", "byColor: field: spec.color",
		"--index", `byPhaseColor: field: "status.phase, spec.color"`,
		"--lookup", "byColor=red",
		"--lookup", "byPhaseColor=Ready,red",
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = a
		if strings.ContainsAny(a, " \"*") {
			quoted[i] = "'" + a + "'"
		}
	}
	step("Running " + exploreBin + " " + strings.Join(quoted, " "))
	cmd := exec.CommandContext(ctx, exploreBin, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	for line := range strings.Lines(string(out)) {
		fmt.Print("  ", line)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", exploreBin, err)
	}
	return nil
}

// printWrites prints the lines of the controller's log that record a write.
func printWrites(logPath string) error {
	data, err := os.ReadFile(logPath)
	if err != nil {
		return err
	}
	step("The controller's writes, from its log (" + logPath + ")")
	for line := range strings.Lines(string(data)) {
		if strings.Contains(line, "ConfigMap\"") {
			fmt.Print("  ", line)
		}
	}
	return nil
}

// step prints the heading of a step of the demo.
func step(s string) { fmt.Printf("\n==> %s\n", s) }

// waitForStatuses waits until n Widgets report a Ready condition.
func waitForStatuses(ctx context.Context, shop versioned.Interface, n int) error {
	return wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		list, err := shop.ShopV1().Widgets(namespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		done := 0
		for _, w := range list.Items {
			if meta.FindStatusCondition(w.Status.Conditions, widgetcontroller.ConditionReady) != nil {
				done++
			}
		}
		return done >= n, nil
	})
}

// report prints the Widgets' status and ConfigMaps, then answers a few
// generated index lookups from synced informers.
func report(ctx context.Context, kube kubernetes.Interface, shop versioned.Interface) error {
	step("What the controller did")
	widgets, err := shop.ShopV1().Widgets(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  WIDGET\tPHASE\tREADY\tMESSAGE")
	for _, w := range widgets.Items {
		cond := meta.FindStatusCondition(w.Status.Conditions, widgetcontroller.ConditionReady)
		if cond == nil {
			cond = &metav1.Condition{}
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", w.Name, w.Status.Phase, cond.Reason, cond.Message)
	}
	tw.Flush()
	cms, err := kube.CoreV1().ConfigMaps(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, cm := range cms.Items {
		owner := "(not owned)"
		if ref := metav1.GetControllerOf(&cm); ref != nil {
			owner = "controlled by " + ref.Kind + " " + ref.Name
		}
		fmt.Printf("  configmap %-20s %-30s %s\n", cm.Name, owner, formatData(cm.Data))
	}

	step("Generated index lookups (informers synced from the server)")
	ctx, cancel := context.WithCancel(ctx)
	shopFactory := externalversions.NewSharedInformerFactoryWithOptions(shop, 0, externalversions.WithNamespace(namespace))
	kubeFactory := kubeinformers.NewSharedInformerFactoryWithOptions(kube, 0, kubeinformers.WithNamespace(namespace))
	widgetLister := shopFactory.Shop().V1().Widgets().Lister()
	cmLister := kubeFactory.Core().V1().ConfigMaps().Lister()
	shopFactory.StartWithContext(ctx)
	kubeFactory.StartWithContext(ctx)
	defer func() {
		cancel()
		shopFactory.Shutdown()
		kubeFactory.Shutdown()
	}()
	if res := shopFactory.WaitForCacheSyncWithContext(ctx); res.Err != nil {
		return res.Err
	}
	if res := kubeFactory.WaitForCacheSyncWithContext(ctx); res.Err != nil {
		return res.Err
	}
	lookups := []struct {
		name string
		run  func() ([]string, error)
	}{
		{`widgets.ByColor("red")`, func() ([]string, error) { return names(widgetLister.ByColor("red")) }},
		{`widgets.ByTeam("t-blue")`, func() ([]string, error) { return names(widgetLister.ByTeam("t-blue")) }},
		{`widgets.Widgets("demo").ByConfigRef("not-yet")`, func() ([]string, error) {
			return names(widgetLister.Widgets(namespace).ByConfigRef("not-yet"))
		}},
		{`widgets.ByPhaseColor("Ready", "red")`, func() ([]string, error) { return names(widgetLister.ByPhaseColor("Ready", "red")) }},
		{`configMaps.ByWidget("sprocket")`, func() ([]string, error) { return names(cmLister.ByWidget("sprocket")) }},
		{`configMaps.ByManagedBy("widget-controller")`, func() ([]string, error) { return names(cmLister.ByManagedBy(widgetcontroller.Name)) }},
	}
	for _, l := range lookups {
		got, err := l.run()
		if err != nil {
			return err
		}
		fmt.Printf("  %-48s -> %v\n", l.name, got)
	}
	return nil
}

// names returns the names of objs, sorted.
func names[T metav1.Object](objs []T, err error) ([]string, error) {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = o.GetName()
	}
	slices.Sort(out)
	return out, err
}

// formatData prints a ConfigMap's data as sorted key=value pairs.
func formatData(data map[string]string) string {
	pairs := make([]string, 0, len(data))
	for k, v := range data {
		pairs = append(pairs, k+"="+v)
	}
	slices.Sort(pairs)
	return strings.Join(pairs, " ")
}
