package controller

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientcache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
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
	// the workqueue metrics. It must be unique in the process: the metric
	// series of a controller are told apart by its name, so New fails when
	// another controller of the process already took the name (a name stays
	// taken for the life of the process, even after Run returns), unless
	// SkipNameValidation is set. The generated constructors default it to
	// the kind's fully qualified resource, <resource>.<version>.<group>
	// ("widgets.v1.shop.example.dev"; the core group is written "core").
	Name string
	// SkipNameValidation lets New accept a Name another controller of the
	// process already has, and does not take the name for this one. It is
	// meant for tests that build the same controller several times; two
	// controllers that run at once under one name add up in the same
	// metric series.
	SkipNameValidation bool
	// Workers is the number of keys reconciled concurrently (default 1).
	Workers int
	// RateLimiter spaces the retries of a failing key. It defaults to
	// client-go's workqueue.DefaultTypedControllerRateLimiter: per-key
	// exponential backoff from 5 ms to 1000 s, and 10 retries per second
	// (burst 100) overall.
	RateLimiter workqueue.TypedRateLimiter[cache.ObjectName]
	// MaxRetries is how many times a key that keeps failing is retried
	// before it is dropped (logged and counted in
	// controller_reconcile_dropped_total). A dropped key is not reconciled
	// again until the next event on it (an informer event or Enqueue),
	// which starts its count over; a retry or requeue it had pending is
	// cancelled. Zero means DefaultMaxRetries, a negative value retries
	// forever.
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
	// Shard, when set, makes the controller reconcile only the keys of this
	// replica's share of the primary kind, when replicas split it through a
	// ring (runtime/shard): the keys whose object, by ShardKey, falls in
	// one of the ring member's active slots (shard.State.Active). Other
	// keys are let go without a reconcile (counted in
	// controller_shard_skipped_total); they are another replica's. When the
	// member loses slots, the contexts of the reconciles running in them are
	// cancelled and the member hands the slots over only once those
	// reconciles have returned, so two replicas never reconcile one key at
	// once. Give the primary informer the same share (for a *shard.Ring,
	// informers.WithShardScope(ring.Scope(ShardKey))) so that it caches no
	// more than the controller reconciles.
	Shard ShardMember
	// ShardKey is the field whose hash places an object in a slot; empty
	// means shard.ByUID.
	ShardKey shard.Key
}

