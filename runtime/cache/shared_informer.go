package cache

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
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
	// MaxQueueSize bounds the informer's DeltaFIFO (DeltaFIFOOptions.MaxSize):
	// when the consumer falls behind, the reflector waits instead of queueing
	// without bound. Zero means unbounded.
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
// and tells registered handlers about every change; it is the typed
// counterpart of client-go's SharedIndexInformer.
//
// Changes flow from the Reflector into a DeltaFIFO; one goroutine pops them,
// applies them to the store and queues a notification for every registered
// handler, all under one lock that AddEventHandler also takes, so a handler
// added late sees the store's objects and then every later change, exactly
// once. Each handler has its own unbounded buffer and goroutine.
//
// Configuration methods (SetTransform, SetWatchErrorHandler) work only before
// Run; AddEventHandler and AddIndexers work before and after.
type SharedIndexInformer[T Object] struct {
	lw        *ListWatch[T]
	opts      SharedIndexInformerOptions[T]
	clock     clock.Clock
	indexer   *ThreadSafeStore[T]
	processor *processor[T]

	// blockDeltas is held while a change is applied and distributed, and
	// while a late handler receives the store's objects.
	blockDeltas sync.Mutex

	mu                sync.Mutex // guards the fields below
	started, stopped  bool
	fifo              *DeltaFIFO[T]
	reflector         *Reflector[T]
	transform         TransformFunc[T]
	watchErrorHandler cache.WatchErrorHandlerWithContext
	resyncCheckPeriod time.Duration
}

// NewSharedIndexInformer returns an informer over lw. Nothing runs until Run.
func NewSharedIndexInformer[T Object](lw *ListWatch[T], opts SharedIndexInformerOptions[T]) *SharedIndexInformer[T] {
	clk := opts.Clock
	if clk == nil {
		clk = clock.RealClock{}
	}
	return &SharedIndexInformer[T]{
		lw:                lw,
		opts:              opts,
		clock:             clk,
		indexer:           NewThreadSafeStore(opts.Indexers),
		processor:         &processor[T]{},
		resyncCheckPeriod: opts.ResyncPeriod,
	}
}

// errStarted and errStopped are returned by methods that cannot run in the
// informer's current state.
var (
	errStarted = errors.New("informer has already started")
	errStopped = errors.New("informer has stopped already")
)

// SetTransform sets the function applied to every object before it is queued
// (see DeltaFIFOOptions.Transform); it fails after Run (semantics item 47).
func (s *SharedIndexInformer[T]) SetTransform(fn TransformFunc[T]) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return errStarted
	}
	s.transform = fn
	return nil
}

// SetWatchErrorHandler sets the function told about every error that ends a
// list or watch; it fails after Run (semantics item 47).
func (s *SharedIndexInformer[T]) SetWatchErrorHandler(handler cache.WatchErrorHandlerWithContext) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return errStarted
	}
	s.watchErrorHandler = handler
	return nil
}

// GetIndexer returns the informer's store. It is read by listers; writing to
// it directly desynchronises the informer from its handlers.
func (s *SharedIndexInformer[T]) GetIndexer() *ThreadSafeStore[T] { return s.indexer }

// GetStore returns the informer's store, like GetIndexer.
func (s *SharedIndexInformer[T]) GetStore() Indexer[T] { return s.indexer }

// AddIndexers adds indexes to the store, also after Run (existing objects are
// indexed at once); it fails once the informer has stopped (semantics item 38).
func (s *SharedIndexInformer[T]) AddIndexers(indexers Indexers[T]) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return errStopped
	}
	return s.indexer.AddIndexers(indexers)
}

// HasSynced reports whether the informer's store holds the first full list
// from the server and every change of it has been processed (semantics item
// 17). Handlers may not have received all of them yet: see
// ResourceEventHandlerRegistration.HasSynced.
func (s *SharedIndexInformer[T]) HasSynced() bool {
	s.mu.Lock()
	fifo := s.fifo
	s.mu.Unlock()
	return fifo != nil && fifo.HasSynced()
}

// LastSyncResourceVersion is the resourceVersion the reflector last saw, or ""
// before Run.
func (s *SharedIndexInformer[T]) LastSyncResourceVersion() string {
	s.mu.Lock()
	r := s.reflector
	s.mu.Unlock()
	if r == nil {
		return ""
	}
	return r.LastSyncResourceVersion()
}

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

// AddEventHandler registers handler with the informer's default resync
// period. See AddEventHandlerWithResyncPeriod.
func (s *SharedIndexInformer[T]) AddEventHandler(handler ResourceEventHandler[T]) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithResyncPeriod(handler, s.opts.ResyncPeriod)
}

