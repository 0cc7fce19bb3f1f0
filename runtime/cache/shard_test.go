package cache

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	apisharding "k8s.io/apimachinery/pkg/sharding"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

// testScope is a ShardScope the test changes.
type testScope struct {
	mu      sync.Mutex
	sel     ShardSelection
	changed chan struct{}
}

func newTestScope(sel apisharding.Selector) *testScope {
	return &testScope{sel: ShardSelection{Selector: sel, Generation: 1}, changed: make(chan struct{})}
}

func (s *testScope) Selection() ShardSelection {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sel
}

func (s *testScope) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

func (s *testScope) set(sel apisharding.Selector) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sel = ShardSelection{Selector: sel, Generation: s.sel.Generation + 1}
	close(s.changed)
	s.changed = make(chan struct{})
}

// uidHalf selects the first (0) or second (1) half of the uid hash space.
func uidHalf(half int) apisharding.Selector {
	bounds := []string{"0x0000000000000000", "0x8000000000000000", "0x10000000000000000"}
	return apisharding.NewSelector(apisharding.ShardRangeRequirement{Key: "object.metadata.uid", Start: bounds[half], End: bounds[half+1]})
}

// shardPods returns n pods with uids, and the names of those sel selects.
func shardPods(n int, sel apisharding.Selector) (pods []*corev1.Pod, selected []string) {
	for i := range n {
		p := podAt(fmt.Sprintf("p%02d", i), "1")
		p.UID = uuid(uint64(i))
		pods = append(pods, p)
		if ok, _ := sel.Matches(p); ok {
			selected = append(selected, p.Name)
		}
	}
	return pods, selected
}

// podIn returns a pod whose uid sel matches (want true) or not.
func podIn(t *testing.T, name string, sel apisharding.Selector, want bool) *corev1.Pod {
	t.Helper()
	for i := range 1000 {
		p := podAt(name, "2")
		p.UID = uuid(uint64(1000 + i))
		if ok, _ := sel.Matches(p); ok == want {
			return p
		}
	}
	t.Fatal("no uid found")
	return nil
}

// uuid returns a uid that looks like the server's (random hex), made from
// seed. The FNV-1a hash the shard ranges cut barely moves its high bits for
// strings that differ only at the end ("uid-1", "uid-2"), so test uids must
// be as random as real ones for a half to hold some of them.
func uuid(seed uint64) types.UID {
	r := rand.New(rand.NewPCG(seed, 0x5a4d))
	return types.UID(fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", r.Uint32(), r.Uint32()&0xffff, r.Uint32()&0xfff, r.Uint32()&0xffff, r.Uint64()&0xffffffffffff))
}

// storeNames returns the sorted names of the pods in inf's store.
func storeNames(inf *podInformer) []string {
	var out []string
	for _, p := range inf.TypedStore().List() {
		out = append(out, p.Name)
	}
	slices.Sort(out)
	return out
}

// shardLW is a scripted list-watch that records the shard selector of
// every request and, when echo is set, plays a server that selects: its
// lists hold only the selected pods, and stray when set, and echo the
// selector.
type shardLW struct {
	*scriptedLW
	echo  bool
	stray *corev1.Pod

	mu        sync.Mutex
	selectors []string // of every request, in order
	lists     []string // resourceVersion/match of every LIST, in order
}

func (s *shardLW) listed() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.lists)
}

func (s *shardLW) record(opts metav1.ListOptions) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.selectors = append(s.selectors, opts.ShardSelector)
}

func (s *shardLW) sent() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.selectors)
}

func (s *shardLW) informer(t *testing.T, scope ShardScope) *podInformer {
	t.Helper()
	list := func(ctx context.Context, opts metav1.ListOptions) (*corev1.PodList, error) {
		s.record(opts)
		s.mu.Lock()
		s.lists = append(s.lists, opts.ResourceVersion+"/"+string(opts.ResourceVersionMatch))
		s.mu.Unlock()
		l, err := s.scriptedLW.list(ctx, opts)
		if err != nil || !s.echo {
			return l, err
		}
		sel := scopeSelector(t, opts.ShardSelector)
		kept := l.Items[:0]
		for _, p := range l.Items {
			if ok, _ := sel.Matches(&p); ok {
				kept = append(kept, p)
			}
		}
		l.Items = kept
		if s.stray != nil {
			l.Items = append(l.Items, *s.stray)
		}
		l.ShardInfo = &metav1.ShardInfo{Selector: opts.ShardSelector}
		return l, nil
	}
	watchFn := func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
		s.record(opts)
		return s.scriptedLW.watch(ctx, opts)
	}
	inf := cachetest.Must(NewSharedIndexInformer(NewListWatch[*corev1.Pod](list, watchFn, s.scriptedLW), podInformerOptions{Name: "pods"}))
	if err := inf.SetShardScope(scope); err != nil {
		t.Fatal(err)
	}
	return inf
}

