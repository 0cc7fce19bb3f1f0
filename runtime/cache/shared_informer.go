package cache

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/queue"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/store"
)

// SharedIndexInformerOptions configure a SharedIndexInformer. The zero value
// is valid.
type SharedIndexInformerOptions[T any] struct {
	// Name names the informer and its reflector in logs.
	Name string
	// ResyncPeriod is the resync period of handlers added without one; zero
	// disables resync for them.
	ResyncPeriod time.Duration
	// Indexers are the indexes of the informer's store.
	Indexers Indexers[T]
	// MaxQueueSize bounds the number of keys the informer's queue holds:
	// when the consumer falls behind, the reflector waits for room instead of
	// queueing without bound. Deltas for a key already queued join it and
	// never wait, so no event is dropped and a key never waits behind
	// itself. Zero means unbounded. The events not yet queued are
	// bounded apart from it: a watch the runtime decodes
	// (NewClientListWatch) reads at most wire.ReadAheadBytes of events
	// ahead of the reflector.
	MaxQueueSize int
	// Clock is used for resync scheduling; it defaults to the real clock.
	Clock clock.Clock
	// Identifier and MetricsProvider, when Identifier is reserved (see
	// cache.NewInformerName) and MetricsProvider is set, report the queue
	// length and the time to process each key through client-go's informer
	// metrics.
	Identifier      cache.InformerNameAndResource
	MetricsProvider cache.InformerMetricsProvider
}

// SharedIndexInformer keeps an indexed, typed cache of one resource up to date
// and tells registered handlers about every change. It implements client-go's
// cache.SharedIndexInformer and cache.TypedSharedIndexInformer[T] with their
// semantics, so code written for client-go's informers uses it unchanged:
// untyped handlers (cache.ResourceEventHandler) receive the objects and, for
// a delete inferred by a relist, a cache.DeletedFinalStateUnknown tombstone;
// typed handlers (cache.TypedResourceEventHandler[T]) receive a
// cache.DeletedObject[T]. GetIndexer, GetStore and GetTypedIndexer are
// client-go views of the informer's typed store, which TypedStore returns
// for lookups that neither allocate nor type-assert.
//
// Changes flow from client-go's reflector into a DeltaFIFO; one goroutine pops
// them, applies them to the store and queues a notification for every
// registered handler, all under one lock that adding a handler also takes, so
// a handler added late sees the store's objects and then every later change,
// exactly once. Each handler has its own unbounded buffer and goroutine.
//
// Configuration methods (SetTransform, SetTypedTransform, SetWatchErrorHandler
// and its context variant) work only before Run; handlers and indexes can be
// added before and after. Run may be called once.
type SharedIndexInformer[T Object] struct {
	lw        *ListWatch[T]
	opts      SharedIndexInformerOptions[T]
	clock     clock.Clock
	indexer   *Indexer[T]
	view      cache.TypedIndexer[T]
	processor *processor[T]
	// synced is closed once the informer has synced (HasSyncedChecker).
	synced chan struct{}

	// blockDeltas is held while a change is applied and distributed, and
	// while a late handler receives the store's objects.
	blockDeltas sync.Mutex
	// storeIntern is intern when the informer interns objects just before
	// it stores them (all but sharded informers), else nil. Run sets it
	// before it starts the goroutine that pops the queue, the only one that
	// reads it.
	storeIntern InternFunc[T]

	mu                sync.Mutex // guards the fields below
	started, stopped  bool
	fifo              *queue.DeltaFIFO[T]
	controller        *controller[T]
	transform         TransformFunc[T]
	intern            InternFunc[T]
	watchErrorHandler cache.WatchErrorHandlerWithContext
	resyncCheckPeriod time.Duration
	shard             ShardScope
}

// Both client-go informer interfaces are implemented.
var (
	_ cache.SharedIndexInformer                                     = (*SharedIndexInformer[*metav1.PartialObjectMetadata])(nil)
	_ cache.TypedSharedIndexInformer[*metav1.PartialObjectMetadata] = (*SharedIndexInformer[*metav1.PartialObjectMetadata])(nil)
)

