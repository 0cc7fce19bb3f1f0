package cache

import (
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// minimumResyncPeriod is the smallest resync period a handler can ask for
// (docs/clientgo-semantics.md#resync-periods).
const minimumResyncPeriod = time.Second

// notificationKind says which handler method a notification calls.
type notificationKind uint8

const (
	addNotification notificationKind = iota
	updateNotification
	deleteNotification
)

// notification is one handler call waiting in a listener's buffer. It is a
// plain value: queueing it allocates nothing beyond the buffer itself.
type notification[T any] struct {
	kind notificationKind
	// flag is isInInitialList for adds and finalStateUnknown for deletes.
	flag   bool
	oldObj T
	newObj T
}

// listener buffers the notifications of one registration and delivers them,
// in order, from its own goroutine. Its buffer is unbounded, so a slow handler
// never blocks the informer or other handlers.
//
// A listener is the cache.ResourceEventHandlerRegistration its informer hands
// out: it has synced once the informer has and every object of the initial
// list (or, for a handler added after start, every object the store held when
// it was added) has been handed to the handler and the handler has returned.
type listener[T Object] struct {
	owner   any // the informer that created it
	handler cache.TypedResourceEventHandler[T]
	synced  func() bool // the informer's HasSynced
	// informerSynced is closed when the informer has synced.
	informerSynced <-chan struct{}
	// logger, when set, is the handler's own (cache.HandlerOptions.Logger);
	// otherwise the processor's is used. panics is the processor's. Both are
	// set when the listener starts.
	logger klog.Logger
	panics *atomic.Int64

	// syncedCh is closed, once, when the informer has synced and no initial
	// add is pending: both hold for good once they hold.
	syncedCh    chan struct{}
	closeSynced sync.Once

	mu      sync.Mutex
	pending ring[notification[T]]
	wake    chan struct{} // capacity 1: a delivery may be waiting
	stop    chan struct{}
	stopped bool
	done    chan struct{} // closed when run returns, or on removal if run never started
	// running says whether run has been started. Guarded by the processor.
	running bool

	// initialPending counts initial-list adds queued and not yet delivered.
	initialPending atomic.Int64

	// requestedResync is what the handler asked for; resyncPeriod what it
	// gets; nextResync is when it is next due; syncing says whether it takes
	// resync notifications now. Guarded by the processor.
	requestedResync time.Duration
	resyncPeriod    time.Duration
	nextResync      time.Time
	syncing         bool
}

func newListener[T Object](owner any, handler cache.TypedResourceEventHandler[T], synced func() bool, informerSynced <-chan struct{}, requested, period time.Duration, now time.Time) *listener[T] {
	return &listener[T]{
		owner:           owner,
		handler:         handler,
		synced:          synced,
		informerSynced:  informerSynced,
		syncedCh:        make(chan struct{}),
		wake:            make(chan struct{}, 1),
		stop:            make(chan struct{}),
		done:            make(chan struct{}),
		requestedResync: requested,
		resyncPeriod:    period,
		nextResync:      now.Add(period),
	}
}

// HasSynced implements cache.ResourceEventHandlerRegistration.
func (l *listener[T]) HasSynced() bool {
	return l.synced() && l.initialPending.Load() == 0
}

// HasSyncedChecker implements cache.ResourceEventHandlerRegistration: its
// channel closes when HasSynced becomes true.
func (l *listener[T]) HasSyncedChecker() cache.DoneChecker {
	return syncedChecker{name: "event handler", done: l.syncedCh}
}

// watchSynced waits for the informer to sync, then closes syncedCh as soon as
// no initial add is pending. It runs on its own goroutine from start until the
// informer syncs or the listener stops.
func (l *listener[T]) watchSynced() {
	select {
	case <-l.informerSynced:
	case <-l.stop:
		return
	}
	l.maybeCloseSynced()
}

// maybeCloseSynced closes syncedCh when the informer has synced and no
// initial add is pending. The replay of a handler added late is queued before
// the listener starts, and initial adds are only queued before the informer
// syncs, so once both conditions hold they keep holding.
func (l *listener[T]) maybeCloseSynced() {
	select {
	case <-l.informerSynced:
	default:
		return
	}
	if l.initialPending.Load() == 0 {
		l.closeSynced.Do(func() { close(l.syncedCh) })
	}
}

// add queues n for delivery. It never blocks.
func (l *listener[T]) add(n notification[T]) {
	if n.kind == addNotification && n.flag {
		l.initialPending.Add(1)
	}
	l.mu.Lock()
	if !l.stopped {
		l.pending.push(n)
	}
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// run delivers notifications until the listener is stopped. Notifications
// still buffered at that point are dropped: the handler is going away.
func (l *listener[T]) run() {
	defer close(l.done)
	for {
		l.mu.Lock()
		for l.pending.len() == 0 && !l.stopped {
			l.mu.Unlock()
			select {
			case <-l.wake:
			case <-l.stop:
			}
			l.mu.Lock()
		}
		if l.stopped {
			l.pending.clear()
			l.mu.Unlock()
			return
		}
		n := l.pending.pop()
		l.mu.Unlock()
		l.deliver(n)
	}
}

// deliver calls the handler, recovering (and logging and counting) a panic so
// that one bad notification neither kills the informer nor stops later ones.
func (l *listener[T]) deliver(n notification[T]) {
	defer func() {
		if n.kind == addNotification && n.flag && l.initialPending.Add(-1) == 0 {
			l.maybeCloseSynced()
		}
		if r := recover(); r != nil {
			l.panics.Add(1)
			l.logger.Error(nil, "Event handler panicked; the notification is skipped", "panic", r, "stack", string(debug.Stack()))
		}
	}()
	switch n.kind {
	case addNotification:
		l.handler.OnAdd(n.newObj, n.flag)
	case updateNotification:
		l.handler.OnUpdate(n.oldObj, n.newObj)
	case deleteNotification:
		l.handler.OnDelete(deletedObject(n.oldObj, n.flag))
	}
}

// ShutdownChan is closed once the listener has stopped for good: its handler
// is not running and will not be called again. client-go's
// cache.ShutDownEventHandler removes a registration and waits on it.
func (l *listener[T]) ShutdownChan() <-chan struct{} { return l.done }

// shutdown stops the listener; it returns at once.
func (l *listener[T]) shutdown() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.stopped {
		l.stopped = true
		close(l.stop)
	}
}

// processor fans notifications out to listeners.
type processor[T Object] struct {
	panics atomic.Int64 // handler calls that panicked, over all listeners
	logger klog.Logger  // set by start

	mu        sync.RWMutex
	listeners []*listener[T]
	started   bool
	// running counts listener goroutines, including those of removed
	// listeners still in a handler call.
	running sync.WaitGroup
}

// addListener registers l and starts it if the processor runs. It reports
// whether the processor runs. A new listener takes resync notifications (and
// so updates that do not change the resourceVersion) until the first resync
// check says otherwise, as client-go's does.
func (p *processor[T]) addListener(l *listener[T]) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	l.syncing = true
	p.listeners = append(p.listeners, l)
	if p.started {
		p.run(l)
	}
	return p.started
}

