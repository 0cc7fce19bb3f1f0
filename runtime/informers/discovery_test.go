package informers

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery/discoverytest"
)

var (
	configMapsGVR = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	podType       = reflect.TypeFor[*corev1.Pod]()
	configMapType = reflect.TypeFor[*corev1.ConfigMap]()
	secretType    = reflect.TypeFor[*corev1.Secret]()
)

// fastDiscovery polls and rechecks every few milliseconds.
func fastDiscovery(mode discovery.Mode) discovery.Options {
	return discovery.Options{
		Mode:            mode,
		Backoff:         wait.Backoff{Duration: time.Millisecond, Factor: 2, Steps: 100, Cap: 20 * time.Millisecond},
		RecheckInterval: 5 * time.Millisecond,
	}
}

// discoveryFactory is a factory with discovery over server, holding a pod
// and a ConfigMap informer built by NewInformer (which know their resource)
// and a client-go Secret informer (which does not), over client.
func discoveryFactory(t *testing.T, client kubernetes.Interface, server *discoverytest.Server, opts discovery.Options) (*Factory, context.Context) {
	f := NewFactory(0, WithDiscoveryOptions(server, opts))
	f.InformerFor(&corev1.Pod{}, podInformerFunc(f, client, &recorded{}))
	f.InformerFor(&corev1.ConfigMap{}, func(resync time.Duration) clientcache.SharedIndexInformer {
		cms := client.CoreV1().ConfigMaps("")
		return NewInformer[*corev1.ConfigMap](cms.List, cms.Watch, client, configMapsGVR, InformerOptions{ResyncPeriod: resync})
	})
	f.InformerFor(&corev1.Secret{}, func(resync time.Duration) clientcache.SharedIndexInformer {
		secrets := client.CoreV1().Secrets("")
		lw := clientcache.ToListWatcherWithWatchListSemantics(&clientcache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
				return secrets.List(ctx, o)
			},
			WatchFuncWithContext: secrets.Watch,
		}, client)
		return clientcache.NewSharedIndexInformer(lw, &corev1.Secret{}, resync, clientcache.Indexers{})
	})
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(func() { cancel(); f.Shutdown() })
	return f, ctx
}

// objects are one object of each informer's type.
func objects() []runtime.Object {
	return []runtime.Object{
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "p"}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "c"}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "s"}},
	}
}

// states returns the state of every informer of f.
func states(f *Factory) map[reflect.Type]discovery.State {
	out := map[reflect.Type]discovery.State{}
	for key, st := range f.SyncStatus() {
		out[key] = st.State
	}
	return out
}

// eventually polls cond every millisecond until it holds or 10 s pass.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// FailFast: the informer of a resource the server does not serve is not
// started, StartError names it, WaitForCacheSync returns at once with it
// false and an error saying why; the others (the client-go informer, which
// tells no resource, included) start and sync.
func TestFactoryDiscoveryFailFast(t *testing.T) {
	server := discoverytest.NewServer().Serve(podsGVR)
	f, ctx := discoveryFactory(t, fake.NewClientset(objects()...), server, fastDiscovery(discovery.FailFast))
	f.StartWithContext(ctx)
	err := f.StartError()
	if !errors.Is(err, discovery.ErrNotServed) || !strings.Contains(err.Error(), "configmaps.v1") || strings.Contains(err.Error(), "pods") {
		t.Fatalf("StartError() = %v, want configmaps named, not pods", err)
	}
	result := f.WaitForCacheSyncWithContext(ctx) // must not block on configmaps
	want := map[reflect.Type]bool{podType: true, secretType: true, configMapType: false}
	if !reflect.DeepEqual(result.Synced, want) || !errors.Is(result.Err, discovery.ErrNotServed) || !strings.Contains(result.Err.Error(), "configmaps.v1") {
		t.Fatalf("WaitForCacheSync = %+v, want %v and an error naming configmaps", result, want)
	}
	if errors.Is(result.Err, context.Canceled) {
		t.Errorf("Err %v holds a context error while the context is live", result.Err)
	}
	st := f.SyncStatus()
	if st[configMapType].State != discovery.Missing || st[configMapType].Resource != configMapsGVR ||
		st[podType].State != discovery.Synced || st[secretType].State != discovery.Synced || !st[secretType].Resource.Empty() {
		t.Fatalf("SyncStatus() = %v", st)
	}
	if f.informers[configMapType].HasSynced() {
		t.Fatal("the ConfigMap informer ran")
	}

	// A later Start, once the server serves ConfigMaps, starts it.
	server.Serve(configMapsGVR)
	f.StartWithContext(ctx)
	if err := f.StartError(); err != nil {
		t.Fatalf("StartError() after a Start that started everything = %v", err)
	}
	if err := f.WaitForCacheSyncWithContext(ctx).AsError(); err != nil {
		t.Fatal(err)
	}
}