// scopeSelector is the selector of the two halves by its string.
func scopeSelector(t *testing.T, s string) apisharding.Selector {
	for half := range 2 {
		if uidHalf(half).String() == s {
			return uidHalf(half)
		}
	}
	t.Fatalf("unknown selector %q", s)
	return nil
}

// A server that does not select by shard (no ShardInfo in its lists): the
// informer sends the selector and keeps only the selected objects, of the
// list and of watch events, so its store and its handlers see its share.
func TestShardedInformerSelectsWhenTheServerDoesNot(t *testing.T) {
	scope := newTestScope(uidHalf(0))
	pods, want := shardPods(40, uidHalf(0))
	lw := &shardLW{scriptedLW: newScriptedLW("1", pods...)}
	inf := lw.informer(t, scope)
	h := newRecorder(nil)
	reg := register(t, inf, h)
	runInformer(t, t.Context(), inf)
	w := lw.nextWatch(t)
	eventually(t, "the handler has synced", reg.HasSynced)
	if got := storeNames(inf); !slices.Equal(got, want) {
		t.Fatalf("the store holds %v, want the first half's %v", got, want)
	}
	if len(h.recorded()) != len(want) {
		t.Errorf("the handler got %d calls for %d selected pods", len(h.recorded()), len(want))
	}
	other, mine := podIn(t, "other", uidHalf(0), false), podIn(t, "mine", uidHalf(0), true)
	w.send(t, watch.Added, other)
	w.send(t, watch.Added, mine)
	h.waitUntil(t, "add ns/mine@2")
	if slices.Contains(storeNames(inf), "other") {
		t.Error("a watch event of another share reached the store")
	}
	for _, sel := range lw.sent() {
		if sel != uidHalf(0).String() {
			t.Errorf("a request carried shard selector %q, want %q", sel, uidHalf(0).String())
		}
	}
}

// A server that selects and says so (ShardInfo echoes the selector) is
// trusted: the informer keeps what it lists as it is, without hashing every
// object again (a stray object the server put in is kept, which shows it).
func TestShardedInformerTrustsAServerThatSelects(t *testing.T) {
	scope := newTestScope(uidHalf(1))
	pods, want := shardPods(40, uidHalf(1))
	stray := podIn(t, "stray", uidHalf(1), false)
	lw := &shardLW{scriptedLW: newScriptedLW("1", pods...), echo: true, stray: stray}
	want = append(want, "stray")
	slices.Sort(want)
	inf := lw.informer(t, scope)
	runInformer(t, t.Context(), inf)
	lw.nextWatch(t)
	eventually(t, "the informer has synced", inf.HasSynced)
	if got := storeNames(inf); !slices.Equal(got, want) {
		t.Fatalf("the store holds %v, want the second half's %v", got, want)
	}
	if len(want) == 1 || len(want) == len(pods)+1 {
		t.Fatalf("a half of %d pods holds %d: the test proves nothing", len(pods), len(want))
	}
}

