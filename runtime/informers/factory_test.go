package informers

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

// recorded is what podInformerFunc was given.
type recorded struct {
	namespace string
	resync    time.Duration
	tweaked   bool
}

// podInformerFunc is what a generated informer passes to InformerFor: it
// builds the informer with NewInformer and records the settings it got.
func podInformerFunc(f *Factory, client kubernetes.Interface, rec *recorded) func(time.Duration) clientcache.SharedIndexInformer {
	return func(resync time.Duration) clientcache.SharedIndexInformer {
		rec.namespace, rec.resync = f.Namespace(), resync
		if tweak := f.TweakListOptions(); tweak != nil {
			var opts metav1.ListOptions
			tweak(&opts)
			rec.tweaked = opts.LabelSelector == "app=web"
		}
		pods := client.CoreV1().Pods(f.Namespace())
		return NewInformer[*corev1.Pod](pods.List, pods.Watch, client, podsGVR, InformerOptions{
			ResyncPeriod:     resync,
			TweakListOptions: f.TweakListOptions(),
			InformerName:     f.InformerName(),
		})
	}
}

// InformerFor creates one informer per type, with the factory's settings,
// and returns the same one afterwards.
func TestInformerForSharesOneInformerPerTypeWithTheFactorySettings(t *testing.T) {
	client := fake.NewClientset()
	f := NewFactory(time.Minute,
		WithNamespace("ns"),
		WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = "app=web" }),
		WithCustomResyncConfig(map[metav1.Object]time.Duration{&corev1.Pod{}: time.Hour}),
	)
	var rec recorded
	a := f.InformerFor(&corev1.Pod{}, podInformerFunc(f, client, &rec))
	b := f.InformerFor(&corev1.Pod{}, podInformerFunc(f, client, &recorded{}))
	if a != b {
		t.Fatal("InformerFor created a second informer for the same type")
	}
	if rec != (recorded{namespace: "ns", resync: time.Hour, tweaked: true}) {
		t.Fatalf("informer created with %+v", rec)
	}
	if _, ok := a.(*cache.SharedIndexInformer[*corev1.Pod]); !ok {
		t.Fatalf("InformerFor returned a %T", a)
	}
}

// Start runs the requested informers, WaitForCacheSync reports them synced,
// the factory's transform reaches the cache, and Shutdown returns once they
// stopped; Start after Shutdown does nothing.
func TestFactoryLifecycle(t *testing.T) {
	client := fake.NewClientset(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "p", Labels: map[string]string{"x": "y"}}})
	f := NewFactory(0, WithTransform(func(obj any) (any, error) {
		p := obj.(*corev1.Pod)
		p.Labels = nil
		return p, nil
	}))
	inf := f.InformerFor(&corev1.Pod{}, podInformerFunc(f, client, &recorded{}))
	ctx, cancel := context.WithCancel(context.Background())
	f.StartWithContext(ctx)
	f.StartWithContext(ctx) // a second Start starts nothing twice
	result := f.WaitForCacheSyncWithContext(ctx)
	if result.Err != nil || !result.Synced[reflect.TypeFor[*corev1.Pod]()] {
		t.Fatalf("WaitForCacheSync = %+v", result)
	}
	p, ok, err := inf.GetIndexer().GetByKey("a/p")
	if err != nil || !ok || p.(*corev1.Pod).Labels != nil {
		t.Fatalf("cached pod = %v, %v, %v; want it transformed", p, ok, err)
	}
	cancel()
	f.Shutdown()
	if !inf.IsStopped() {
		t.Fatal("Shutdown returned before the informer stopped")
	}
	late := f.InformerFor(&corev1.ConfigMap{}, func(resync time.Duration) clientcache.SharedIndexInformer {
		cms := client.CoreV1().ConfigMaps("")
		return NewInformer[*corev1.ConfigMap](cms.List, cms.Watch, client, schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, InformerOptions{ResyncPeriod: resync})
	})
	f.Start(make(chan struct{}))
	if late.HasSynced() || late.IsStopped() {
		t.Fatal("Start after Shutdown started an informer")
	}
}

// The factory holds client-go's own informers as well as this module's.
func TestFactoryHoldsClientGoInformers(t *testing.T) {
	client := fake.NewClientset(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "c"}})
	f := NewFactory(0)
	inf := f.InformerFor(&corev1.ConfigMap{}, func(resync time.Duration) clientcache.SharedIndexInformer {
		cms := client.CoreV1().ConfigMaps("")
		lw := clientcache.ToListWatcherWithWatchListSemantics(&clientcache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
				return cms.List(ctx, o)
			},
			WatchFuncWithContext: cms.Watch,
		}, client)
		return clientcache.NewSharedIndexInformer(lw, &corev1.ConfigMap{}, resync, clientcache.Indexers{})
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); f.Shutdown() }()
	f.StartWithContext(ctx)
	if err := f.WaitForCacheSyncWithContext(ctx).AsError(); err != nil {
		t.Fatal(err)
	}
	if keys := inf.GetStore().ListKeys(); len(keys) != 1 || keys[0] != "a/c" {
		t.Fatalf("client-go informer holds %v", keys)
	}
}

// NewInformer applies the tweak to every request and adds the indexers given,
// reporting (not failing on) one it cannot add.
func TestNewInformerOptions(t *testing.T) {
	client := fake.NewClientset(
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "web", Labels: map[string]string{"app": "web"}}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "db", Labels: map[string]string{"app": "db"}}},
	)
	pods := client.CoreV1().Pods("")
	inf := NewInformer[*corev1.Pod](pods.List, pods.Watch, client, podsGVR, InformerOptions{
		TweakListOptions: func(o *metav1.ListOptions) { o.LabelSelector = "app=web" },
		Indexers: clientcache.Indexers{
			"byApp":                    func(obj any) ([]string, error) { return []string{obj.(*corev1.Pod).Labels["app"]}, nil },
			clientcache.NamespaceIndex: clientcache.MetaNamespaceIndexFunc,
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); inf.RunWithContext(ctx) }()
	defer func() { cancel(); <-done }()
	if !clientcache.WaitFor(ctx, "pods", inf.HasSyncedChecker()) {
		t.Fatal("informer did not sync")
	}
	web, err := inf.GetIndexer().ByIndex("byApp", "web")
	if err != nil || len(web) != 1 {
		t.Fatalf("ByIndex(byApp, web) = %v, %v", web, err)
	}
	if keys := inf.GetStore().ListKeys(); len(keys) != 1 || keys[0] != "a/web" {
		t.Fatalf("the tweak did not reach the list: store holds %v", keys)
	}
	inNS, err := inf.GetIndexer().ByIndex(clientcache.NamespaceIndex, "a")
	if err != nil || len(inNS) != 1 {
		t.Fatalf("ByIndex(namespace, a) = %v, %v", inNS, err)
	}
}

// WaitForCacheSync gives up when its context ends, and says which informer
// has not synced.
func TestWaitForCacheSyncStopsWithItsContext(t *testing.T) {
	client := fake.NewClientset()
	f := NewFactory(0)
	f.InformerFor(&corev1.Pod{}, podInformerFunc(f, client, &recorded{}))
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
