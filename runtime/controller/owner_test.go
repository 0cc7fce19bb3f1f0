package controller_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	kubefake "k8s.io/client-go/kubernetes/fake"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned/fake"
	shopcontrollers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/controllers/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/informers/externalversions"
	kubeinformers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions"
	kubelisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/fakewatch"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testwait"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/controller"
)

// counter is a Reconciler that counts the reconciles of each key.
type counter struct {
	mu     sync.Mutex
	counts map[cache.ObjectName]int
}

func (c *counter) Reconcile(_ context.Context, key cache.ObjectName) (controller.Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counts[key]++
	return controller.Result{}, nil
}

func (c *counter) count(key cache.ObjectName) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[key]
}

// controlledConfigMap is a ConfigMap with one owner reference to a Widget.
func controlledConfigMap(name, apiVersion, widget string, isController bool) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, OwnerReferences: []metav1.OwnerReference{{
		APIVersion: apiVersion, Kind: "Widget", Name: widget, UID: types.UID("uid-" + widget), Controller: &isController,
	}}}}
}

// "The Widget controlling this ConfigMap" has one definition: the index the
// generator writes for +index(owner: "shop.example.dev/Widget") (the
// examples' ConfigMap byWidget index) files a ConfigMap under a Widget
// exactly when a Widget controller's WatchOwned enqueues that Widget for it.
func TestTheGeneratedOwnerIndexAndWatchOwnedAgree(t *testing.T) {
	widgets := []runtime.Object{
		&shopv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "right"}},
		&shopv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "foreign"}},
		&shopv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "plain"}},
	}
	cases := []struct {
		cm     *corev1.ConfigMap
		widget string // the Widget the ConfigMap is filed under and enqueues, if any
	}{
		// Another group's kind of the same name: no Widget of ours.
		{controlledConfigMap("by-foreign", "other.example.dev/v1", "foreign", true), ""},
		// An owner that is not the controller.
		{controlledConfigMap("by-plain", "shop.example.dev/v1", "plain", false), ""},
		// The controller, a Widget of shop.example.dev.
		{controlledConfigMap("by-right", "shop.example.dev/v1", "right", true), "right"},
	}

	shopClient := fake.NewSimpleClientset(widgets...)
	kubeClient := kubefake.NewClientset()
	watching := []<-chan struct{}{fakewatch.Started(shopClient, "widgets"), fakewatch.Started(kubeClient, "configmaps")}
	shop := externalversions.NewSharedInformerFactory(shopClient, 0)
	kube := kubeinformers.NewSharedInformerFactory(kubeClient, 0)
	configMaps := kube.Core().V1().ConfigMaps()
	rec := &counter{counts: map[cache.ObjectName]int{}}
	c, err := shopcontrollers.NewWidgetController(shop, rec, controller.Options{SkipNameValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "widgets.v1.shop.example.dev"; c.Name() != want {
		t.Errorf("default name %q, want %q", c.Name(), want)
	}
	if err := controller.WatchOwned(c, configMaps.TypedInformer()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	runErr := make(chan error, 1)
	go func() { runErr <- c.Run(ctx) }()
	shop.Start(ctx.Done())
	kube.Start(ctx.Done())
	defer func() {
		cancel()
		if err := <-runErr; err != nil {
			t.Errorf("Run: %v", err)
		}
		shop.Shutdown()
		kube.Shutdown()
	}()
	for _, w := range watching {
		select {
		case <-w:
		case <-time.After(10 * time.Second):
			t.Fatal("the informers did not start watching")
		}
	}
	key := func(name string) cache.ObjectName { return cache.ObjectName{Namespace: "ns", Name: name} }
	for _, w := range []string{"right", "foreign", "plain"} {
		testwait.Until(t, 10*time.Second, w+" reconciled", func() bool { return rec.count(key(w)) == 1 })
	}

	// One informer handler and one worker keep the order: had a ConfigMap
	// created before by-right enqueued its Widget, that Widget would have
	// been reconciled before right's second reconcile.
	for _, tc := range cases {
		if _, err := kubeClient.CoreV1().ConfigMaps("ns").Create(context.Background(), tc.cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	testwait.Until(t, 10*time.Second, "right reconciled for its ConfigMap", func() bool { return rec.count(key("right")) == 2 })
	lister := configMaps.Lister()
	testwait.Until(t, 10*time.Second, "the ConfigMaps in the lister", func() bool {
		all, err := lister.ConfigMaps("ns").List(labels.Everything())
		return err == nil && len(all) == len(cases)
	})
	watchOwned := controller.MapToControllerOwner[*corev1.ConfigMap](shopv1.SchemeGroupVersion.WithKind("Widget").GroupKind(), true)
	for _, tc := range cases {
		t.Run(tc.cm.Name, func(t *testing.T) {
			var wantValues []string
			var wantKeys []cache.ObjectName
			wantReconciles := 1
			if tc.widget != "" {
				wantValues, wantKeys, wantReconciles = []string{tc.widget}, []cache.ObjectName{key(tc.widget)}, 2
			}
			if got := kubelisters.ConfigMapByWidget(tc.cm, nil); !slices.Equal(got, wantValues) {
				t.Errorf("the generated index function files it under %v, want %v", got, wantValues)
			}
			if got := watchOwned(context.Background(), tc.cm); !slices.Equal(got, wantKeys) {
				t.Errorf("WatchOwned's mapper enqueues %v, want %v", got, wantKeys)
			}
			owner := tc.cm.OwnerReferences[0].Name
			found, err := lister.ConfigMaps("ns").ByWidget(owner)
			if err != nil {
				t.Fatal(err)
			}
			if indexed := slices.ContainsFunc(found, func(cm *corev1.ConfigMap) bool { return cm.Name == tc.cm.Name }); indexed != (tc.widget != "") {
				t.Errorf("ByWidget(%s) finds it: %v, want %v", owner, indexed, tc.widget != "")
			}
			if n := rec.count(key(owner)); n != wantReconciles {
				t.Errorf("Widget %s reconciled %d times, want %d", owner, n, wantReconciles)
			}
		})
	}
}
