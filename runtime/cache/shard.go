package cache

import (
	"context"
	"sync"
	"sync/atomic"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	apisharding "k8s.io/apimachinery/pkg/sharding"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// ShardScope is the share of a resource's objects that an informer keeps
// when the replicas of an operator split them between them (runtime/shard's
// Ring.Scope is one). Its methods are called from the informer's reflector
// goroutine and must be safe for concurrent use.
type ShardScope interface {
	// Selection returns the share to list and watch now.
	Selection() ShardSelection
	// Changed returns a channel that is closed once Selection may have
	// changed.
	Changed() <-chan struct{}
}

// ShardSelection is one state of a ShardScope.
type ShardSelection struct {
	// Selector is sent to the server as ListOptions.ShardSelector (its
	// String; nothing when it is Empty), and its Matches decides which
	// objects the informer keeps when the server does not select them.
	Selector apisharding.Selector
	// Generation changes whenever Selector does.
	Generation int64
}

// SetShardScope makes the informer keep only the objects of scope; it fails
// after Run. Every LIST and WATCH carries the scope's selector. The server
// selects the objects itself when it supports sharded lists (Kubernetes'
// ShardedListAndWatch feature): a LIST it has selected echoes the selector in
// its ListMeta.ShardInfo. When it does not, the informer drops the objects of
// other shares itself, before they reach the queue, so the store and the
// handlers see the same objects in both modes; a log line says which mode
// is on whenever it changes. (Kubernetes 1.37 selects custom resources too
// but echoes no ShardInfo in their lists: their informers filter again
// what the server already selected, which costs a hash per object.) Watch events of objects outside the scope are
// dropped in both modes.
//
// When the selection changes, the informer ends its watch and lists again
// with the new selector, as after a watch that expired: objects of the
// share it lost are deleted from the store (handlers see deletes whose
// state is unknown), objects of the share it gained are added. A sharded
// informer lists and then watches; it does not stream its lists through a
// watch (watch-list), whose initial events the server does not echo a
// selection for.
func (s *SharedIndexInformer[T]) SetShardScope(scope ShardScope) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return errStarted
	}
	s.shard = scope
	return nil
}

// The modes of a shardedListerWatcher, as its last LIST showed.
const (
	shardModeUnknown int32 = iota
	shardModeServer
	shardModeClient
)

// shardedListerWatcher is the ListerWatcher of an informer with a
// ShardScope: it sends the scope's selector with every request, keeps the
// objects of the scope when the server did not select them, and ends a
// watch whose selection has changed with an expired error, so that the
// reflector lists again with the new one.
type shardedListerWatcher[T Object] struct {
	inner cache.ListerWatcherWithContext
	scope ShardScope
	name  string

	mode atomic.Int32
	// listed is the generation of the selection of the last LIST, paging
	// the selection of its first page.
	listed atomic.Int64
	paging atomic.Pointer[ShardSelection]
}

func newShardedListerWatcher[T Object](inner cache.ListerWatcher, scope ShardScope, name string) *shardedListerWatcher[T] {
	return &shardedListerWatcher[T]{inner: cache.ToListerWatcherWithContext(inner), scope: scope, name: name}
}

// IsWatchListSemanticsUnSupported makes the reflector list and then watch.
func (lw *shardedListerWatcher[T]) IsWatchListSemanticsUnSupported() bool { return true }

func (lw *shardedListerWatcher[T]) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), opts)
}

func (lw *shardedListerWatcher[T]) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), opts)
}

func (lw *shardedListerWatcher[T]) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	// The pages of one LIST share the selection of its first page: the
	// generation recorded is then that of every object listed, and a change
	// during the LIST makes the watch that follows expire.
	var sel ShardSelection
	if p := lw.paging.Load(); opts.Continue != "" && p != nil {
		sel = *p
	} else {
		sel = lw.scope.Selection()
		lw.paging.Store(&sel)
	}
	if !sel.Selector.Empty() {
		opts.ShardSelector = sel.Selector.String()
	}
	list, err := lw.inner.ListWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	lw.listed.Store(sel.Generation)
	if sel.Selector.Empty() {
		return list, nil
	}
	if echoed(list, opts.ShardSelector) {
		lw.setMode(ctx, shardModeServer)
		return list, nil
	}
	lw.setMode(ctx, shardModeClient)
	return list, keepSelected(list, sel.Selector)
}

