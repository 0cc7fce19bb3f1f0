package e2e

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientcache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/informers/externalversions"
	kubeinformers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/indexcheck"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/lookupcheck"
)

func newWidget(name, color string, size int32, images ...string) *shopv1.Widget {
	w := &shopv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"team": "t-" + color}},
		Spec:       shopv1.WidgetSpec{Color: color, Size: size},
	}
	for i, image := range images {
		w.Spec.Containers = append(w.Spec.Containers, shopv1.WidgetContainer{Name: fmt.Sprint("c", i), Image: image})
	}
	return w
}

func newPod(name, node string, owner *metav1.OwnerReference) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "main", Image: "registry.example/app:1"}}},
	}
	if owner != nil {
		p.OwnerReferences = []metav1.OwnerReference{*owner}
	}
	return p
}

// The generated Widget informer syncs from the API server, and every
// generated index lookup answers what a filter over a fresh LIST answers,
// after creates, status writes, updates that move indexed values, and
// deletes.
func TestGeneratedWidgetIndexesAgreeWithTheServer(t *testing.T) {
	c := newClients(t)
	ns := cluster.NewNamespace(t)
	ctx := t.Context()
	api := c.shop.ShopV1().Widgets(ns)

	w1 := newWidget("w1", "red", 3, "nginx", "busybox")
	w1.Spec.Nickname = ptr.To("nick")
	w2 := newWidget("w2", "red", 5, "nginx")
	w2.Spec.Placement = &shopv1.Placement{Zone: "z2", AlternateZones: []string{"z1"}}
	w2.Spec.ConfigRef = "settings"
	w2.OwnerReferences = []metav1.OwnerReference{{APIVersion: "shop.example.dev/v1", Kind: "Shop", Name: "s1", UID: "u1", Controller: ptr.To(true)}}
	w3 := newWidget("w3", "blue", 3)
	for _, w := range []*shopv1.Widget{w1, w2, w3} {
		created, err := api.Create(ctx, w, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w.ObjectMeta = created.ObjectMeta
	}
	w1.Status.Phase = shopv1.WidgetReady
	if _, err := api.UpdateStatus(ctx, w1, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}

	factory := externalversions.NewSharedInformerFactoryWithOptions(c.shop, 0, externalversions.WithNamespace(ns))
	lister := factory.Shop().V1().Widgets().Lister()
	startSynced(t, factory)
	agree := func() string {
		list, err := api.List(ctx, metav1.ListOptions{})
		if err != nil {
			return err.Error()
		}
		return lookupcheck.Disagreements(lister, lookupcheck.Widgets(ns), lookupcheck.Pointers(list.Items))
	}
	eventually(t, "after sync", agree)
	if got, _ := lister.ByPhaseColor("Ready", "red"); len(got) != 1 {
		t.Fatalf("ByPhaseColor(Ready, red) = %v, want w1", indexcheck.Keys(got))
	}

	moved, err := api.Get(ctx, "w1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	moved.Spec.Color = "blue"
	moved.Labels["team"] = "t-blue"
	moved.Spec.Containers = nil
	moved.Spec.Placement = &shopv1.Placement{Zone: "z1"}
	moved.Spec.ConfigRef = "settings"
	if _, err := api.Update(ctx, moved, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.Create(ctx, newWidget("w4", "red", 3, "nginx"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := api.Delete(ctx, "w2", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "after create, update and delete", func() string {
		if got, _ := lister.ByColor("red"); len(got) != 1 || got[0].Name != "w4" {
			return fmt.Sprintf("ByColor(red) = %v, want [w4]", indexcheck.Keys(got))
		}
		return agree()
	})
}

// The indexes declared for built-in types (examples/apis/kubeindexes) work
// on the generated informers of client-go's clientset against the server.
func TestGeneratedBuiltInIndexesAgreeWithTheServer(t *testing.T) {
	c := newClients(t)
	ns := cluster.NewNamespace(t)
	ctx := t.Context()
	api := c.kube.CoreV1().Pods(ns)
	rs := &metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs1", UID: "rs1-uid", Controller: ptr.To(true)}
	for _, p := range []*corev1.Pod{newPod("p1", "n1", rs), newPod("p2", "n1", nil), newPod("p3", "n2", rs)} {
		if _, err := api.Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	setPhase(ctx, t, api, "p1", corev1.PodRunning)

	factory := kubeinformers.NewSharedInformerFactoryWithOptions(c.kube, 0, kubeinformers.WithNamespace(ns))
	lister := factory.Core().V1().Pods().Lister()
	startSynced(t, factory)
	agree := func() string {
		list, err := api.List(ctx, metav1.ListOptions{})
		if err != nil {
			return err.Error()
		}
		return lookupcheck.Disagreements(lister, lookupcheck.Pods(ns), lookupcheck.Pointers(list.Items))
	}
	eventually(t, "after sync", agree)
	if got, _ := lister.Pods(ns).ByPhaseNode("Running", "n1"); len(got) != 1 {
		t.Fatalf("ByPhaseNode(Running, n1) = %v, want p1", indexcheck.Keys(got))
	}

	setPhase(ctx, t, api, "p3", corev1.PodRunning)
	setPhase(ctx, t, api, "p1", corev1.PodSucceeded)
	if err := api.Delete(ctx, "p2", metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.Create(ctx, newPod("p4", "n2", rs), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "after status writes, a delete and a create", func() string {
		if got, _ := lister.ByNode("n2"); len(got) != 2 {
			return fmt.Sprintf("ByNode(n2) = %v, want p3 and p4", indexcheck.Keys(got))
		}
		return agree()
	})
}

// informerFactory is what startSynced needs of a generated factory.
type informerFactory interface {
	StartWithContext(ctx context.Context)
	WaitForCacheSyncWithContext(ctx context.Context) clientcache.SyncResult
	Shutdown()
}

// startSynced starts the informers requested from factory until the test
// ends, and waits for them to sync.
func startSynced(t *testing.T, factory informerFactory) {
	t.Helper()
	factory.StartWithContext(t.Context())
	t.Cleanup(factory.Shutdown) // runs after t.Context() ends
	if res := factory.WaitForCacheSyncWithContext(t.Context()); res.Err != nil {
		t.Fatal(res.Err)
	}
}

// setPhase writes a pod's status.phase through the status subresource.
func setPhase(ctx context.Context, t *testing.T, api interface {
	Get(context.Context, string, metav1.GetOptions) (*corev1.Pod, error)
	UpdateStatus(context.Context, *corev1.Pod, metav1.UpdateOptions) (*corev1.Pod, error)
}, name string, phase corev1.PodPhase) {
	t.Helper()
	p, err := api.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p.Status.Phase = phase
	if _, err := api.UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}
