package gvrtest

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	clienttesting "k8s.io/client-go/testing"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory"
)

// Reactors are the reactor chains of client-go's fake clients (dynamic and
// metadata alike).
type Reactors interface {
	PrependReactor(verb, resource string, reaction clienttesting.ReactionFunc)
	PrependWatchReactor(resource string, reaction clienttesting.WatchReactionFunc)
}

// CheckOneInformerPerGVR checks that f hands out one shared informer per
// GVR, whatever the method that asks for it (ForResource, Resource), another
// one for each of others (other resources, other versions), and that it is
// the runtime's typed informer of T carrying client-go's namespace index.
func CheckOneInformerPerGVR[T cache.Object, N any](t *testing.T, f *gvrfactory.Factory[T, N], gvr schema.GroupVersionResource, others ...schema.GroupVersionResource) {
	t.Helper()
	a := f.ForResource(gvr)
	if b := f.ForResource(gvr); a != b {
		t.Fatal("ForResource created a second informer for the same GVR")
	}
	r := f.Resource(gvr)
	if a != r {
		t.Fatal("Resource and ForResource return different informers")
	}
	for _, other := range others {
		if f.Resource(other) == r {
			t.Fatalf("%s and %s share an informer", gvr, other)
		}
	}
	if _, ok := a.Informer().(*cache.SharedIndexInformer[T]); !ok {
		t.Fatalf("Informer() is a %T", a.Informer())
	}
	if r.TypedInformer() != a.Informer() || r.GVR() != gvr {
		t.Fatal("TypedInformer or GVR do not match")
	}
	if _, ok := a.Informer().GetIndexer().GetIndexers()[clientcache.NamespaceIndex]; !ok {
		t.Fatal("the informer has no namespace index, as client-go's factory adds")
	}
}

// Lifecycle is a fake client's resources for CheckLifecycle.
type Lifecycle struct {
	// GVR is the resource the fake holds the object a/First of when the
	// factory is built; Late and After are two others.
	GVR, Late, After schema.GroupVersionResource
	// First and Second are the names of GVR's objects.
	First, Second string
	// Watching is closed once a watch of GVR is registered with the fake.
	Watching <-chan struct{}
	// Write creates a/Second, updates a/First and deletes a/Second through
	// the fake, in that order.
	Write func(ctx context.Context) error
}

// Transform marks the objects it receives with the annotation
// TransformedAnnotation, for CheckLifecycle.
func Transform(obj any) (any, error) {
	m := obj.(metav1.Object)
	annotations := maps.Clone(m.GetAnnotations())
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[TransformedAnnotation] = "yes"
	m.SetAnnotations(annotations)
	return obj, nil
}

// TransformedAnnotation is the annotation Transform sets.
const TransformedAnnotation = "gvrtest.example.dev/transformed"

// CheckLifecycle checks the lifecycle of f, built with the transform
// Transform: Start runs the informers requested so far (a second Start
// starts nothing twice, a later one starts those requested since), handlers
// receive adds, updates and deletes in order per object, the cache holds
// transformed objects, WaitForCacheSync reports every started informer,
// Shutdown returns once they stopped (also when called twice), and Start
// after Shutdown starts nothing.
func CheckLifecycle[T cache.Object, N any](t *testing.T, f *gvrfactory.Factory[T, N], c Lifecycle) {
	t.Helper()
	var log handlerLog
	inf := f.ForResource(c.GVR).Informer()
	if _, err := inf.AddEventHandler(clientcache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { log.add("add", obj) },
		UpdateFunc: func(_, obj any) { log.add("update", obj) },
		DeleteFunc: func(obj any) { log.add("delete", obj) },
	}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.Start(ctx.Done())
	f.Start(ctx.Done())
	if synced := f.WaitForCacheSync(ctx.Done()); !reflect.DeepEqual(synced, map[schema.GroupVersionResource]bool{c.GVR: true}) {
		t.Fatalf("WaitForCacheSync = %v", synced)
	}
	late := f.ForResource(c.Late).Informer()
	if late.HasSynced() {
		t.Fatal("an informer requested after Start runs without a Start")
	}
	f.StartWithContext(ctx)
	synced, err := f.WaitForCacheSyncWithContext(ctx)
	if err != nil || !synced[c.Late] || !synced[c.GVR] {
		t.Fatalf("WaitForCacheSyncWithContext = %v, %v", synced, err)
	}

	WaitFor(t, "the watch of "+c.GVR.Resource, c.Watching)
	if err := c.Write(ctx); err != nil {
		t.Fatal(err)
	}
	// Per object, events arrive in order; across objects the runtime's
	// queue does not promise an order (docs/runtime-semantics.md).
	want := map[string][]string{"a/" + c.First: {"add", "update"}, "a/" + c.Second: {"add", "delete"}}
	Eventually(t, "the handler's events", func() string {
		if got := log.byObject(); !reflect.DeepEqual(got, want) {
			return fmt.Sprintf("got %v", got)
		}
		return ""
	})
	first, ok := f.Resource(c.GVR).TypedInformer().TypedStore().Get(cache.ObjectName{Namespace: "a", Name: c.First})
	if !ok || first.GetAnnotations()[TransformedAnnotation] != "yes" {
		t.Fatalf("cached a/%s = %v; want it transformed", c.First, first)
	}

	cancel()
	f.Shutdown()
	f.Shutdown() // a second Shutdown returns at once
	if !inf.IsStopped() || !late.IsStopped() {
		t.Fatal("Shutdown returned before the informers stopped")
	}
	after := f.ForResource(c.After).Informer()
	f.Start(make(chan struct{}))
	if after.HasSynced() || after.IsStopped() {
		t.Fatal("Start after Shutdown started an informer")
	}
}

