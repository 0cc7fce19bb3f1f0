package informers

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// newPodInformer is what generated code passes to InformerFor; it records
// the settings it was given.
type recorded struct {
	namespace string
	resync    time.Duration
	tweaked   bool
}

func podInformerFunc(rec *recorded) NewInformerFunc[kubernetes.Interface, *corev1.Pod] {
	return func(client kubernetes.Interface, namespace string, resync time.Duration, tweak TweakListOptionsFunc) *cache.SharedIndexInformer[*corev1.Pod] {
		rec.namespace, rec.resync = namespace, resync
		if tweak != nil {
			var opts metav1.ListOptions
			tweak(&opts)
			rec.tweaked = opts.LabelSelector == "app=web"
		}
		pods := client.CoreV1().Pods(namespace)
		return cache.NewSharedIndexInformer(cache.NewListWatch[*corev1.Pod](pods.List, pods.Watch, client), cache.SharedIndexInformerOptions[*corev1.Pod]{ResyncPeriod: resync})
	}
}

// InformerFor creates one informer per type, with the factory's settings,
// and returns the same one afterwards.
func TestInformerForSharesOneInformerPerTypeWithTheFactorySettings(t *testing.T) {
	client := fake.NewClientset()
	f := NewFactory[kubernetes.Interface](client, time.Minute,
		WithNamespace("ns"),
		WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = "app=web" }),
		WithCustomResyncConfig(map[metav1.Object]time.Duration{&corev1.Pod{}: time.Hour}),
	)
	var rec recorded
	a := InformerFor(f, podInformerFunc(&rec))
	b := InformerFor(f, podInformerFunc(&recorded{}))
	if a != b {
		t.Fatal("InformerFor created a second informer for the same type")
	}
	if rec != (recorded{namespace: "ns", resync: time.Hour, tweaked: true}) {
		t.Fatalf("informer created with %+v", rec)
	}
	if f.Client() != kubernetes.Interface(client) || f.Namespace() != "ns" || f.TweakListOptions() == nil {
		t.Fatal("factory accessors do not return its settings")
	}
}

// Start runs the requested informers, WaitForCacheSync reports them synced,
// the factory's transform reaches the cache, and Shutdown returns once they
// stopped; Start after Shutdown does nothing.
func TestFactoryLifecycle(t *testing.T) {
	client := fake.NewClientset(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "p", Labels: map[string]string{"x": "y"}}})
	f := NewFactory[kubernetes.Interface](client, 0, WithTransform(func(obj any) (any, error) {
		p := obj.(*corev1.Pod)
		p.Labels = nil
		return p, nil
	}))
	inf := InformerFor(f, podInformerFunc(&recorded{}))
	ctx, cancel := context.WithCancel(context.Background())
	f.StartWithContext(ctx)
	f.StartWithContext(ctx) // a second Start starts nothing twice
	result := f.WaitForCacheSyncWithContext(ctx)
	if result.Err != nil || !result.Synced[reflect.TypeFor[*corev1.Pod]()] {
		t.Fatalf("WaitForCacheSync = %+v", result)
	}
	p, ok := inf.GetIndexer().Get(cache.ObjectName{Namespace: "a", Name: "p"})
	if !ok || p.Labels != nil {
		t.Fatalf("cached pod = %v, %v; want it transformed", p, ok)
	}
	cancel()
	f.Shutdown()
	if !inf.IsStopped() {
		t.Fatal("Shutdown returned before the informer stopped")
	}
	late := InformerFor(f, func(c kubernetes.Interface, ns string, r time.Duration, tw TweakListOptionsFunc) *cache.SharedIndexInformer[*corev1.ConfigMap] {
		cms := c.CoreV1().ConfigMaps(ns)
		return cache.NewSharedIndexInformer(cache.NewListWatch[*corev1.ConfigMap](cms.List, cms.Watch, c), cache.SharedIndexInformerOptions[*corev1.ConfigMap]{})
	})
	f.Start(make(chan struct{}))
	if late.HasSynced() || late.IsStopped() {
		t.Fatal("Start after Shutdown started an informer")
	}
}

// WaitForCacheSync gives up when its context ends, and says which informer
// has not synced.
func TestWaitForCacheSyncStopsWithItsContext(t *testing.T) {
	f := NewFactory[kubernetes.Interface](fake.NewClientset(), 0)
	InformerFor(f, podInformerFunc(&recorded{}))
	f.mu.Lock()
	f.started[reflect.TypeFor[*corev1.Pod]()] = true // counted as started, never run
	f.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	result := f.WaitForCacheSyncWithContext(ctx)
	if !errors.Is(result.Err, context.DeadlineExceeded) || result.Synced[reflect.TypeFor[*corev1.Pod]()] {
		t.Fatalf("WaitForCacheSync = %+v, want the deadline and an unsynced pod informer", result)
	}
}