// AddEventHandlerWithResyncPeriod registers handler, asking for a resync every
// resyncPeriod (zero: never; at least one second; never more often than the
// informer checks, which after Run is fixed; semantics item 23). A handler
// added after Run first receives an add, with isInInitialList set, for every
// object in the store, then every later change (semantics item 20). Adding a
// handler to a stopped informer fails. The same handler may be added more
// than once; each registration is independent.
func (s *SharedIndexInformer[T]) AddEventHandlerWithResyncPeriod(handler ResourceEventHandler[T], resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return nil, fmt.Errorf("handler %v was not added to shared informer because it has stopped already", handler)
	}
	if resyncPeriod > 0 {
		resyncPeriod = max(resyncPeriod, minimumResyncPeriod)
		if resyncPeriod < s.resyncCheckPeriod && !s.started {
			s.resyncCheckPeriod = resyncPeriod
			s.processor.resyncCheckPeriodChanged(resyncPeriod)
		}
	}
	l := newListener(s, handler, s.HasSynced, resyncPeriod, effectiveResync(resyncPeriod, s.resyncCheckPeriod), s.clock.Now())
	if !s.started {
		s.processor.addListener(l)
		return l, nil
	}
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	s.processor.addListener(l)
	for _, obj := range s.indexer.List() {
		l.add(notification[T]{kind: addNotification, flag: true, newObj: obj})
	}
	return l, nil
}

// RemoveEventHandler unregisters a handler; its goroutine ends asynchronously
// and notifications still buffered for it are dropped. Removing a handle twice,
// a handle of another informer, or from a stopped informer is a no-op.
func (s *SharedIndexInformer[T]) RemoveEventHandler(handle ResourceEventHandlerRegistration) error {
	l, ok := handle.(*listener[T])
	if !ok || l.owner != s {
		return nil
	}
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	s.processor.removeListener(l)
	return nil
}

// Run starts the informer and blocks until ctx ends and every goroutine the
// informer started has returned. A second Run logs and returns at once.
func (s *SharedIndexInformer[T]) Run(ctx context.Context) {
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
	s.fifo = NewDeltaFIFO(DeltaFIFOOptions[T]{
		KnownObjects: s.indexer,
		MaxSize:      s.opts.MaxQueueSize,
		Transform:    s.transform,
	})
	process := s.handleDeltas
	if metrics := newQueueMetrics(s.opts.Identifier, s.opts.MetricsProvider); metrics.enabled() {
		fifo := s.fifo
		process = func(key ObjectName, deltas Deltas[T], isInInitialList bool) error {
			start := time.Now()
			err := s.handleDeltas(key, deltas, isInInitialList)
			metrics.observe(fifo.Len(), time.Since(start))
			return err
		}
	}
	s.reflector = NewReflector(s.lw, s.fifo, process, ReflectorOptions{
		Name:              s.opts.Name,
		ResyncPeriod:      s.resyncCheckPeriod,
		ShouldResync:      func() bool { return s.processor.shouldResync(s.clock.Now()) },
		WatchErrorHandler: s.watchErrorHandler,
	})
	s.started = true
	s.processor.start(logger)
	reflector := s.reflector
	s.mu.Unlock()

	reflector.Run(ctx)

	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	// The processor stops strictly after the controller (semantics item 46).
	s.processor.stop()
}

// handleDeltas applies one object's deltas to the store and queues the
// notifications. Presence in the store, not the delta type, decides between
// add and update (semantics item 10).
func (s *SharedIndexInformer[T]) handleDeltas(key ObjectName, deltas Deltas[T], isInInitialList bool) error {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	for _, d := range deltas {
		switch d.Type {
		case Sync, Replaced, Added, Updated:
			if old, existed := s.indexer.Upsert(d.Object); existed {
				// An unchanged resourceVersion is a resync: it reaches only
				// listeners that take resyncs (semantics item 11).
				resync := old.GetResourceVersion() == d.Object.GetResourceVersion()
				s.processor.distribute(notification[T]{kind: updateNotification, oldObj: old, newObj: d.Object}, resync)
			} else {
				// Only the deltas of the first list are initial: an object
				// a watch event added while that list was queued is not.
				initial := isInInitialList && d.Type == Replaced
				s.processor.distribute(notification[T]{kind: addNotification, flag: initial, newObj: d.Object}, false)
			}
		case Deleted:
			old, existed := s.indexer.Remove(key)
			if !existed {
				// The store never held it: no handler saw it added.
				continue
			}
			last := d.Object
			var zero T
			if last == zero {
				last = old
			}
			s.processor.distribute(notification[T]{kind: deleteNotification, flag: d.FinalStateUnknown, oldObj: last}, false)
		}
	}
	return nil
}
