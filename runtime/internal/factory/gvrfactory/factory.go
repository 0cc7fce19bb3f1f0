package gvrfactory

import (
	"context"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	clientgoinformers "k8s.io/client-go/informers"
	clientcache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/syncstate"
)

// Factory holds one shared informer of objects of type T per
// GroupVersionResource, as client-go's dynamic and metadata factories do,
// and implements their factory interfaces. Its methods are safe for
// concurrent use.
type Factory[T cache.Object, N any] struct {
	kind          Kind[T, N]
	defaultResync time.Duration
	settings      settings

	mu           sync.Mutex
	informers    map[schema.GroupVersionResource]*ResourceInformer[T, N]
	started      map[schema.GroupVersionResource]bool
	running      sync.WaitGroup
	shuttingDown bool
}

// New returns a factory whose informers kind builds, with handlers that
// resync every defaultResync (zero: never), configured by options applied in
// order.
func New[T cache.Object, N any](kind Kind[T, N], defaultResync time.Duration, options ...Option[T, N]) *Factory[T, N] {
	f := &Factory[T, N]{
		kind:          kind,
		defaultResync: defaultResync,
		settings:      settings{namespace: metav1.NamespaceAll},
		informers:     map[schema.GroupVersionResource]*ResourceInformer[T, N]{},
		started:       map[schema.GroupVersionResource]bool{},
	}
	for _, o := range options {
		f = o(f)
	}
	return f
}

// ForResource returns the factory's shared informer of gvr, creating it on
// first use; it is the *ResourceInformer Resource returns.
func (f *Factory[T, N]) ForResource(gvr schema.GroupVersionResource) clientgoinformers.GenericInformer {
	return f.Resource(gvr)
}

// Resource returns the factory's shared informer of gvr, creating it on
// first use, with its run-time indexes and lookups: the same informer for
// every call with the same gvr. As client-go's factories do, a new informer
// carries cache.NamespaceIndex (answered by the runtime's store at no cost)
// and the factory's transform. An informer requested after Start runs from
// the next Start.
func (f *Factory[T, N]) Resource(gvr schema.GroupVersionResource) *ResourceInformer[T, N] {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.informers[gvr]; ok {
		return r
	}
	typed := f.kind.NewInformer(gvr, f.settings.namespace, informers.InformerOptions{
		ResyncPeriod:     f.defaultResync,
		Indexers:         clientcache.Indexers{clientcache.NamespaceIndex: clientcache.MetaNamespaceIndexFunc},
		TweakListOptions: f.settings.tweak,
	})
	if f.settings.transform != nil {
		// A new informer has not started: SetTransform cannot fail.
		_ = typed.SetTransform(f.settings.transform)
	}
	if f.settings.shard != nil {
		// Nor can SetShardScope.
		_ = typed.SetShardScope(f.settings.shard)
	}
	r := newResourceInformer(f.kind, gvr, typed)
	f.informers[gvr] = r
	return r
}

// Start starts every informer requested so far that is not running; it may
// be called again after more informers are requested. Informers stop when
// stopCh is closed.
//
// With WithDiscovery, Start first asks discovery whether the server serves
// each informer's resource (it waits for at most two refreshes of the
// discovery cache, none when the cache answers), starts those it serves, and
// fails fast, skips or waits for the others by the mode (see
// discovery.Mode). Missing and failed resources are logged, and StartError
// returns them until a later Start starts them. Start never waits for a
// resource that is not served to appear.
func (f *Factory[T, N]) Start(stopCh <-chan struct{}) {
	f.StartWithContext(wait.ContextForChannel(stopCh))
}

// StartWithContext is Start with a context: informers (and discovery's
// polls) stop when ctx ends, and log through its logger.
func (f *Factory[T, N]) StartWithContext(ctx context.Context) {
	gated := f.startUngated(ctx)
	syncstate.StartGated(ctx, f.settings.discovery, gated, func(gvr schema.GroupVersionResource) { f.startResource(ctx, gvr) }, f.isShuttingDown)
}

// startUngated starts, without discovery, every informer that is not
// running; with discovery it starts none and returns their resources.
func (f *Factory[T, N]) startUngated(ctx context.Context) []schema.GroupVersionResource {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shuttingDown {
		return nil
	}
	var gated []schema.GroupVersionResource
	for gvr := range f.informers {
		switch {
		case f.started[gvr]:
		case f.settings.discovery != nil:
			gated = append(gated, gvr)
		default:
			f.startLocked(ctx, gvr)
		}
	}
	return gated
}

// startResource starts the informer of gvr if it is not running, unless the
// factory is shutting down: discovery calls it once the server serves gvr.
func (f *Factory[T, N]) startResource(ctx context.Context, gvr schema.GroupVersionResource) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.informers[gvr]; ok && !f.shuttingDown && !f.started[gvr] {
		f.startLocked(ctx, gvr)
	}
}

// startLocked runs the informer of gvr until ctx ends; f.mu must be held.
func (f *Factory[T, N]) startLocked(ctx context.Context, gvr schema.GroupVersionResource) {
	f.started[gvr] = true
	klog.FromContext(ctx).V(4).Info("Starting informer", "resource", gvr)
	informer := f.informers[gvr].informer
	f.running.Go(func() { informer.RunWithContext(ctx) })
}

// isShuttingDown reports whether Shutdown has been called.
func (f *Factory[T, N]) isShuttingDown() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.shuttingDown
}

// Shutdown marks the factory as shutting down (Start does nothing from then
// on) and waits until every informer it started (and, with WithDiscovery,
// every discovery poll) has stopped. The caller must stop them, by closing
// their stop channel or cancelling their context, before or while Shutdown
// waits. It may be called more than once, also concurrently.
func (f *Factory[T, N]) Shutdown() {
	f.mu.Lock()
	f.shuttingDown = true
	f.mu.Unlock()
	if f.settings.discovery != nil {
		f.settings.discovery.Shutdown()
	}
	f.running.Wait()
}