// When the selection changes, the informer's watch hands the share over
// itself, without a LIST of the whole share by the reflector (and without
// its backoff): it lists only the gained share, at exactly the watch's
// resourceVersion, deletes the lost share's objects, adds the gained
// share's, and watches the new selection from that resourceVersion.
func TestShardedInformerHandsOverWhenTheSelectionChanges(t *testing.T) {
	scope := newTestScope(uidHalf(0))
	pods, first := shardPods(40, uidHalf(0))
	_, second := shardPods(40, uidHalf(1))
	lw := &shardLW{scriptedLW: newScriptedLW("1", pods...)}
	inf := lw.informer(t, scope)
	h := newRecorder(nil)
	register(t, inf, h)
	runInformer(t, t.Context(), inf)
	w := lw.nextWatch(t)
	eventually(t, "the informer has synced", inf.HasSynced)
	scope.set(uidHalf(1))
	receive(t, w.stopped, "the watch of the old selection to stop")
	lw.nextWatch(t)
	eventually(t, "the store holds the second half", func() bool { return slices.Equal(storeNames(inf), second) })
	changes := func() (deleted, added []string) {
		for _, c := range h.recorded() {
			name := c.key[len("ns/"):]
			switch {
			case c.kind == "delete":
				deleted = append(deleted, name)
			case c.kind == "add" && slices.Contains(second, name):
				added = append(added, name)
			}
		}
		slices.Sort(deleted)
		slices.Sort(added)
		return deleted, added
	}
	eventually(t, "the handler has seen the change", func() bool {
		deleted, added := changes()
		return len(deleted) >= len(first) && len(added) >= len(second)
	})
	if deleted, added := changes(); !slices.Equal(deleted, first) || !slices.Equal(added, second) {
		t.Errorf("after the change, deletes of %v (want %v) and adds of %v (want %v)", deleted, first, added, second)
	}
	sent := lw.sent()
	if last := sent[len(sent)-1]; last != uidHalf(1).String() {
		t.Errorf("the last request carried %q, want the new selector", last)
	}
	lists := lw.listed()
	if len(lists) != 2 || lists[1] != "1/Exact" {
		t.Errorf("lists at %q; want the reflector's first LIST, then one of the gained share at exactly resourceVersion 1", lists)
	}
}

// A watch opened after the selection changed since the last LIST ends at
// once with an expired error, so that the reflector lists the new share.
func TestShardedWatchAfterAChangeExpires(t *testing.T) {
	scope := newTestScope(uidHalf(0))
	lw := &shardLW{scriptedLW: newScriptedLW("1")}
	sharded := newShardedListerWatcher[*corev1.Pod](lw.listWatch().listerWatcher(), scope, "pods", nil)
	if _, err := sharded.ListWithContext(t.Context(), metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	scope.set(uidHalf(1))
	w, err := sharded.WatchWithContext(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ev := receive(t, w.ResultChan(), "the watch's event")
	status, ok := ev.Object.(*metav1.Status)
	if ev.Type != watch.Error || !ok || !apierrors.IsResourceExpired(apierrors.FromObject(status)) {
		t.Fatalf("the watch sent %s %v, want an expired error", ev.Type, ev.Object)
	}
}

// Bookmarks and errors pass whatever the selection; a stopped watch stops
// its inner watch.
func TestShardWatchPassesBookmarksAndStops(t *testing.T) {
	inner := watch.NewFakeWithChanSize(3, false)
	scope := newTestScope(uidHalf(0))
	lw := newShardedListerWatcher[*corev1.Pod](newScriptedLW("1").listWatch().listerWatcher(), scope, "pods", nil)
	w := &shardWatch[*corev1.Pod]{lw: lw, inner: inner, sel: scope.Selection(), result: make(chan watch.Event), stop: make(chan struct{}), done: make(chan struct{}), forwarded: map[ObjectName]passedOn[*corev1.Pod]{}}
	go w.run(scope.Changed())
	bookmark := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "9"}}
	inner.Add(podIn(t, "other", uidHalf(0), false))
	inner.Action(watch.Bookmark, bookmark)
	if ev := receive(t, w.ResultChan(), "the bookmark"); ev.Type != watch.Bookmark || ev.Object != runtime.Object(bookmark) {
		t.Fatalf("got %s %v, want the bookmark (the other share's add dropped)", ev.Type, ev.Object)
	}
	w.Stop()
	if !inner.IsStopped() {
		t.Error("stopping the shard watch left its inner watch running")
	}
}

