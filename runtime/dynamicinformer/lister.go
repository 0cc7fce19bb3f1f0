package dynamicinformer

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic/dynamiclister"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// Lister is client-go's dynamiclister.Lister over a store of unstructured
// objects. Over the runtime's typed store it reads the store directly: no
// type assertions, namespace lists and label-selector lists narrowed as
// runtime/cache.Lister narrows them. Lister values are cheap to copy and safe
// for concurrent use; the objects they return are shared with the store.
type Lister struct {
	l cache.Lister[*unstructured.Unstructured]
}

var _ dynamiclister.Lister = Lister{}

// NewLister returns a lister over indexer (as dynamiclister.New does); gvr
// names the objects in NotFound errors. indexer may be the runtime's (an
// informer's GetIndexer) or any other.
func NewLister(indexer clientcache.Indexer, gvr schema.GroupVersionResource) Lister {
	return Lister{cache.NewLister[*unstructured.Unstructured](indexer, gvr.GroupResource())}
}

// List returns the objects, in every namespace, whose labels match selector.
func (l Lister) List(selector labels.Selector) ([]*unstructured.Unstructured, error) {
	return l.l.List(selector)
}

// Get returns the cluster-scoped object called name, or a NotFound error.
func (l Lister) Get(name string) (*unstructured.Unstructured, error) { return l.l.Get(name) }

// Namespace returns a lister of the objects of one namespace.
func (l Lister) Namespace(namespace string) dynamiclister.NamespaceLister {
	return l.l.Namespace(namespace)
}
