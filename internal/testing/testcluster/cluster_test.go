package testcluster

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
)

// cluster is the cluster the tests of this package share (TestMain).
var cluster *Cluster

// helperEnv, when set, makes the test binary a helper process of
// TestNoProcessOutlivesTheTestBinary instead of running the tests.
const helperEnv = "TESTCLUSTER_HELPER"

// helperDirEnv names the directory of the helper's cluster.
const helperDirEnv = "TESTCLUSTER_HELPER_DIR"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(m.Run())
	}
	os.Exit(Main(m, &cluster, Options{}))
}

// crdDir is the directory of the example APIs' CRDs.
var crdDir = filepath.Join("..", "..", "..", "examples", "config", "crd")

func kubeClient(t *testing.T, c *Cluster) kubernetes.Interface {
	t.Helper()
	cs, err := kubernetes.NewForConfig(c.Config())
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestConfigMapCreateAndList(t *testing.T) {
	ctx := t.Context()
	cs := kubeClient(t, cluster)
	ns := cluster.NewNamespace(t)
	for i := range 3 {
		cm := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i), Labels: map[string]string{"app": "test"}},
			Data:       map[string]string{"i": strconv.Itoa(i)},
		}
		if _, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=test"})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 3 {
		t.Fatalf("listed %d ConfigMaps in %s, want 3", len(list.Items), ns)
	}
	for i, cm := range list.Items {
		if want := fmt.Sprintf("cm-%d", i); cm.Name != want || cm.Data["i"] != strconv.Itoa(i) {
			t.Errorf("item %d: %s %v, want %s", i, cm.Name, cm.Data, want)
		}
	}
}

func TestNamespacesAreUnique(t *testing.T) {
	a, b := cluster.NewNamespace(t), cluster.NewNamespace(t)
	if a == b {
		t.Fatalf("two namespaces named %s", a)
	}
	if !strings.HasPrefix(a, "testnamespacesareunique-") {
		t.Errorf("namespace %s is not named after the test", a)
	}
}

func TestRestartAPIServer(t *testing.T) {
	ctx := t.Context()
	cs := kubeClient(t, cluster)
	ns := cluster.NewNamespace(t)
	cm, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "survivor"},
		Data:       map[string]string{"k": "v"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := cs.CoreV1().ConfigMaps(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: cm.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	start := time.Now()
	if err := cluster.RestartAPIServer(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("kube-apiserver restarted in %v", time.Since(start).Round(time.Millisecond))

	// The watch open across the restart has ended.
	select {
	case _, ok := <-w.ResultChan():
		for ok {
			_, ok = <-w.ResultChan()
		}
	case <-time.After(30 * time.Second):
		t.Error("a watch open across the restart did not end")
	}
	// The same client (same config) reads what was written before.
	got, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, "survivor", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Data["k"] != "v" || got.UID != cm.UID {
		t.Errorf("after the restart: %v (uid %s), want k=v (uid %s)", got.Data, got.UID, cm.UID)
	}
	if _, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "after"}}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("writing after the restart: %v", err)
	}
}

