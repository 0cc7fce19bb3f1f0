package cache

import (
	"context"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/consistencydetector"
	"k8s.io/client-go/util/watchlist"
)

// streamingListerWatcher is the ListerWatcher the informer hands to
// client-go's reflector. Lists and plain watches go to the inner
// ListerWatcher unchanged. A watch-list request (SendInitialEvents) gets a
// collectingWatch: the initial events of the stream are collected as typed
// objects here, instead of going to the reflector, which would keep them in a
// client-go store of its own (a key string and a map entry per object) and
// then list that store into the queue's Replace
// (docs/clientgo-semantics.md#watch-list). On the bookmark that ends the
// initial events, the collected objects go to the queue and the bookmark to
// the reflector, whose Replace then carries its own, empty, collection: the
// queue replaces with the collected objects instead. After the bookmark the
// reflector reads the stream itself, as client-go's does.
//
// Not collected here, and left to the reflector: streams of unstructured
// objects (the reflector checks their kind, which this does not), and every
// stream while client-go's watch-list consistency detector is on (it
// compares the reflector's own collection with a LIST).
type streamingListerWatcher[T Object] struct {
	inner cache.ListerWatcherWithContext
	queue *fifoQueue[T]
	// unsupported is what the inner ListerWatcher says of watch-list
	// streaming; the reflector asks this one.
	unsupported bool
}

func newStreamingListerWatcher[T Object](inner cache.ListerWatcher, queue *fifoQueue[T]) cache.ListerWatcher {
	if _, ok := any(exampleObject[T]()).(*unstructured.Unstructured); ok {
		return inner
	}
	return &streamingListerWatcher[T]{
		inner:       cache.ToListerWatcherWithContext(inner),
		queue:       queue,
		unsupported: watchlist.DoesClientNotSupportWatchListSemantics(inner),
	}
}

func (lw *streamingListerWatcher[T]) IsWatchListSemanticsUnSupported() bool { return lw.unsupported }

func (lw *streamingListerWatcher[T]) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), opts)
}

func (lw *streamingListerWatcher[T]) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), opts)
}

func (lw *streamingListerWatcher[T]) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	lw.queue.setStreamed(nil) // a list follows: no stream's objects apply
	return lw.inner.ListWithContext(ctx, opts)
}

func (lw *streamingListerWatcher[T]) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	initialEvents := opts.SendInitialEvents != nil && *opts.SendInitialEvents
	if initialEvents {
		lw.queue.setStreamed(nil) // a new stream: forget what an earlier one collected
	}
	w, err := lw.inner.WatchWithContext(ctx, opts)
	if err != nil || !initialEvents || consistencydetector.IsDataConsistencyDetectionForWatchListEnabled() {
		return w, err
	}
	return newCollectingWatch(ctx, w, lw.queue), nil
}

// streamed is what a collectingWatch collected from one watch-list stream:
// the objects its initial events left, in the order they first came, the
// resourceVersion of the bookmark that ended them, and the watch, which hands
// the rest of the stream to the reflector once the queue has the objects.
type streamed[T Object] struct {
	objs            []T
	resourceVersion string
	watch           *collectingWatch[T]
}

// setStreamed records (or, with nil, forgets) the objects of a stream for the
// Replace that follows its bookmark.
func (q *fifoQueue[T]) setStreamed(s *streamed[T]) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.streamed = s
}

// takeStreamed returns and forgets the recorded objects of a stream, if they
// are those of a stream whose bookmark had resourceVersion. The reflector
// calls Replace, and so this, right after it received that bookmark and
// before it reads the stream again: from here on the stream is the
// reflector's to read.
func (q *fifoQueue[T]) takeStreamed(resourceVersion string) *streamed[T] {
	q.mu.Lock()
	s := q.streamed
	q.streamed = nil
	q.mu.Unlock()
	if s == nil {
		return nil
	}
	s.watch.passThrough.Store(true)
	if s.resourceVersion != resourceVersion {
		return nil
	}
	return s
}