// NewSharedIndexInformer returns an informer over lw. Nothing runs until Run.
// Invalid options (an index without a function, a negative MaxQueueSize) are
// an error. A ResyncPeriod of zero or less disables resync, as in client-go.
func NewSharedIndexInformer[T Object](lw *ListWatch[T], opts SharedIndexInformerOptions[T]) (*SharedIndexInformer[T], error) {
	if lw == nil {
		return nil, errors.New("informer needs a ListWatch")
	}
	if opts.MaxQueueSize < 0 {
		return nil, fmt.Errorf("informer %q: negative MaxQueueSize %d", opts.Name, opts.MaxQueueSize)
	}
	clk := opts.Clock
	if clk == nil {
		clk = clock.RealClock{}
	}
	store, err := NewIndexer(opts.Indexers)
	if err != nil {
		return nil, fmt.Errorf("informer %q: %w", opts.Name, err)
	}
	return &SharedIndexInformer[T]{
		lw:                lw,
		opts:              opts,
		clock:             clk,
		indexer:           store,
		view:              store.AsIndexer(),
		processor:         &processor[T]{},
		synced:            make(chan struct{}),
		resyncCheckPeriod: opts.ResyncPeriod,
	}, nil
}

// errStarted and errStopped are returned by methods that cannot run in the
// informer's current state.
var (
	errStarted = errors.New("informer has already started")
	errStopped = errors.New("informer has stopped already")
)

// SetTransform sets the function applied to every object before it is queued
// (see TransformFunc for when it runs); it fails after Run. It receives and must
// return a T; anything else (nil included) is an error for that object, which
// the reflector logs and drops (a watch event) or retries (a list).
func (s *SharedIndexInformer[T]) SetTransform(fn cache.TransformFunc) error {
	if fn == nil {
		return s.SetTypedTransform(nil)
	}
	return s.SetTypedTransform(func(obj T) (T, error) {
		out, err := fn(obj)
		if err != nil {
			return obj, err
		}
		typed, ok := out.(T)
		var zero T
		if !ok || typed == zero {
			return obj, fmt.Errorf("transform of %s returned %T, not a %T", KeyOf(obj), out, obj)
		}
		return typed, nil
	})
}

// SetTypedTransform is SetTransform for a function typed for T.
func (s *SharedIndexInformer[T]) SetTypedTransform(fn TransformFunc[T]) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return errStarted
	}
	s.transform = fn
	return nil
}

// SetIntern sets the function that interns the objects the informer stores,
// after its transform (see InternFunc); nil turns interning off. It fails
// after Run. The function receives the informer's objects as T, and old as
// a T too: the zero T (a nil pointer in an interface) when the store holds
// no earlier version.
func (s *SharedIndexInformer[T]) SetIntern(fn func(obj, old any)) error {
	if fn == nil {
		return s.SetTypedIntern(nil)
	}
	return s.SetTypedIntern(func(obj, old T) { fn(obj, old) })
}

// SetTypedIntern is SetIntern for a function typed for T.
func (s *SharedIndexInformer[T]) SetTypedIntern(fn InternFunc[T]) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return errStarted
	}
	s.intern = fn
	return nil
}

// SetWatchErrorHandler sets the function told about the errors that end a list
// or keep a watch from opening (errors in an open watch stream are handled by
// the reflector and never reach it: docs/clientgo-semantics.md#watch-errors);
// it fails after Run.
func (s *SharedIndexInformer[T]) SetWatchErrorHandler(handler cache.WatchErrorHandler) error {
	if handler == nil {
		return s.SetWatchErrorHandlerWithContext(nil)
	}
	return s.SetWatchErrorHandlerWithContext(func(_ context.Context, r *cache.Reflector, err error) {
		handler(r, err)
	})
}

// SetWatchErrorHandlerWithContext is SetWatchErrorHandler for a handler that
// takes the informer's context.
func (s *SharedIndexInformer[T]) SetWatchErrorHandlerWithContext(handler cache.WatchErrorHandlerWithContext) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return errStarted
	}
	s.watchErrorHandler = handler
	return nil
}

// TypedStore returns the informer's store. Listers read it; writing to it
// directly desynchronises the informer from its handlers.
func (s *SharedIndexInformer[T]) TypedStore() *Indexer[T] { return s.indexer }

// GetIndexer returns a client-go view of the informer's store (see
// Indexer.AsIndexer). Writing through it desynchronises the informer
// from its handlers, as with client-go's.
func (s *SharedIndexInformer[T]) GetIndexer() cache.Indexer { return s.view }

// GetStore returns the same view as GetIndexer.
func (s *SharedIndexInformer[T]) GetStore() cache.Store { return s.view }

