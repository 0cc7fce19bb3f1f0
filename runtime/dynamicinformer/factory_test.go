package dynamicinformer_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	clienttesting "k8s.io/client-go/testing"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testwait"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
)

// One shared informer per GVR, whatever the method that asks for it, and it
// is the runtime's typed informer carrying client-go's namespace index.
func TestForResourceSharesOneInformerPerGVR(t *testing.T) {
	client, _ := newClient()
	f := dynamicinformer.NewDynamicSharedInformerFactory(client, 0)
	a := f.ForResource(deploymentsGVR)
	if b := f.ForResource(deploymentsGVR); a != b {
		t.Fatal("ForResource created a second informer for the same GVR")
	}
	r := f.Resource(deploymentsGVR)
	if a != r {
		t.Fatal("Resource and ForResource return different informers")
	}
	if f.Resource(configMapsGVR) == r {
		t.Fatal("two GVRs share an informer")
	}
	if other := f.Resource(schema.GroupVersionResource{Group: "apps", Version: "v1beta1", Resource: "deployments"}); other == r {
		t.Fatal("two versions share an informer")
	}
	if _, ok := a.Informer().(*cache.SharedIndexInformer[*unstructured.Unstructured]); !ok {
		t.Fatalf("Informer() is a %T", a.Informer())
	}
	if r.TypedInformer() != a.Informer() || r.GVR() != deploymentsGVR {
		t.Fatal("TypedInformer or GVR do not match")
	}
	if _, ok := a.Informer().GetIndexer().GetIndexers()[clientcache.NamespaceIndex]; !ok {
		t.Fatal("the informer has no namespace index, as client-go's factory adds")
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
	u := obj.(*unstructured.Unstructured)
	l.events = append(l.events, event+" "+u.GetNamespace()+"/"+u.GetName())
}

func (l *handlerLog) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.events...)
}

// Start runs the informers requested so far (a second Start starts nothing
// twice, a later one starts those requested since), handlers receive adds,
// updates and deletes, WaitForCacheSync reports every started informer,
// Shutdown returns once they stopped, and Start after Shutdown does nothing.
func TestFactoryLifecycle(t *testing.T) {
	client, watching := newClient(deployment("a", "d1", nil))
	f := dynamicinformer.NewDynamicSharedInformerFactory(client, 0)
	var log handlerLog
	inf := f.ForResource(deploymentsGVR).Informer()
	if _, err := inf.AddEventHandler(clientcache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { log.add("add", obj) },
		UpdateFunc: func(_, obj any) { log.add("update", obj) },
		DeleteFunc: func(obj any) { log.add("delete", obj) },
	}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	f.Start(ctx.Done())
	f.Start(ctx.Done())
	if synced := f.WaitForCacheSync(ctx.Done()); !reflect.DeepEqual(synced, map[schema.GroupVersionResource]bool{deploymentsGVR: true}) {
		t.Fatalf("WaitForCacheSync = %v", synced)
	}
	late := f.ForResource(configMapsGVR).Informer()
	if late.HasSynced() {
		t.Fatal("an informer requested after Start runs without a Start")
	}
	f.StartWithContext(ctx)
	synced, err := f.WaitForCacheSyncWithContext(ctx)
	if err != nil || !synced[configMapsGVR] || !synced[deploymentsGVR] {
		t.Fatalf("WaitForCacheSyncWithContext = %v, %v", synced, err)
	}

	waitFor(t, "the watch of deployments", watching)
	api := client.Resource(deploymentsGVR).Namespace("a")
	if _, err := api.Create(ctx, deployment("a", "d2", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.Update(ctx, deployment("a", "d1", map[string]any{"spec": map[string]any{"paused": true}}), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := api.Delete(ctx, "d2", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	// Per object, events arrive in order; across objects the runtime's
	// queue does not promise an order (docs/runtime-semantics.md).
	want := map[string][]string{"a/d1": {"add", "update"}, "a/d2": {"add", "delete"}}
	eventually(t, "the handler's events", func() string {
		got := map[string][]string{}
		for _, e := range log.get() {
			event, key, _ := strings.Cut(e, " ")
			got[key] = append(got[key], event)
		}
		if !reflect.DeepEqual(got, want) {
			return fmt.Sprintf("got %v", got)
		}
		return ""
	})

	cancel()
	f.Shutdown()
	f.Shutdown() // a second Shutdown returns at once
	if !inf.IsStopped() || !late.IsStopped() {
		t.Fatal("Shutdown returned before the informers stopped")
	}
	after := f.ForResource(schema.GroupVersionResource{Version: "v1", Resource: "secrets"}).Informer()
	f.Start(make(chan struct{}))
	if after.HasSynced() || after.IsStopped() {
		t.Fatal("Start after Shutdown started an informer")
	}
}

// The filtered factory lists and watches one namespace, with the tweak
// applied to every list and watch.
func TestFilteredFactoryNamespaceAndTweak(t *testing.T) {
	client, _ := newClient(deployment("a", "d1", nil), deployment("b", "d2", nil))
	var mu sync.Mutex
	var seen []string
	client.PrependReactor("list", "deployments", func(action clienttesting.Action) (bool, runtime.Object, error) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, "list "+action.GetNamespace()+" "+action.(clienttesting.ListActionImpl).ListOptions.LabelSelector)
		return false, nil, nil
	})
	client.PrependWatchReactor("deployments", func(action clienttesting.Action) (bool, watch.Interface, error) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, "watch "+action.GetNamespace()+" "+action.(clienttesting.WatchActionImpl).ListOptions.LabelSelector)
		return false, nil, nil
	})
	var tweak dynamicinformer.TweakListOptionsFunc = func(o *metav1.ListOptions) { o.LabelSelector = "x=y" }
	f := dynamicinformer.NewFilteredDynamicSharedInformerFactory(client, time.Hour, "a", tweak)
	inf := f.ForResource(deploymentsGVR).Informer()
	start(t, f)
	if keys := inf.GetStore().ListKeys(); len(keys) != 0 {
		t.Fatalf("the store holds %v; the fake filters by the label selector x=y", keys)
	}
	testwait.Until(t, 10*time.Second, "a list and a watch", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(seen) >= 2
	})
	mu.Lock()
	defer mu.Unlock()
	if seen[0] != "list a x=y" || seen[1] != "watch a x=y" {
		t.Fatalf("requests = %v, want a list and a watch of namespace a with the tweak", seen)
	}
}

