package gvrfactory

import (
	"context"
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	clientcache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
)

// Config is what a Factory builds its informers with.
type Config[T cache.Object, I any] struct {
	// NewInformer returns a new, not started informer of gvr in namespace
	// (metav1.NamespaceAll: every namespace) configured by options. Required.
	NewInformer func(gvr schema.GroupVersionResource, namespace string, options informers.InformerOptions) *cache.SharedIndexInformer[T]
	// Compile turns index specs into index functions for the informers'
	// stores. Required.
	Compile CompileFunc[T]
	// Namespace limits the informers to one namespace; "" is every one.
	Namespace string
	// TweakListOptions, when set, changes the options of every list and
	// watch.
	TweakListOptions informers.TweakListOptionsFunc
	// Transform, when set, is set on every informer (see
	// cache.SharedIndexInformer.SetTransform).
	Transform clientcache.TransformFunc
	// DefaultResync is the informers' resync period; zero: none.
	DefaultResync time.Duration
	// Wrap returns the value Factory.Informer hands out for a new informer
	// (the package's own informer type), once per informer. Required.
	Wrap func(*Informer[T]) I
}

// Factory holds one shared informer per GroupVersionResource, handed out as
// an I (see Config.Wrap). Its methods are safe for concurrent use.
type Factory[T cache.Object, I any] struct {
	config Config[T, I]

	mu           sync.Mutex
	informers    map[schema.GroupVersionResource]entry[T, I]
	started      map[schema.GroupVersionResource]bool
	running      sync.WaitGroup
	shuttingDown bool
}

// New returns a factory that builds its informers with config.
func New[T cache.Object, I any](config Config[T, I]) *Factory[T, I] {
	return &Factory[T, I]{
		config:    config,
		informers: map[schema.GroupVersionResource]entry[T, I]{},
		started:   map[schema.GroupVersionResource]bool{},
	}
}

// entry is one informer of a factory and what Wrap made of it.
type entry[T cache.Object, I any] struct {
	informer *Informer[T]
	wrapped  I
}

// Informer returns the factory's shared informer of gvr, creating it on
// first use: the same I for every call with the same gvr. As client-go's
// factories do, a new informer carries cache.NamespaceIndex (answered by
// the runtime's store at no cost).
func (f *Factory[T, I]) Informer(gvr schema.GroupVersionResource) I {
	f.mu.Lock()
	defer f.mu.Unlock()
	if e, ok := f.informers[gvr]; ok {
		return e.wrapped
	}
	typed := f.config.NewInformer(gvr, f.config.Namespace, informers.InformerOptions{
		ResyncPeriod:     f.config.DefaultResync,
		Indexers:         clientcache.Indexers{clientcache.NamespaceIndex: clientcache.MetaNamespaceIndexFunc},
		TweakListOptions: f.config.TweakListOptions,
	})
	if f.config.Transform != nil {
		// A new informer has not started: SetTransform cannot fail.
		_ = typed.SetTransform(f.config.Transform)
	}
	e := entry[T, I]{informer: NewInformer(gvr, typed, f.config.Compile)}
	e.wrapped = f.config.Wrap(e.informer)
	f.informers[gvr] = e
	return e.wrapped
}

// Start starts every informer requested so far that is not running; it may
// be called again after more informers are requested. Informers stop when
// stopCh is closed.
func (f *Factory[T, I]) Start(stopCh <-chan struct{}) {
	f.StartWithContext(wait.ContextForChannel(stopCh))
}

// StartWithContext is Start with a context: informers stop when ctx ends,
// and log through its logger.
func (f *Factory[T, I]) StartWithContext(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shuttingDown {
		return
	}
	logger := klog.FromContext(ctx)
	for gvr, e := range f.informers {
		if f.started[gvr] {
			continue
		}
		f.started[gvr] = true
		logger.V(4).Info("Starting informer", "resource", gvr)
		informer := e.informer.Typed()
		f.running.Go(func() { informer.RunWithContext(ctx) })
	}
}

// WaitForCacheSync waits until every started informer has synced or stopCh
// is closed, and reports which have synced.
func (f *Factory[T, I]) WaitForCacheSync(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool {
	synced, _ := f.WaitForCacheSyncWithContext(wait.ContextForChannel(stopCh))
	return synced
}

// WaitForCacheSyncWithContext waits, without polling, until every started
// informer has synced or ctx ends, and reports which have synced. The error
// is the context's cause when some have not.
func (f *Factory[T, I]) WaitForCacheSyncWithContext(ctx context.Context) (map[schema.GroupVersionResource]bool, error) {
	f.mu.Lock()
	started := map[schema.GroupVersionResource]*cache.SharedIndexInformer[T]{}
	for gvr, e := range f.informers {
		if f.started[gvr] {
			started[gvr] = e.informer.Typed()
		}
	}
	f.mu.Unlock()
	checkers := make([]clientcache.DoneChecker, 0, len(started))
	for _, inf := range started {
		checkers = append(checkers, inf.HasSyncedChecker())
	}
	clientcache.WaitFor(ctx, "", checkers...)
	synced := make(map[schema.GroupVersionResource]bool, len(started))
	var err error
	for gvr, inf := range started {
		synced[gvr] = inf.HasSynced()
		if !synced[gvr] && err == nil {
			err = context.Cause(ctx)
			if err == nil {
				err = fmt.Errorf("informer of %s has not synced", gvr)
			}
		}
	}
	return synced, err
}

// Shutdown marks the factory as shutting down (Start does nothing from then
// on) and waits until every informer it started has stopped. The caller
// must stop the informers, by closing their stop channel or cancelling their
// context, before or while Shutdown waits. It may be called more than once,
// also concurrently.
func (f *Factory[T, I]) Shutdown() {
	f.mu.Lock()
	f.shuttingDown = true
	f.mu.Unlock()
	f.running.Wait()
}