// GetTypedIndexer returns the same view as GetIndexer, with its typed methods.
func (s *SharedIndexInformer[T]) GetTypedIndexer() cache.TypedIndexer[T] { return s.view }

// AddIndexers adds client-go index functions to the store, also after Run
// (existing objects are indexed at once); it fails once the informer has
// stopped, or when a name is already in use. An index function that returns
// an error for an object is logged, and the object gets no value in that
// index.
func (s *SharedIndexInformer[T]) AddIndexers(indexers cache.Indexers) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return errStopped
	}
	return s.view.AddIndexers(indexers)
}

// AddTypedIndexers is AddIndexers for index functions typed for T.
func (s *SharedIndexInformer[T]) AddTypedIndexers(indexers cache.TypedIndexers[T]) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return errStopped
	}
	return s.view.AddTypedIndexers(indexers)
}

// HasSynced reports whether the informer's store holds the first full list
// from the server and every change of it has been processed. Handlers may not
// have received all of them yet: see the registration's HasSynced.
func (s *SharedIndexInformer[T]) HasSynced() bool {
	s.mu.Lock()
	fifo := s.fifo
	s.mu.Unlock()
	return fifo != nil && fifo.HasSynced()
}

// HasSyncedChecker returns a checker whose channel closes once HasSynced is
// true, for cache.WaitFor.
func (s *SharedIndexInformer[T]) HasSyncedChecker() cache.DoneChecker {
	name := s.opts.Name
	if name == "" {
		name = fmt.Sprintf("%T informer", *new(T))
	}
	return syncedChecker{name: name, done: s.synced}
}

// LastSyncResourceVersion is the resourceVersion the reflector last saw, or ""
// before Run.
func (s *SharedIndexInformer[T]) LastSyncResourceVersion() string {
	s.mu.Lock()
	r := s.controller
	s.mu.Unlock()
	if r == nil {
		return ""
	}
	return r.LastSyncResourceVersion()
}

// GetController returns a cache.Controller that reports the informer's state;
// as client-go's, its Run methods do nothing (run the informer instead).
func (s *SharedIndexInformer[T]) GetController() cache.Controller { return informerController[T]{s} }

// HandlerPanics returns how many handler calls have panicked. A panic is
// recovered and logged, the notification is skipped, and delivery goes on.
func (s *SharedIndexInformer[T]) HandlerPanics() int64 {
	return s.processor.panics.Load()
}

// IsStopped reports whether Run has returned.
func (s *SharedIndexInformer[T]) IsStopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped
}

// AddEventHandler registers an untyped handler with the informer's default
// resync period. See AddEventHandlerWithOptions.
func (s *SharedIndexInformer[T]) AddEventHandler(handler cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, cache.HandlerOptions{})
}

// AddEventHandlerWithResyncPeriod registers an untyped handler asking for a
// resync every resyncPeriod. See AddEventHandlerWithOptions.
func (s *SharedIndexInformer[T]) AddEventHandlerWithResyncPeriod(handler cache.ResourceEventHandler, resyncPeriod time.Duration) (cache.ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, cache.HandlerOptions{ResyncPeriod: &resyncPeriod})
}

// AddEventHandlerWithOptions registers an untyped handler. It receives the
// typed objects as any, and for a delete inferred by a relist a
// cache.DeletedFinalStateUnknown holding the last known object; otherwise it
// behaves as AddTypedEventHandler.
func (s *SharedIndexInformer[T]) AddEventHandlerWithOptions(handler cache.ResourceEventHandler, options cache.HandlerOptions) (cache.ResourceEventHandlerRegistration, error) {
	if handler == nil {
		return nil, errors.New("nil event handler")
	}
	return s.addHandler(untypedHandler[T]{handler}, options)
}

// AddTypedEventHandler registers a typed handler, with the options given (at
// most one) or the defaults. Options.ResyncPeriod asks for a resync every
// period (nil: the informer's default; zero: never; at least one second; never
// more often than the informer checks, which after Run is fixed); Logger
// replaces the informer's logger for this handler's panics. A handler added
// after Run first receives an add, with isInInitialList set, for every object
// in the store, then every later change. Adding a handler to a stopped
// informer fails. The same handler may be added more than once; each
// registration is independent.
func (s *SharedIndexInformer[T]) AddTypedEventHandler(handler cache.TypedResourceEventHandler[T], options ...cache.HandlerOptions) (cache.ResourceEventHandlerRegistration, error) {
	if handler == nil {
		return nil, errors.New("nil event handler")
	}
	var o cache.HandlerOptions
	switch len(options) {
	case 0:
	case 1:
		o = options[0]
	default:
		return nil, fmt.Errorf("at most one HandlerOptions may be passed, got %d", len(options))
	}
	return s.addHandler(handler, o)
}