func TestCompactExpiresOldResourceVersions(t *testing.T) {
	ctx := t.Context()
	cs := kubeClient(t, cluster)
	ns := cluster.NewNamespace(t)
	cms := cs.CoreV1().ConfigMaps(ns)
	cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	oldRV := cm.ResourceVersion
	cm.Data = map[string]string{"changed": "yes"}
	if _, err = cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}

	// Before compaction, a watch from the old resourceVersion sees the
	// update.
	w, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: oldRV})
	if err != nil {
		t.Fatal(err)
	}
	ev := nextEvent(t, w)
	w.Stop()
	if ev.Type != watch.Modified {
		t.Fatalf("watch from %s before compaction: %s event, want MODIFIED", oldRV, ev.Type)
	}

	// One more write, so that the compaction revision is past the update:
	// a watch from oldRV starts at the update's revision, which etcd still
	// serves when it is the compaction revision itself (its previous value
	// gone, which kube-apiserver reports as an internal error, not 410).
	later, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "later"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rev, err := cluster.Compact(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if cur, _ := strconv.ParseInt(later.ResourceVersion, 10, 64); rev < cur {
		t.Errorf("compacted at revision %d, before the last write (%d)", rev, cur)
	}
	// Compacting again, with nothing written in between, is fine.
	if _, err := cluster.Compact(ctx); err != nil {
		t.Fatalf("second Compact: %v", err)
	}

	// A watch from the old resourceVersion now gets 410 Gone, either as
	// the answer to the request or as an ERROR event.
	w, err = cms.Watch(ctx, metav1.ListOptions{ResourceVersion: oldRV})
	if err != nil {
		if !expired(err) {
			t.Fatalf("watch from %s after compaction: %v, want 410 Gone", oldRV, err)
		}
	} else {
		ev := nextEvent(t, w)
		w.Stop()
		if ev.Type != watch.Error {
			t.Fatalf("watch from %s after compaction: %s event %v, want an ERROR event", oldRV, ev.Type, ev.Object)
		}
		if err := apierrors.FromObject(ev.Object); !expired(err) {
			t.Fatalf("watch from %s after compaction: %v, want 410 Gone", oldRV, err)
		}
		t.Logf("watch from %s after compaction: %v", oldRV, apierrors.FromObject(ev.Object))
	}

	// So does a list at exactly the old resourceVersion.
	_, err = cms.List(ctx, metav1.ListOptions{ResourceVersion: oldRV, ResourceVersionMatch: metav1.ResourceVersionMatchExact})
	if !expired(err) {
		t.Fatalf("list at %s after compaction: %v, want 410 Gone", oldRV, err)
	}

	// A watch from the current resourceVersion still works.
	w, err = cms.Watch(ctx, metav1.ListOptions{ResourceVersion: later.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if err := cms.Delete(ctx, "c", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if ev := nextEvent(t, w); ev.Type != watch.Deleted {
		t.Fatalf("watch from the current resourceVersion: %s event, want DELETED", ev.Type)
	}
}

// expired tells whether err is a 410 Gone for a too old resourceVersion.
func expired(err error) bool {
	return apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}

// nextEvent returns the next event of w, failing the test when none comes
// within 30 seconds or the watch ends.
func nextEvent(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("the watch ended without an event")
		}
		return ev
	case <-time.After(30 * time.Second):
		t.Fatal("no watch event within 30s")
	}
	panic("unreachable")
}

func TestInstallCRDs(t *testing.T) {
	ctx := t.Context()
	start := time.Now()
	if err := cluster.InstallCRDs(ctx, crdDir); err != nil {
		t.Fatal(err)
	}
	t.Logf("CRDs installed and served in %v", time.Since(start).Round(time.Millisecond))
	// Installing again (an update) is fine.
	if err := cluster.InstallCRDs(ctx, crdDir); err != nil {
		t.Fatalf("second InstallCRDs: %v", err)
	}

	dyn, err := dynamic.NewForConfig(cluster.Config())
	if err != nil {
		t.Fatal(err)
	}
	ns := cluster.NewNamespace(t)

	// A cluster-scoped Shop and a namespaced Widget of shop.example.dev/v1.
	shops := dyn.Resource(schema.GroupVersionResource{Group: "shop.example.dev", Version: "v1", Resource: "shops"})
	shop := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "shop.example.dev/v1",
		"kind":       "Shop",
		"metadata":   map[string]any{"name": ns + "-shop"},
		"spec":       map[string]any{"region": "eu", "displayName": "Test shop"},
	}}
	shop, err = shops.Create(ctx, shop, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = shops.Delete(context.Background(), shop.GetName(), metav1.DeleteOptions{}) })

	widgets := dyn.Resource(schema.GroupVersionResource{Group: "shop.example.dev", Version: "v1", Resource: "widgets"})
	widget := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "shop.example.dev/v1",
		"kind":       "Widget",
		"metadata": map[string]any{
			"name":   "w1",
			"labels": map[string]any{"team": "blue"},
			"ownerReferences": []any{map[string]any{
				"apiVersion": "shop.example.dev/v1", "kind": "Shop", "name": shop.GetName(),
				"uid": string(shop.GetUID()), "controller": true,
			}},
		},
		"spec": map[string]any{
			"color":      "red",
			"sku":        "W-1",
			"size":       int64(3),
			"containers": []any{map[string]any{"name": "main", "image": "example/widget:1"}},
		},
		"status": map[string]any{"phase": "Ready"},
	}}
	created, err := widgets.Namespace(ns).Create(ctx, widget, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if color, _, _ := unstructured.NestedString(created.Object, "spec", "color"); color != "red" {
		t.Errorf("spec.color = %q, want red", color)
	}
	// status is a subresource: create ignores it, UpdateStatus sets it.
	if _, found, _ := unstructured.NestedFieldNoCopy(created.Object, "status", "phase"); found {
		t.Errorf("create set status: %v", created.Object["status"])
	}
	_ = unstructured.SetNestedField(created.Object, "Ready", "status", "phase")
	updated, err := widgets.Namespace(ns).UpdateStatus(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if phase, _, _ := unstructured.NestedString(updated.Object, "status", "phase"); phase != "Ready" {
		t.Errorf("status.phase after UpdateStatus = %q, want Ready", phase)
	}

	// The schema is enforced: spec.color is required.
	bad := widget.DeepCopy()
	bad.SetName("no-color")
	unstructured.RemoveNestedField(bad.Object, "spec", "color")
	if _, err := widgets.Namespace(ns).Create(ctx, bad, metav1.CreateOptions{}); !apierrors.IsInvalid(err) {
		t.Errorf("creating a Widget without spec.color: %v, want Invalid", err)
	}

	// Every version of every example kind is served.
	for _, gvr := range []schema.GroupVersionResource{
		{Group: "shop.example.dev", Version: "v1alpha1", Resource: "widgets"},
		{Group: "shop.example.dev", Version: "v1alpha1", Resource: "shops"},
		{Group: "fleet.example.dev", Version: "v1", Resource: "vehicles"},
		{Group: "fleet.example.dev", Version: "v2beta1", Resource: "vehicles"},
		{Group: "fleet.example.dev", Version: "v1", Resource: "depots"},
		{Group: "fleet.example.dev", Version: "v2beta1", Resource: "depots"},
		{Group: "fleet.example.dev", Version: "v1", Resource: "trips"},
		{Group: "fleet.example.dev", Version: "v1", Resource: "routes"},
	} {
		if _, err := dyn.Resource(gvr).List(ctx, metav1.ListOptions{}); err != nil {
			t.Errorf("listing %s: %v", gvr, err)
		}
	}
	// The v1 Widget reads back through v1alpha1 (same storage).
	old, err := dyn.Resource(schema.GroupVersionResource{Group: "shop.example.dev", Version: "v1alpha1", Resource: "widgets"}).
		Namespace(ns).Get(ctx, "w1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if color, _, _ := unstructured.NestedString(old.Object, "spec", "color"); color != "red" {
		t.Errorf("v1alpha1 spec.color = %q, want red", color)
	}
}

// TestWatchCache runs a cluster of its own with the watch cache on: a
// watch from before a restart of kube-apiserver gets 410 Gone, since the
// restarted watch cache starts at the current revision.
func TestWatchCache(t *testing.T) {
	c := StartForTest(t, Options{WatchCache: true})
	ctx := t.Context()
	cms := kubeClient(t, c).CoreV1().ConfigMaps(c.NewNamespace(t))
	cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cm.Data = map[string]string{"changed": "yes"}
	if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := c.RestartAPIServer(ctx); err != nil {
		t.Fatal(err)
	}
	w, err := cms.Watch(ctx, metav1.ListOptions{ResourceVersion: cm.ResourceVersion})
	if err != nil {
		if !expired(err) {
			t.Fatalf("watch from before the restart: %v, want 410 Gone", err)
		}
		return
	}
	defer w.Stop()
	ev := nextEvent(t, w)
	if ev.Type != watch.Error || !expired(apierrors.FromObject(ev.Object)) {
		t.Fatalf("watch from before the restart: %s event %v, want 410 Gone", ev.Type, ev.Object)
	}
}

func TestMissingBinariesSayWhatToRun(t *testing.T) {
	_, err := Start(t.Context(), Options{BinDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "make testbin") {
		t.Fatalf("Start without binaries: %v, want an error that says to run make testbin", err)
	}
}

func TestNamespacePrefix(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"TestFoo", "testfoo-"},
		{"TestFoo/sub_test#01", "testfoo-sub-test-01-"},
		{"__", "test-"},
		{strings.Repeat("a", 100), strings.Repeat("a", 57) + "-"},
	} {
		if got := namespacePrefix(tc.in); got != tc.want {
			t.Errorf("namespacePrefix(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestNoProcessOutlivesTheTestBinary runs a test binary that starts a
// cluster and then panics, once with the cluster stopped by t.Cleanup
// (StartForTest) and once with nothing to stop it (Start), and checks that
// neither etcd nor kube-apiserver outlives the binary.
func TestNoProcessOutlivesTheTestBinary(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the parent death signal is Linux-only")
	}
	for _, mode := range []string{"cleanup", "panic"} {
		t.Run(mode, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
			// The cluster's directory is the parent's, since the
			// helper dies without removing it.
			cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperDirEnv+"="+t.TempDir())
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the helper did not fail:\n%s", out)
			}
			var pids []int
			s := bufio.NewScanner(strings.NewReader(string(out)))
			for s.Scan() {
				if rest, ok := strings.CutPrefix(s.Text(), "PIDS "); ok {
					for _, f := range strings.Fields(rest) {
						pid, _ := strconv.Atoi(f)
						pids = append(pids, pid)
					}
				}
			}
			if len(pids) != 2 {
				t.Fatalf("the helper printed no PIDS line:\n%s", out)
			}
			deadline := time.Now().Add(10 * time.Second)
			for _, pid := range pids {
				for !processGone(pid) {
					if time.Now().After(deadline) {
						t.Fatalf("process %d outlived the test binary", pid)
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
		})
	}
}

// TestHelperProcess is the helper of TestNoProcessOutlivesTheTestBinary;
// it does nothing in a normal run.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	var c *Cluster
	switch mode {
	case "":
		return
	case "cleanup":
		c = StartForTest(t, Options{Dir: os.Getenv(helperDirEnv)})
	case "panic":
		var err error
		if c, err = Start(t.Context(), Options{Dir: os.Getenv(helperDirEnv)}); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Printf("PIDS %d %d\n", c.etcd.cmd.Process.Pid, c.apiserver.cmd.Process.Pid)
	panic("the test panics with a cluster running")
}

// processGone tells whether pid no longer runs (it does not exist, or is
// a zombie waiting for a parent that is not this process to reap it).
func processGone(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// pid (comm) state ...: the state follows the last ')'.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X')
}
