package cache

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/queue"
)

// controllerOptions configure a controller. The zero value is valid.
type controllerOptions struct {
	// Name describes the objects in client-go's logs and metrics.
	Name string
	// ResyncPeriod is how often the reflector asks ShouldResync whether to
	// call the queue's Resync; zero never resyncs.
	ResyncPeriod time.Duration
	// ShouldResync, when set, is asked on every resync tick; nil means yes.
	ShouldResync func() bool
	// Reserve, when set, is told the length of every list before the queue
	// gets it, so that an empty store can make room for it at once.
	Reserve func(n int)
	// WatchErrorHandler is called with every error client-go's ListAndWatch
	// returns: a failed list, a watch that cannot be opened; errors in an open
	// watch stream never reach it (docs/clientgo-semantics.md#watch-errors).
	// nil leaves client-go's default, which logs.
	WatchErrorHandler cache.WatchErrorHandlerWithContext
	// Shard, when set, limits the objects listed and watched to its
	// selection (SharedIndexInformer.SetShardScope).
	Shard ShardScope
}

// controller is the informer's cache.Controller: client-go's controller loop
// (cache.New) running client-go's cache.Reflector, unchanged (list then watch,
// watch-list streaming, bookmarks, relists on 410 Gone, pagination, backoff and
// the watch error handler), into a typed DeltaFIFO whose popped keys go to a
// typed process function. Only the queue and what it delivers are typed.
type controller[T Object] struct {
	loop  cache.Controller
	queue *fifoQueue[T]
}

// newController returns a controller that fills fifo from lw and hands every
// popped key to process. Run starts it.
// known returns the objects of the informer's store; a sharded informer's
// watch hands a change of its share over with them.
func newController[T Object](lw *ListWatch[T], fifo *queue.DeltaFIFO[T], process queue.PopProcessFunc[T], known func() []T, opts controllerOptions) *controller[T] {
	fifo.OwnDeltas() // the queue's one consumer is Pop below, taking batches
	q := &fifoQueue[T]{fifo: fifo, process: process, name: opts.Name, reserve: opts.Reserve}
	listerWatcher := lw.listerWatcher()
	if opts.Shard != nil {
		listerWatcher = newShardedListerWatcher(listerWatcher, opts.Shard, opts.Name, known)
	}
	loop := cache.New(&cache.Config{
		Queue:                        q,
		ListerWatcher:                newStreamingListerWatcher(listerWatcher, q),
		ObjectType:                   exampleObject[T](),
		ObjectDescription:            opts.Name,
		FullResyncPeriod:             opts.ResyncPeriod,
		ShouldResync:                 opts.ShouldResync,
		WatchErrorHandlerWithContext: opts.WatchErrorHandler,
		// Process is not used: the queue calls the typed process itself.
	})
	return &controller[T]{loop: loop, queue: q}
}

// exampleObject returns a new, empty T: the type the reflector accepts.
func exampleObject[T Object]() T {
	return reflect.New(reflect.TypeFor[T]().Elem()).Interface().(T)
}

// Run lists, watches, relists and processes until ctx ends, then closes the
// queue and returns once client-go's goroutines have. A producer call that has
// to wait for room in the queue (queue.DeltaFIFOOptions.MaxSize) waits under ctx.
func (r *controller[T]) Run(ctx context.Context) {
	r.queue.setContext(ctx)
	r.loop.RunWithContext(ctx)
}

// LastSyncResourceVersion is the resourceVersion the reflector last saw. It is
// not synchronised with what the queue's consumer has processed
// (docs/clientgo-semantics.md#informer-resource-version).
func (r *controller[T]) LastSyncResourceVersion() string {
	return r.loop.LastSyncResourceVersion()
}

// fifoQueue is the untyped cache.Queue face of a DeltaFIFO that client-go's
// reflector writes to and its controller loop pops. Objects of another type are
// refused with an error: the reflector logs and drops such a watch event, and
// retries a list that holds one (docs/clientgo-semantics.md#type-checks).
type fifoQueue[T Object] struct {
	fifo    *queue.DeltaFIFO[T]
	process queue.PopProcessFunc[T]
	name    string
	reserve func(n int) // controllerOptions.Reserve

	// ctx bounds producer waits; set by controller.Run. It is read on every
	// event the reflector queues, so without a lock.
	ctx atomic.Pointer[context.Context]

	mu       sync.Mutex
	streamed *streamed[T] // a watch-list stream's objects, for the next Replace
}

func (q *fifoQueue[T]) setContext(ctx context.Context) { q.ctx.Store(&ctx) }

func (q *fifoQueue[T]) context() context.Context {
	if ctx := q.ctx.Load(); ctx != nil {
		return *ctx
	}
	return context.Background()
}

func typed[T any](obj any) (T, error) {
	t, ok := obj.(T)
	if !ok {
		return t, fmt.Errorf("expected %T, got %T", t, obj)
	}
	return t, nil
}

func (q *fifoQueue[T]) Add(obj any) error {
	t, err := typed[T](obj)
	if err != nil {
		return err
	}
	return q.fifo.Add(q.context(), t)
}

func (q *fifoQueue[T]) Update(obj any) error {
	t, err := typed[T](obj)
	if err != nil {
		return err
	}
	return q.fifo.Update(q.context(), t)
}

func (q *fifoQueue[T]) Delete(obj any) error {
	t, err := typed[T](obj)
	if err != nil {
		return err
	}
	return q.fifo.Delete(q.context(), t)
}

// Replace replaces the queue's content with list, or, after a watch-list
// stream whose initial events a collectingWatch collected, with the collected
// objects (the reflector's own collection, list, then holds at most the
// stream's first object, which the collected ones account for).
func (q *fifoQueue[T]) Replace(list []any, resourceVersion string) error {
	if s := q.takeStreamed(resourceVersion); s != nil {
		q.reserveFor(len(s.objs))
		return q.fifo.ReplaceCollected(q.context(), s.objs)
	}
	q.reserveFor(len(list))
	objs := make([]T, len(list))
	for i, obj := range list {
		t, err := typed[T](obj)
		if err != nil {
			return err
		}
		objs[i] = t
	}
	return q.fifo.Replace(q.context(), objs)
}

func (q *fifoQueue[T]) reserveFor(n int) {
	if q.reserve != nil {
		q.reserve(n)
	}
}

func (q *fifoQueue[T]) Resync() error { return q.fifo.Resync(q.context()) }

// Pop ignores the controller's process function (which is nil) and hands the
// typed deltas to the reflector's consumer, taking up to InformerBatch keys off the
// line at a time. The controller closes the queue when its context ends,
// which ends a waiting Pop.
func (q *fifoQueue[T]) Pop(cache.PopProcessFunc) (any, error) {
	return nil, q.fifo.PopBatch(context.Background(), queue.InformerBatch, q.process)
}

func (q *fifoQueue[T]) HasSynced() bool { return q.fifo.HasSynced() }

func (q *fifoQueue[T]) HasSyncedChecker() cache.DoneChecker {
	return syncedChecker{q.name, q.fifo.Synced()}
}

func (q *fifoQueue[T]) Close() { q.fifo.Close() }

// syncedChecker is a cache.DoneChecker over a channel.
type syncedChecker struct {
	name string
	done <-chan struct{}
}

func (c syncedChecker) Name() string          { return c.name }
func (c syncedChecker) Done() <-chan struct{} { return c.done }
