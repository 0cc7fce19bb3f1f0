package generated_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/ptr"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned/fake"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/informers/externalversions"
	kubeinformers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions"
	kubelisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/fakewatch"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/indexcheck"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/lookupcheck"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testwait"
)

func widget(ns, name, color string, size int32, images ...string) *shopv1.Widget {
	w := &shopv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"team": "t-" + color}},
		Spec:       shopv1.WidgetSpec{Color: color, Size: size},
	}
	for i, image := range images {
		w.Spec.Containers = append(w.Spec.Containers, shopv1.WidgetContainer{Name: fmt.Sprint("c", i), Image: image})
	}
	return w
}

// eventually polls check until it returns "" or 10 s pass.
func eventually(t *testing.T, what string, check func() string) {
	t.Helper()
	testwait.For(t, 10*time.Second, what, check)
}

// The generated factory, informers and listers sync from client-gen's fake
// clientset, and every index lookup answers what a filter over a fresh LIST
// answers, before and after watch-driven creates, updates that move indexed
// values, and deletes.
func TestGeneratedWidgetIndexesFollowTheServer(t *testing.T) {
	w1 := widget("a", "w1", "red", 3, "nginx", "busybox")
	w1.Status.Phase = "Ready"
	w1.Spec.Nickname = ptr.To("nick")
	w2 := widget("b", "w2", "red", 5, "nginx")
	w2.Spec.Placement = &shopv1.Placement{Zone: "z2", AlternateZones: []string{"z1"}}
	w2.OwnerReferences = []metav1.OwnerReference{{APIVersion: "shop.example.dev/v1", Kind: "Shop", Name: "s1", UID: "u1", Controller: ptr.To(true)}}
	w3 := widget("a", "w3", "blue", 3)
	client := fake.NewSimpleClientset(w1, w2, w3)
	started := fakewatch.Started(client, "widgets")

	factory := externalversions.NewSharedInformerFactory(client, 0)
	widgets := factory.Shop().V1().Widgets()
	lister := widgets.Lister()
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); factory.Shutdown() }()
	factory.Start(ctx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Fatalf("%v did not sync", typ)
		}
	}
	<-started

	agree := func() string {
		list, err := client.ShopV1().Widgets("").List(ctx, metav1.ListOptions{})
		if err != nil {
			return err.Error()
		}
		return lookupcheck.Disagreements(lister, lookupcheck.Widgets("a"), lookupcheck.Pointers(list.Items))
	}
	eventually(t, "after sync", agree)
	if got, _ := lister.ByColor("red"); len(got) != 2 {
		t.Fatalf("ByColor(red) after sync = %v, want w1 and w2", indexcheck.Keys(got))
	}

	moved := w1.DeepCopy()
	moved.Spec.Color = "blue"
	moved.Labels["team"] = "t-blue"
	moved.Spec.Containers = nil
	moved.Spec.Placement = &shopv1.Placement{Zone: "z1"}
	if _, err := client.ShopV1().Widgets("a").Update(ctx, moved, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.ShopV1().Widgets("c").Create(ctx, widget("c", "w4", "red", 3, "nginx"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := client.ShopV1().Widgets("b").Delete(ctx, "w2", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "after create, update and delete", func() string {
		if got, _ := lister.ByColor("red"); !slices.Equal(indexcheck.Keys(got), []string{"c/w4"}) {
			return fmt.Sprintf("ByColor(red) = %v, want [c/w4]", indexcheck.Keys(got))
		}
		return agree()
	})
	if got, err := lister.Widgets("a").Get("w1"); err != nil || got.Spec.Color != "blue" {
		t.Fatalf("Get(a/w1) = %v, %v", got, err)
	}
	if _, err := factory.ForResource(shopv1.SchemeGroupVersion.WithResource("widgets")); err != nil {
		t.Errorf("ForResource(widgets): %v", err)
	}
	if _, err := factory.ForResource(shopv1.SchemeGroupVersion.WithResource("gadgets")); err == nil {
		t.Error("ForResource(gadgets): no error")
	}
}

// Indexes declared for built-in types (examples/apis/kubeindexes) work on an
// informer over client-go's clientset.
func TestGeneratedBuiltInIndexes(t *testing.T) {
	pod := func(ns, name, node string, phase corev1.PodPhase) runtime.Object {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: corev1.PodSpec{NodeName: node}, Status: corev1.PodStatus{Phase: phase}}
	}
	client := kubefake.NewClientset(pod("a", "p1", "n1", corev1.PodRunning), pod("b", "p2", "n1", corev1.PodPending), pod("a", "p3", "n2", corev1.PodRunning))
	started := fakewatch.Started(client, "pods")
	factory := kubeinformers.NewSharedInformerFactory(client, 0)
	pods := factory.Core().V1().Pods().Lister()
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); factory.Shutdown() }()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	<-started

	check := func(what string, got []*corev1.Pod, err error, want ...string) string {
		if err != nil {
			return err.Error()
		}
		if g := indexcheck.Keys(got); !slices.Equal(g, want) && len(g)+len(want) > 0 {
			return fmt.Sprintf("%s = %v, want %v", what, g, want)
		}
		return ""
	}
	eventually(t, "after sync", func() string {
		got, err := pods.ByNode("n1")
		return check("ByNode(n1)", got, err, "a/p1", "b/p2")
	})
	got, err := pods.Pods("a").ByPhaseNode("Running", "n1")
	if msg := check("a: ByPhaseNode(Running, n1)", got, err, "a/p1"); msg != "" {
		t.Fatal(msg)
	}
	if err := client.CoreV1().Pods("a").Delete(ctx, "p1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "after delete", func() string {
		got, err := pods.ByNode("n1")
		return check("ByNode(n1)", got, err, "b/p2")
	})
	var _ kubelisters.PodLister = pods
}
