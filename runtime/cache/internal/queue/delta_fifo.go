package queue

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

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

// PopProcessFunc is the type of Pop's process function.
type PopProcessFunc[T any] = func(key ObjectName, deltas Deltas[T], isInInitialList bool) error

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
	Transform func(obj T) (T, error)
	// Intern, when set, is applied after Transform to every object that
	// enters the queue through Add, Update or Replace (not to deleted
	// objects, which are not cached). old is the object KnownObjects holds
	// under obj's key, or the zero T when it holds none (or KnownObjects is
	// not set): an earlier version of obj, cached and read-only, whose equal
	// parts Intern may give obj in place of its own.
	Intern func(obj, old T)
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
	mu sync.Mutex
	// entries is a ring holding the queued keys in line, each with its
	// deltas: every key queued gets the next sequence number, the line is
	// the numbers from first up to next, and the entry numbered s is
	// entries[s%len(entries)] (the length is a power of two, or zero).
	entries []fifoEntry[T]
	first   uint64
	next    uint64
	// index maps every queued key to its entry's sequence number. It also
	// holds keys processed since it was last rebuilt, with a number below the
	// head's: the consumer leaves the keys it processed in the map rather
	// than delete them (a probe of a map the reflector writes to from another
	// CPU), and counts them in stale; the map is rebuilt from the line once
	// they outnumber twice the queued keys plus staleFloor. indexPeak is
	// the largest len(index) since index was made. burstIndex and quietIndex
	// are the other, empty table of the two the index switches between
	// (delta_fifo_index.go), or nil.
	index      map[ObjectName]uint64
	burstIndex map[ObjectName]uint64
	quietIndex map[ObjectName]uint64
	indexPeak  int
	stale      int
	staleFloor int        // defaultStaleFloor; tests lower it
	popMu      sync.Mutex // serialises consumers
	// notEmpty wakes the consumer waiting for a key (take): it gets a
	// token, without blocking, when a key is queued while consumerWaits is
	// set. It is made once, so that a consumer that catches up with the
	// line again and again allocates nothing to wait. notFull is closed to
	// wake every producer waiting for room, and made anew by the next one
	// to wait.
	notEmpty      chan struct{}
	consumerWaits bool
	notFull       chan struct{}
	closed        chan struct{}
	isClosed      bool

	// populated is set once the first Replace has completed, or by an Add,
	// Update or Delete before it. The keys that were queued when the first
	// Replace completed and have not been processed successfully yet carry
	// the initial mark (on their entry, or inflightInitial while in flight);
	// initialLeft counts them. replacing is set while the first Replace runs
	// (it may wait for room with the lock released).
	populated   bool
	replacing   bool
	initialLeft int
	// synced is closed once HasSynced has become true.
	synced       chan struct{}
	syncedClosed bool

	// The entries numbered from taken up to first are those Pop has taken
	// off the line and handed to the consumer, with the lock released. A
	// taken key is in flight until its processing ends, which the consumer
	// records by advancing processedTo past its number (without the lock, so
	// it is read atomically): until then the consumer's store may not
	// reflect it, so Delete, Replace and Resync treat it as queued, and its
	// entry keeps its deltas (the newest is its state for Replace). The
	// consumer clears the processed entries under the lock (settleLocked).
	taken       uint64
	processedTo atomic.Uint64
	// batch is the consumer's copy of the taken entries it has not processed
	// yet, and batchBuf its backing array. Only Pop touches them, under popMu.
	batch    []takenEntry[T]
	batchBuf []takenEntry[T]
	// ownsDeltas is set once the consumer has taken keys in batches, or
	// declared that it will (OwnDeltas): it keeps no deltas after processing
	// them, so the queue clears them (settleLocked) and keeps a key's first
	// two deltas in its entry (appendLocked).
	ownsDeltas bool

	// slab is what is left of the last block cutLocked cuts lists from.
	slab Deltas[T]

	// linePeak is the most keys queued or in flight since the line last
	// drained, lineStart the number of the first key queued in that time,
	// and bulkLine whether a Replace or a Resync queued keys in it.
	// keepKeys is how many more keys may pass through smaller lines before
	// the ring and index a line of single events grew past releaseAbove are
	// released (drainedLocked).
	linePeak  int
	lineStart uint64
	bulkLine  bool
	keepKeys  int

	opts DeltaFIFOOptions[T]
}

