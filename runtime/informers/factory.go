// Package informers is the shared informer factory that generated
// informers/externalversions packages wrap, and the constructor their
// per-kind informers use. The factory holds one shared informer per object
// type, created on first use with the factory's namespace, list options,
// transform, resync period and informer name, and starts, waits for and
// shuts down all of them together: the contract of informer-gen's factories,
// over client-go's informer interfaces, so that it holds this module's typed
// informers and client-go's alike.
//
// With WithDiscovery, Start first asks the server (through runtime/discovery)
// whether it serves the resource of each informer that knows it, and starts
// only those, failing fast, skipping or waiting for the others as configured;
// SyncStatus and WaitForCacheSyncStatus then say, per informer, why one is
// not synced instead of WaitForCacheSync blocking forever on it.
package informers

import (
	"context"
	"reflect"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	runtimecache "github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/syncstate"
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
	intern       func(obj, old any)
	customResync map[reflect.Type]time.Duration
	informerName *cache.InformerName
	// shard, when set (WithShardScope), limits every informer to it.
	shard runtimecache.ShardScope
	// discovery, when set (WithDiscovery), decides which informers of a
	// known resource Start starts.
	discovery *discovery.Tracker
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

// WithIntern sets the function that interns the objects of every informer
// after its transform (see runtime/cache.InternFunc); nil, the default,
// turns interning off. A generated factory with interning sets its Intern
// function first, so that a later WithIntern(nil) (its WithoutInterning)
// turns it off. Informers not built by this module's runtime are not
// interned.
func WithIntern(intern func(obj, old any)) Option {
	return func(s *settings) { s.intern = intern }
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

// WithShardScope makes every informer of the factory keep only the objects
// of scope, the share of this replica when replicas split a resource (see
// runtime/shard's Ring.Scope and cache.SharedIndexInformer.SetShardScope):
// the server selects them when it supports sharded lists, the informers
// otherwise. Informers that cannot be limited (those not built by this
// module's runtime) are left whole, and a log line at Start names them.
func WithShardScope(scope runtimecache.ShardScope) Option {
	return func(s *settings) { s.shard = scope }
}

// Factory holds shared informers keyed by object type. Its methods are safe
// for concurrent use.
type Factory struct {
	defaultResync time.Duration
	settings      settings

	mu        sync.Mutex
	informers map[reflect.Type]cache.SharedIndexInformer
	// resources are the resources of the informers that know theirs (see
	// resourceOf).
	resources map[reflect.Type]schema.GroupVersionResource
	started   map[reflect.Type]bool
	// unsharded are the types of informers WithShardScope could not limit.
	unsharded    []reflect.Type
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
		resources:     map[reflect.Type]schema.GroupVersionResource{},
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
// factory's transform and interning on it. The factory learns the informer's
// resource when the informer has a GroupVersionResource method returning it
// (those built by NewInformer do); with WithDiscovery only those are started
// according to discovery, any other is started unconditionally.
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
	if f.settings.intern != nil {
		if in, ok := inf.(internable); ok {
			// A new informer has not started: SetIntern cannot fail.
			_ = in.SetIntern(f.settings.intern)
		}
	}
	if f.settings.shard != nil {
		if sharded, ok := inf.(shardable); ok {
			// A new informer has not started: SetShardScope cannot fail.
			_ = sharded.SetShardScope(f.settings.shard)
		} else {
			f.unsharded = append(f.unsharded, key)
		}
	}
	f.informers[key] = inf
	if gvr, ok := resourceOf(inf); ok {
		f.resources[key] = gvr
	}
	return inf
}

// internable is an informer that can intern the objects it caches.
type internable interface {
	SetIntern(func(obj, old any)) error
}

// shardable is an informer that can be limited to a share of its resource.
type shardable interface {
	SetShardScope(runtimecache.ShardScope) error
}

// Start starts every informer requested so far that is not running; it may
// be called again after more informers are requested. Informers stop when
// stopCh is closed.
//
// With WithDiscovery, Start first asks discovery whether the server serves
// the resource of each informer that knows its resource (it waits for at most
// two refreshes of the discovery cache, none when the cache answers), starts
// those it serves, and fails fast, skips or waits for the others by the mode
// (see discovery.Mode). Missing and failed resources are logged, and
// StartError returns them until a later Start starts them. Start never waits
// for a resource that is not served to appear.
func (f *Factory) Start(stopCh <-chan struct{}) {
	f.StartWithContext(wait.ContextForChannel(stopCh))
}

// StartWithContext is Start with a context.
func (f *Factory) StartWithContext(ctx context.Context) {
	gated := f.startUngated(ctx)
	syncstate.StartGated(ctx, f.settings.discovery, gated, func(gvr schema.GroupVersionResource) { f.startResource(ctx, gvr) }, f.isShuttingDown)
}

// startUngated starts every informer that is not running and is not left to
// discovery, and returns the resources of those that are.
func (f *Factory) startUngated(ctx context.Context) []schema.GroupVersionResource {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shuttingDown {
		return nil
	}
	if len(f.unsharded) > 0 {
		klog.FromContext(ctx).Info("Warning: informers not built by this runtime keep every object of their resource, whatever the factory's shard scope", "types", f.unsharded)
		f.unsharded = nil
	}
	var gated []schema.GroupVersionResource
	for key, inf := range f.informers {
		if f.started[key] {
			continue
		}
		if gvr, ok := f.resources[key]; ok && f.settings.discovery != nil {
			gated = append(gated, gvr)
			continue
		}
		f.started[key] = true
		f.running.Go(func() { inf.RunWithContext(ctx) })
	}
	return gated
}

// startResource starts the informers of gvr that are not running, unless the
// factory is shutting down: discovery calls it once the server serves gvr.
func (f *Factory) startResource(ctx context.Context, gvr schema.GroupVersionResource) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shuttingDown {
		return
	}
	for key, inf := range f.informers {
		if !f.started[key] && f.resources[key] == gvr {
			f.started[key] = true
			f.running.Go(func() { inf.RunWithContext(ctx) })
		}
	}
}

// isShuttingDown reports whether Shutdown has been called.
func (f *Factory) isShuttingDown() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.shuttingDown
}

// Shutdown marks the factory as shutting down (Start does nothing from then
// on), waits until every informer it started (and, with WithDiscovery, every
// discovery poll) has stopped, and releases the informer name. The caller
// must stop the informers, by closing their stop channel or cancelling their
// context, before or while Shutdown waits.
func (f *Factory) Shutdown() {
	f.mu.Lock()
	f.shuttingDown = true
	f.mu.Unlock()
	if f.settings.discovery != nil {
		f.settings.discovery.Shutdown()
	}
	f.running.Wait()
	f.settings.informerName.Release()
}

// WaitForCacheSync waits until every started informer has synced or stopCh
// is closed, and reports which have synced. With WithDiscovery it does not
// wait for an informer whose resource the server does not serve: such an
// informer is reported false (see WaitForCacheSyncWithContext).
func (f *Factory) WaitForCacheSync(stopCh <-chan struct{}) map[reflect.Type]bool {
	return f.WaitForCacheSyncWithContext(wait.ContextForChannel(stopCh)).Synced
}
