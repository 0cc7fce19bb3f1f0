package cache

import (
	"context"
	"errors"
	"fmt"
	"sync"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
)

// ErrFIFOClosed is returned by Pop once the queue is closed and drained, and
// by a producer that would have to wait for room in a closed queue. It is
// client-go's cache.ErrFIFOClosed, so that errors.Is checks written for
// client-go's queues (its controller loop's among them) match it.
var ErrFIFOClosed = cache.ErrFIFOClosed

// KnownObjects is what a DeltaFIFO asks about the objects its consumer already
// holds (normally the informer's store): Replace infers deletes from it, Resync
// re-delivers its objects, and Delete consults it. Indexer implements
// it.
type KnownObjects[T any] interface {
	Get(key ObjectName) (T, bool)
	ListKeys() []ObjectName
}

// popProcessFunc is the type of Pop's process function.
type popProcessFunc[T any] = func(key ObjectName, deltas Deltas[T], isInInitialList bool) error

// DeltaFIFOOptions configure a DeltaFIFO. The zero value is valid.
type DeltaFIFOOptions[T any] struct {
	// KnownObjects, when set, is consulted by Replace, Resync and Delete.
	KnownObjects KnownObjects[T]
	// MaxSize, when positive, bounds the number of distinct keys in the queue.
	// A producer that needs to queue a new key while MaxSize keys are queued
	// waits until Pop makes room, the queue is closed, or its context ends.
	// Deltas for keys already queued are always accepted at once, so nothing
	// is dropped and a key never waits behind itself. Pop, Close and HasSynced
	// never wait for room.
	MaxSize int
	// Transform, when set, is applied to every object as it enters the queue
	// through Add, Update, Delete or Replace, and never to the objects Resync
	// or an inferred delete takes from KnownObjects
	// (docs/clientgo-semantics.md#transform-once). It may mutate the object in
	// place and must be idempotent.
	// A transform that returns a nil object without an error is refused
	// with an error naming the object's key: Add, Update and Delete return
	// it; Replace reports it and leaves that object out of the list.
	Transform TransformFunc[T]
}

// DeltaFIFO is a queue of per-object change lists, the typed counterpart of
// client-go's DeltaFIFO.
//
// Producers (one reflector; several are allowed) call Add, Update, Delete,
// Replace and Resync; one consumer calls Pop. Each key appears in the queue at
// most once: a change for a key that is already queued is appended to that
// key's Deltas, and the key keeps its place in line. Pop therefore delivers
// every object's changes strictly in order, and across objects in the order in
// which their keys were first queued (see the package documentation for how
// this differs from client-go's RealFIFO).
//
// Pop hands a key's deltas over to the consumer and releases the queue's lock
// while the consumer processes them, so producers are not held up by a slow
// consumer. Until processing ends, the key counts as queued for Delete,
// Replace and Resync. Pop must not be called concurrently: concurrent
// consumers could process the same key at once.
//
// A Delete for a key that is neither queued nor known to KnownObjects is
// dropped (as client-go's DeltaFIFO does, and unlike its RealFIFO, which
// delivers a delete for an object the consumer never held): the consumer never
// saw that object, so there is nothing to undo.
type DeltaFIFO[T Object] struct {
	mu    sync.Mutex
	items map[ObjectName]Deltas[T]
	// itemsPeak is the largest len(items) since items was last allocated.
	itemsPeak int
	queue     []ObjectName // keys in line; queue[head:] are pending
	head      int
	popMu     sync.Mutex // serialises consumers
	notEmpty  chan struct{}
	notFull   chan struct{}
	closed    chan struct{}
	isClosed  bool

	// populated is set once the first Replace has completed, or by an Add,
	// Update or Delete before it. initialKeys are the keys that were queued
	// when the first Replace completed and have not been processed
	// successfully yet; replacing is set while the first Replace runs (it may
	// wait for room with the lock released).
	populated   bool
	replacing   bool
	initialKeys map[ObjectName]struct{}
	// synced is closed once HasSynced has become true.
	synced       chan struct{}
	syncedClosed bool

	// inflightKey is the key Pop is processing with the lock released, and
	// inflightNewest its newest delta: until processing ends the consumer's
	// store may not reflect it, so Delete, Replace and Resync treat it as
	// queued.
	inflight       bool
	inflightKey    ObjectName
	inflightNewest Delta[T]

	opts DeltaFIFOOptions[T]
}

