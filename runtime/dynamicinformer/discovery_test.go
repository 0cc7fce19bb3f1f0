package dynamicinformer_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic/dynamiclister"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory/gvrtest"
)

// With WithDiscovery, Start starts the informers of the resources the
// server serves, and fails fast, skips or waits for the others; SyncStatus,
// WaitForCacheSyncStatus and StartError say why an informer is not synced,
// and WaitForCacheSync never waits for it (see gvrtest.CheckDiscovery).
func TestDiscovery(t *testing.T) {
	gvrtest.CheckDiscovery(t, gvrtest.DiscoveryCase[*unstructured.Unstructured, dynamiclister.NamespaceLister]{
		Served:  deploymentsGVR,
		Missing: configMapsGVR,
		New: func(options ...dynamicinformer.SharedInformerOption) (*dynamicinformer.Factory, gvrtest.Reactors) {
			client, _ := newClient(deployment("a", "d", nil), configMap("a", "c"))
			return dynamicinformer.NewDynamicSharedInformerFactoryWithOptions(client, 0, options...), client
		},
		WithDiscoveryOptions: dynamicinformer.WithDiscoveryOptions,
	})
}
