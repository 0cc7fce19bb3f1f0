package gvrfactory

import (
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// Lister is client-go's dynamic or metadata lister (dynamiclister.Lister,
// metadatalister.Lister) over a store of T, whose Namespace returns N. Over
// the runtime's typed store it reads the store directly: no type
// assertions, namespace lists and label-selector lists narrowed as
// runtime/cache.Lister narrows them. Lister values are cheap to copy and safe
// for concurrent use; the objects they return are shared with the store.
//
// N must be an interface that cache.NamespaceLister[T] implements; the
// packages that instantiate Lister check that at compile time.
type Lister[T cache.Object, N any] struct {
	l cache.Lister[T]
}

// NewLister returns a lister over indexer, as client-go's listers' New
// does; gvr names the objects in NotFound errors. indexer may be the
// runtime's (an informer's GetIndexer) or any other.
func NewLister[T cache.Object, N any](indexer clientcache.Indexer, gvr schema.GroupVersionResource) Lister[T, N] {
	return Lister[T, N]{cache.NewLister[T](indexer, gvr.GroupResource())}
}

// List returns the objects, in every namespace, whose labels match selector.
func (l Lister[T, N]) List(selector labels.Selector) ([]T, error) { return l.l.List(selector) }

// Get returns the cluster-scoped object called name, or a NotFound error.
func (l Lister[T, N]) Get(name string) (T, error) { return l.l.Get(name) }

// Namespace returns a lister of the objects of one namespace.
func (l Lister[T, N]) Namespace(namespace string) N {
	return any(l.l.Namespace(namespace)).(N)
}