// echoed reports whether list says the server selected it by selector.
func echoed(list runtime.Object, selector string) bool {
	acc, ok := list.(metav1.ListMetaAccessor)
	if !ok {
		return false
	}
	lm, ok := acc.GetListMeta().(interface{ GetShardInfo() *metav1.ShardInfo })
	if !ok {
		return false
	}
	info := lm.GetShardInfo()
	return info != nil && info.Selector == selector
}

// keepSelected removes from list the items sel does not match.
func keepSelected(list runtime.Object, sel apisharding.Selector) error {
	items, err := meta.ExtractList(list)
	if err != nil {
		return err
	}
	kept := items[:0]
	for _, item := range items {
		ok, err := sel.Matches(item)
		if err != nil {
			return err
		}
		if ok {
			kept = append(kept, item)
		}
	}
	return meta.SetList(list, kept)
}

func (lw *shardedListerWatcher[T]) setMode(ctx context.Context, mode int32) {
	if lw.mode.Swap(mode) == mode {
		return
	}
	logger := klog.FromContext(ctx)
	if mode == shardModeServer {
		logger.Info("Sharded informer: the server selects the objects of this replica's share", "informer", lw.name)
	} else {
		logger.Info("Sharded informer: the server does not say it selected this replica's share (no shardInfo in its list: its ShardedListAndWatch feature is off, or the resource is a custom resource, whose lists carry none); this replica keeps its share itself", "informer", lw.name)
	}
}

func (lw *shardedListerWatcher[T]) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	changed := lw.scope.Changed()
	sel := lw.scope.Selection()
	if sel.Generation != lw.listed.Load() {
		// The selection changed since the last LIST: what it gained was
		// never listed. List again.
		return expiredWatch(), nil
	}
	if !sel.Selector.Empty() {
		opts.ShardSelector = sel.Selector.String()
	}
	inner, err := lw.inner.WatchWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	w := &shardWatch{inner: inner, scope: lw.scope, sel: sel, result: make(chan watch.Event), stop: make(chan struct{}), done: make(chan struct{})}
	go w.run(changed)
	return w, nil
}

// expiredError is the error of a watch ended because the selection changed.
func expiredError() *metav1.Status {
	return &apierrors.NewResourceExpired("the shard selection changed").ErrStatus
}

// expiredWatch returns a watch whose one event is expiredError.
func expiredWatch() watch.Interface {
	events := make(chan watch.Event, 1)
	events <- watch.Event{Type: watch.Error, Object: expiredError()}
	close(events)
	return endedWatch(events)
}

// endedWatch is a watch whose events are all in its channel.
type endedWatch <-chan watch.Event

func (w endedWatch) ResultChan() <-chan watch.Event { return w }
func (endedWatch) Stop()                            {}

// shardWatch passes on the events of the objects of its selection and ends
// with an expired error once the scope's selection changes.
type shardWatch struct {
	inner  watch.Interface
	scope  ShardScope
	sel    ShardSelection
	result chan watch.Event
	stop   chan struct{}
	once   sync.Once
	done   chan struct{}
}

func (w *shardWatch) ResultChan() <-chan watch.Event { return w.result }

func (w *shardWatch) Stop() {
	w.once.Do(func() { close(w.stop) })
	<-w.done
}

func (w *shardWatch) run(changed <-chan struct{}) {
	defer close(w.done)
	defer close(w.result)
	defer w.inner.Stop()
	events := w.inner.ResultChan()
	for {
		select {
		case <-w.stop:
			return
		case <-changed:
			changed = w.scope.Changed()
			if w.scope.Selection().Generation == w.sel.Generation {
				continue
			}
			select {
			case w.result <- watch.Event{Type: watch.Error, Object: expiredError()}:
			case <-w.stop:
			}
			return
		case ev, ok := <-events:
			if !ok {
				return
			}
			if !w.selected(ev) {
				continue
			}
			select {
			case w.result <- ev:
			case <-w.stop:
				return
			}
		}
	}
}

// selected reports whether ev is passed on: an event of an object of the
// selection, or an event without one of the resource's objects (a
// bookmark, an error).
func (w *shardWatch) selected(ev watch.Event) bool {
	switch ev.Type {
	case watch.Added, watch.Modified, watch.Deleted:
	default:
		return true
	}
	if w.sel.Selector.Empty() {
		return true
	}
	ok, err := w.sel.Selector.Matches(ev.Object)
	if err != nil {
		// Not an object whose share can be told: the reflector reports it.
		return true
	}
	return ok
}
