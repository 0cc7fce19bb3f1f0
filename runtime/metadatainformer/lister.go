package metadatainformer

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/metadata/metadatalister"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory"
)

// Lister is client-go's metadatalister.Lister (List, Get, Namespace) over a
// store of object metadata. Over the runtime's typed store it reads the
// store directly: no type assertions, namespace lists and label-selector
// lists narrowed as runtime/cache.Lister narrows them. Lister values are
// cheap to copy and safe for concurrent use; the objects they return are
// shared with the store.
type Lister = gvrfactory.Lister[*metav1.PartialObjectMetadata, metadatalister.NamespaceLister]

var (
	_ metadatalister.Lister          = Lister{}
	_ metadatalister.NamespaceLister = cache.NamespaceLister[*metav1.PartialObjectMetadata]{}
)

// NewLister returns a lister over indexer (as metadatalister.New does); gvr
// names the objects in NotFound errors. indexer may be the runtime's (an
// informer's GetIndexer) or any other.
func NewLister(indexer clientcache.Indexer, gvr schema.GroupVersionResource) Lister {
	return gvrfactory.NewLister[*metav1.PartialObjectMetadata, metadatalister.NamespaceLister](indexer, gvr)
}
