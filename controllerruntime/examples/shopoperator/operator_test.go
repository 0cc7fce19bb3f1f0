package shopoperator_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	shopindexes "github.com/informer-gen-plus/informer-gen-plus/controllerruntime/examples/indexes/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/controllerruntime/examples/shopoperator"
	"github.com/informer-gen-plus/informer-gen-plus/controllerruntime/fieldindex"
	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
)

// The API server of the tests: controller-runtime's envtest running the
// project's own etcd and kube-apiserver (make testbin), with the example
// CRDs installed.
var (
	restConfig *rest.Config
	scheme     = runtime.NewScheme()
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, shopv1.AddToScheme} {
		if err := add(scheme); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		assets = filepath.Join(root, "bin", "testbin")
	}
	if _, err := os.Stat(filepath.Join(assets, "kube-apiserver")); err != nil {
		fmt.Fprintf(os.Stderr, "no kube-apiserver in %s (KUBEBUILDER_ASSETS): run `make testbin` at the repository root\n", assets)
		return 1
	}
	env := &envtest.Environment{
		BinaryAssetsDirectory: assets,
		CRDDirectoryPaths:     []string{filepath.Join(root, "examples", "config", "crd")},
		ErrorIfCRDPathMissing: true,
	}
	restConfig, err = env.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting envtest:", err)
		return 1
	}
	code := m.Run()
	if err := env.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "stopping envtest:", err)
		return 1
	}
	return code
}

// repoRoot is the repository's root: the directory above the
// controllerruntime module's.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "controllerruntime", "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no repository root above the working directory")
		}
		dir = parent
	}
}

// startManager starts a manager running the operator (Setup) and returns
// its cached client and an API reader for fresh LISTs. The manager stops
// when the test ends.
func startManager(t *testing.T) (cached client.Client, fresh client.Reader) {
	t.Helper()
	mgr, err := ctrl.NewManager(restConfig, ctrl.Options{
		Scheme:  scheme,
		Metrics: metricsserver.Options{BindAddress: "0"},
		// Each test runs the operator in a manager of its own, in one process.
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := shopoperator.Setup(ctx, mgr); err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})
	if !mgr.GetCache().WaitForCacheSync(ctx) {
		t.Fatal("the manager's cache did not sync")
	}
	return mgr.GetClient(), mgr.GetAPIReader()
}

// newNamespace creates a namespace of its own for a test.
func newNamespace(t *testing.T, c client.Client) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "shop-"}}
	if err := c.Create(context.Background(), ns); err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

func widget(ns, name, color string, owner *shopv1.Shop) *shopv1.Widget {
	w := &shopv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       shopv1.WidgetSpec{Color: color, Size: 1},
	}
	if owner != nil {
		w.OwnerReferences = []metav1.OwnerReference{controllerRef(owner)}
	}
	return w
}

func controllerRef(shop *shopv1.Shop) metav1.OwnerReference {
	return metav1.OwnerReference{
		APIVersion: shopv1.SchemeGroupVersion.String(), Kind: "Shop",
		Name: shop.Name, UID: shop.UID, Controller: ptr.To(true),
	}
}

func keys(widgets []shopv1.Widget) []string {
	out := make([]string, 0, len(widgets))
	for _, w := range widgets {
		out = append(out, w.Namespace+"/"+w.Name)
	}
	slices.Sort(out)
	return out
}

// eventually polls cond until it returns "" (agreement) or 30 seconds
// pass, then fails with its last answer.
func eventually(t *testing.T, what string, cond func(ctx context.Context) (string, error)) {
	t.Helper()
	var last string
	err := wait.PollUntilContextTimeout(context.Background(), 50*time.Millisecond, 30*time.Second, true,
		func(ctx context.Context) (bool, error) {
			var err error
			last, err = cond(ctx)
			return last == "", err
		})
	if err != nil {
		t.Fatalf("%s: %v (last: %s)", what, err, last)
	}
}

// lookupsAgree compares generated List lookups, through the manager's cache,
// with what a fresh LIST of the namespace says each should find.
func lookupsAgree(cached client.Client, fresh client.Reader, ns string, shops []string, colors []string) func(ctx context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		var all shopv1.WidgetList
		if err := fresh.List(ctx, &all, client.InNamespace(ns)); err != nil {
			return "", err
		}
		var problems []string
		compare := func(name string, got []shopv1.Widget, keep func(*shopv1.Widget) bool) {
			var want []shopv1.Widget
			for i := range all.Items {
				if keep(&all.Items[i]) {
					want = append(want, all.Items[i])
				}
			}
			if g, w := keys(got), keys(want); !slices.Equal(g, w) {
				problems = append(problems, fmt.Sprintf("%s = %v, LIST says %v", name, g, w))
			}
		}
		for _, shop := range shops {
			got, err := shopindexes.ListWidgetsByShop(ctx, cached, shop, client.InNamespace(ns))
			if err != nil {
				return "", err
			}
			compare("ListWidgetsByShop("+shop+")", got, func(w *shopv1.Widget) bool {
				ref := metav1.GetControllerOf(w)
				return ref != nil && ref.Kind == "Shop" && ref.Name == shop
			})
		}
		for _, color := range colors {
			got, err := shopindexes.ListWidgetsByColor(ctx, cached, color, client.InNamespace(ns))
			if err != nil {
				return "", err
			}
			compare("ListWidgetsByColor("+color+")", got, func(w *shopv1.Widget) bool { return w.Spec.Color == color })
		}
		return strings.Join(problems, "; "), nil
	}
}

