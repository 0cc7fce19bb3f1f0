package metadatainformer_test

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/metadata/fake"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory/gvrtest"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/metadatainformer"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
)

// One shared informer per GVR, whatever the method that asks for it, and it
// is the runtime's typed informer carrying client-go's namespace index.
func TestForResourceSharesOneInformerPerGVR(t *testing.T) {
	client, _ := newClient()
	f := metadatainformer.NewSharedInformerFactory(client, 0)
	gvrtest.CheckOneInformerPerGVR(t, f, configMapsGVR, secretsGVR)
}

// The factory's informers run, hand every change to handlers in order per
// object, apply the factory's transform, and stop with Shutdown; Start after
// Shutdown does nothing.
func TestFactoryLifecycleWithTransform(t *testing.T) {
	client, watching := newClient(configMap("a", "c1", map[string]string{"x": "y"}, nil))
	f := metadatainformer.NewSharedInformerFactoryWithOptions(client, 0, metadatainformer.WithTransform(gvrtest.Transform))
	tracker := client.Tracker()
	gvrtest.CheckLifecycle(t, f, gvrtest.Lifecycle{
		GVR: configMapsGVR, Late: secretsGVR, After: podsGVR,
		First: "c1", Second: "c2", Watching: watching,
		Write: func(context.Context) error {
			if err := tracker.Create(configMapsGVR, configMap("a", "c2", nil, nil), "a"); err != nil {
				return err
			}
			if err := tracker.Update(configMapsGVR, configMap("a", "c1", map[string]string{"x": "z"}, nil), "a"); err != nil {
				return err
			}
			return tracker.Delete(configMapsGVR, "a", "c2")
		},
	})
	if c1, err := f.Resource(configMapsGVR).TypedLister().Namespace("a").Get("c1"); err != nil || c1.Labels["x"] != "z" {
		t.Fatalf("cached c1 = %+v, %v; want it updated", c1, err)
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
			xy := map[string]string{"x": "y"}
			client, _ := newClient(configMap("a", "c1", xy, nil), configMap("b", "c2", xy, nil), configMap("a", "c3", nil, nil))
			gvrtest.CheckNamespaceAndTweak(t, build(client), client, configMapsGVR, "a/c1")
		})
	}
}

// WithShardScope limits every informer to the scope: its selector goes with
// every request and, as the fake client does not select, the informers keep
// only the scope's objects (by namespace here).
func TestShardScopeLimitsEveryInformer(t *testing.T) {
	var objs []runtime.Object
	var want []string
	mine := shard.SlotOf(shard.Hash("a-first"), 8)
	scope, err := shard.Static(shard.ByNamespace, []int{mine}, 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, ns := range []string{"a-first", "b-second", "c-third", "z-last"} {
		cm := configMap(ns, "c", nil, nil)
		objs = append(objs, cm)
		if shard.SlotOf(shard.Hash(ns), 8) == mine {
			want = append(want, ns+"/c")
		}
	}
	if len(want) == len(objs) {
		t.Fatal("every namespace is in the scope's slot: the test proves nothing")
	}
	client, _ := newClient(objs...)
	f := metadatainformer.NewSharedInformerFactoryWithOptions(client, time.Hour, metadatainformer.WithShardScope(scope))
	gvrtest.CheckShardScope(t, f, client, configMapsGVR, scope.Selection().Selector.String(), want...)
}
