package dynamicinformer

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamiclister"
	clientgoinformers "k8s.io/client-go/informers"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory"
)

// ResourceInformer is the shared informer of one resource's unstructured
// objects: client-go's informers.GenericInformer (Informer, Lister), the
// runtime's typed informer behind it (TypedInformer, TypedLister, GVR), and
// the indexes declared on it at run time with their lookups:
//
//   - AddIndex and AddIndexSpec declare an index from a spec of any source:
//     `field: "spec.containers[*].image"`, `field: "status.phase,
//     spec.nodeName"` (a composite key), "label: app", "annotation:
//     example.dev/team", "owner: apps/ReplicaSet", "owner: core/ConfigMap",
//     before or while the informer runs; an invalid spec is an error then,
//     never while indexing;
//   - ByIndex and ByIndexInNamespace look an index up, with one value per
//     path of a composite key; IndexValue encodes the values for the typed
//     store's other lookups.
//
// Its methods are safe for concurrent use, also while the informer runs. The
// contracts are those of runtime/internal/factory/gvrfactory.ResourceInformer, shared
// with runtime/metadatainformer.
type ResourceInformer = gvrfactory.ResourceInformer[*unstructured.Unstructured, dynamiclister.NamespaceLister]

var _ clientgoinformers.GenericInformer = (*ResourceInformer)(nil)

// NewFilteredDynamicInformer returns a new, not started informer of gvr in
// namespace (metav1.NamespaceAll: every namespace) with client-go's
// parameters: handlers resync every resyncPeriod (zero: never), the store
// carries indexers (one that cannot be added, a name taken twice or a nil
// function, is reported through utilruntime.HandleError and left out), and
// tweakListOptions (when not nil) changes every list and watch. The
// informer is a *ResourceInformer.
func NewFilteredDynamicInformer(client dynamic.Interface, gvr schema.GroupVersionResource, namespace string, resyncPeriod time.Duration, indexers clientcache.Indexers, tweakListOptions TweakListOptionsFunc) clientgoinformers.GenericInformer {
	return gvrfactory.NewResourceInformer(kind(client), gvr, namespace, informers.InformerOptions{
		ResyncPeriod:     resyncPeriod,
		Indexers:         indexers,
		TweakListOptions: informers.TweakListOptionsFunc(tweakListOptions),
	})
}