// fifoEntry is one queued key: its deltas, oldest first, and whether it
// carries the initial mark (a key of the first list not processed yet). When
// the queue owns its deltas, a key queued with one or two deltas keeps them
// in cells, and deltas is a prefix of cells (appendLocked).
type fifoEntry[T Object] struct {
	key     ObjectName
	deltas  Deltas[T]
	initial bool
	cells   [2]Delta[T]
}

// inline reports whether e's deltas are in its own cells.
func (e *fifoEntry[T]) inline() bool {
	return len(e.deltas) > 0 && &e.deltas[0] == &e.cells[0]
}

// NewDeltaFIFO returns an empty queue.
func NewDeltaFIFO[T Object](opts DeltaFIFOOptions[T]) *DeltaFIFO[T] {
	return &DeltaFIFO[T]{
		index:      map[ObjectName]uint64{},
		staleFloor: defaultStaleFloor,
		synced:     make(chan struct{}),
		closed:     make(chan struct{}),
		notEmpty:   make(chan struct{}, 1),
		opts:       opts,
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
		return obj, fmt.Errorf("%s: %w", keyOf(obj), errNoObject)
	}
	return out, nil
}

// intern applies the Intern option to obj, whose key is key, with the
// object KnownObjects holds under key as the earlier version.
func (f *DeltaFIFO[T]) intern(key ObjectName, obj T) {
	var old T
	if f.opts.KnownObjects != nil {
		old, _ = f.opts.KnownObjects.Get(key)
	}
	f.opts.Intern(obj, old)
}

func (f *DeltaFIFO[T]) enqueueObject(ctx context.Context, t DeltaType, obj T) error {
	if f.opts.Transform != nil {
		var err error
		if obj, err = f.transform(obj); err != nil {
			return err
		}
	}
	key := keyOf(obj)
	if f.opts.Intern != nil && t != Deleted {
		f.intern(key, obj)
	}
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

// entryLocked returns key's queued entry, or nil. The pointer is valid until
// the next entry is queued or popped.
func (f *DeltaFIFO[T]) entryLocked(key ObjectName) *fifoEntry[T] {
	seq, ok := f.index[key]
	if !ok || seq < f.first {
		return nil // not queued, or popped and left in the index
	}
	return f.entryAt(seq)
}

// entryAt returns the entry numbered seq, which must be queued.
func (f *DeltaFIFO[T]) entryAt(seq uint64) *fifoEntry[T] {
	return &f.entries[seq&uint64(len(f.entries)-1)]
}

// inflightLocked returns key's in-flight entry, or nil when the key is not
// in flight or is also queued (its newest entry is the queued one).
func (f *DeltaFIFO[T]) inflightLocked(key ObjectName) *fifoEntry[T] {
	seq, ok := f.index[key]
	if !ok || seq >= f.first || seq < f.processedTo.Load() {
		return nil
	}
	return f.entryAt(seq)
}

// queuedLocked reports whether key is queued or in flight.
func (f *DeltaFIFO[T]) queuedLocked(key ObjectName) bool {
	seq, ok := f.index[key]
	return ok && seq >= f.processedTo.Load() // queued keys are numbered from first on
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
		if f.entryLocked(key) != nil {
			return nil
		}
		if f.notFull == nil {
			f.notFull = make(chan struct{})
		}
		if err := f.waitLocked(ctx, f.notFull); err != nil {
			return err
		}
	}
	return nil
}

