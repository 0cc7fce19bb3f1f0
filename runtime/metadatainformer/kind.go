package metadatainformer

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatalister"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory"
)

// kind returns what the informers of client are built with: lists and
// watches of the metadata of client's resources, index specs compiled by
// compile (which refuses field specs), and client-go's metadata generic
// lister.
func kind(client metadata.Interface) gvrfactory.Kind[*metav1.PartialObjectMetadata, metadatalister.NamespaceLister] {
	resource := func(gvr schema.GroupVersionResource, namespace string) gvrfactory.ResourceClient[*metav1.PartialObjectMetadataList] {
		return client.Resource(gvr).Namespace(namespace)
	}
	return gvrfactory.Kind[*metav1.PartialObjectMetadata, metadatalister.NamespaceLister]{
		NewInformer:   gvrfactory.InformerFunc[*metav1.PartialObjectMetadata](client, resource),
		Compile:       compile,
		GenericLister: func(l Lister) clientcache.GenericLister { return metadatalister.NewRuntimeObjectShim(l) },
	}
}
