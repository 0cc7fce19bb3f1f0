package gvrfactory

import (
	kubediscovery "k8s.io/client-go/discovery"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
)

// Option configures a Factory, with the signature of client-go's metadata
// factory options. New applies the options once, in order, before the
// factory creates any informer; applying one to a factory in use is a race.
type Option[T cache.Object, N any] func(*Factory[T, N]) *Factory[T, N]

// settings are what the options set.
type settings struct {
	namespace string
	tweak     informers.TweakListOptionsFunc
	transform clientcache.TransformFunc
	// shard, when set (WithShardScope), limits every informer to it.
	shard cache.ShardScope
	// discovery, when set (WithDiscovery), decides which informers Start
	// starts.
	discovery *discovery.Tracker
}

// WithNamespace limits the factory's informers to one namespace
// (metav1.NamespaceAll, the default: every namespace).
func WithNamespace[T cache.Object, N any](namespace string) Option[T, N] {
	return func(f *Factory[T, N]) *Factory[T, N] {
		f.settings.namespace = namespace
		return f
	}
}

// WithTweakListOptions sets a change applied to the options of every list
// and watch (nil: none).
func WithTweakListOptions[T cache.Object, N any](tweak informers.TweakListOptionsFunc) Option[T, N] {
	return func(f *Factory[T, N]) *Factory[T, N] {
		f.settings.tweak = tweak
		return f
	}
}

// WithTransform sets a transform applied to every object of every informer
// before it is cached (see cache.SharedIndexInformer.SetTransform): it
// receives a T and must return one.
func WithTransform[T cache.Object, N any](transform clientcache.TransformFunc) Option[T, N] {
	return func(f *Factory[T, N]) *Factory[T, N] {
		f.settings.transform = transform
		return f
	}
}

// WithShardScope makes every informer of the factory keep only the objects
// of scope, this replica's share when replicas split the resources (see
// runtime/informers.WithShardScope).
func WithShardScope[T cache.Object, N any](scope cache.ShardScope) Option[T, N] {
	return func(f *Factory[T, N]) *Factory[T, N] {
		f.settings.shard = scope
		return f
	}
}

// WithDiscovery makes Start ask the server, through client (cached in
// memory, see runtime/discovery), whether it serves each informer's resource
// with the list and watch verbs before starting the informer, and do with an
// informer whose resource it does not serve what mode says, exactly as
// runtime/informers.WithDiscovery does:
//
//   - discovery.FailFast (the zero value): not start it, log an error and
//     keep one for StartError naming every such resource;
//   - discovery.Skip: not start it, report it Skipped;
//   - discovery.Wait: poll discovery with backoff and start it once the
//     server serves it (a CRD installed later gets its informer then).
//
// In every mode an informer whose resource the server stops serving while it
// runs is reported Removed and logged, keeps running (its lists back off)
// and resumes when the resource is served again; and WaitForCacheSync does
// not wait for an informer whose resource is not served.
func WithDiscovery[T cache.Object, N any](client kubediscovery.DiscoveryInterfaceWithContext, mode discovery.Mode) Option[T, N] {
	return WithDiscoveryOptions[T, N](client, discovery.Options{Mode: mode})
}

// WithDiscoveryOptions is WithDiscovery with the backoff of Wait mode's polls
// and the interval of the rechecks of running resources set too. Each
// factory the option is applied to gets a tracker of its own.
func WithDiscoveryOptions[T cache.Object, N any](client kubediscovery.DiscoveryInterfaceWithContext, options discovery.Options) Option[T, N] {
	return func(f *Factory[T, N]) *Factory[T, N] {
		f.settings.discovery = discovery.New(client, options)
		return f
	}
}