// The pages of one LIST carry the selection of its first page, even when
// the selection changes between pages; the watch that follows such a LIST
// expires, so that the new selection is listed whole.
func TestShardedListPagesKeepTheFirstPagesSelection(t *testing.T) {
	scope := newTestScope(uidHalf(0))
	lw := &shardLW{scriptedLW: newScriptedLW("1")}
	list := func(ctx context.Context, opts metav1.ListOptions) (*corev1.PodList, error) {
		lw.record(opts)
		return lw.scriptedLW.list(ctx, opts)
	}
	sharded := newShardedListerWatcher[*corev1.Pod](NewListWatch[*corev1.Pod](list, lw.scriptedLW.watch, lw.scriptedLW).listerWatcher(), scope, "pods", nil)
	if _, err := sharded.ListWithContext(t.Context(), metav1.ListOptions{Limit: 10}); err != nil {
		t.Fatal(err)
	}
	scope.set(uidHalf(1))
	if _, err := sharded.ListWithContext(t.Context(), metav1.ListOptions{Limit: 10, Continue: "page-2"}); err != nil {
		t.Fatal(err)
	}
	if got := lw.sent(); !slices.Equal(got, []string{uidHalf(0).String(), uidHalf(0).String()}) {
		t.Errorf("the pages carried %q, want the first page's selector on both", got)
	}
	w, err := sharded.WatchWithContext(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if ev := receive(t, w.ResultChan(), "the watch's event"); ev.Type != watch.Error {
		t.Fatalf("the watch after a LIST of the old selection sent %s, want an expired error", ev.Type)
	}
	// The next LIST starts with the new selection.
	if _, err := sharded.ListWithContext(t.Context(), metav1.ListOptions{Limit: 10}); err != nil {
		t.Fatal(err)
	}
	if got := lw.sent(); got[len(got)-1] != uidHalf(1).String() {
		t.Errorf("the next LIST carried %q, want the new selector", got[len(got)-1])
	}
}

// Two changes of share in a row, the second before the first's objects have
// all reached the store, leave the store with exactly the last share: what
// the first hand-over added and the second took away again is deleted.
func TestShardedInformerHandsOverTwiceInARow(t *testing.T) {
	for range 20 {
		scope := newTestScope(uidHalf(0))
		pods, first := shardPods(40, uidHalf(0))
		lw := &shardLW{scriptedLW: newScriptedLW("1", pods...)}
		inf := lw.informer(t, scope)
		r := runInformer(t, t.Context(), inf)
		lw.nextWatch(t)
		eventually(t, "the informer has synced", inf.HasSynced)
		scope.set(uidHalf(1))
		lw.nextWatch(t) // the first hand-over is done; its adds may be queued still
		scope.set(uidHalf(0))
		lw.nextWatch(t)
		eventually(t, "the store holds the first half again", func() bool { return slices.Equal(storeNames(inf), first) })
		r.cancel()
		receive(t, r.done, "the informer to stop")
	}
}

// A sharded informer's watch keeps the objects it passed on for its next
// hand-over, which matches them against the new selection and passes those
// of the lost share on again, as their deletes' final state, to the
// reflector, which reads them: a sharded informer interns objects as they
// enter its queue, on the reflector's goroutine, not on the goroutine that
// writes its store. The intern function here gives each object equal
// copies of what a key and a shard selector read (namespace, name, uid), as
// generated interning does with the namespace, and takes its time, so that
// the selection changes while objects the watch passed on are still queued:
// -race reports any read of them that is not ordered with their interning.
func TestShardedInformerHandsOverObjectsItIsInterning(t *testing.T) {
	scope := newTestScope(uidHalf(0))
	pods, first := shardPods(40, uidHalf(0))
	_, second := shardPods(40, uidHalf(1))
	lw := &shardLW{scriptedLW: newScriptedLW("1", pods...)}
	inf := lw.informer(t, scope)
	if err := inf.SetTypedIntern(func(obj, _ *corev1.Pod) {
		time.Sleep(time.Millisecond)
		obj.Namespace = strings.Clone(obj.Namespace)
		obj.Name = strings.Clone(obj.Name)
		obj.UID = types.UID(strings.Clone(string(obj.UID)))
	}); err != nil {
		t.Fatal(err)
	}
	runInformer(t, t.Context(), inf)
	w := lw.nextWatch(t)
	eventually(t, "the informer has synced", inf.HasSynced)
	for i, p := range pods {
		p = p.DeepCopy()
		p.ResourceVersion = fmt.Sprint(2 + i)
		w.send(t, watch.Modified, p)
	}
	scope.set(uidHalf(1))
	lw.nextWatch(t)
	eventually(t, "the store holds the second half", func() bool { return slices.Equal(storeNames(inf), second) })
	scope.set(uidHalf(0))
	lw.nextWatch(t)
	eventually(t, "the store holds the first half again", func() bool { return slices.Equal(storeNames(inf), first) })
}
