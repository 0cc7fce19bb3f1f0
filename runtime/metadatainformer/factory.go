package metadatainformer

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	clientgoinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/metadata"
	clientgometadatainformer "k8s.io/client-go/metadata/metadatainformer"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/gvrfactory"
)

// SharedInformerFactory is client-go's factory interface, which Factory
// implements: code that declares variables and parameters of this type keeps
// compiling after switching packages.
type SharedInformerFactory = clientgometadatainformer.SharedInformerFactory

// TweakListOptionsFunc changes the options of every list and watch of a
// factory's informers, for example to select by label. It is client-go's
// type, so functions of either package's type are accepted.
type TweakListOptionsFunc = clientgometadatainformer.TweakListOptionsFunc

// SharedInformerOption configures a Factory; it is applied once, by the
// constructor, before the factory creates any informer.
type SharedInformerOption func(*Factory) *Factory

// WithTransform sets a transform applied to every object of every informer
// before it is cached (see cache.SharedIndexInformer.SetTransform): it
// receives a *metav1.PartialObjectMetadata and must return one.
func WithTransform(transform clientcache.TransformFunc) SharedInformerOption {
	return func(f *Factory) *Factory {
		f.config.Transform = transform
		return f
	}
}

// WithNamespace limits the factory's informers to one namespace.
func WithNamespace(namespace string) SharedInformerOption {
	return func(f *Factory) *Factory {
		f.config.Namespace = namespace
		return f
	}
}

// WithTweakListOptions sets a change applied to the options of every list
// and watch.
func WithTweakListOptions(tweak TweakListOptionsFunc) SharedInformerOption {
	return func(f *Factory) *Factory {
		f.config.TweakListOptions = informers.TweakListOptionsFunc(tweak)
		return f
	}
}

// Factory holds one shared informer of object metadata per
// GroupVersionResource, as client-go's metadata factory does. Its methods
// are safe for concurrent use.
type Factory struct {
	config gvrfactory.Config[*metav1.PartialObjectMetadata, *ResourceInformer] // read by New only
	f      *gvrfactory.Factory[*metav1.PartialObjectMetadata, *ResourceInformer]
}

var _ SharedInformerFactory = (*Factory)(nil)

// NewSharedInformerFactory returns a factory of informers of every
// namespace whose handlers resync every defaultResync (zero: never).
func NewSharedInformerFactory(client metadata.Interface, defaultResync time.Duration) *Factory {
	return NewFilteredSharedInformerFactory(client, defaultResync, metav1.NamespaceAll, nil)
}

// NewFilteredSharedInformerFactory returns a factory of informers of
// namespace (metav1.NamespaceAll: every namespace) whose lists and watches
// tweakListOptions changes (when not nil).
func NewFilteredSharedInformerFactory(client metadata.Interface, defaultResync time.Duration, namespace string, tweakListOptions TweakListOptionsFunc) *Factory {
	return NewSharedInformerFactoryWithOptions(client, defaultResync, WithNamespace(namespace), WithTweakListOptions(tweakListOptions))
}

// NewSharedInformerFactoryWithOptions returns a factory configured by
// options, applied in order.
func NewSharedInformerFactoryWithOptions(client metadata.Interface, defaultResync time.Duration, options ...SharedInformerOption) *Factory {
	f := &Factory{config: gvrfactory.Config[*metav1.PartialObjectMetadata, *ResourceInformer]{
		NewInformer:   newInformer(client),
		Compile:       compile,
		Namespace:     metav1.NamespaceAll,
		DefaultResync: defaultResync,
		Wrap: func(i *gvrfactory.Informer[*metav1.PartialObjectMetadata]) *ResourceInformer {
			return &ResourceInformer{i}
		},
	}}
	for _, o := range options {
		f = o(f)
	}
	f.f = gvrfactory.New(f.config)
	return f
}

// newInformer returns the constructor of the informers of client.
func newInformer(client metadata.Interface) func(schema.GroupVersionResource, string, informers.InformerOptions) *cache.SharedIndexInformer[*metav1.PartialObjectMetadata] {
	return func(gvr schema.GroupVersionResource, namespace string, options informers.InformerOptions) *cache.SharedIndexInformer[*metav1.PartialObjectMetadata] {
		// The client is asked for the resource on every request, as
		// client-go's informers do, so that building an informer never
		// touches the client.
		list := func(ctx context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
			return client.Resource(gvr).Namespace(namespace).List(ctx, opts)
		}
		watchFn := func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return client.Resource(gvr).Namespace(namespace).Watch(ctx, opts)
		}
		return informers.NewInformer[*metav1.PartialObjectMetadata](list, watchFn, client, gvr, options)
	}
}

// ForResource returns the factory's shared informer of gvr, creating it on
// first use; it is the *ResourceInformer Resource returns.
func (f *Factory) ForResource(gvr schema.GroupVersionResource) clientgoinformers.GenericInformer {
	return f.Resource(gvr)
}

// Resource returns the factory's shared informer of gvr, creating it on
// first use, with its run-time indexes and lookups. Every call with the same
// gvr returns the same informer.
func (f *Factory) Resource(gvr schema.GroupVersionResource) *ResourceInformer {
	return f.f.Informer(gvr)
}

// Start starts every informer requested so far that is not running; it may
// be called again after more informers are requested. Informers stop when
// stopCh is closed.
func (f *Factory) Start(stopCh <-chan struct{}) { f.f.Start(stopCh) }

// StartWithContext is Start with a context: informers stop when ctx ends.
func (f *Factory) StartWithContext(ctx context.Context) { f.f.StartWithContext(ctx) }

// WaitForCacheSync waits until every started informer has synced or stopCh
// is closed, and reports which have synced.
func (f *Factory) WaitForCacheSync(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool {
	return f.f.WaitForCacheSync(stopCh)
}

// WaitForCacheSyncWithContext waits, without polling, until every started
// informer has synced or ctx ends, and reports which have synced; the error
// is the context's cause when some have not.
func (f *Factory) WaitForCacheSyncWithContext(ctx context.Context) (map[schema.GroupVersionResource]bool, error) {
	return f.f.WaitForCacheSyncWithContext(ctx)
}

// Shutdown marks the factory as shutting down (Start does nothing from then
// on) and waits until every informer it started has stopped: their stop
// channel must be closed, or their context cancelled, before or while it
// waits. It may be called more than once, also concurrently.
func (f *Factory) Shutdown() { f.f.Shutdown() }
