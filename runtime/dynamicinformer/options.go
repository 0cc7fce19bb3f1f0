package dynamicinformer

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kubediscovery "k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic/dynamiclister"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory"
)

// SharedInformerOption configures a Factory built by
// NewDynamicSharedInformerFactoryWithOptions; it is applied once, by the
// constructor, before the factory creates any informer.
type SharedInformerOption = gvrfactory.Option[*unstructured.Unstructured, dynamiclister.NamespaceLister]

// WithNamespace limits the factory's informers to one namespace.
func WithNamespace(namespace string) SharedInformerOption {
	return gvrfactory.WithNamespace[*unstructured.Unstructured, dynamiclister.NamespaceLister](namespace)
}

// WithTweakListOptions sets a change applied to the options of every list
// and watch.
func WithTweakListOptions(tweak TweakListOptionsFunc) SharedInformerOption {
	return gvrfactory.WithTweakListOptions[*unstructured.Unstructured, dynamiclister.NamespaceLister](informers.TweakListOptionsFunc(tweak))
}

// WithTransform sets a transform applied to every object of every informer
// before it is cached (see cache.SharedIndexInformer.SetTransform): it
// receives an *unstructured.Unstructured and must return one.
func WithTransform(transform clientcache.TransformFunc) SharedInformerOption {
	return gvrfactory.WithTransform[*unstructured.Unstructured, dynamiclister.NamespaceLister](transform)
}

// WithDiscovery makes Start start only the informers of resources the server
// serves, asking client (cached in memory), and fail fast, skip or wait for
// the others by mode, as runtime/informers.WithDiscovery does for generated
// factories: see the package documentation.
func WithDiscovery(client kubediscovery.DiscoveryInterfaceWithContext, mode discovery.Mode) SharedInformerOption {
	return gvrfactory.WithDiscovery[*unstructured.Unstructured, dynamiclister.NamespaceLister](client, mode)
}

// WithDiscoveryOptions is WithDiscovery with the backoff of Wait mode's polls
// and the interval of the rechecks of running resources set too.
func WithDiscoveryOptions(client kubediscovery.DiscoveryInterfaceWithContext, options discovery.Options) SharedInformerOption {
	return gvrfactory.WithDiscoveryOptions[*unstructured.Unstructured, dynamiclister.NamespaceLister](client, options)
}

// WithShardScope makes every informer of the factory keep only the objects
// of scope, this replica's share when replicas split the resources (see
// runtime/shard's Ring.Scope and cache.SharedIndexInformer.SetShardScope):
// the server selects them when it supports sharded lists, the informers
// otherwise.
func WithShardScope(scope cache.ShardScope) SharedInformerOption {
	return gvrfactory.WithShardScope[*unstructured.Unstructured, dynamiclister.NamespaceLister](scope)
}