// removeListener unregisters l and stops it asynchronously; removing a
// listener that is not registered is a no-op.
func (p *processor[T]) removeListener(l *listener[T]) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := slices.Index(p.listeners, l)
	if i < 0 {
		return
	}
	p.listeners = slices.Delete(p.listeners, i, i+1)
	l.shutdown()
	if !l.running {
		close(l.done) // run never started: nothing is left to wait for
	}
}

// distribute queues n to every listener. An update that leaves the
// resourceVersion unchanged is a resync: it is queued only to the listeners
// that take resync notifications now (docs/clientgo-semantics.md#same-rv-is-resync).
// The two resourceVersions are compared only when a listener does not take
// resyncs: the replaced object is usually cold in the CPU cache, and while
// every listener takes them (always, when no handler asked for resyncs) the
// answer changes nothing.
func (p *processor[T]) distribute(n notification[T]) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	compared, resync := false, false
	for _, l := range p.listeners {
		if !l.syncing && n.kind == updateNotification {
			if !compared {
				resync = n.oldObj.GetResourceVersion() == n.newObj.GetResourceVersion()
				compared = true
			}
			if resync {
				continue
			}
		}
		l.add(n)
	}
}

// start starts every listener, logging to logger.
func (p *processor[T]) start(logger klog.Logger) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.started = true
	p.logger = logger
	for _, l := range p.listeners {
		p.run(l)
	}
}

// run starts l's goroutines; p.mu is held.
func (p *processor[T]) run(l *listener[T]) {
	if l.logger.GetSink() == nil {
		l.logger = p.logger
	}
	l.panics = &p.panics
	l.running = true
	p.running.Go(l.run)
	p.running.Go(l.watchSynced)
}

// stop stops every listener and waits for every listener goroutine to
// return, also those of listeners removed earlier that are still in a handler
// call.
func (p *processor[T]) stop() {
	p.mu.Lock()
	for _, l := range p.listeners {
		l.shutdown()
	}
	p.mu.Unlock()
	p.running.Wait()
}

// shouldResync selects the listeners whose resync is due at now, schedules
// their next one, and reports whether there is any.
func (p *processor[T]) shouldResync(now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	due := false
	for _, l := range p.listeners {
		l.syncing = l.resyncPeriod > 0 && !now.Before(l.nextResync)
		if l.syncing {
			due = true
			l.nextResync = now.Add(l.resyncPeriod)
		}
	}
	return due
}

// resyncCheckPeriodChanged re-derives every listener's period from the new
// informer check period (before start only).
func (p *processor[T]) resyncCheckPeriodChanged(check time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.listeners {
		l.resyncPeriod = effectiveResync(l.requestedResync, check)
	}
}

// effectiveResync is the resync period a handler asking for requested gets from
// an informer that checks every check: none when either is zero, and never less
// often than the check (docs/clientgo-semantics.md#resync-periods).
func effectiveResync(requested, check time.Duration) time.Duration {
	if requested == 0 || check == 0 {
		return 0
	}
	return max(requested, check)
}
