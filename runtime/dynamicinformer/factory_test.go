package dynamicinformer_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory/gvrtest"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
)

// One shared informer per GVR, whatever the method that asks for it, and it
// is the runtime's typed informer carrying client-go's namespace index.
func TestForResourceSharesOneInformerPerGVR(t *testing.T) {
	client, _ := newClient()
	f := dynamicinformer.NewDynamicSharedInformerFactory(client, 0)
	gvrtest.CheckOneInformerPerGVR(t, f, deploymentsGVR, configMapsGVR, schema.GroupVersionResource{Group: "apps", Version: "v1beta1", Resource: "deployments"})
}

// The factory's informers run, hand every change to handlers in order per
// object, apply the factory's transform, and stop with Shutdown; Start after
// Shutdown does nothing.
func TestFactoryLifecycle(t *testing.T) {
	client, watching := newClient(deployment("a", "d1", nil))
	f := dynamicinformer.NewDynamicSharedInformerFactoryWithOptions(client, 0, dynamicinformer.WithTransform(gvrtest.Transform))
	api := client.Resource(deploymentsGVR).Namespace("a")
	gvrtest.CheckLifecycle(t, f, gvrtest.Lifecycle{
		GVR: deploymentsGVR, Late: configMapsGVR, After: secretsGVR,
		First: "d1", Second: "d2", Watching: watching,
		Write: func(ctx context.Context) error {
			if _, err := api.Create(ctx, deployment("a", "d2", nil), metav1.CreateOptions{}); err != nil {
				return err
			}
			if _, err := api.Update(ctx, deployment("a", "d1", map[string]any{"spec": map[string]any{"paused": true}}), metav1.UpdateOptions{}); err != nil {
				return err
			}
			return api.Delete(ctx, "d2", metav1.DeleteOptions{})
		},
	})
}

// The filtered constructor and the options limit the informers to one
// namespace and change every list and watch.
func TestFilteredFactoryNamespaceAndTweak(t *testing.T) {
	var tweak dynamicinformer.TweakListOptionsFunc = func(o *metav1.ListOptions) { o.LabelSelector = "x=y" }
	for name, build := range map[string]func(client *fake.FakeDynamicClient) *dynamicinformer.Factory{
		"NewFilteredDynamicSharedInformerFactory": func(client *fake.FakeDynamicClient) *dynamicinformer.Factory {
			return dynamicinformer.NewFilteredDynamicSharedInformerFactory(client, time.Hour, "a", tweak)
		},
		"options": func(client *fake.FakeDynamicClient) *dynamicinformer.Factory {
			return dynamicinformer.NewDynamicSharedInformerFactoryWithOptions(client, time.Hour,
				dynamicinformer.WithNamespace("a"), dynamicinformer.WithTweakListOptions(tweak))
		},
	} {
		t.Run(name, func(t *testing.T) {
			xy := withLabels(map[string]any{"x": "y"})
			client, _ := newClient(deployment("a", "d1", xy), deployment("b", "d2", xy), deployment("a", "d3", nil))
			gvrtest.CheckNamespaceAndTweak(t, build(client), client, deploymentsGVR, "a/d1")
		})
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
	client, _ := newClient(deployment("a", "d1", withLabels(map[string]any{"app": "web"})), deployment("b", "d2", nil))
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

// WithShardScope limits every informer to the scope: its selector goes with
// every request and, as the fake client does not select, the informers keep
// only the scope's objects.
func TestShardScopeLimitsEveryInformer(t *testing.T) {
	scope, err := shard.Static(shard.ByUID, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 32)
	if err != nil {
		t.Fatal(err)
	}
	sel := scope.Selection().Selector
	var objs []runtime.Object
	var want []string
	for i := range 20 {
		d := deployment("a", fmt.Sprint("d", i), nil)
		d.SetUID(types.UID(fmt.Sprintf("%08x-5c1e-4d2a-9b7f-%012x", uint32(i)*2654435761, uint64(i)*0x9e3779b97f4a7c15>>16)))
		objs = append(objs, d)
		if ok, _ := sel.Matches(d); ok {
			want = append(want, "a/"+d.GetName())
		}
	}
	if len(want) == 0 || len(want) == len(objs) {
		t.Fatalf("the scope selects %d of %d objects: the test proves nothing", len(want), len(objs))
	}
	client, _ := newClient(objs...)
	f := dynamicinformer.NewDynamicSharedInformerFactoryWithOptions(client, time.Hour, dynamicinformer.WithShardScope(scope))
	gvrtest.CheckShardScope(t, f, client, deploymentsGVR, sel.String(), want...)
}