func (s *SharedIndexInformer[T]) addHandler(handler cache.TypedResourceEventHandler[T], options cache.HandlerOptions) (cache.ResourceEventHandlerRegistration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return nil, fmt.Errorf("handler %v was not added to shared informer because it has stopped already", handler)
	}
	resyncPeriod := s.opts.ResyncPeriod
	if options.ResyncPeriod != nil {
		resyncPeriod = *options.ResyncPeriod
	}
	if resyncPeriod > 0 {
		resyncPeriod = max(resyncPeriod, minimumResyncPeriod)
		if resyncPeriod < s.resyncCheckPeriod && !s.started {
			s.resyncCheckPeriod = resyncPeriod
			s.processor.resyncCheckPeriodChanged(resyncPeriod)
		}
	}
	l := newListener(s, handler, s.HasSynced, s.synced, resyncPeriod, effectiveResync(resyncPeriod, s.resyncCheckPeriod), s.clock.Now())
	if options.Logger != nil {
		l.logger = *options.Logger
	}
	if !s.started {
		s.processor.addListener(l)
		return l, nil
	}
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	// The replay is queued before the listener starts, so that it cannot
	// report synced before receiving it.
	for _, obj := range s.indexer.List() {
		l.add(notification[T]{kind: addNotification, flag: true, newObj: obj})
	}
	s.processor.addListener(l)
	return l, nil
}

// RemoveEventHandler unregisters a handler; its goroutine ends asynchronously
// and notifications still buffered for it are dropped. Removing a handle twice,
// a handle of another informer, or from a stopped informer is a no-op.
func (s *SharedIndexInformer[T]) RemoveEventHandler(handle cache.ResourceEventHandlerRegistration) error {
	l, ok := handle.(*listener[T])
	if !ok || l.owner != s {
		return nil
	}
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	s.processor.removeListener(l)
	return nil
}

// Run is RunWithContext until stopCh is closed.
func (s *SharedIndexInformer[T]) Run(stopCh <-chan struct{}) {
	s.RunWithContext(wait.ContextForChannel(stopCh))
}

// RunWithContext starts the informer and blocks until ctx ends and every
// goroutine the informer started has returned. A second call logs and returns
// at once.
func (s *SharedIndexInformer[T]) RunWithContext(ctx context.Context) {
	logger := klog.FromContext(ctx)
	if s.opts.Name != "" {
		logger = klog.LoggerWithValues(logger, "informer", s.opts.Name)
		ctx = klog.NewContext(ctx, logger)
	}

	s.mu.Lock()
	if s.started || s.stopped {
		s.mu.Unlock()
		logger.Info("Warning: the informer has already been started; Run returns at once")
		return
	}
	// Interning changes objects in place. A sharded informer's watch passes
	// objects it passed on before on again, when it hands its share over (as
	// the final states of the lost share's deletes), and the reflector reads
	// them as they enter the queue: the goroutine that writes the store,
	// which is not ordered with the reflector's, must not change them. Such
	// an informer interns as objects enter the queue, on the reflector's
	// goroutine.
	var queueIntern func(obj, old T)
	s.storeIntern = s.intern
	if s.shard != nil {
		queueIntern, s.storeIntern = s.intern, nil
	}
	transform := s.transform
	if s.intern != nil && s.lw.shared {
		transform = copyFirst(transform)
	}
	s.fifo = queue.NewDeltaFIFO(queue.DeltaFIFOOptions[T]{
		KnownObjects: s.indexer,
		MaxSize:      s.opts.MaxQueueSize,
		Transform:    transform,
		Intern:       queueIntern,
	})
	process := s.handleDeltas
	if metrics := newQueueMetrics(s.opts.Identifier, s.opts.MetricsProvider); metrics.enabled() {
		fifo := s.fifo
		process = func(key ObjectName, deltas queue.Deltas[T], isInInitialList bool) error {
			start := time.Now()
			err := s.handleDeltas(key, deltas, isInInitialList)
			metrics.observe(fifo.Len(), time.Since(start))
			return err
		}
	}
	s.controller = newController(s.lw, s.fifo, process, s.indexer.List, controllerOptions{
		Name:              s.opts.Name,
		ResyncPeriod:      s.resyncCheckPeriod,
		ShouldResync:      func() bool { return s.processor.shouldResync(s.clock.Now()) },
		WatchErrorHandler: s.watchErrorHandler,
		Reserve:           func(n int) { store.Reserve(s.indexer, n) },
		Shard:             s.shard,
	})
	s.started = true
	s.processor.start(logger)
	ctrl, fifoSynced := s.controller, s.fifo.Synced()
	s.mu.Unlock()

	var watchSynced sync.WaitGroup
	watchSynced.Go(func() {
		select {
		case <-fifoSynced:
			close(s.synced)
		case <-ctx.Done():
		}
	})
	ctrl.Run(ctx)
	watchSynced.Wait()

	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	// The processor stops strictly after the controller.
	s.processor.stop()
}

