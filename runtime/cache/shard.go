package cache

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	apisharding "k8s.io/apimachinery/pkg/sharding"
	"k8s.io/apimachinery/pkg/types"
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

// holds reports whether obj is in the selection: an empty selector holds
// every object, any other those it matches (not one whose share cannot be
// told).
func (s ShardSelection) holds(obj runtime.Object) bool {
	ok, _ := s.Selector.Matches(obj)
	return ok || s.Selector.Empty()
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
// When the selection changes, the informer's watch hands the share over at
// once, at the resourceVersion it has reached: objects of the share it lost
// are deleted (handlers see deletes), the share it gained is listed at
// exactly that resourceVersion and its objects added, and the watch goes on
// with the new selector from there. Only the gained share is listed. When
// that cannot be done (an untyped informer, a LIST that fails, 410 Gone
// included), the watch ends as expired and the reflector lists the whole
// new share, after its backoff; handlers then see the lost objects' deletes
// with their final state unknown. A sharded informer lists and then
// watches; it does not stream its lists through a watch (watch-list), whose
// initial events the server does not echo a selection for.
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
	// known returns the objects the informer's store holds, for a watch
	// that hands its selection over (nil: watches expire instead).
	known func() []T

	mode atomic.Int32
	// listed is the generation of the selection of the last LIST, paging
	// the selection of its first page.
	listed atomic.Int64
	paging atomic.Pointer[ShardSelection]
}

func newShardedListerWatcher[T Object](inner cache.ListerWatcher, scope ShardScope, name string, known func() []T) *shardedListerWatcher[T] {
	return &shardedListerWatcher[T]{inner: cache.ToListerWatcherWithContext(inner), scope: scope, name: name, known: known}
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
	listed := lw.paging.Load()
	sel := lw.scope.Selection()
	if listed == nil || listed.Generation != lw.listed.Load() {
		return expiredWatch(), nil
	}
	if sel.Generation != listed.Generation && !lw.handsOver(opts) {
		// The selection changed since the last LIST: what it gained was
		// never listed. List again.
		return expiredWatch(), nil
	}
	w := &shardWatch[T]{lw: lw, ctx: ctx, opts: opts, sel: *listed, lastRV: opts.ResourceVersion,
		result: make(chan watch.Event), stop: make(chan struct{}), done: make(chan struct{}), forwarded: map[ObjectName]passedOn[T]{}}
	if !w.sel.Selector.Empty() {
		opts.ShardSelector = w.sel.Selector.String()
	}
	inner, err := lw.inner.WatchWithContext(ctx, opts)
	if err != nil {
		return nil, err
	}
	w.inner = inner
	go w.run(changed)
	return w, nil
}

