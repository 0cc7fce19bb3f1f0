package dynamicinformer

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	clientgodynamicinformer "k8s.io/client-go/dynamic/dynamicinformer"
	clientgoinformers "k8s.io/client-go/informers"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/gvrfactory"
)

// DynamicSharedInformerFactory is client-go's factory interface, which
// Factory implements: code that declares variables and parameters of this
// type keeps compiling after switching packages.
type DynamicSharedInformerFactory = clientgodynamicinformer.DynamicSharedInformerFactory

// TweakListOptionsFunc changes the options of every list and watch of a
// factory's informers, for example to select by label. It is client-go's
// type, so functions of either package's type are accepted.
type TweakListOptionsFunc = clientgodynamicinformer.TweakListOptionsFunc

// Factory holds one shared informer of unstructured objects per
// GroupVersionResource, as client-go's dynamic factory does. Its methods are
// safe for concurrent use.
type Factory struct {
	f *gvrfactory.Factory[*unstructured.Unstructured, *ResourceInformer]
}

var _ DynamicSharedInformerFactory = (*Factory)(nil)

// NewDynamicSharedInformerFactory returns a factory of informers of every
// namespace whose handlers resync every defaultResync (zero: never).
func NewDynamicSharedInformerFactory(client dynamic.Interface, defaultResync time.Duration) *Factory {
	return NewFilteredDynamicSharedInformerFactory(client, defaultResync, metav1.NamespaceAll, nil)
}

// NewFilteredDynamicSharedInformerFactory returns a factory of informers of
// namespace (metav1.NamespaceAll: every namespace) whose lists and watches
// tweakListOptions changes (when not nil).
func NewFilteredDynamicSharedInformerFactory(client dynamic.Interface, defaultResync time.Duration, namespace string, tweakListOptions TweakListOptionsFunc) *Factory {
	return &Factory{f: gvrfactory.New(gvrfactory.Config[*unstructured.Unstructured, *ResourceInformer]{
		NewInformer:      newInformer(client),
		Compile:          compile,
		Namespace:        namespace,
		TweakListOptions: informers.TweakListOptionsFunc(tweakListOptions),
		DefaultResync:    defaultResync,
		Wrap: func(i *gvrfactory.Informer[*unstructured.Unstructured]) *ResourceInformer {
			return &ResourceInformer{i}
		},
	})}
}

// newInformer returns the constructor of the informers of client.
func newInformer(client dynamic.Interface) func(schema.GroupVersionResource, string, informers.InformerOptions) *cache.SharedIndexInformer[*unstructured.Unstructured] {
	return func(gvr schema.GroupVersionResource, namespace string, options informers.InformerOptions) *cache.SharedIndexInformer[*unstructured.Unstructured] {
		// The client is asked for the resource on every request, as
		// client-go's informers do, so that building an informer never
		// touches the client.
		list := func(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
			return client.Resource(gvr).Namespace(namespace).List(ctx, opts)
		}
		watchFn := func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return client.Resource(gvr).Namespace(namespace).Watch(ctx, opts)
		}
		return informers.NewInformer[*unstructured.Unstructured](list, watchFn, client, gvr, options)
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