// appendLocked appends d to key's deltas, queueing the key if it is new, and
// returns key's entry (valid until the next entry is queued or popped). It
// never waits.
//
// When the queue owns its deltas, a key's first two deltas go in its entry's
// cells; a third moves the list out to the heap, and the cells forget their
// objects. Otherwise each list is cut from a slab (cutLocked).
func (f *DeltaFIFO[T]) appendLocked(key ObjectName, d Delta[T]) *fifoEntry[T] {
	if e := f.entryLocked(key); e != nil {
		switch {
		case e.inline():
			grown := append(e.deltas, d) // in the cells while they have room
			if &grown[0] != &e.cells[0] {
				clear(e.cells[:])
			}
			e.deltas = dedupDeltas(grown)
		case len(e.deltas) == 1 && cap(e.deltas) == 1:
			// A second delta for a key queued with one cut from the
			// slab: the pair is cut from the slab too, and the cell
			// left behind forgets its object.
			two := f.cutLocked(2)
			two[0], two[1] = e.deltas[0], d
			e.deltas[0] = Delta[T]{}
			e.deltas = dedupDeltas(two)
		default:
			e.deltas = dedupDeltas(append(e.deltas, d))
		}
		return e
	}
	if f.ownsDeltas {
		e := f.queueLocked(key, nil)
		e.cells[0] = d
		e.deltas = e.cells[:1]
		return e
	}
	one := f.cutLocked(1)
	one[0] = d
	return f.queueLocked(key, one)
}

// deltaSlab is the most delta cells cutLocked allocates at once.
const deltaSlab = 64

// cutLocked returns a list of n (1 or 2) empty cells, as long as its
// capacity, for a queue that does not own its deltas (a queue that does keeps
// a key's first two deltas in its entry: appendLocked). The lists most keys
// are queued with, one delta and sometimes a second, are cut from a slab: one
// allocation for as many cells as keys are queued (plus two), up to
// deltaSlab. A line that keeps draining gets one list per allocation, and a
// slab never keeps popped deltas' objects alive for longer than the line it
// was cut for takes to drain (drainedLocked drops it). As each list's
// capacity is its length, appending to it (one more delta for the key)
// copies it out, and no two lists share a cell.
func (f *DeltaFIFO[T]) cutLocked(n int) Deltas[T] {
	if len(f.slab) < n {
		f.slab = make(Deltas[T], min(deltaSlab, f.lenLocked()+2))
	}
	cells := f.slab[:n:n]
	f.slab = f.slab[n:]
	return cells
}

// queueLocked puts key, which is not queued, at the end of the line with
// deltas.
func (f *DeltaFIFO[T]) queueLocked(key ObjectName, deltas Deltas[T]) *fifoEntry[T] {
	if f.next-f.taken == uint64(len(f.entries)) {
		f.growLocked()
	}
	if f.burstIndex != nil && len(f.index) >= releaseAbove {
		f.promoteLocked()
	}
	seq := f.next
	f.next++
	e := f.entryAt(seq)
	*e = fifoEntry[T]{key: key, deltas: deltas}
	f.index[key] = seq
	f.indexPeak = max(f.indexPeak, len(f.index))
	f.linePeak = max(f.linePeak, int(f.next-f.taken))
	if f.consumerWaits {
		f.consumerWaits = false
		select {
		case f.notEmpty <- struct{}{}:
		default: // a token the consumer did not take is still there
		}
	}
	return e
}

// growLocked doubles the ring, which is full of taken and queued entries.
// An entry whose deltas are in its own cells gets them in its new cells; the
// consumer's copies of taken entries still see the old cells, which hold the
// same deltas and stay alive as long as those copies.
func (f *DeltaFIFO[T]) growLocked() {
	old := f.entries
	f.entries = make([]fifoEntry[T], max(16, 2*len(old)))
	for seq := f.taken; seq < f.next; seq++ {
		from, to := &old[seq&uint64(len(old)-1)], f.entryAt(seq)
		*to = *from
		if from.inline() {
			to.deltas = to.cells[:len(from.deltas)]
		}
	}
}

// releaseAbove is the size above which the queue's ring and index tables are
// released, rather than kept for reuse, once they are empty
// (drainedLocked).
const releaseAbove = 1024

// defaultStaleFloor is the number of processed keys the queue's index may
// hold beyond twice the queued ones before it is rebuilt.
const defaultStaleFloor = 256

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

func (f *DeltaFIFO[T]) lenLocked() int { return int(f.next - f.first) }