// NewDeltaFIFO returns an empty queue.
func NewDeltaFIFO[T Object](opts DeltaFIFOOptions[T]) *DeltaFIFO[T] {
	return &DeltaFIFO[T]{
		items:       map[ObjectName]Deltas[T]{},
		initialKeys: map[ObjectName]struct{}{},
		synced:      make(chan struct{}),
		closed:      make(chan struct{}),
		opts:        opts,
	}
}

// Add records that obj was created. It waits only as the MaxSize option says.
func (f *DeltaFIFO[T]) Add(ctx context.Context, obj T) error {
	return f.enqueueObject(ctx, Added, obj)
}

// Update records that obj was modified. It waits only as the MaxSize option
// says.
func (f *DeltaFIFO[T]) Update(ctx context.Context, obj T) error {
	return f.enqueueObject(ctx, Updated, obj)
}

// Delete records that obj was deleted; obj is its last state. The delete is
// dropped when the key is neither queued nor known (see DeltaFIFO). It waits
// only as the MaxSize option says.
func (f *DeltaFIFO[T]) Delete(ctx context.Context, obj T) error {
	return f.enqueueObject(ctx, Deleted, obj)
}

// errNoObject is wrapped by the error of a transform that returned no object.
var errNoObject = errors.New("transform returned no object")

// transform applies the Transform option to obj. A transform that returns the
// zero T (a nil pointer) without an error is an error naming obj's key: the
// queue never holds an object without a key.
func (f *DeltaFIFO[T]) transform(obj T) (T, error) {
	out, err := f.opts.Transform(obj)
	if err != nil {
		return obj, err
	}
	var zero T
	if out == zero {
		return obj, fmt.Errorf("%s: %w", KeyOf(obj), errNoObject)
	}
	return out, nil
}

func (f *DeltaFIFO[T]) enqueueObject(ctx context.Context, t DeltaType, obj T) error {
	if f.opts.Transform != nil {
		var err error
		if obj, err = f.transform(obj); err != nil {
			return err
		}
	}
	key := KeyOf(obj)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.waitForRoomLocked(ctx, key); err != nil {
		return err
	}
	f.populated = true
	f.checkSyncedLocked()
	if t == Deleted && !f.knownLocked(key) {
		return nil
	}
	f.appendLocked(key, Delta[T]{Type: t, Object: obj})
	return nil
}

// queuedLocked reports whether key is queued or being processed.
func (f *DeltaFIFO[T]) queuedLocked(key ObjectName) bool {
	if _, ok := f.items[key]; ok {
		return true
	}
	return f.inflight && f.inflightKey == key
}

// knownLocked reports whether key is queued, being processed, or known to
// KnownObjects.
func (f *DeltaFIFO[T]) knownLocked(key ObjectName) bool {
	if f.queuedLocked(key) {
		return true
	}
	if f.opts.KnownObjects == nil {
		return false
	}
	_, ok := f.opts.KnownObjects.Get(key)
	return ok
}

// waitForRoomLocked returns once a delta for key can be queued without
// exceeding MaxSize: the key is already queued, or there is room. While it
// waits the lock is released, so callers must decide what to queue only after
// it returns.
func (f *DeltaFIFO[T]) waitForRoomLocked(ctx context.Context, key ObjectName) error {
	for f.opts.MaxSize > 0 && f.lenLocked() >= f.opts.MaxSize {
		if _, ok := f.items[key]; ok {
			return nil
		}
		if err := f.waitLocked(ctx, &f.notFull); err != nil {
			return err
		}
	}
	return nil
}

