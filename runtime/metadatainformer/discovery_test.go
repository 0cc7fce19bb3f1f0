package metadatainformer_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/metadata/metadatalister"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory/gvrtest"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/metadatainformer"
)

// With WithDiscovery, Start starts the informers of the resources the
// server serves, and fails fast, skips or waits for the others; SyncStatus,
// WaitForCacheSyncStatus and StartError say why an informer is not synced,
// and WaitForCacheSync never waits for it (see gvrtest.CheckDiscovery).
func TestDiscovery(t *testing.T) {
	gvrtest.CheckDiscovery(t, gvrtest.DiscoveryCase[*metav1.PartialObjectMetadata, metadatalister.NamespaceLister]{
		Served:  configMapsGVR,
		Missing: secretsGVR,
		New: func(options ...metadatainformer.SharedInformerOption) (*metadatainformer.Factory, gvrtest.Reactors) {
			client, _ := newClient(configMap("a", "c", nil, nil), secret("a", "s"))
			return metadatainformer.NewSharedInformerFactoryWithOptions(client, 0, options...), client
		},
		WithDiscoveryOptions: metadatainformer.WithDiscoveryOptions,
	})
}