// handlerLog records what a handler received.
type handlerLog struct {
	mu     sync.Mutex
	events []string
}

func (l *handlerLog) add(event string, obj any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := obj.(metav1.Object)
	l.events = append(l.events, event+" "+m.GetNamespace()+"/"+m.GetName())
}

// byObject returns the events received per object key, in order.
func (l *handlerLog) byObject() map[string][]string {
	l.mu.Lock()
	defer l.mu.Unlock()
	got := map[string][]string{}
	for _, e := range l.events {
		event, key, _ := strings.Cut(e, " ")
		got[key] = append(got[key], event)
	}
	return got
}

// CheckNamespaceAndTweak checks that f, built for namespace "a" with a tweak
// that sets the label selector x=y, lists and watches gvr through client in
// namespace a with that selector, and caches the objects of keys only.
func CheckNamespaceAndTweak[T cache.Object, N any](t *testing.T, f *gvrfactory.Factory[T, N], client Reactors, gvr schema.GroupVersionResource, keys ...string) {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	record := func(verb string, action clienttesting.Action, options metav1.ListOptions) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, verb+" "+action.GetNamespace()+" "+options.LabelSelector)
	}
	client.PrependReactor("list", gvr.Resource, func(action clienttesting.Action) (bool, runtime.Object, error) {
		record("list", action, action.(clienttesting.ListActionImpl).ListOptions)
		return false, nil, nil
	})
	client.PrependWatchReactor(gvr.Resource, func(action clienttesting.Action) (bool, watch.Interface, error) {
		record("watch", action, action.(clienttesting.WatchActionImpl).ListOptions)
		return false, nil, nil
	})
	inf := f.ForResource(gvr).Informer()
	Start(t, f)
	if got := inf.GetStore().ListKeys(); !reflect.DeepEqual(got, keys) && len(got)+len(keys) > 0 {
		t.Fatalf("the store holds %v, want %v", got, keys)
	}
	until(t, "a list and a watch", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(seen) >= 2
	})
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(seen[:2], ", "); got != "list a x=y, watch a x=y" {
		t.Fatalf("requests = %v, want a list and a watch of namespace a with the tweak", seen)
	}
}

// CheckShardScope checks that f, built with a shard scope whose selector is
// selector, sends it with the watches of gvr through client (the fake
// clients keep no options of a list) and, as the fake client does not
// select, caches the objects of keys only.
func CheckShardScope[T cache.Object, N any](t *testing.T, f *gvrfactory.Factory[T, N], client Reactors, gvr schema.GroupVersionResource, selector string, keys ...string) {
	t.Helper()
	watched := make(chan string, 10)
	client.PrependWatchReactor(gvr.Resource, func(action clienttesting.Action) (bool, watch.Interface, error) {
		watched <- action.(clienttesting.WatchActionImpl).ListOptions.ShardSelector
		return false, nil, nil
	})
	inf := f.ForResource(gvr).Informer()
	Start(t, f)
	if got := inf.GetStore().ListKeys(); !sameKeys(got, keys) {
		t.Fatalf("the store holds %v, want the share %v", got, keys)
	}
	select {
	case got := <-watched:
		if got != selector {
			t.Fatalf("the watch carried the shard selector %q, want %q", got, selector)
		}
	case <-time.After(wait.ForeverTestTimeout):
		t.Fatal("no watch")
	}
}

// sameKeys reports whether a and b hold the same keys, in any order.
func sameKeys(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}