// WaitForCacheSync gives up when its context ends, and says which informer
// has not synced.
func TestWaitForCacheSyncStopsWithItsContext(t *testing.T) {
	client, _ := newClient()
	block := make(chan struct{})
	defer close(block)
	client.PrependReactor("list", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
		<-block
		return true, nil, errors.New("stopped")
	})
	f := dynamicinformer.NewDynamicSharedInformerFactory(client, 0)
	f.ForResource(deploymentsGVR)
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); f.Shutdown() }()
	f.StartWithContext(ctx)
	waitCtx, done := context.WithTimeout(ctx, 200*time.Millisecond)
	defer done()
	synced, err := f.WaitForCacheSyncWithContext(waitCtx)
	if !errors.Is(err, context.DeadlineExceeded) || synced[deploymentsGVR] {
		t.Fatalf("WaitForCacheSyncWithContext = %v, %v; want the deadline and an unsynced informer", synced, err)
	}
	stop := make(chan struct{})
	close(stop)
	if synced := f.WaitForCacheSync(stop); synced[deploymentsGVR] {
		t.Fatalf("WaitForCacheSync with a closed channel = %v", synced)
	}
}

// NewFilteredDynamicInformer builds a standalone informer with client-go's
// parameters: its indexers are added, and an invalid one is left out
// without failing the others.
func TestNewFilteredDynamicInformer(t *testing.T) {
	client, _ := newClient(
		deployment("a", "d1", map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}}}),
		deployment("b", "d2", nil),
	)
	gi := dynamicinformer.NewFilteredDynamicInformer(client, deploymentsGVR, "a", 0, clientcache.Indexers{
		"byApp": func(obj any) ([]string, error) {
			return []string{obj.(*unstructured.Unstructured).GetLabels()["app"]}, nil
		},
	}, nil)
	r, ok := gi.(*dynamicinformer.ResourceInformer)
	if !ok {
		t.Fatalf("NewFilteredDynamicInformer returned a %T", gi)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); gi.Informer().RunWithContext(ctx) }()
	defer func() { cancel(); <-done }()
	if !clientcache.WaitFor(ctx, "deployments", gi.Informer().HasSyncedChecker()) {
		t.Fatal("not synced")
	}
	web, err := r.ByIndex("byApp", "web")
	if err != nil || len(web) != 1 || web[0].GetName() != "d1" {
		t.Fatalf("ByIndex(byApp, web) = %v, %v", web, err)
	}
	if keys := gi.Informer().GetStore().ListKeys(); len(keys) != 1 || keys[0] != "a/d1" {
		t.Fatalf("the informer of namespace a holds %v", keys)
	}
}