// copyFirst returns a transform that applies transform (when not nil) to a
// deep copy of its object: the queue's transform of an informer that interns
// objects its ListWatch shares with others (ListWatch.shared), so that
// interning writes only objects the informer owns.
func copyFirst[T Object](transform TransformFunc[T]) TransformFunc[T] {
	return func(obj T) (T, error) {
		var zero T
		if obj != zero {
			if c, ok := obj.DeepCopyObject().(T); ok {
				obj = c
			}
		}
		if transform == nil {
			return obj, nil
		}
		return transform(obj)
	}
}

// informerController is the cache.Controller GetController returns.
type informerController[T Object] struct{ s *SharedIndexInformer[T] }

func (c informerController[T]) RunWithContext(context.Context)      {}
func (c informerController[T]) Run(<-chan struct{})                 {}
func (c informerController[T]) HasSynced() bool                     { return c.s.HasSynced() }
func (c informerController[T]) HasSyncedChecker() cache.DoneChecker { return c.s.HasSyncedChecker() }
func (c informerController[T]) LastSyncResourceVersion() string     { return c.s.LastSyncResourceVersion() }

// internDelta interns obj, which is about to be stored under key, against
// the version the store holds now. Only this goroutine writes the store, so
// that version is the one obj replaces. A resync hands back the stored object
// itself, which is interned already. Interning here, on the goroutine that
// pops the queue rather than on the reflector's, which decodes every event,
// keeps its cost off the decoding of the next ones.
func (s *SharedIndexInformer[T]) internDelta(key ObjectName, obj T) {
	old, _ := s.indexer.Get(key)
	if old == obj {
		return
	}
	s.storeIntern(obj, old)
}

// handleDeltas applies one object's deltas to the store and queues the
// notifications. Presence in the store, not the delta type, decides between add
// and update (docs/clientgo-semantics.md#add-or-update).
func (s *SharedIndexInformer[T]) handleDeltas(key ObjectName, deltas queue.Deltas[T], isInInitialList bool) error {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	for _, d := range deltas {
		switch d.Type {
		case queue.Sync, queue.Replaced, queue.Added, queue.Updated:
			if s.storeIntern != nil {
				s.internDelta(key, d.Object)
			}
			if old, existed := s.indexer.Upsert(d.Object); existed {
				// An unchanged resourceVersion makes it a resync, which
				// distribute queues only to listeners that take resyncs.
				s.processor.distribute(notification[T]{kind: updateNotification, oldObj: old, newObj: d.Object})
			} else {
				// Only the deltas of the first list are initial: an object
				// a watch event added while that list was queued is not.
				initial := isInInitialList && d.Type == queue.Replaced
				s.processor.distribute(notification[T]{kind: addNotification, flag: initial, newObj: d.Object})
			}
		case queue.Deleted:
			old, existed := s.indexer.Remove(key)
			if !existed {
				// The store never held it: no handler saw it added.
				continue
			}
			last := d.Object
			var zero T
			if last == zero {
				last = old
			} else {
				store.NoteResourceVersion(s.indexer, last.GetResourceVersion())
			}
			s.processor.distribute(notification[T]{kind: deleteNotification, flag: d.FinalStateUnknown, oldObj: last})
		}
	}
	return nil
}