// Skip: the informer is not started and reported Skipped, with no
// StartError; WaitForCacheSync returns at once with it false.
func TestFactoryDiscoverySkip(t *testing.T) {
	server := discoverytest.NewServer().Serve(podsGVR)
	f, ctx := discoveryFactory(t, fake.NewClientset(objects()...), server, fastDiscovery(discovery.Skip))
	f.StartWithContext(ctx)
	if err := f.StartError(); err != nil {
		t.Fatalf("StartError() = %v in Skip mode", err)
	}
	synced := f.WaitForCacheSync(ctx.Done())
	if want := (map[reflect.Type]bool{podType: true, secretType: true, configMapType: false}); !reflect.DeepEqual(synced, want) {
		t.Fatalf("WaitForCacheSync = %v, want %v", synced, want)
	}
	if got := f.SyncStatus()[configMapType]; got.State != discovery.Skipped || !errors.Is(got.Err, discovery.ErrNotServed) {
		t.Fatalf("ConfigMaps: %v, want Skipped", got)
	}
}

// Wait: the informer starts once the server serves its resource (and only
// then), and syncs; WaitForCacheSync does not wait for it meanwhile.
func TestFactoryDiscoveryWait(t *testing.T) {
	server := discoverytest.NewServer().Serve(podsGVR)
	f, ctx := discoveryFactory(t, fake.NewClientset(objects()...), server, fastDiscovery(discovery.Wait))
	f.StartWithContext(ctx)
	if got := states(f); got[configMapType] != discovery.Waiting {
		t.Fatalf("states %v, want ConfigMaps Waiting", got)
	}
	result := f.WaitForCacheSyncWithContext(ctx)
	if result.Synced[configMapType] || !result.Synced[podType] || !errors.Is(result.Err, discovery.ErrNotServed) {
		t.Fatalf("WaitForCacheSync = %+v, want ConfigMaps false, not served", result)
	}
	time.Sleep(20 * time.Millisecond)
	if f.informers[configMapType].HasSynced() {
		t.Fatal("the ConfigMap informer ran before its resource was served")
	}
	server.Serve(configMapsGVR)
	eventually(t, "ConfigMaps synced", func() bool { return states(f)[configMapType] == discovery.Synced })
	if all := f.WaitForCacheSyncStatus(ctx); all[configMapType].State != discovery.Synced || all[podType].State != discovery.Synced {
		t.Fatalf("WaitForCacheSyncStatus = %v", all)
	}
	keys := f.informers[configMapType].GetStore().ListKeys()
	if len(keys) != 1 || keys[0] != "a/c" {
		t.Fatalf("ConfigMap cache holds %v", keys)
	}
}

// A WaitForCacheSync in progress also waits for an informer that Wait mode
// starts meanwhile.
func TestFactoryDiscoveryWaitForCacheSyncFollowsAStartDuringTheWait(t *testing.T) {
	server := discoverytest.NewServer().Serve(podsGVR)
	client := fake.NewClientset(objects()...)
	f := NewFactory(0, WithDiscoveryOptions(server, fastDiscovery(discovery.Wait)))
	f.InformerFor(&corev1.ConfigMap{}, func(resync time.Duration) clientcache.SharedIndexInformer {
		cms := client.CoreV1().ConfigMaps("")
		return NewInformer[*corev1.ConfigMap](cms.List, cms.Watch, client, configMapsGVR, InformerOptions{ResyncPeriod: resync})
	})
	// A pod informer whose list is held until the test releases it: it
	// keeps WaitForCacheSync waiting.
	release := make(chan struct{})
	pods := client.CoreV1().Pods("")
	f.InformerFor(&corev1.Pod{}, func(time.Duration) clientcache.SharedIndexInformer {
		return NewInformer[*corev1.Pod](func(ctx context.Context, o metav1.ListOptions) (*corev1.PodList, error) {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return pods.List(ctx, o)
		}, pods.Watch, client, podsGVR, InformerOptions{})
	})
	ctx, cancel := context.WithCancel(t.Context())
	defer func() { cancel(); f.Shutdown() }()
	f.StartWithContext(ctx)
	done := make(chan map[reflect.Type]bool)
	go func() { done <- f.WaitForCacheSync(ctx.Done()) }()
	server.Serve(configMapsGVR)
	eventually(t, "ConfigMaps started", func() bool { return states(f)[configMapType].Running() })
	close(release)
	if synced := <-done; !synced[podType] || !synced[configMapType] {
		t.Fatalf("WaitForCacheSync = %v, want both synced", synced)
	}
}