// handsOver reports whether a watch from opts can hand a change of
// selection over itself, without a new LIST of the whole share: it needs
// the store's objects, typed objects (a bookmark of an unstructured type
// would need its kind), and a resourceVersion to list the gained share at.
func (lw *shardedListerWatcher[T]) handsOver(opts metav1.ListOptions) bool {
	if lw.known == nil || opts.ResourceVersion == "" || opts.ResourceVersion == "0" {
		return false
	}
	_, unstructured := any(exampleObject[T]()).(*unstructured.Unstructured)
	return !unstructured
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

// shardWatch passes on the events of the objects of its selection. When the
// scope's selection changes, it hands over itself, so that the reflector
// neither lists the whole share again nor waits its backoff first: at the
// resourceVersion of the last event it passed on, it deletes the objects of
// the share it lost (from the store and from what it passed on), lists the
// share it gained at exactly that resourceVersion and adds its objects,
// sends a bookmark of that resourceVersion, and watches the new selection
// from it. The watch thus sees every object of the new selection once, in
// resourceVersion order from there on. When it cannot (no resourceVersion,
// an untyped object, a LIST or watch that fails, 410 Gone included), it
// ends with an expired error and the reflector lists the new share.
type shardWatch[T Object] struct {
	lw     *shardedListerWatcher[T]
	ctx    context.Context // the reflector's, for the requests of a hand-over
	opts   metav1.ListOptions
	inner  watch.Interface
	sel    ShardSelection
	lastRV string // of the last event read from inner
	// forwarded keeps what the watch needs of the newest object of every
	// key of the selection it added or modified (and did not delete since),
	// hand-overs' additions included: the store may not hold it yet.
	forwarded map[ObjectName]passedOn[T]
	result    chan watch.Event
	stop      chan struct{}
	once      sync.Once
	done      chan struct{}
}

// passedOn is what a shardWatch keeps of an object it passed on, under the
// object's key: the object, to pass on again as the final state of its
// deletion, and its uid, read before the object was passed on. Once passed
// on, the object belongs to the informer, which may intern it in place
// (InternFunc) on another goroutine at any time: the watch must not read it
// again. A shard selector matches on the namespace (in the key) or the uid
// (apimachinery's sharding.ResolveFieldValue).
type passedOn[T Object] struct {
	obj T
	uid types.UID
}

// metadata sets m to the metadata a shard selector matches an object on:
// that of the object p keeps, whose key is key.
func (p passedOn[T]) metadata(key ObjectName, m *metav1.PartialObjectMetadata) {
	m.Namespace, m.Name, m.UID = key.Namespace, key.Name, p.uid
}

func (w *shardWatch[T]) ResultChan() <-chan watch.Event { return w.result }

func (w *shardWatch[T]) Stop() {
	w.once.Do(func() { close(w.stop) })
	<-w.done
}

func (w *shardWatch[T]) run(changed <-chan struct{}) {
	defer close(w.done)
	defer close(w.result)
	defer func() { w.inner.Stop() }()
	// A change that came between the LIST and this watch is handed over
	// at once.
	if w.lw.scope.Selection().Generation != w.sel.Generation && !w.handOver() {
		return
	}
	for {
		events := w.inner.ResultChan()
		select {
		case <-w.stop:
			return
		case <-changed:
			changed = w.lw.scope.Changed()
			if w.lw.scope.Selection().Generation == w.sel.Generation {
				continue
			}
			if !w.handOver() {
				return
			}
		case ev, ok := <-events:
			if !ok {
				return
			}
			w.note(ev)
			if !w.selected(ev) {
				continue
			}
			if !w.send(ev) {
				return
			}
		}
	}
}

// note records the resourceVersion ev carries, and what the watch passes
// on of its object. It reads the object, so it runs before the event is
// passed on.
func (w *shardWatch[T]) note(ev watch.Event) {
	switch ev.Type {
	case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark:
	default:
		return
	}
	obj, ok := ev.Object.(T)
	if !ok {
		return
	}
	if rv := obj.GetResourceVersion(); rv != "" {
		w.lastRV = rv
	}
	if ev.Type == watch.Bookmark {
		return
	}
	key := KeyOf(obj)
	if ev.Type == watch.Deleted {
		delete(w.forwarded, key)
	} else if w.sel.holds(obj) {
		w.forwarded[key] = passedOn[T]{obj: obj, uid: obj.GetUID()}
	}
}

// send passes ev on; false once the watch is stopped.
func (w *shardWatch[T]) send(ev watch.Event) bool {
	select {
	case w.result <- ev:
		return true
	case <-w.stop:
		return false
	}
}

// handOver moves the watch to the scope's current selection (see
// shardWatch); false when the watch has ended.
func (w *shardWatch[T]) handOver() bool {
	next := w.lw.scope.Selection()
	if w.lw.known == nil || w.lastRV == "" || w.lastRV == "0" {
		w.send(watch.Event{Type: watch.Error, Object: expiredError()})
		return false
	}
	w.inner.Stop()
	gained, err := w.listGained(next)
	if err != nil {
		klog.FromContext(w.ctx).V(2).Info("Sharded informer: listing the gained share failed; listing the whole share", "informer", w.lw.name, "err", err)
		w.send(watch.Event{Type: watch.Error, Object: expiredError()})
		return false
	}
	// The lost share: what the store holds and what this watch passed on
	// that the new selection does not match, each at its newest version.
	// The store's objects are read-only; those passed on are matched by
	// what was read of them before.
	lost := map[ObjectName]T{}
	for _, obj := range w.lw.known() {
		if !next.holds(obj) {
			lost[KeyOf(obj)] = obj
		}
	}
	var meta metav1.PartialObjectMetadata
	for key, p := range w.forwarded {
		if p.metadata(key, &meta); next.holds(&meta) {
			delete(lost, key)
		} else {
			lost[key] = p.obj
		}
	}
	for _, obj := range lost {
		if !w.send(watch.Event{Type: watch.Deleted, Object: obj}) {
			return false
		}
	}
	// What is kept of the gained objects is read before they are passed on.
	added := make(map[ObjectName]passedOn[T], len(gained))
	for _, obj := range gained {
		added[KeyOf(obj)] = passedOn[T]{obj: obj, uid: obj.GetUID()}
	}
	for _, obj := range gained {
		if !w.send(watch.Event{Type: watch.Added, Object: obj}) {
			return false
		}
	}
	bookmark := exampleObject[T]()
	bookmark.SetResourceVersion(w.lastRV)
	if !w.send(watch.Event{Type: watch.Bookmark, Object: bookmark}) {
		return false
	}
	opts := w.opts
	opts.ResourceVersion = w.lastRV
	opts.ShardSelector = ""
	if !next.Selector.Empty() {
		opts.ShardSelector = next.Selector.String()
	}
	inner, err := w.lw.inner.WatchWithContext(w.ctx, opts)
	if err != nil {
		w.inner = watch.NewEmptyWatch()
		w.send(watch.Event{Type: watch.Error, Object: expiredError()})
		return false
	}
	w.inner = inner
	w.sel = next
	// What the queue may not have stored yet: the kept share's objects
	// passed on before, and the gained share's just added.
	for key := range lost {
		delete(w.forwarded, key)
	}
	maps.Copy(w.forwarded, added)
	w.lw.listed.Store(next.Generation)
	w.lw.paging.Store(&next)
	klog.FromContext(w.ctx).V(2).Info("Sharded informer: handed the share over", "informer", w.lw.name, "resourceVersion", w.lastRV, "lost", len(lost), "gained", len(gained))
	return true
}

// listGained lists, at exactly the watch's resourceVersion, the objects the
// next selection matches and the current one does not.
func (w *shardWatch[T]) listGained(next ShardSelection) ([]T, error) {
	opts := metav1.ListOptions{ResourceVersion: w.lastRV, ResourceVersionMatch: metav1.ResourceVersionMatchExact, Limit: 500}
	if !next.Selector.Empty() {
		opts.ShardSelector = next.Selector.String()
	}
	var gained []T
	for {
		list, err := w.lw.inner.ListWithContext(w.ctx, opts)
		if err != nil {
			return nil, err
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			return nil, err
		}
		for _, item := range items {
			obj, ok := item.(T)
			if !ok {
				return nil, fmt.Errorf("listed a %T, not a %T", item, obj)
			}
			if !next.holds(obj) {
				continue // the server did not select: not in the new share
			}
			if w.sel.holds(obj) {
				continue // in the share the watch already has
			}
			gained = append(gained, obj)
		}
		acc, err := meta.ListAccessor(list)
		if err != nil {
			return nil, err
		}
		if acc.GetContinue() == "" {
			return gained, nil
		}
		opts.Continue = acc.GetContinue()
		opts.ResourceVersion, opts.ResourceVersionMatch = "", ""
	}
}

// selected reports whether ev is passed on: an event of an object of the
// selection, or an event without one of the resource's objects (a
// bookmark, an error).
func (w *shardWatch[T]) selected(ev watch.Event) bool {
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