// appendLocked appends d to key's deltas, queueing the key if it is new. It
// never waits.
func (f *DeltaFIFO[T]) appendLocked(key ObjectName, d Delta[T]) {
	if deltas, ok := f.items[key]; ok {
		f.items[key] = dedupDeltas(append(deltas, d))
		return
	}
	f.items[key] = Deltas[T]{d}
	f.itemsPeak = max(f.itemsPeak, len(f.items))
	f.queue = append(f.queue, key)
	signal(&f.notEmpty)
}

// releaseAbove is the size above which the queue's slice and map are
// released, rather than kept for reuse, once they are empty.
const releaseAbove = 1024

// dedupDeltas collapses the last two deltas into one when both are deletes.
func dedupDeltas[T any](deltas Deltas[T]) Deltas[T] {
	n := len(deltas)
	if n < 2 {
		return deltas
	}
	if keep := isDeletionDup(&deltas[n-2], &deltas[n-1]); keep != nil {
		deltas[n-2] = *keep
		var zero Delta[T]
		deltas[n-1] = zero
		return deltas[:n-1]
	}
	return deltas
}

func (f *DeltaFIFO[T]) lenLocked() int { return len(f.queue) - f.head }

// waitLocked releases the lock until *ch is signalled, the queue is closed or
// ctx ends, and takes the lock again.
func (f *DeltaFIFO[T]) waitLocked(ctx context.Context, ch *chan struct{}) error {
	if f.isClosed {
		return ErrFIFOClosed
	}
	if *ch == nil {
		*ch = make(chan struct{})
	}
	c := *ch
	f.mu.Unlock()
	defer f.mu.Lock()
	select {
	case <-c:
		return nil
	case <-f.closed:
		return nil // the caller sees isClosed on its next check
	case <-ctx.Done():
		return ctx.Err()
	}
}

// signal wakes every waiter on *ch.
func signal(ch *chan struct{}) {
	if *ch != nil {
		close(*ch)
		*ch = nil
	}
}