// waitLocked releases the lock until wake is ready, the queue is closed or
// ctx ends, and takes the lock again.
func (f *DeltaFIFO[T]) waitLocked(ctx context.Context, wake <-chan struct{}) error {
	if f.isClosed {
		return ErrFIFOClosed
	}
	f.mu.Unlock()
	defer f.mu.Lock()
	select {
	case <-wake:
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
	return f.replace(ctx, list, false)
}

// ReplaceCollected is Replace for objects collected from a watch-list
// stream: a key listed more than once gets one Replaced delta, at its first
// place in the list, with its last object, as the stream's events are
// collected into a store.
func (f *DeltaFIFO[T]) ReplaceCollected(ctx context.Context, list []T) error {
	return f.replace(ctx, list, true)
}

// replace is Replace, or ReplaceCollected with onePerKey.
func (f *DeltaFIFO[T]) replace(ctx context.Context, list []T, onePerKey bool) error {
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
	if f.opts.Intern != nil {
		for _, obj := range list {
			f.intern(keyOf(obj), obj)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.bulkLine = true
	first := !f.populated
	if first {
		f.replacing = true
		defer func() {
			f.replacing = false
			f.checkSyncedLocked()
		}()
		for seq := f.first; seq < f.next; seq++ {
			f.markInitialLocked(f.entryAt(seq))
		}
	}
	listed := f.next // keys numbered from here on were queued by this call
	queue := func(key ObjectName, d Delta[T]) {
		if onePerKey && d.Type == Replaced {
			if seq, ok := f.index[key]; ok && seq >= listed && seq >= f.first {
				e := f.entryAt(seq)
				if last := &e.deltas[len(e.deltas)-1]; last.Type == Replaced {
					last.Object = d.Object
					return
				}
			}
		}
		e := f.appendLocked(key, d)
		if first {
			f.markInitialLocked(e)
		}
	}
	// The keys that may need a tombstone are those queued, being processed
	// or known when the list arrives. Keys that other producers queue while
	// Replace waits for room are newer than the list and are left alone.
	var candidates []ObjectName
	for seq := f.processedTo.Load(); seq < f.next; seq++ {
		candidates = append(candidates, f.entryAt(seq).key) // in flight, then queued
	}
	if f.opts.KnownObjects != nil {
		candidates = append(candidates, f.opts.KnownObjects.ListKeys()...)
	}
	var inList map[ObjectName]struct{}
	if len(candidates) > 0 {
		inList = make(map[ObjectName]struct{}, len(list))
	}
	if len(f.index) == 0 && len(list) > releaseAbove {
		f.index, f.burstIndex = make(map[ObjectName]uint64, len(list)), nil
	}
	for _, obj := range list {
		key := keyOf(obj)
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

// markInitialLocked records e's key as part of the first list, unless e
// carries the mark already. A key may also be in flight with the mark (taken
// from a first Replace that gave up): both entries then count, as both hold
// states of the list, and if the one in flight fails, the two marks become
// one as its deltas go back into e (finish).
func (f *DeltaFIFO[T]) markInitialLocked(e *fifoEntry[T]) {
	if e.initial {
		return
	}
	e.initial = true
	f.initialLeft++
}

// lastStateLocked returns the newest state of a key missing from a relist,
// and whether it needs a tombstone: not when its newest queued or in-flight
// delta is already a delete of a seen object, nor when the key is gone.
func (f *DeltaFIFO[T]) lastStateLocked(key ObjectName) (T, bool) {
	if e := f.entryLocked(key); e != nil {
		newest, _ := e.deltas.Newest()
		// A queued real delete absorbs the tombstone (dedupDeltas).
		return newest.Object, true
	}
	if e := f.inflightLocked(key); e != nil {
		newest, _ := e.deltas.Newest()
		return newest.Object, newest.Type != Deleted
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
	f.bulkLine = true
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

// processedLocked records that a key's deltas have been processed, for
// HasSynced; initial is its initial mark.
func (f *DeltaFIFO[T]) processedLocked(initial bool) {
	if initial {
		f.initialLeft--
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
	return f.populated && !f.replacing && f.initialLeft == 0
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