// ShardMember is what a sharded controller asks of its replica's place in a
// ring (Options.Shard); runtime/shard's *Ring is one.
type ShardMember interface {
	// State returns the member's slots now; the controller reconciles keys
	// in State().Active only.
	State() shard.State
	// OnRelease registers fn, which the member calls with the slots it is
	// about to hand over, after they have left Active; fn returns once no
	// reconcile of a key in them is running.
	OnRelease(fn func(ctx context.Context, lost []int))
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
	if o.ShardKey == "" {
		o.ShardKey = shard.ByUID
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
// call Run once. New, Watch and WatchOwned only record the configuration: Run
// builds the workqueue, registers the sources' event handlers and starts the
// workers, and everything it started ends when it returns. A controller that
// is never run holds no goroutine and no event handler, and needs no
// cleanup. Start the informers (their factory) before Run or after: Run
// waits for every source's handler to sync either way.
type Controller[T cache.Object] struct {
	opts         Options
	primary      Primary[T]
	reconciler   Reconciler
	metrics      *metrics
	queueMetrics workqueue.MetricsProvider // nil: client-go's global provider
	shard        *shardGate                // nil unless Options.Shard

	mu      sync.Mutex // guards the fields below
	state   lifecycle
	watches []startSource // recorded before Run, started by Run
	sources []source      // registered while running

	keysMu sync.Mutex // guards the fields below
	// queue is built by Run; nil before.
	queue workqueue.TypedRateLimitingInterface[cache.ObjectName]
	// keys holds what is owed to each key that has an event, a retry or a
	// requeue pending, or failures counted; other keys have no entry.
	keys map[cache.ObjectName]keyState
	// intakeStopped is set once Run stops intake: later events are ignored.
	intakeStopped bool
}

// lifecycle is where a controller is in its life: configured by New and
// Watch, running once Run started, stopped once Run stopped intake.
type lifecycle int

const (
	configured lifecycle = iota
	running
	stopped
)

// keyState is what a key is owed. The workqueue only carries keys, and a
// retry or requeue scheduled in its delaying queue cannot be cancelled; a
// worker therefore reconciles a key it takes from the queue only when the key
// is owed a reconcile now, and otherwise lets it go. This is how a dropped
// key, or a key whose requeue a later result replaced, is not reconciled
// again by a delayed re-add that was pending when its state changed.
type keyState struct {
	// event says that an event (an informer event or Enqueue) named the key
	// since its last reconcile started.
	event bool
	// retryAt, when not zero, is when a retry (after a failure) or a
	// requeue (RequeueAfter) of the key is due. It is the outcome of the
	// key's last reconcile: the next reconcile replaces it.
	retryAt time.Time
	// failures counts the key's consecutive failed reconciles.
	failures int
}

// idle reports whether the key is owed nothing, so that it needs no entry.
func (s keyState) idle() bool {
	return !s.event && s.retryAt.IsZero() && s.failures == 0
}

// names are the names of the process's controllers, taken by New unless
// Options.SkipNameValidation is set. A name stays taken for the life of the
// process, as controller-runtime's do: metric series outlive a controller.
var names struct {
	sync.Mutex
	taken map[string]bool
}

// takeName takes name for a controller, failing when another controller has
// it.
func takeName(name string) error {
	names.Lock()
	defer names.Unlock()
	if names.taken[name] {
		return fmt.Errorf("controller %s: another controller of this process is named %q; controller names must be unique, "+
			"as they label the controllers' metrics (set Options.SkipNameValidation to allow it)", name, name)
	}
	if names.taken == nil {
		names.taken = map[string]bool{}
	}
	names.taken[name] = true
	return nil
}

// New returns a controller of primary's kind that calls reconciler. It
// records primary's event source; Run registers it. It fails when opts has
// no Name, when another controller of the process has that name (unless
// opts.SkipNameValidation), and when the metrics cannot be registered.
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
	if !opts.SkipNameValidation {
		if err := takeName(opts.Name); err != nil {
			return nil, err
		}
	}
	c := &Controller[T]{
		opts:         opts,
		primary:      primary,
		reconciler:   reconciler,
		metrics:      m,
		queueMetrics: provider,
		keys:         map[cache.ObjectName]keyState{},
	}
	self := MapToSelf[T]()
	if opts.Shard != nil {
		if !opts.ShardKey.Valid() {
			return nil, fmt.Errorf("controller %s: unknown shard key %q", opts.Name, opts.ShardKey)
		}
		c.shard = newShardGate(opts.Shard, opts.ShardKey, primary.Informer.GetIndexer())
		self = func(ctx context.Context, obj T) []cache.ObjectName {
			c.shard.seen(obj)
			return []cache.ObjectName{cache.KeyOf(obj)}
		}
	}
	if err := watch(c, primary.Informer, self, true, primary.Predicates); err != nil {
		return nil, err
	}
	return c, nil
}

// Name returns the controller's name.
func (c *Controller[T]) Name() string { return c.opts.Name }

// Enqueue queues key for a reconcile, as an event naming it would. A key
// enqueued before Run is reconciled once Run's sources have synced; after
// Run returned, Enqueue does nothing.
func (c *Controller[T]) Enqueue(key cache.ObjectName) { c.enqueue(key) }

// enqueue records an event on every key and queues them.
func (c *Controller[T]) enqueue(keys ...cache.ObjectName) {
	if len(keys) == 0 {
		return
	}
	c.keysMu.Lock()
	if c.intakeStopped {
		c.keysMu.Unlock()
		return
	}
	for _, key := range keys {
		s := c.keys[key]
		s.event = true
		c.keys[key] = s
	}
	q := c.queue
	c.keysMu.Unlock()
	if q == nil {
		return // Run queues them
	}
	for _, key := range keys {
		q.Add(key)
	}
}

// Run registers the sources' event handlers, waits for every one to sync,
// then reconciles until ctx ends. It then stops intake (removes its event
// handlers and shuts the queue down: keys still queued are not reconciled),
// waits up to the grace period for the reconciles in flight, and returns.
//
// It returns an error when a source cannot be registered (its informer has
// stopped, and ctx has not ended), when the sources do not sync within CacheSyncTimeout (nil when
// ctx ends first), when reconciles are still running at the end of the grace
// period, and when called twice. Logs go to ctx's logger.
func (c *Controller[T]) Run(ctx context.Context) error {
	logger := klog.FromContext(ctx).WithValues("controller", c.opts.Name)
	sources, err := c.start()
	if err != nil {
		if ctx.Err() != nil && !errors.Is(err, errRunTwice) {
			// The informers stopped with ctx before a handler was added.
			logger.Info("Stopped before the sources were registered")
			return nil
		}
		return err
	}
	defer c.stopIntake()

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
	c.stopIntake()
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

// start builds the queue, queues the keys enqueued before Run and registers
// the recorded sources, and returns them. When a source cannot be registered
// it stops intake again and fails.
func (c *Controller[T]) start() ([]source, error) {
	c.mu.Lock()
	if c.state != configured {
		c.mu.Unlock()
		return nil, fmt.Errorf("controller %s: %w", c.opts.Name, errRunTwice)
	}
	c.state = running
	q := workqueue.NewTypedRateLimitingQueueWithConfig(c.opts.RateLimiter, workqueue.TypedRateLimitingQueueConfig[cache.ObjectName]{
		Name:            c.opts.Name,
		MetricsProvider: c.queueMetrics,
	})
	c.keysMu.Lock()
	c.queue = q
	var pending []cache.ObjectName
	for key, s := range c.keys {
		if s.event {
			pending = append(pending, key)
		}
	}
	c.keysMu.Unlock()
	for _, key := range pending {
		q.Add(key)
	}
	watches := c.watches
	c.watches = nil
	for _, w := range watches {
		s, err := w()
		if err != nil {
			c.mu.Unlock()
			c.stopIntake()
			return nil, err
		}
		c.sources = append(c.sources, s)
	}
	sources := slices.Clone(c.sources)
	c.mu.Unlock()
	return sources, nil
}

// errRunTwice is the error of a second Run.
var errRunTwice = errors.New("Run called twice")

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

// stopIntake removes the sources' event handlers, ends intake (later
// events and Watch calls are refused) and shuts the queue down. It may be
// called more than once.
func (c *Controller[T]) stopIntake() {
	c.mu.Lock()
	c.state = stopped
	sources := c.sources
	c.sources = nil
	c.mu.Unlock()
	for _, s := range sources {
		_ = s.remove() // removing from a stopped informer is a no-op
	}
	c.keysMu.Lock()
	c.intakeStopped = true
	clear(c.keys)
	q := c.queue
	c.keysMu.Unlock()
	if q != nil {
		q.ShutDown()
	}
}

// work reconciles keys until the queue shuts down or ctx ends.
func (c *Controller[T]) work(ctx, reconcileCtx context.Context) {
	q := c.queue // set before the workers start
	for {
		key, shutdown := q.Get()
		if shutdown {
			return
		}
		if ctx.Err() != nil {
			q.Done(key)
			return
		}
		c.reconcileKey(reconcileCtx, key)
		q.Done(key)
	}
}

// reconcileKey reconciles key when it is owed a reconcile now (claim) and,
// with Options.Shard, is in this replica's share; a key of another share is
// let go.
func (c *Controller[T]) reconcileKey(ctx context.Context, key cache.ObjectName) {
	if c.shard == nil {
		if c.claim(key) {
			c.process(ctx, key)
		}
		return
	}
	r, shardCtx := c.shard.enter(ctx, key)
	if r == nil {
		c.letGo(key)
		return
	}
	if c.claim(key) {
		c.process(shardCtx, key)
	}
	c.keysMu.Lock()
	_, pending := c.keys[key]
	c.keysMu.Unlock()
	c.shard.leave(r, key, !pending)
}

// letGo forgets what key is owed: it is another replica's.
func (c *Controller[T]) letGo(key cache.ObjectName) {
	c.keysMu.Lock()
	_, owed := c.keys[key]
	delete(c.keys, key)
	c.keysMu.Unlock()
	if owed {
		c.opts.RateLimiter.Forget(key)
		c.metrics.skipped.Inc()
	}
}

// claim reports whether key, just taken from the queue, is owed a reconcile
// now, and if so takes what it is owed: the reconcile is for every event and
// every retry or requeue up to now. A key owed nothing was queued by a stale
// delayed re-add (scheduled before the key was dropped, or before a later
// reconcile replaced it) and is let go. A key whose retry or requeue is due
// later was queued by a stale re-add that fired first and, as the delaying
// queue keeps only the earliest re-add of a key, took the place of the
// pending one: it is scheduled again (counted in workqueue_retries_total, as
// every delayed add is).
func (c *Controller[T]) claim(key cache.ObjectName) bool {
	now := time.Now()
	c.keysMu.Lock()
	s, found := c.keys[key]
	switch {
	case !found || c.intakeStopped:
		c.keysMu.Unlock()
		return false
	case !s.event && !s.retryAt.IsZero() && now.Before(s.retryAt):
		q := c.queue
		c.keysMu.Unlock()
		q.AddAfter(key, s.retryAt.Sub(now))
		return false
	case !s.event && s.retryAt.IsZero():
		if s.idle() {
			delete(c.keys, key)
		}
		c.keysMu.Unlock()
		return false
	}
	s.event, s.retryAt = false, time.Time{}
	c.keys[key] = s
	c.keysMu.Unlock()
	return true
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
		failures, dropped := c.failed(key)
		if dropped {
			c.metrics.dropped.Inc()
			logger.Error(err, "Dropping key: reconcile failed too often; waiting for the next event on it", "retries", failures-1)
			return
		}
		logger.Error(err, "Reconcile failed: retrying", "retries", failures-1)
		return
	}
	c.succeeded(key, result.RequeueAfter)
	if result.RequeueAfter > 0 {
		c.metrics.requeued.Inc()
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

// failed counts a failed reconcile of key and schedules its retry with the
// rate limiter (as the queue's AddRateLimited does), or drops the key once it
// failed more than MaxRetries times in a row. It returns the count.
func (c *Controller[T]) failed(key cache.ObjectName) (failures int, dropped bool) {
	c.keysMu.Lock()
	s := c.keys[key]
	s.failures++
	failures = s.failures
	var delay time.Duration
	if c.opts.MaxRetries >= 0 && s.failures > c.opts.MaxRetries {
		dropped = true
		s.failures, s.retryAt = 0, time.Time{}
		c.opts.RateLimiter.Forget(key)
	} else {
		delay = c.opts.RateLimiter.When(key)
		s.retryAt = time.Now().Add(delay)
	}
	q, schedule := c.setKeyLocked(key, s)
	c.keysMu.Unlock()
	if schedule && !dropped {
		q.AddAfter(key, delay)
	}
	return failures, dropped
}

// succeeded ends the retries of key and schedules its requeue after
// requeueAfter, when positive.
func (c *Controller[T]) succeeded(key cache.ObjectName, requeueAfter time.Duration) {
	c.keysMu.Lock()
	s := c.keys[key]
	s.failures, s.retryAt = 0, time.Time{}
	c.opts.RateLimiter.Forget(key)
	if requeueAfter > 0 {
		s.retryAt = time.Now().Add(requeueAfter)
	}
	q, schedule := c.setKeyLocked(key, s)
	c.keysMu.Unlock()
	if schedule && requeueAfter > 0 {
		q.AddAfter(key, requeueAfter)
	}
}

// setKeyLocked stores the state of key, or removes it when idle, and returns
// the queue and whether re-adds may still be scheduled on it (not once intake
// stopped). c.keysMu must be held.
func (c *Controller[T]) setKeyLocked(key cache.ObjectName, s keyState) (workqueue.TypedRateLimitingInterface[cache.ObjectName], bool) {
	if c.intakeStopped {
		return nil, false
	}
	if s.idle() {
		delete(c.keys, key)
	} else {
		c.keys[key] = s
	}
	return c.queue, true
}
