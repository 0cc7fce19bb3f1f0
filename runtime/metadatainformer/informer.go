package metadatainformer

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatalister"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory"
)

// ResourceInformer is the shared informer of one resource's object
// metadata: client-go's informers.GenericInformer (Informer, Lister), the
// runtime's typed informer behind it (TypedInformer, TypedLister, GVR), and
// the indexes declared on it at run time with their lookups:
//
//   - AddIndex and AddIndexSpec declare an index from a label, annotation or
//     owner spec ("label: app", "annotation: example.dev/team", "owner:
//     apps/Deployment", "owner: core/ConfigMap"), before or while the
//     informer runs; an invalid spec, and a field spec (the informer holds
//     no field beyond the metadata), is an error then, never while indexing;
//   - ByIndex and ByIndexInNamespace look an index up with one value;
//     IndexValue encodes it for the typed store's other lookups.
//
// Its methods are safe for concurrent use, also while the informer runs. The
// contracts are those of runtime/internal/factory/gvrfactory.ResourceInformer, shared
// with runtime/dynamicinformer.
type ResourceInformer = gvrfactory.ResourceInformer[*metav1.PartialObjectMetadata, metadatalister.NamespaceLister]

var _ clientgoinformers.GenericInformer = (*ResourceInformer)(nil)

// NewFilteredMetadataInformer returns a new, not started informer of gvr in
// namespace (metav1.NamespaceAll: every namespace) with client-go's
// parameters: handlers resync every resyncPeriod (zero: never), the store
// carries indexers (one that cannot be added, a name taken twice or a nil
// function, is reported through utilruntime.HandleError and left out), and
// tweakListOptions (when not nil) changes every list and watch. The
// informer is a *ResourceInformer.
func NewFilteredMetadataInformer(client metadata.Interface, gvr schema.GroupVersionResource, namespace string, resyncPeriod time.Duration, indexers clientcache.Indexers, tweakListOptions TweakListOptionsFunc) clientgoinformers.GenericInformer {
	return gvrfactory.NewResourceInformer(kind(client), gvr, namespace, informers.InformerOptions{
		ResyncPeriod:     resyncPeriod,
		Indexers:         indexers,
		TweakListOptions: informers.TweakListOptionsFunc(tweakListOptions),
	})
}
