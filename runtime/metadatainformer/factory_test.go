package metadatainformer_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/metadata/fake"
	clienttesting "k8s.io/client-go/testing"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testwait"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/metadatainformer"
)

// One shared informer per GVR, whatever the method that asks for it, and it
// is the runtime's typed informer carrying client-go's namespace index.
func TestForResourceSharesOneInformerPerGVR(t *testing.T) {
	client, _ := newClient()
	f := metadatainformer.NewSharedInformerFactory(client, 0)
	a := f.ForResource(configMapsGVR)
	if b := f.ForResource(configMapsGVR); a != b {
		t.Fatal("ForResource created a second informer for the same GVR")
	}
	r := f.Resource(configMapsGVR)
	if a != r || f.Resource(secretsGVR) == r {
		t.Fatal("Resource and ForResource disagree, or two GVRs share an informer")
	}
	if _, ok := a.Informer().(*cache.SharedIndexInformer[*metav1.PartialObjectMetadata]); !ok {
		t.Fatalf("Informer() is a %T", a.Informer())
	}
	if r.TypedInformer() != a.Informer() || r.GVR() != configMapsGVR {
		t.Fatal("TypedInformer or GVR do not match")
	}
	if _, ok := a.Informer().GetIndexer().GetIndexers()[clientcache.NamespaceIndex]; !ok {
		t.Fatal("the informer has no namespace index, as client-go's factory adds")
	}
}

// The factory's informers run, hand every change to handlers in order per
// object, apply the factory's transform, and stop with Shutdown; Start after
// Shutdown does nothing.
func TestFactoryLifecycleWithTransform(t *testing.T) {
	client, watching := newClient(configMap("a", "c1", map[string]string{"x": "y"}, nil))
	f := metadatainformer.NewSharedInformerFactoryWithOptions(client, 0, metadatainformer.WithTransform(func(obj any) (any, error) {
		m := obj.(*metav1.PartialObjectMetadata)
		m.ManagedFields = nil
		if m.Annotations == nil {
			m.Annotations = map[string]string{}
		}
		m.Annotations["transformed"] = "yes"
		return m, nil
	}))
	var mu sync.Mutex
	events := map[string][]string{}
	record := func(event string) func(obj any) {
		return func(obj any) {
			mu.Lock()
			defer mu.Unlock()
			m := obj.(*metav1.PartialObjectMetadata)
			events[m.Namespace+"/"+m.Name] = append(events[m.Namespace+"/"+m.Name], event)
		}
	}
	inf := f.ForResource(configMapsGVR).Informer()
	if _, err := inf.AddEventHandler(clientcache.ResourceEventHandlerFuncs{
		AddFunc:    record("add"),
		UpdateFunc: func(_, obj any) { record("update")(obj) },
		DeleteFunc: record("delete"),
	}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	f.Start(ctx.Done())
	f.Start(ctx.Done())
	if synced := f.WaitForCacheSync(ctx.Done()); !reflect.DeepEqual(synced, map[schema.GroupVersionResource]bool{configMapsGVR: true}) {
		t.Fatalf("WaitForCacheSync = %v", synced)
	}
	waitFor(t, "the watch of configmaps", watching)
	tracker := client.Tracker()
	if err := tracker.Create(configMapsGVR, configMap("a", "c2", nil, nil), "a"); err != nil {
		t.Fatal(err)
	}
	if err := tracker.Update(configMapsGVR, configMap("a", "c1", map[string]string{"x": "z"}, nil), "a"); err != nil {
		t.Fatal(err)
	}
	if err := tracker.Delete(configMapsGVR, "a", "c2"); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"a/c1": {"add", "update"}, "a/c2": {"add", "delete"}}
	eventually(t, "the handler's events", func() string {
		mu.Lock()
		defer mu.Unlock()
		if !reflect.DeepEqual(events, want) {
			return fmt.Sprintf("got %v", events)
		}
		return ""
	})
	c1, err := f.Resource(configMapsGVR).TypedLister().Namespace("a").Get("c1")
	if err != nil || c1.Annotations["transformed"] != "yes" || c1.Labels["x"] != "z" {
		t.Fatalf("cached c1 = %+v, %v; want it updated and transformed", c1, err)
	}
	cancel()
	f.Shutdown()
	if !inf.IsStopped() {
		t.Fatal("Shutdown returned before the informer stopped")
	}
	late := f.ForResource(secretsGVR).Informer()
	f.Start(make(chan struct{}))
	if late.HasSynced() || late.IsStopped() {
		t.Fatal("Start after Shutdown started an informer")
	}
}

// The filtered constructor and the options limit the informers to one
// namespace and change every list and watch.
func TestNamespaceAndTweakReachEveryRequest(t *testing.T) {
	tweak := func(o *metav1.ListOptions) { o.LabelSelector = "x=y" }
	for name, build := range map[string]func(client *fake.FakeMetadataClient) *metadatainformer.Factory{
		"NewFilteredSharedInformerFactory": func(client *fake.FakeMetadataClient) *metadatainformer.Factory {
			return metadatainformer.NewFilteredSharedInformerFactory(client, time.Hour, "a", tweak)
		},
		"options": func(client *fake.FakeMetadataClient) *metadatainformer.Factory {
			return metadatainformer.NewSharedInformerFactoryWithOptions(client, time.Hour,
				metadatainformer.WithNamespace("a"), metadatainformer.WithTweakListOptions(tweak))
		},
	} {
		t.Run(name, func(t *testing.T) {
			client, _ := newClient(configMap("a", "c1", map[string]string{"x": "y"}, nil), configMap("b", "c2", map[string]string{"x": "y"}, nil), configMap("a", "c3", nil, nil))
			var mu sync.Mutex
			var seen []string
			client.PrependReactor("list", "configmaps", func(action clienttesting.Action) (bool, runtime.Object, error) {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, "list "+action.GetNamespace()+" "+action.(clienttesting.ListActionImpl).ListOptions.LabelSelector)
				return false, nil, nil
			})
			client.PrependWatchReactor("configmaps", func(action clienttesting.Action) (bool, watch.Interface, error) {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, "watch "+action.GetNamespace()+" "+action.(clienttesting.WatchActionImpl).ListOptions.LabelSelector)
				return false, nil, nil
			})
			f := build(client)
			inf := f.ForResource(configMapsGVR).Informer()
			start(t, f)
			if keys := inf.GetStore().ListKeys(); len(keys) != 1 || keys[0] != "a/c1" {
				t.Fatalf("the store holds %v, want only a/c1", keys)
			}
			testwait.Until(t, 10*time.Second, "a list and a watch", func() bool {
				mu.Lock()
				defer mu.Unlock()
				return len(seen) >= 2
			})
			mu.Lock()
			defer mu.Unlock()
			if got := strings.Join(seen[:2], ", "); got != "list a x=y, watch a x=y" {
				t.Fatalf("requests = %v", seen)
			}
		})
	}
}
