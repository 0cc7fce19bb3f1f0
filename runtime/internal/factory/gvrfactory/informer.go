package gvrfactory

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
)

// ResourceInformer is the shared informer of one resource's objects of type
// T: client-go's informers.GenericInformer, the runtime's typed informer
// behind it, and the indexes declared on it at run time (AddIndex,
// AddIndexSpec) with their lookups (ByIndex, ByIndexInNamespace,
// IndexValue). Its methods are safe for concurrent use, also while the
// informer runs.
type ResourceInformer[T cache.Object, N any] struct {
	gvr      schema.GroupVersionResource
	informer *cache.SharedIndexInformer[T]
	kind     Kind[T, N]

	mu    sync.RWMutex
	arity map[string]int // lookup values of the indexes AddIndexSpec added
}

// NewResourceInformer returns a new, not started informer of gvr in
// namespace (metav1.NamespaceAll: every namespace) built by kind with
// options: the standalone informers of client-go's NewFiltered*Informer
// constructors. An index of options.Indexers that cannot be added (a name
// taken twice or a nil function) is reported through utilruntime.HandleError
// and left out.
func NewResourceInformer[T cache.Object, N any](kind Kind[T, N], gvr schema.GroupVersionResource, namespace string, options informers.InformerOptions) *ResourceInformer[T, N] {
	return newResourceInformer(kind, gvr, kind.NewInformer(gvr, namespace, options))
}

// newResourceInformer returns the ResourceInformer of gvr over informer.
func newResourceInformer[T cache.Object, N any](kind Kind[T, N], gvr schema.GroupVersionResource, informer *cache.SharedIndexInformer[T]) *ResourceInformer[T, N] {
	return &ResourceInformer[T, N]{gvr: gvr, informer: informer, kind: kind, arity: map[string]int{}}
}

// Informer returns the informer as client-go's interface: the
// *cache.SharedIndexInformer[T] TypedInformer returns.
func (r *ResourceInformer[T, N]) Informer() clientcache.SharedIndexInformer { return r.informer }

// Lister returns client-go's generic lister over TypedLister.
func (r *ResourceInformer[T, N]) Lister() clientcache.GenericLister {
	return r.kind.GenericLister(r.TypedLister())
}

// TypedInformer returns the runtime's informer itself: typed handlers,
// TypedStore and its allocation-free lookups.
func (r *ResourceInformer[T, N]) TypedInformer() *cache.SharedIndexInformer[T] { return r.informer }

// TypedLister returns a lister that reads the informer's typed store.
func (r *ResourceInformer[T, N]) TypedLister() Lister[T, N] {
	return Lister[T, N]{cache.NewStoreLister(r.informer.TypedStore(), r.gvr.GroupResource())}
}

// GVR returns the resource the informer lists and watches.
func (r *ResourceInformer[T, N]) GVR() schema.GroupVersionResource { return r.gvr }