func TestLookupsAgreeWithFreshListsAndTheOperatorCounts(t *testing.T) {
	cached, fresh := startManager(t)
	ctx := context.Background()
	ns := newNamespace(t, cached)
	var shops []*shopv1.Shop
	for _, name := range []string{"north", "south"} {
		shop := &shopv1.Shop{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: shopv1.ShopSpec{Region: "eu"}}
		if err := cached.Create(ctx, shop); err != nil {
			t.Fatal(err)
		}
		shops = append(shops, shop)
	}
	north, south := shops[0], shops[1]
	for _, w := range []*shopv1.Widget{
		widget(ns, "a", "red", north), widget(ns, "b", "red", north), widget(ns, "c", "blue", south), widget(ns, "d", "blue", nil),
	} {
		if err := cached.Create(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	agree := lookupsAgree(cached, fresh, ns, []string{"north", "south"}, []string{"red", "blue", "green"})
	eventually(t, "after creates", agree)
	eventually(t, "widget counts after creates", shopCounts(fresh, ns, map[string]int32{"north": 2, "south": 1}))

	// An update that moves indexed values: b turns green and moves to south.
	var b shopv1.Widget
	if err := cached.Get(ctx, client.ObjectKey{Namespace: ns, Name: "b"}, &b); err != nil {
		t.Fatal(err)
	}
	b.Spec.Color = "green"
	b.OwnerReferences = []metav1.OwnerReference{controllerRef(south)}
	if err := cached.Update(ctx, &b); err != nil {
		t.Fatal(err)
	}
	eventually(t, "after an update", agree)
	eventually(t, "widget counts after an update", shopCounts(fresh, ns, map[string]int32{"north": 1, "south": 2}))

	if err := cached.Delete(ctx, &shopv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "c"}}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "after a delete", agree)
	eventually(t, "widget counts after a delete", shopCounts(fresh, ns, map[string]int32{"north": 1, "south": 1}))
}

// shopCounts checks the status.widgetCount of the namespace's Shops.
func shopCounts(fresh client.Reader, ns string, want map[string]int32) func(ctx context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		var shops shopv1.ShopList
		if err := fresh.List(ctx, &shops, client.InNamespace(ns)); err != nil {
			return "", err
		}
		var problems []string
		for _, s := range shops.Items {
			if s.Status.WidgetCount != want[s.Name] {
				problems = append(problems, fmt.Sprintf("%s counts %d, want %d", s.Name, s.Status.WidgetCount, want[s.Name]))
			}
		}
		return strings.Join(problems, "; "), nil
	}
}

func TestAConfigMapEventReconcilesTheWidgetsThatNameIt(t *testing.T) {
	cached, fresh := startManager(t)
	ctx := context.Background()
	ns := newNamespace(t, cached)
	w := widget(ns, "configured", "red", nil)
	w.Spec.ConfigRef = "settings"
	if err := cached.Create(ctx, w); err != nil {
		t.Fatal(err)
	}
	eventually(t, "Pending while the ConfigMap is missing", widgetPhase(fresh, ns, "configured", shopv1.WidgetPending))
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "settings"}}
	if err := cached.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	eventually(t, "Ready once the ConfigMap exists", widgetPhase(fresh, ns, "configured", shopv1.WidgetReady))
}

func widgetPhase(fresh client.Reader, ns, name string, want shopv1.WidgetPhase) func(ctx context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		var w shopv1.Widget
		if err := fresh.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &w); err != nil {
			return "", err
		}
		if w.Status.Phase != want {
			return fmt.Sprintf("phase %q, want %q", w.Status.Phase, want), nil
		}
		return "", nil
	}
}

func TestALookupWithoutSetupIndexesNamesTheMissingCall(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// A cache of its own, where nobody called SetupIndexes.
	c, err := cache.New(restConfig, cache.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = c.Start(ctx) }()
	if !c.WaitForCacheSync(ctx) {
		t.Fatal("cache did not sync")
	}
	apiReader, err := client.New(restConfig, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	for name, reader := range map[string]client.Reader{"a cache without the index": c, "an API reader": apiReader} {
		_, err := shopindexes.ListWidgetsByColor(ctx, reader, "red")
		if !fieldindex.IsMissingIndex(err) {
			t.Errorf("through %s: err = %v, want a *fieldindex.MissingIndexError", name, err)
			continue
		}
		if !strings.Contains(err.Error(), "shop/v1.SetupWidgetIndexes") || !strings.Contains(err.Error(), `"byColor"`) {
			t.Errorf("through %s: %q does not name the index and the call to make", name, err)
		}
	}
}
