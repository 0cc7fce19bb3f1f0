package controller

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientcache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// Defaults of Options.
const (
	DefaultWorkers          = 1
	DefaultMaxRetries       = 15
	DefaultGracePeriod      = 30 * time.Second
	DefaultCacheSyncTimeout = 2 * time.Minute
)

// Options configure a Controller. Only Name is required; every other zero
// field takes its default.
type Options struct {
	// Name names the controller in logs and metrics, and its workqueue in
	// the workqueue metrics. It should be unique in a process.
	Name string
	// Workers is the number of keys reconciled concurrently (default 1).
	Workers int
	// RateLimiter spaces the retries of a failing key. It defaults to
	// client-go's workqueue.DefaultTypedControllerRateLimiter: per-key
	// exponential backoff from 5 ms to 1000 s, and 10 retries per second
	// (burst 100) overall.
	RateLimiter workqueue.TypedRateLimiter[cache.ObjectName]
	// MaxRetries is how many times a key that keeps failing is retried
	// before it is dropped (logged and counted in
	// controller_reconcile_dropped_total); the next event on the key starts
	// over. Zero means DefaultMaxRetries, a negative value retries forever.
	MaxRetries int
	// GracePeriod bounds how long Run waits, after its context ends, for the
	// reconciles in flight to return; their context is cancelled when it
	// ends (default 30 s).
	GracePeriod time.Duration
	// CacheSyncTimeout bounds how long Run waits for the informers of its
	// sources to sync (default 2 minutes).
	CacheSyncTimeout time.Duration
	// Registerer, when set, receives the controller's metrics
	// (controller_reconcile_total{controller,result},
	// controller_reconcile_errors_total, controller_reconcile_panics_total,
	// controller_reconcile_dropped_total,
	// controller_reconcile_duration_seconds) and its workqueue's
	// (workqueue_depth{name}, workqueue_adds_total, ...). Controllers sharing
	// a registry share the collectors.
	Registerer prometheus.Registerer
}

// withDefaults returns o with every zero field set to its default.
func (o Options) withDefaults() Options {
	if o.Workers <= 0 {
		o.Workers = DefaultWorkers
	}
	if o.RateLimiter == nil {
		o.RateLimiter = workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]()
	}
	if o.MaxRetries == 0 {
		o.MaxRetries = DefaultMaxRetries
	}
	if o.GracePeriod <= 0 {
		o.GracePeriod = DefaultGracePeriod
	}
	if o.CacheSyncTimeout <= 0 {
		o.CacheSyncTimeout = DefaultCacheSyncTimeout
	}
	return o
}

// Primary describes the kind a Controller reconciles.
type Primary[T cache.Object] struct {
	// Informer is the informer of the kind (this module's, or any other
	// implementation of client-go's typed informer interface, such as a
	// generated TypedInformer()); every change it sees that Predicates keep
	// enqueues the object's own key.
	Informer clientcache.TypedSharedIndexInformer[T]
	// GroupKind and Namespaced identify the kind in owner references, for
	// WatchOwned.
	GroupKind  schema.GroupKind
	Namespaced bool
	// Predicates filter the kind's events.
	Predicates []Predicate[T]
}

// Controller reconciles the objects of one primary kind T: the keys its
// sources enqueue go through a rate-limited workqueue to Workers goroutines
// that call the Reconciler. A key is in the queue at most once, however many
// events named it, and is never reconciled by two workers at once.
//
// Build it with New, add secondary sources with Watch or WatchOwned, then
// call Run once. Start the informers (their factory) after adding the
// sources or before: Run waits for every source's handler to sync either way.
type Controller[T cache.Object] struct {
	opts       Options
	primary    Primary[T]
	reconciler Reconciler
	queue      workqueue.TypedRateLimitingInterface[cache.ObjectName]
	metrics    *metrics

	mu      sync.Mutex // guards the fields below
	started bool
	sources []source

	failuresMu sync.Mutex
	failures   map[cache.ObjectName]int // consecutive failed reconciles per key
}

// New returns a controller of primary's kind that calls reconciler, and
// registers primary's event handler. It fails when opts has no Name, when
// the metrics cannot be registered, and when the informer has stopped.
func New[T cache.Object](primary Primary[T], reconciler Reconciler, opts Options) (*Controller[T], error) {
	if opts.Name == "" {
		return nil, errors.New("controller: Options.Name is required")
	}
	if primary.Informer == nil || reconciler == nil {
		return nil, fmt.Errorf("controller %s: the primary informer and the reconciler are required", opts.Name)
	}
	opts = opts.withDefaults()
	m, provider, err := newMetrics(opts.Registerer, opts.Name)
	if err != nil {
		return nil, fmt.Errorf("controller %s: registering metrics: %w", opts.Name, err)
	}
	c := &Controller[T]{
		opts:       opts,
		primary:    primary,
		reconciler: reconciler,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(opts.RateLimiter, workqueue.TypedRateLimitingQueueConfig[cache.ObjectName]{
			Name:            opts.Name,
			MetricsProvider: provider,
		}),
		metrics:  m,
		failures: map[cache.ObjectName]int{},
	}
	if err := watch(c, primary.Informer, MapToSelf[T](), true, primary.Predicates); err != nil {
		c.queue.ShutDown()
		return nil, err
	}
	return c, nil
}

// Name returns the controller's name.
func (c *Controller[T]) Name() string { return c.opts.Name }

// Enqueue queues key for a reconcile, as an event naming it would.
func (c *Controller[T]) Enqueue(key cache.ObjectName) { c.queue.Add(key) }

func (c *Controller[T]) enqueueAll(keys []cache.ObjectName) {
	for _, key := range keys {
		c.queue.Add(key)
	}
}