// collectingWatch is the watch a watch-list request returns (see
// streamingListerWatcher). Until the bookmark that ends the initial events,
// ResultChan is fed by a goroutine that collects ADDED, MODIFIED and DELETED
// events of T as client-go's reflector would apply them to its store (a
// later event for a key replaces or removes the earlier one), drops events
// of another type with the reflector's error, and passes on every other
// event (bookmarks, errors). The stream's first object event is passed on
// too: the reflector takes a stream that ends within a second of opening
// without any event for a failed watch (it lists instead of streaming again),
// and this one must not look empty to it. After that bookmark, ResultChan is
// the inner watch's, so that the reflector reads the rest of the stream
// itself: the queue's Replace, which the reflector calls on that bookmark
// before it reads on, switches ResultChan over.
type collectingWatch[T Object] struct {
	inner       watch.Interface
	out         chan watch.Event
	passThrough atomic.Bool
	stop        chan struct{}
	stopOnce    sync.Once
}

func newCollectingWatch[T Object](ctx context.Context, inner watch.Interface, queue *fifoQueue[T]) *collectingWatch[T] {
	w := &collectingWatch[T]{inner: inner, out: make(chan watch.Event), stop: make(chan struct{})}
	go w.collect(ctx, queue)
	return w
}

func (w *collectingWatch[T]) ResultChan() <-chan watch.Event {
	if w.passThrough.Load() {
		return w.inner.ResultChan()
	}
	return w.out
}

func (w *collectingWatch[T]) Stop() {
	w.stopOnce.Do(func() { close(w.stop) })
	w.inner.Stop()
}

// collect runs until the bookmark that ends the initial events, the end of
// the inner stream (then it closes ResultChan) or Stop.
func (w *collectingWatch[T]) collect(ctx context.Context, queue *fifoQueue[T]) {
	var c collection[T]
	passedOn := false // an object event was passed on
	for {
		var ev watch.Event
		var ok bool
		select {
		case <-w.stop:
			return
		case ev, ok = <-w.inner.ResultChan():
		}
		if !ok {
			close(w.out)
			return
		}
		switch ev.Type {
		case watch.Added, watch.Modified, watch.Deleted:
			obj, isT := ev.Object.(T)
			if !isT {
				var want T
				utilruntime.HandleErrorWithContext(ctx, nil, "Unexpected watch event object type", "reflector", queue.name, "expectedType", want, "actualType", ev.Object)
				continue
			}
			c.apply(ev.Type, obj)
			if passedOn {
				continue
			}
			passedOn = true
		case watch.Bookmark:
			if m, err := meta.Accessor(ev.Object); err == nil && m.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true" {
				queue.setStreamed(&streamed[T]{objs: c.objects(), resourceVersion: m.GetResourceVersion(), watch: w})
				select {
				case w.out <- ev:
				case <-w.stop:
				}
				return
			}
		}
		select {
		case w.out <- ev:
		case <-w.stop:
			return
		}
	}
}

// collection is the objects of a stream's initial events: in arrival order,
// with a map from keys to positions made only once an event other than an
// ADDED arrives. A server sends one ADDED per object; ADDED events repeated
// before the map exists are kept, and the queue's Replace gives a key listed
// more than once one delta with its last object.
type collection[T Object] struct {
	objs    []T
	removed int
	at      map[ObjectName]int
}

func (c *collection[T]) apply(t watch.EventType, obj T) {
	if t == watch.Added && c.at == nil {
		c.objs = append(c.objs, obj)
		return
	}
	var zero T
	if c.at == nil {
		c.at = make(map[ObjectName]int, len(c.objs))
		for i, o := range c.objs {
			key := KeyOf(o)
			if j, ok := c.at[key]; ok {
				// A repeated ADDED: the later object, at the first place,
				// as a store keeps it.
				c.objs[j], c.objs[i] = o, zero
				c.removed++
				continue
			}
			c.at[key] = i
		}
	}
	key := KeyOf(obj)
	i, ok := c.at[key]
	switch {
	case t == watch.Deleted && ok:
		c.objs[i] = zero
		c.removed++
		delete(c.at, key)
	case t == watch.Deleted:
	case ok:
		c.objs[i] = obj
	default:
		c.at[key] = len(c.objs)
		c.objs = append(c.objs, obj)
	}
}

// objects returns the collected objects, without the removed ones.
func (c *collection[T]) objects() []T {
	if c.removed == 0 {
		return c.objs
	}
	var zero T
	out := make([]T, 0, len(c.objs)-c.removed)
	for _, o := range c.objs {
		if o != zero {
			out = append(out, o)
		}
	}
	return out
}
