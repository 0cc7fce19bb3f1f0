package metadatainformer

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatalister"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/gvrfactory"
)

// ResourceInformer is the shared informer of one resource's object
// metadata: client-go's informers.GenericInformer, the runtime's typed
// informer behind it, and the indexes declared on it at run time with
// their lookups. Its methods are safe for concurrent use, also while the
// informer runs.
type ResourceInformer struct {
	i *gvrfactory.Informer[*metav1.PartialObjectMetadata]
}

var _ clientgoinformers.GenericInformer = (*ResourceInformer)(nil)

// NewFilteredMetadataInformer returns a new, not started informer of gvr in
// namespace (metav1.NamespaceAll: every namespace) with client-go's
// parameters: handlers resync every resyncPeriod (zero: never), the store
// carries indexers (one that cannot be added, a name taken twice or a nil
// function, is reported through utilruntime.HandleError and left out), and
// tweakListOptions (when not nil) changes every list and watch. The
// informer is a *ResourceInformer.
func NewFilteredMetadataInformer(client metadata.Interface, gvr schema.GroupVersionResource, namespace string, resyncPeriod time.Duration, indexers clientcache.Indexers, tweakListOptions TweakListOptionsFunc) clientgoinformers.GenericInformer {
	typed := newInformer(client)(gvr, namespace, informers.InformerOptions{
		ResyncPeriod:     resyncPeriod,
		Indexers:         indexers,
		TweakListOptions: informers.TweakListOptionsFunc(tweakListOptions),
	})
	return &ResourceInformer{gvrfactory.NewInformer(gvr, typed, compile)}
}

// Informer returns the informer as client-go's interface.
func (r *ResourceInformer) Informer() clientcache.SharedIndexInformer { return r.i.Typed() }

// Lister returns client-go's generic lister over TypedLister.
func (r *ResourceInformer) Lister() clientcache.GenericLister {
	return metadatalister.NewRuntimeObjectShim(r.TypedLister())
}

// TypedInformer returns the runtime's informer itself: typed handlers,
// TypedStore and its allocation-free lookups.
func (r *ResourceInformer) TypedInformer() *cache.SharedIndexInformer[*metav1.PartialObjectMetadata] {
	return r.i.Typed()
}

// TypedLister returns a lister that reads the informer's typed store.
func (r *ResourceInformer) TypedLister() Lister {
	return Lister{cache.NewStoreLister(r.i.Typed().TypedStore(), r.i.GVR().GroupResource())}
}

// GVR returns the resource the informer lists and watches.
func (r *ResourceInformer) GVR() schema.GroupVersionResource { return r.i.GVR() }

// AddIndex declares the index name from spec, in
// fieldpath.ParseIndexSpec's form: "label: app", "annotation:
// example.dev/team", "owner: apps/ReplicaSet", "owner: core/ConfigMap". See
// AddIndexSpec.
func (r *ResourceInformer) AddIndex(name, spec string) error { return r.i.AddIndex(name, spec) }

// AddIndexSpec declares the index name from spec, before or while the
// informer runs (objects already stored are indexed at once). An invalid
// spec, a field spec (the informer holds only metadata), an owner without
// its group ("Shop" instead of "shop.example.dev/Shop") and a name already
// in use are errors, and then nothing is added. A label spec becomes a label
// index of the store, which also narrows the lister's label-selector lists.
func (r *ResourceInformer) AddIndexSpec(name string, spec fieldpath.IndexSpec) error {
	return r.i.AddIndexSpec(name, spec)
}

// ByIndex returns the objects, in every namespace, whose index name holds
// value. An unknown index or a number of values other than one is an error.
func (r *ResourceInformer) ByIndex(name string, values ...string) ([]*metav1.PartialObjectMetadata, error) {
	return r.i.ByIndex(name, values...)
}

// ByIndexInNamespace is ByIndex for the objects of one namespace, at a cost
// proportional to their number.
func (r *ResourceInformer) ByIndexInNamespace(name, namespace string, values ...string) ([]*metav1.PartialObjectMetadata, error) {
	return r.i.ByIndexInNamespace(name, namespace, values...)
}

// IndexValue returns the single value of index name that values encode, for
// the typed store's other lookups (TypedInformer().TypedStore()).
func (r *ResourceInformer) IndexValue(name string, values ...string) (string, error) {
	return r.i.IndexValue(name, values...)
}
