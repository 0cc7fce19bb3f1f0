// Package informers is the shared informer factory that generated
// informers/externalversions packages wrap, and the constructor their
// per-kind informers use. The factory holds one shared informer per object
// type, created on first use with the factory's namespace, list options,
// transform, resync period and informer name, and starts, waits for and
// shuts down all of them together: the contract of informer-gen's factories,
// over client-go's informer interfaces, so that it holds this module's typed
// informers and client-go's alike.
package informers

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
)

// TweakListOptionsFunc changes the list options of every list and watch of
// the factory's informers, for example to select by label.
type TweakListOptionsFunc func(*metav1.ListOptions)

// Option configures a Factory.
type Option func(*settings)

type settings struct {
	namespace    string
	tweak        TweakListOptionsFunc
	transform    cache.TransformFunc
	customResync map[reflect.Type]time.Duration
	informerName *cache.InformerName
}

// WithNamespace limits the factory's informers to one namespace.
func WithNamespace(namespace string) Option {
	return func(s *settings) { s.namespace = namespace }
}

// WithTweakListOptions sets a change applied to the list options of every
// list and watch.
func WithTweakListOptions(tweak TweakListOptionsFunc) Option {
	return func(s *settings) { s.tweak = tweak }
}

// WithTransform sets a transform applied to every object of every informer
// before it is cached (see cache.TransformFunc): it receives the informer's
// object and must return an object of the same type.
func WithTransform(transform cache.TransformFunc) Option {
	return func(s *settings) { s.transform = transform }
}

// WithCustomResyncConfig sets the resync period of the informers of the given
// object types (the keys are examples of those types, such as &v1.Pod{}).
func WithCustomResyncConfig(config map[metav1.Object]time.Duration) Option {
	return func(s *settings) {
		for obj, period := range config {
			s.customResync[reflect.TypeOf(obj)] = period
		}
	}
}

// WithInformerName names the factory's informers in client-go's informer
// metrics. The name must come from cache.NewInformerName, which checks that
// it is unique in the process; Shutdown releases it.
func WithInformerName(name *cache.InformerName) Option {
	return func(s *settings) { s.informerName = name }
}

// Factory holds shared informers keyed by object type. Its methods are safe
// for concurrent use.
type Factory struct {
	defaultResync time.Duration
	settings      settings

	mu           sync.Mutex
	informers    map[reflect.Type]cache.SharedIndexInformer
	started      map[reflect.Type]bool
	running      sync.WaitGroup
	shuttingDown bool
}

// NewFactory returns a factory whose informers resync every defaultResync
// (zero: never) unless configured otherwise.
func NewFactory(defaultResync time.Duration, options ...Option) *Factory {
	f := &Factory{
		defaultResync: defaultResync,
		settings:      settings{namespace: metav1.NamespaceAll, customResync: map[reflect.Type]time.Duration{}},
		informers:     map[reflect.Type]cache.SharedIndexInformer{},
		started:       map[reflect.Type]bool{},
	}
	for _, o := range options {
		o(&f.settings)
	}
	return f
}

// Namespace returns the namespace the factory's informers watch ("" for all).
func (f *Factory) Namespace() string { return f.settings.namespace }

// TweakListOptions returns the factory's list options change, or nil.
func (f *Factory) TweakListOptions() TweakListOptionsFunc { return f.settings.tweak }

// InformerName returns the factory's informer name, or nil.
func (f *Factory) InformerName() *cache.InformerName { return f.settings.informerName }

// InformerFor returns the factory's shared informer of obj's type, creating it
// on first use with newInformer and the type's resync period, and setting the
// factory's transform on it.
func (f *Factory) InformerFor(obj runtime.Object, newInformer func(resync time.Duration) cache.SharedIndexInformer) cache.SharedIndexInformer {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := reflect.TypeOf(obj)
	if inf, ok := f.informers[key]; ok {
		return inf
	}
	resync, ok := f.settings.customResync[key]
	if !ok {
		resync = f.defaultResync
	}
	inf := newInformer(resync)
	if f.settings.transform != nil {
		// A new informer has not started: SetTransform cannot fail.
		_ = inf.SetTransform(f.settings.transform)
	}
	f.informers[key] = inf
	return inf
}

// Start starts every informer requested so far that is not running; it may
// be called again after more informers are requested. Informers stop when
// stopCh is closed.
func (f *Factory) Start(stopCh <-chan struct{}) {
	f.StartWithContext(wait.ContextForChannel(stopCh))
}

// StartWithContext is Start with a context.
func (f *Factory) StartWithContext(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shuttingDown {
		return
	}
	for key, inf := range f.informers {
		if !f.started[key] {
			f.started[key] = true
			f.running.Go(func() { inf.RunWithContext(ctx) })
		}
	}
}

// Shutdown marks the factory as shutting down (Start does nothing from then
// on), waits until every informer it started has stopped, and releases the
// informer name. The caller must stop the informers, by closing their stop
// channel or cancelling their context, before or while Shutdown waits.
func (f *Factory) Shutdown() {
	f.mu.Lock()
	f.shuttingDown = true
	f.mu.Unlock()
	f.running.Wait()
	f.settings.informerName.Release()
}

// WaitForCacheSync waits until every started informer has synced or stopCh
// is closed, and reports which have synced.
func (f *Factory) WaitForCacheSync(stopCh <-chan struct{}) map[reflect.Type]bool {
	return f.WaitForCacheSyncWithContext(wait.ContextForChannel(stopCh)).Synced
}

// WaitForCacheSyncWithContext waits, without polling, until every started
// informer has synced or ctx ends. Err is the context's cause when some have
// not.
func (f *Factory) WaitForCacheSyncWithContext(ctx context.Context) cache.SyncResult {
	f.mu.Lock()
	started := map[reflect.Type]cache.SharedIndexInformer{}
	for key, inf := range f.informers {
		if f.started[key] {
			started[key] = inf
		}
	}
	f.mu.Unlock()
	checkers := make([]cache.DoneChecker, 0, len(started))
	for _, inf := range started {
		checkers = append(checkers, inf.HasSyncedChecker())
	}
	cache.WaitFor(ctx, "", checkers...)
	result := cache.SyncResult{Synced: make(map[reflect.Type]bool, len(started))}
	for key, inf := range started {
		synced := inf.HasSynced()
		result.Synced[key] = synced
		if !synced && result.Err == nil {
			result.Err = context.Cause(ctx)
			if result.Err == nil {
				result.Err = fmt.Errorf("informer for %v has not synced", key)
			}
		}
	}
	return result
}
