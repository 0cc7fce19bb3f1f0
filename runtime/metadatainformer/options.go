package metadatainformer

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubediscovery "k8s.io/client-go/discovery"
	"k8s.io/client-go/metadata/metadatalister"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory"
)

// SharedInformerOption configures a Factory (a func(*Factory) *Factory, as
// client-go's); it is applied once, by the constructor, before the factory
// creates any informer.
type SharedInformerOption = gvrfactory.Option[*metav1.PartialObjectMetadata, metadatalister.NamespaceLister]

// WithTransform sets a transform applied to every object of every informer
// before it is cached (see cache.SharedIndexInformer.SetTransform): it
// receives a *metav1.PartialObjectMetadata and must return one.
func WithTransform(transform clientcache.TransformFunc) SharedInformerOption {
	return gvrfactory.WithTransform[*metav1.PartialObjectMetadata, metadatalister.NamespaceLister](transform)
}

// WithNamespace limits the factory's informers to one namespace.
func WithNamespace(namespace string) SharedInformerOption {
	return gvrfactory.WithNamespace[*metav1.PartialObjectMetadata, metadatalister.NamespaceLister](namespace)
}

// WithTweakListOptions sets a change applied to the options of every list
// and watch.
func WithTweakListOptions(tweak TweakListOptionsFunc) SharedInformerOption {
	return gvrfactory.WithTweakListOptions[*metav1.PartialObjectMetadata, metadatalister.NamespaceLister](informers.TweakListOptionsFunc(tweak))
}

// WithDiscovery makes Start start only the informers of resources the server
// serves, asking client (cached in memory), and fail fast, skip or wait for
// the others by mode, as runtime/informers.WithDiscovery does for generated
// factories: see the package documentation.
func WithDiscovery(client kubediscovery.DiscoveryInterfaceWithContext, mode discovery.Mode) SharedInformerOption {
	return gvrfactory.WithDiscovery[*metav1.PartialObjectMetadata, metadatalister.NamespaceLister](client, mode)
}

// WithDiscoveryOptions is WithDiscovery with the backoff of Wait mode's polls
// and the interval of the rechecks of running resources set too.
func WithDiscoveryOptions(client kubediscovery.DiscoveryInterfaceWithContext, options discovery.Options) SharedInformerOption {
	return gvrfactory.WithDiscoveryOptions[*metav1.PartialObjectMetadata, metadatalister.NamespaceLister](client, options)
}

// WithShardScope makes every informer of the factory keep only the objects
// of scope, this replica's share when replicas split the resources (see
// runtime/shard's Ring.Scope and cache.SharedIndexInformer.SetShardScope):
// the server selects them when it supports sharded lists, the informers
// otherwise.
func WithShardScope(scope cache.ShardScope) SharedInformerOption {
	return gvrfactory.WithShardScope[*metav1.PartialObjectMetadata, metadatalister.NamespaceLister](scope)
}