// A running informer whose resource the server stops serving is reported
// Removed (WaitForCacheSync: false), keeps running, and is Synced again
// once the resource is served again.
func TestFactoryDiscoveryRemovedResource(t *testing.T) {
	server := discoverytest.NewServer().Serve(podsGVR).Serve(configMapsGVR)
	f, ctx := discoveryFactory(t, fake.NewClientset(objects()...), server, fastDiscovery(discovery.FailFast))
	f.StartWithContext(ctx)
	if err := f.WaitForCacheSyncWithContext(ctx).AsError(); err != nil {
		t.Fatal(err)
	}
	server.Remove(configMapsGVR)
	eventually(t, "ConfigMaps Removed", func() bool { return states(f)[configMapType] == discovery.Removed })
	result := f.WaitForCacheSyncWithContext(ctx)
	if result.Synced[configMapType] || !result.Synced[podType] || !errors.Is(result.Err, discovery.ErrNotServed) {
		t.Fatalf("WaitForCacheSync = %+v, want ConfigMaps false", result)
	}
	if f.informers[configMapType].IsStopped() {
		t.Fatal("the informer of a removed resource stopped")
	}
	server.Serve(configMapsGVR)
	eventually(t, "ConfigMaps Synced again", func() bool { return states(f)[configMapType] == discovery.Synced })
}

// Without discovery the states are NotStarted, Syncing and Synced, and an
// informer requested after Start is NotStarted until the next Start.
func TestFactorySyncStatusWithoutDiscovery(t *testing.T) {
	client := fake.NewClientset(objects()...)
	f := NewFactory(0)
	f.InformerFor(&corev1.Pod{}, podInformerFunc(f, client, &recorded{}))
	if got := f.SyncStatus()[podType]; got != (discovery.Status{Resource: podsGVR}) {
		t.Fatalf("before Start: %v", got)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer func() { cancel(); f.Shutdown() }()
	f.StartWithContext(ctx)
	if got := f.WaitForCacheSyncStatus(ctx)[podType]; got.State != discovery.Synced {
		t.Fatalf("after the wait: %v", got)
	}
	f.InformerFor(&corev1.ConfigMap{}, func(resync time.Duration) clientcache.SharedIndexInformer {
		cms := client.CoreV1().ConfigMaps("")
		return NewInformer[*corev1.ConfigMap](cms.List, cms.Watch, client, configMapsGVR, InformerOptions{})
	})
	if got := f.SyncStatus()[configMapType].State; got != discovery.NotStarted {
		t.Fatalf("an informer requested after Start: %v", got)
	}
	if f.StartError() != nil {
		t.Fatal("StartError without discovery")
	}
}

// Shutdown waits for the discovery polls of waiting resources, and an Option
// applied to two factories gives each a tracker of its own.
func TestFactoryDiscoveryShutdownAndSharedOption(t *testing.T) {
	server := discoverytest.NewServer()
	opt := WithDiscoveryOptions(server, fastDiscovery(discovery.Wait))
	client := fake.NewClientset()
	a, b := NewFactory(0, opt), NewFactory(0, opt)
	if a.settings.discovery == b.settings.discovery {
		t.Fatal("two factories share a tracker")
	}
	ctx, cancel := context.WithCancel(t.Context())
	for _, f := range []*Factory{a, b} {
		f.InformerFor(&corev1.Pod{}, podInformerFunc(f, client, &recorded{}))
		f.StartWithContext(ctx)
		if got := states(f)[podType]; got != discovery.Waiting {
			t.Fatalf("state %v, want Waiting", got)
		}
	}
	cancel()
	a.Shutdown()
	b.Shutdown()
	// goleak (TestMain) checks that no poll is left.
}