// Run waits for every source to sync, then reconciles until ctx ends. It
// then stops intake (removes its event handlers and shuts the queue down:
// keys still queued are not reconciled), waits up to the grace period for
// the reconciles in flight, and returns.
//
// It returns an error when the sources do not sync within CacheSyncTimeout
// (nil when ctx ends first), when reconciles are still running at the end of
// the grace period, and when called twice. Logs go to ctx's logger.
func (c *Controller[T]) Run(ctx context.Context) error {
	c.mu.Lock()
	if c.started {
		c.mu.Unlock()
		return fmt.Errorf("controller %s: Run called twice", c.opts.Name)
	}
	c.started = true
	sources := c.sources
	c.mu.Unlock()
	defer c.stopIntake(sources)

	logger := klog.FromContext(ctx).WithValues("controller", c.opts.Name)
	ctx = klog.NewContext(ctx, logger)
	if err := c.waitForSync(ctx, sources); err != nil {
		if ctx.Err() != nil {
			logger.Info("Stopped before the caches synced")
			return nil
		}
		return err
	}

	// Reconciles outlive ctx by up to the grace period.
	reconcileCtx, cancelReconciles := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelReconciles()
	var workers sync.WaitGroup
	for range c.opts.Workers {
		workers.Go(func() { c.work(ctx, reconcileCtx) })
	}
	logger.Info("Started workers", "workers", c.opts.Workers)
	<-ctx.Done()

	logger.Info("Shutting down: waiting for reconciles in flight", "gracePeriod", c.opts.GracePeriod)
	c.stopIntake(sources)
	finished := make(chan struct{})
	go func() {
		workers.Wait()
		close(finished)
	}()
	grace := time.NewTimer(c.opts.GracePeriod)
	defer grace.Stop()
	select {
	case <-finished:
		logger.Info("All workers finished")
		return nil
	case <-grace.C:
		return fmt.Errorf("controller %s: reconciles still running after the grace period of %v", c.opts.Name, c.opts.GracePeriod)
	}
}

// waitForSync waits for every source's handler to have seen its informer's
// initial list.
func (c *Controller[T]) waitForSync(ctx context.Context, sources []source) error {
	ctx, cancel := context.WithTimeout(ctx, c.opts.CacheSyncTimeout)
	defer cancel()
	klog.FromContext(ctx).Info("Waiting for caches to sync", "sources", len(sources))
	checkers := make([]clientcache.DoneChecker, len(sources))
	for i, s := range sources {
		checkers[i] = s.synced
	}
	if clientcache.WaitFor(ctx, "", checkers...) {
		return nil
	}
	var pending []string
	for _, s := range sources {
		if !clientcache.IsDone(s.synced) {
			pending = append(pending, s.name)
		}
	}
	return fmt.Errorf("controller %s: caches did not sync (%s): %w", c.opts.Name, strings.Join(pending, ", "), context.Cause(ctx))
}

// stopIntake removes the sources' event handlers and shuts the queue down.
// It may be called more than once.
func (c *Controller[T]) stopIntake(sources []source) {
	for _, s := range sources {
		_ = s.remove() // removing from a stopped informer is a no-op
	}
	c.queue.ShutDown()
}

// work reconciles keys until the queue shuts down or ctx ends.
func (c *Controller[T]) work(ctx, reconcileCtx context.Context) {
	for {
		key, shutdown := c.queue.Get()
		if shutdown {
			return
		}
		if ctx.Err() != nil {
			c.queue.Done(key)
			return
		}
		c.process(reconcileCtx, key)
		c.queue.Done(key)
	}
}

// process reconciles key once and decides whether and when it comes back.
func (c *Controller[T]) process(ctx context.Context, key cache.ObjectName) {
	logger := klog.FromContext(ctx).WithValues("object", klog.KRef(key.Namespace, key.Name))
	start := time.Now()
	result, err := c.reconcile(klog.NewContext(ctx, logger), key)
	c.metrics.duration.Observe(time.Since(start).Seconds())
	if err != nil {
		c.metrics.failed.Inc()
		c.metrics.errors.Inc()
		retries := c.recordFailure(key)
		if c.opts.MaxRetries >= 0 && retries > c.opts.MaxRetries {
			c.forget(key)
			c.metrics.dropped.Inc()
			logger.Error(err, "Dropping key: reconcile failed too often", "retries", retries-1)
			return
		}
		logger.Error(err, "Reconcile failed: retrying", "retries", retries-1)
		c.queue.AddRateLimited(key)
		return
	}
	c.forget(key)
	if result.RequeueAfter > 0 {
		c.metrics.requeued.Inc()
		c.queue.AddAfter(key, result.RequeueAfter)
		return
	}
	c.metrics.succeeded.Inc()
}

// reconcile calls the reconciler, turning a panic into an error.
func (c *Controller[T]) reconcile(ctx context.Context, key cache.ObjectName) (result Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			c.metrics.panics.Inc()
			err = fmt.Errorf("reconcile panicked: %v", r)
		}
	}()
	return c.reconciler.Reconcile(ctx, key)
}

// recordFailure counts a failed reconcile of key and returns how many in a
// row have failed.
func (c *Controller[T]) recordFailure(key cache.ObjectName) int {
	c.failuresMu.Lock()
	defer c.failuresMu.Unlock()
	c.failures[key]++
	return c.failures[key]
}

// forget ends the retries of key.
func (c *Controller[T]) forget(key cache.ObjectName) {
	c.failuresMu.Lock()
	delete(c.failures, key)
	c.failuresMu.Unlock()
	c.queue.Forget(key)
}