// Replace records a full list of the objects that exist: every object of list
// gets a Replaced delta (in list order), then every key that was queued, being
// processed or known when Replace started, but is missing from list, gets one
// Deleted delta with FinalStateUnknown set, carrying the newest queued state,
// else the known state (docs/clientgo-semantics.md#replace-delta-type to
// #replace-after-delete). A key that another producer queues while Replace
// waits for room is newer than the list and gets none. Replace takes ownership
// of list (the transform rewrites it in place).
//
// The first Replace defines the initial list that HasSynced waits for. When
// MaxSize is set, Replace waits for room key by key, releasing the lock, so a
// consumer can pop the first keys of a list longer than MaxSize while the rest
// are queued; if it then fails (ctx ends, the queue closes), what it queued
// stays queued and the next Replace completes the job.
func (f *DeltaFIFO[T]) Replace(ctx context.Context, list []T) error {
	if f.opts.Transform != nil {
		kept := list[:0]
		for _, obj := range list {
			out, err := f.transform(obj)
			if errors.Is(err, errNoObject) {
				// One bad object does not fail the whole list: it is left
				// out, as client-go's store refuses it, and reported.
				utilruntime.HandleError(err)
				continue
			}
			if err != nil {
				return err
			}
			kept = append(kept, out)
		}
		list = kept
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	first := !f.populated
	if first {
		f.replacing = true
		defer func() {
			f.replacing = false
			f.checkSyncedLocked()
		}()
		for _, key := range f.queue[f.head:] {
			f.markInitialLocked(key)
		}
	}
	queue := func(key ObjectName, d Delta[T]) {
		if first {
			f.markInitialLocked(key)
		}
		f.appendLocked(key, d)
	}
	// The keys that may need a tombstone are those queued, being processed
	// or known when the list arrives. Keys that other producers queue while
	// Replace waits for room are newer than the list and are left alone.
	var candidates []ObjectName
	for key := range f.items {
		candidates = append(candidates, key)
	}
	if f.inflight {
		candidates = append(candidates, f.inflightKey)
	}
	if f.opts.KnownObjects != nil {
		candidates = append(candidates, f.opts.KnownObjects.ListKeys()...)
	}
	var inList map[ObjectName]struct{}
	if len(candidates) > 0 {
		inList = make(map[ObjectName]struct{}, len(list))
	}
	if len(f.items) == 0 && len(list) > releaseAbove {
		f.items = make(map[ObjectName]Deltas[T], len(list))
	}
	if first && f.initialKeys == nil {
		f.initialKeys = make(map[ObjectName]struct{}, len(list)+f.lenLocked())
	}
	for _, obj := range list {
		key := KeyOf(obj)
		if inList != nil {
			inList[key] = struct{}{}
		}
		if err := f.waitForRoomLocked(ctx, key); err != nil {
			return err
		}
		queue(key, Delta[T]{Type: Replaced, Object: obj})
	}
	for _, key := range candidates {
		if _, listed := inList[key]; listed {
			continue
		}
		if err := f.waitForRoomLocked(ctx, key); err != nil {
			return err
		}
		if last, ok := f.lastStateLocked(key); ok {
			queue(key, Delta[T]{Type: Deleted, Object: last, FinalStateUnknown: true})
		}
		inList[key] = struct{}{} // one tombstone per key
	}
	f.populated = true
	return nil
}

// markInitialLocked records key as part of the first list.
func (f *DeltaFIFO[T]) markInitialLocked(key ObjectName) {
	if f.initialKeys == nil {
		f.initialKeys = map[ObjectName]struct{}{}
	}
	f.initialKeys[key] = struct{}{}
}

// lastStateLocked returns the newest state of a key missing from a relist,
// and whether it needs a tombstone: not when its newest queued or in-flight
// delta is already a delete of a seen object, nor when the key is gone.
func (f *DeltaFIFO[T]) lastStateLocked(key ObjectName) (T, bool) {
	if deltas, ok := f.items[key]; ok {
		newest, _ := deltas.Newest()
		// A queued real delete absorbs the tombstone (dedupDeltas).
		return newest.Object, true
	}
	if f.inflight && f.inflightKey == key {
		return f.inflightNewest.Object, f.inflightNewest.Type != Deleted
	}
	if f.opts.KnownObjects != nil {
		// A key listed earlier may have been deleted from the store by the
		// consumer since: its delete was delivered already.
		return f.opts.KnownObjects.Get(key)
	}
	var zero T
	return zero, false
}

// Resync queues a Sync delta for every known object whose key is neither queued
// nor being processed (those already carry a newer state;
// docs/clientgo-semantics.md#resync-skips-queued). Without KnownObjects it does
// nothing. It waits only as the MaxSize option says, and decides what to queue
// for a key only after waiting.
func (f *DeltaFIFO[T]) Resync(ctx context.Context) error {
	if f.opts.KnownObjects == nil {
		return nil
	}
	keys := f.opts.KnownObjects.ListKeys()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, key := range keys {
		if err := f.waitForRoomLocked(ctx, key); err != nil {
			return err
		}
		if f.queuedLocked(key) {
			continue
		}
		if obj, ok := f.opts.KnownObjects.Get(key); ok {
			f.appendLocked(key, Delta[T]{Type: Sync, Object: obj})
		}
	}
	return nil
}

// Pop waits for a queued key, removes it with its deltas and calls process
// with the lock released. isInInitialList is true for the keys of the first
// Replace that HasSynced waits for, a key whose processing failed included,
// and false for every other key, even one popped before the queue has synced
// (behind a failed initial key). Pop returns process's error, after putting
// the deltas back ahead of any that arrived meanwhile; ErrFIFOClosed once the
// queue is closed and empty; or ctx's error. Pop must not be called
// concurrently with itself.
//
// When process panics, the queue is left consistent and the panic goes on to
// Pop's caller: the key is no longer in flight, its deltas are dropped as
// client-go's DeltaFIFO drops them, and it counts as processed for HasSynced
// (a key whose processing always panics must not keep the queue unsynced).
func (f *DeltaFIFO[T]) Pop(ctx context.Context, process func(key ObjectName, deltas Deltas[T], isInInitialList bool) error) error {
	f.popMu.Lock()
	defer f.popMu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.lenLocked() == 0 {
		if f.isClosed {
			return ErrFIFOClosed
		}
		if err := f.waitLocked(ctx, &f.notEmpty); err != nil {
			return err
		}
	}
	key := f.queue[f.head]
	f.queue[f.head] = ObjectName{}
	f.head++
	if f.head == len(f.queue) {
		f.queue, f.head = f.queue[:0], 0
		if cap(f.queue) > releaseAbove {
			f.queue = nil
		}
	} else if f.head > releaseAbove && f.head > len(f.queue)/2 {
		n := copy(f.queue, f.queue[f.head:])
		clear(f.queue[n:])
		f.queue, f.head = f.queue[:n], 0
	}
	deltas := f.items[key]
	delete(f.items, key)
	if len(f.items) == 0 && f.itemsPeak > releaseAbove {
		// Go maps never shrink: drop the one a burst (the initial list) grew.
		f.items, f.itemsPeak = map[ObjectName]Deltas[T]{}, 0
	}
	signal(&f.notFull)
	_, isInInitialList := f.initialKeys[key]

	f.inflight, f.inflightKey = true, key
	f.inflightNewest, _ = deltas.Newest()
	f.mu.Unlock()
	returned := false
	defer func() {
		if !returned { // process panicked; the deferred f.mu.Unlock follows
			f.mu.Lock()
			f.endInflightLocked()
			f.processedLocked(key)
		}
	}()
	err := process(key, deltas, isInInitialList)
	returned = true
	f.mu.Lock()
	f.endInflightLocked()

	if err != nil {
		if newer, ok := f.items[key]; ok {
			for _, d := range newer {
				deltas = dedupDeltas(append(deltas, d))
			}
			f.items[key] = deltas
		} else {
			f.items[key] = deltas
			f.queue = append(f.queue, key)
			signal(&f.notEmpty)
		}
		return err
	}
	f.processedLocked(key)
	return nil
}

// endInflightLocked records that Pop's process function has returned.
func (f *DeltaFIFO[T]) endInflightLocked() {
	f.inflight, f.inflightKey = false, ObjectName{}
	f.inflightNewest = Delta[T]{}
}

// processedLocked records that key's deltas have been processed, for
// HasSynced.
func (f *DeltaFIFO[T]) processedLocked(key ObjectName) {
	delete(f.initialKeys, key)
	if len(f.initialKeys) == 0 && !f.replacing {
		f.initialKeys = nil // the first list is done: release its keys
	}
	f.checkSyncedLocked()
}

// HasSynced reports whether the first Replace has completed and every key
// queued by then has been popped and processed without error, or whether an
// Add, Update or Delete was queued before any Replace
// (docs/clientgo-semantics.md#queue-synced).
func (f *DeltaFIFO[T]) HasSynced() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hasSyncedLocked()
}

func (f *DeltaFIFO[T]) hasSyncedLocked() bool {
	return f.populated && !f.replacing && len(f.initialKeys) == 0
}

// checkSyncedLocked closes the synced channel when HasSynced has become true.
func (f *DeltaFIFO[T]) checkSyncedLocked() {
	if !f.syncedClosed && f.hasSyncedLocked() {
		f.syncedClosed = true
		close(f.synced)
	}
}

// Synced returns a channel that is closed once HasSynced is true, for waiting
// without polling (docs/clientgo-semantics.md#wait-without-polling).
func (f *DeltaFIFO[T]) Synced() <-chan struct{} { return f.synced }

// Len returns the number of queued keys.
func (f *DeltaFIFO[T]) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lenLocked()
}

// Close closes the queue: Pop drains what is queued and then returns
// ErrFIFOClosed, and producers waiting for room return ErrFIFOClosed. Close
// may be called more than once.
func (f *DeltaFIFO[T]) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.isClosed {
		f.isClosed = true
		close(f.closed)
	}
}

// IsClosed reports whether Close was called.
func (f *DeltaFIFO[T]) IsClosed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.isClosed
}
