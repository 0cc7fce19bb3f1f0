// Package informers is the shared informer factory that generated
// informers/externalversions packages wrap: it holds one shared informer per
// object type, created on first use with the factory's client, namespace,
// list options, transform and resync period, and starts, waits for and shuts
// down all of them together. It carries informer-gen's factory contract over
// to the typed runtime.
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
	"k8s.io/apimachinery/pkg/watch"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// TweakListOptionsFunc changes the list options of every list and watch of
// the factory's informers, for example to select by label.
type TweakListOptionsFunc func(*metav1.ListOptions)

// TransformFunc is applied to every object before it is cached, by every
// informer of the factory; see cache.DeltaFIFOOptions.Transform. It receives
// and returns the informer's typed object, as an any.
type TransformFunc func(obj any) (any, error)

// Option configures a Factory.
type Option func(*settings)

type settings struct {
	namespace    string
	tweak        TweakListOptionsFunc
	transform    TransformFunc
	customResync map[reflect.Type]time.Duration
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

// WithTransform sets a transform applied to every object of every informer.
func WithTransform(transform TransformFunc) Option {
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

// Informer is what the factory needs of a shared informer of any type.
type Informer interface {
	Run(ctx context.Context)
	HasSynced() bool
}

// Factory holds the shared informers of one clientset, of type C. Its methods
// are safe for concurrent use.
type Factory[C any] struct {
	client        C
	defaultResync time.Duration
	settings      settings

	mu           sync.Mutex
	informers    map[reflect.Type]Informer
	started      map[reflect.Type]bool
	running      sync.WaitGroup
	shuttingDown bool
}

// NewFactory returns a factory whose informers list and watch through client
// and resync every defaultResync (zero: never) unless configured otherwise.
func NewFactory[C any](client C, defaultResync time.Duration, options ...Option) *Factory[C] {
	f := &Factory[C]{
		client:        client,
		defaultResync: defaultResync,
		settings:      settings{namespace: metav1.NamespaceAll, customResync: map[reflect.Type]time.Duration{}},
		informers:     map[reflect.Type]Informer{},
		started:       map[reflect.Type]bool{},
	}
	for _, o := range options {
		o(&f.settings)
	}
	return f
}

// Client returns the factory's clientset.
func (f *Factory[C]) Client() C { return f.client }

// Namespace returns the namespace the factory's informers watch ("" for all).
func (f *Factory[C]) Namespace() string { return f.settings.namespace }

// TweakListOptions returns the factory's list options change, or nil.
func (f *Factory[C]) TweakListOptions() TweakListOptionsFunc { return f.settings.tweak }

// NewInformerFunc creates the shared informer of one type for a factory.
type NewInformerFunc[C any, T cache.Object] func(client C, namespace string, resync time.Duration, tweak TweakListOptionsFunc) *cache.SharedIndexInformer[T]

// InformerFor returns the factory's shared informer of T, creating it with
// newInformer on first use, with the factory's transform set.
func InformerFor[C any, T cache.Object](f *Factory[C], newInformer NewInformerFunc[C, T]) *cache.SharedIndexInformer[T] {
	f.mu.Lock()
	defer f.mu.Unlock()
	key := reflect.TypeFor[T]()
	if inf, ok := f.informers[key]; ok {
		return inf.(*cache.SharedIndexInformer[T])
	}
	resync, ok := f.settings.customResync[key]
	if !ok {
		resync = f.defaultResync
	}
	inf := newInformer(f.client, f.settings.namespace, resync, f.settings.tweak)
	if transform := f.settings.transform; transform != nil {
		// A new informer has not started: SetTransform cannot fail.
		_ = inf.SetTransform(func(obj T) (T, error) {
			out, err := transform(obj)
			if err != nil {
				return obj, err
			}
			typed, ok := out.(T)
			if !ok {
				return obj, fmt.Errorf("transform returned %T for %T", out, obj)
			}
			return typed, nil
		})
	}
	f.informers[key] = inf
	return inf
}

// Start starts every informer requested so far that is not running; it may
// be called again after more informers are requested. Informers stop when
// stopCh is closed.
func (f *Factory[C]) Start(stopCh <-chan struct{}) {
	f.StartWithContext(wait.ContextForChannel(stopCh))
}

// StartWithContext is Start with a context.
func (f *Factory[C]) StartWithContext(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shuttingDown {
		return
	}
	for key, inf := range f.informers {
		if !f.started[key] {
			f.started[key] = true
			f.running.Go(func() { inf.Run(ctx) })
		}
	}
}

// Shutdown marks the factory as shutting down (Start does nothing from then
// on) and waits until every informer it started has stopped. The caller must
// stop them first, by closing their stop channel or cancelling their context.
func (f *Factory[C]) Shutdown() {
	f.mu.Lock()
	f.shuttingDown = true
	f.mu.Unlock()
	f.running.Wait()
}

// WaitForCacheSync waits until every started informer has synced or stopCh
// is closed, and reports which have synced.
func (f *Factory[C]) WaitForCacheSync(stopCh <-chan struct{}) map[reflect.Type]bool {
	return f.WaitForCacheSyncWithContext(wait.ContextForChannel(stopCh)).Synced
}

// WaitForCacheSyncWithContext waits until every started informer has synced
// or ctx ends. Err is the context's cause when some have not.
func (f *Factory[C]) WaitForCacheSyncWithContext(ctx context.Context) clientcache.SyncResult {
	f.mu.Lock()
	started := map[reflect.Type]Informer{}
	for key, inf := range f.informers {
		if f.started[key] {
			started[key] = inf
		}
	}
	f.mu.Unlock()
	result := clientcache.SyncResult{Synced: map[reflect.Type]bool{}}
	for key, inf := range started {
		err := wait.PollUntilContextCancel(ctx, 100*time.Millisecond, true, func(context.Context) (bool, error) {
			return inf.HasSynced(), nil
		})
		result.Synced[key] = err == nil
		if err != nil && result.Err == nil {
			result.Err = context.Cause(ctx)
		}
	}
	return result
}

// NewListWatch returns a cache.ListWatch over a typed client's List and Watch
// methods that applies tweak (when not nil) to the options of every request.
// client is the clientset, asked whether it supports watch-list streaming.
func NewListWatch[T cache.Object, L runtime.Object](
	list func(context.Context, metav1.ListOptions) (L, error),
	watchFn func(context.Context, metav1.ListOptions) (watch.Interface, error),
	client any,
	tweak TweakListOptionsFunc,
) *cache.ListWatch[T] {
	if tweak == nil {
		return cache.NewListWatch[T](list, watchFn, client)
	}
	return cache.NewListWatch[T](
		func(ctx context.Context, options metav1.ListOptions) (L, error) {
			tweak(&options)
			return list(ctx, options)
		},
		func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
			tweak(&options)
			return watchFn(ctx, options)
		},
		client,
	)
}
