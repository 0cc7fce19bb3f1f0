package cache

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testwait"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

// A #name in comments is the anchor, in docs/clientgo-semantics.md, of the
// client-go behaviour a test pins.
//
// These tests synchronise with channels: every timeout is a failure guard, and
// polling happens only inside eventually. A few tests wait for client-go's
// reflector, whose timers use the real clock: a relist comes 0.8-1.6 s after a
// watch ends (its backoff), and a resync check comes every resync period (at
// least 1 s). Those tests say so.

const informerTestTimeout = 10 * time.Second

type (
	podInformer        = SharedIndexInformer[*corev1.Pod]
	podInformerOptions = SharedIndexInformerOptions[*corev1.Pod]
	podListener        = listener[*corev1.Pod]
)

// eventually polls cond until it holds, failing the test after
// informerTestTimeout.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.Until(t, informerTestTimeout, what, cond)
}

// receive returns the next value from ch (the zero value once ch is closed),
// failing the test after informerTestTimeout.
func receive[E any](t *testing.T, ch <-chan E, what string) E {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(informerTestTimeout):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// podAt returns pod ns/name (see pod in store_test.go) at resourceVersion rv.
func podAt(name, rv string) *corev1.Pod {
	p := pod("ns", name, "", nil)
	p.ResourceVersion = rv
	return p
}

// call is one handler call as a recorder saw it.
type call struct {
	// kind is add, update, delete, or resync: an OnUpdate whose old and new
	// object are the same object (#resync-periods).
	kind  string
	key   string // namespace/name
	oldRV string // update only
	rv    string
	// flag is isInInitialList for an add; for a delete, whether it came
	// with a tombstone (cache.DeletedObject.FinalStateUnknown, or a
	// cache.DeletedFinalStateUnknown for an untyped handler).
	flag     bool
	obj, old *corev1.Pod
	// bad describes what was wrong with a call the handler could not take as
	// it came (a wrongly typed object, a tombstone that does not match its
	// object); such a call matches no expectation.
	bad string
}

func (c call) String() string {
	switch {
	case c.bad != "":
		return fmt.Sprintf("BAD %s %s: %s", c.kind, c.key, c.bad)
	case c.kind == "update":
		return fmt.Sprintf("update %s@%s -> %s", c.key, c.oldRV, c.rv)
	case c.kind == "add" && c.flag:
		return fmt.Sprintf("add %s@%s (initial)", c.key, c.rv)
	case c.kind == "delete" && c.flag:
		return fmt.Sprintf("delete %s@%s (final state unknown)", c.key, c.rv)
	}
	return fmt.Sprintf("%s %s@%s", c.kind, c.key, c.rv)
}

func callStrings(calls []call) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.String()
	}
	return out
}

// recorder is a cache.TypedResourceEventHandler that records its calls;
// untyped returns a cache.ResourceEventHandler recording into it. before, when set,
// runs at the start of every call, before it is recorded, on the handler's
// goroutine: tests block or panic in it.
type recorder struct {
	before func(call)

	mu      sync.Mutex
	calls   []call
	changed chan struct{} // closed and replaced whenever a call is recorded
}

func newRecorder(before func(call)) *recorder {
	return &recorder{before: before, changed: make(chan struct{})}
}

func (r *recorder) OnAdd(obj *corev1.Pod, isInInitialList bool) {
	r.record(call{kind: "add", key: KeyOf(obj).String(), rv: obj.ResourceVersion, flag: isInInitialList, obj: obj})
}

func (r *recorder) OnUpdate(oldObj, newObj *corev1.Pod) {
	c := call{kind: "update", key: KeyOf(newObj).String(), oldRV: oldObj.ResourceVersion, rv: newObj.ResourceVersion, obj: newObj, old: oldObj}
	if oldObj == newObj {
		c.kind, c.oldRV = "resync", ""
	}
	r.record(c)
}

// OnDelete records a delete. A tombstone must carry the object's key and the
// object itself, as client-go's typed handlers get it.
func (r *recorder) OnDelete(obj cache.DeletedObject[*corev1.Pod]) {
	c := call{kind: "delete", key: obj.GetKey(), flag: obj.FinalStateUnknown != nil, obj: obj.OptionalObj}
	switch p := obj.OptionalObj; {
	case p == nil:
		c.bad = "no object"
	case KeyOf(p).String() != c.key:
		c.bad = fmt.Sprintf("the tombstone's key is not that of %s", KeyOf(p))
	case obj.FinalStateUnknown != nil && obj.FinalStateUnknown.Obj != any(p):
		c.bad = fmt.Sprintf("the tombstone holds %T %p, not the object %p", obj.FinalStateUnknown.Obj, obj.FinalStateUnknown.Obj, p)
	default:
		c.rv = p.ResourceVersion
	}
	r.record(c)
}

// untyped returns an untyped handler recording into r what it gets, converted
// the way a client-go user would: a *corev1.Pod, or for OnDelete a
// cache.DeletedFinalStateUnknown holding one. Anything else is recorded as a
// bad call.
func (r *recorder) untyped() cache.ResourceEventHandler { return untypedRecorder{r} }

type untypedRecorder struct{ r *recorder }

func (u untypedRecorder) pod(kind string, obj any) (*corev1.Pod, bool) {
	p, ok := obj.(*corev1.Pod)
	if !ok || p == nil {
		u.r.record(call{kind: kind, bad: fmt.Sprintf("got %T", obj)})
		return nil, false
	}
	return p, true
}

func (u untypedRecorder) OnAdd(obj any, isInInitialList bool) {
	if p, ok := u.pod("add", obj); ok {
		u.r.OnAdd(p, isInInitialList)
	}
}

func (u untypedRecorder) OnUpdate(oldObj, newObj any) {
	old, ok1 := u.pod("update", oldObj)
	p, ok2 := u.pod("update", newObj)
	if ok1 && ok2 {
		u.r.OnUpdate(old, p)
	}
}

func (u untypedRecorder) OnDelete(obj any) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		p, ok := u.pod("delete", tomb.Obj)
		if ok {
			u.r.OnDelete(cache.DeletedObject[*corev1.Pod]{OptionalObj: p, FinalStateUnknown: &tomb})
		}
		return
	}
	if p, ok := u.pod("delete", obj); ok {
		u.r.OnDelete(cache.DeletedObject[*corev1.Pod]{OptionalObj: p})
	}
}

func (r *recorder) record(c call) {
	if r.before != nil {
		r.before(c)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, c)
	close(r.changed)
	r.changed = make(chan struct{})
}

// recorded returns the calls recorded so far.
func (r *recorder) recorded() []call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// await waits until done holds for the calls recorded so far and returns the
// first n of them, n being what done returns.
func (r *recorder) await(t *testing.T, what string, done func([]call) (n int, ok bool)) []call {
	t.Helper()
	timeout := time.After(informerTestTimeout)
	for {
		r.mu.Lock()
		n, ok := done(r.calls)
		calls, changed := slices.Clone(r.calls[:min(n, len(r.calls))]), r.changed
		r.mu.Unlock()
		if ok {
			return calls
		}
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("timed out waiting for %s; recorded %q", what, callStrings(r.recorded()))
		}
	}
}

// waitFor returns the first n calls once there are that many.
func (r *recorder) waitFor(t *testing.T, n int) []call {
	t.Helper()
	return r.await(t, fmt.Sprintf("%d calls", n), func(calls []call) (int, bool) { return n, len(calls) >= n })
}

// waitUntil returns the calls up to and including the first one described as
// want.
func (r *recorder) waitUntil(t *testing.T, want string) []call {
	t.Helper()
	return r.await(t, "call "+want, func(calls []call) (int, bool) {
		i := slices.IndexFunc(calls, func(c call) bool { return c.String() == want })
		return i + 1, i >= 0
	})
}

// gate holds the first call of a recorder (as its before hook) until the
// test opens it, or ends: a failing test leaves no handler blocked, whatever
// the order of its cleanups.
type gate struct {
	entered, release chan struct{}
	testEnded        <-chan struct{}
	holdOnce         sync.Once
	openOnce         sync.Once
}

func newGate(t *testing.T) *gate {
	return &gate{entered: make(chan struct{}), release: make(chan struct{}), testEnded: t.Context().Done()}
}

// hold blocks the first call it sees until open.
func (g *gate) hold(call) {
	g.holdOnce.Do(func() {
		close(g.entered)
		select {
		case <-g.release:
		case <-g.testEnded:
		}
	})
}

// waitEntered waits until the first call is held.
func (g *gate) waitEntered(t *testing.T) {
	t.Helper()
	receive(t, g.entered, "the handler's first call")
}

func (g *gate) open() { g.openOnce.Do(func() { close(g.release) }) }

// anyOrder is a group of calls, for expectCalls, that may come in any order.
type anyOrder []string

// expectCalls checks got against want, a sequence of call descriptions
// (strings) and anyOrder groups.
func expectCalls(t *testing.T, who string, got []call, want ...any) {
	t.Helper()
	gotS := callStrings(got)
	var wantS []string
	ok := true
	for _, w := range want {
		i := len(wantS)
		switch w := w.(type) {
		case string:
			wantS = append(wantS, w)
			ok = ok && i < len(gotS) && gotS[i] == w
		case anyOrder:
			wantS = append(wantS, w...)
			if len(gotS) < len(wantS) {
				ok = false
				continue
			}
			g, ws := slices.Clone(gotS[i:len(wantS)]), slices.Clone(w)
			slices.Sort(g)
			slices.Sort(ws)
			ok = ok && slices.Equal(g, ws)
		default:
			t.Fatalf("expectCalls: unexpected %T", w)
		}
	}
	if !ok || len(gotS) != len(wantS) {
		t.Errorf("%s got calls\n\t%s\nwant\n\t%s", who, strings.Join(gotS, "\n\t"), strings.Join(wantS, "\n\t"))
	}
}

// withoutResyncs drops the resync calls.
func withoutResyncs(calls []call) []call {
	return slices.DeleteFunc(calls, func(c call) bool { return c.kind == "resync" })
}

// checkChains checks that calls tell each object's life the way one handler
// must see it (#add-or-update, #late-handler-replay, #per-handler-delivery):
// per key, an add first (again after a delete), then updates that each start
// from the resourceVersion of the key's previous call, resyncs repeating it. It
// returns each present key's last resourceVersion.
func checkChains(t *testing.T, who string, calls []call) map[string]string {
	t.Helper()
	last := map[string]string{}
	for i, c := range calls {
		prev, present := last[c.key]
		var bad bool
		switch c.kind {
		case "add":
			bad = present
		case "update":
			bad = !present || c.oldRV != prev
		case "resync":
			bad = !present || c.rv != prev
		case "delete":
			bad = !present
		}
		if bad {
			t.Fatalf("%s: call %d %q does not follow %s@%s (present %v); calls %q", who, i, c, c.key, prev, present, callStrings(calls))
		}
		if c.kind == "delete" {
			delete(last, c.key)
			continue
		}
		last[c.key] = c.rv
	}
	return last
}

// register adds h as a typed handler with the informer's default resync
// period.
func register(t *testing.T, inf *podInformer, h cache.TypedResourceEventHandler[*corev1.Pod]) cache.ResourceEventHandlerRegistration {
	t.Helper()
	reg, err := inf.AddTypedEventHandler(h)
	if err != nil {
		t.Fatalf("AddTypedEventHandler: %v", err)
	}
	return reg
}

// registerUntyped adds h as an untyped handler with the informer's default
// resync period.
func registerUntyped(t *testing.T, inf *podInformer, h cache.ResourceEventHandler) cache.ResourceEventHandlerRegistration {
	t.Helper()
	reg, err := inf.AddEventHandler(h)
	if err != nil {
		t.Fatalf("AddEventHandler: %v", err)
	}
	return reg
}

// registerWithResync adds h as an untyped handler asking for resync period d
// (AddEventHandlerWithResyncPeriod).
func registerWithResync(t *testing.T, inf *podInformer, h *recorder, d time.Duration) cache.ResourceEventHandlerRegistration {
	t.Helper()
	reg, err := inf.AddEventHandlerWithResyncPeriod(h.untyped(), d)
	if err != nil {
		t.Fatalf("AddEventHandlerWithResyncPeriod: %v", err)
	}
	return reg
}

// runningInformer is an informer whose Run runs in a goroutine.
type runningInformer struct {
	cancel context.CancelFunc
	done   chan struct{} // closed when Run returns
}

// runInformer starts inf.RunWithContext(ctx) (ours or client-go's informer);
// the test's cleanup stops it and waits for it to return.
func runInformer(t *testing.T, ctx context.Context, inf interface{ RunWithContext(context.Context) }) *runningInformer {
	ctx, cancel := context.WithCancel(ctx)
	r := &runningInformer{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		inf.RunWithContext(ctx)
	}()
	t.Cleanup(func() { r.stop(t) })
	return r
}

// stop cancels Run's context and waits for Run to return.
func (r *runningInformer) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	receive(t, r.done, "Run to return")
}

// clientInformer returns an informer over the pods of a fake clientset and a
// channel that gets a value each time the reflector's watch is in place. The
// fake clientset delivers every change made after that; a delete made
// between the list and the watch would be lost.
func clientInformer(client *fake.Clientset, opts podInformerOptions) (*podInformer, <-chan struct{}) {
	pods := client.CoreV1().Pods("")
	watching := make(chan struct{}, 100)
	watchFn := func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
		w, err := pods.Watch(ctx, o)
		select {
		case watching <- struct{}{}:
		default:
		}
		return w, err
	}
	return cachetest.Must(NewSharedIndexInformer(NewListWatch[*corev1.Pod](pods.List, watchFn, client), opts)), watching
}

// scriptedLW is a ListWatch whose lists return what the test set, and whose
// watches the test feeds one event at a time.
type scriptedLW struct {
	mu       sync.Mutex
	rv       string
	items    []*corev1.Pod
	listErrs []error
	watches  chan *scriptedWatch
}

func newScriptedLW(rv string, pods ...*corev1.Pod) *scriptedLW {
	s := &scriptedLW{watches: make(chan *scriptedWatch, 100)}
	s.setList(rv, pods...)
	return s
}

// IsWatchListSemanticsUnSupported makes client-go's reflector list then watch,
// instead of streaming the initial list through a watch (#watch-list).
func (s *scriptedLW) IsWatchListSemanticsUnSupported() bool { return true }

// setList sets what the next lists return.
func (s *scriptedLW) setList(rv string, pods ...*corev1.Pod) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rv, s.items = rv, pods
}

// failNextList makes the next list fail with err.
func (s *scriptedLW) failNextList(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listErrs = append(s.listErrs, err)
}

func (s *scriptedLW) list(context.Context, metav1.ListOptions) (*corev1.PodList, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.listErrs) > 0 {
		err := s.listErrs[0]
		s.listErrs = s.listErrs[1:]
		return nil, err
	}
	l := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: s.rv}}
	for _, p := range s.items {
		l.Items = append(l.Items, *p.DeepCopy())
	}
	return l, nil
}

func (s *scriptedLW) watch(ctx context.Context, _ metav1.ListOptions) (watch.Interface, error) {
	w := &scriptedWatch{events: make(chan watch.Event), stopped: make(chan struct{})}
	select {
	case s.watches <- w:
		return w, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *scriptedLW) listWatch() *ListWatch[*corev1.Pod] {
	return NewListWatch[*corev1.Pod](s.list, s.watch, s)
}

// informer returns an informer over s.
func (s *scriptedLW) informer(opts podInformerOptions) *podInformer {
	return cachetest.Must(NewSharedIndexInformer(s.listWatch(), opts))
}

// nextWatch waits for the reflector's next watch.
func (s *scriptedLW) nextWatch(t *testing.T) *scriptedWatch {
	t.Helper()
	return receive(t, s.watches, "the reflector to watch")
}

// scriptedWatch is a watch fed by the test. Unlike watch.FakeWatcher, sending
// to it after the reflector stopped it fails the test instead of panicking.
type scriptedWatch struct {
	events  chan watch.Event // unbuffered: a send returns once the reflector took the event
	stopped chan struct{}
	once    sync.Once
}

func (w *scriptedWatch) ResultChan() <-chan watch.Event { return w.events }
func (w *scriptedWatch) Stop()                          { w.once.Do(func() { close(w.stopped) }) }

// trySend hands one event to the reflector and returns once it has taken it;
// it may be called from any goroutine.
func (w *scriptedWatch) trySend(typ watch.EventType, obj runtime.Object) error {
	select {
	case w.events <- watch.Event{Type: typ, Object: obj}:
		return nil
	case <-w.stopped:
		return fmt.Errorf("the reflector stopped the watch before taking %s %v", typ, obj)
	case <-time.After(informerTestTimeout):
		return fmt.Errorf("timed out sending %s %v", typ, obj)
	}
}

func (w *scriptedWatch) send(t *testing.T, typ watch.EventType, obj runtime.Object) {
	t.Helper()
	if err := w.trySend(typ, obj); err != nil {
		t.Fatal(err)
	}
}

// expire ends the watch with 410 Expired: after its backoff (0.8-1.6 s),
// client-go's reflector lists again and opens a new watch (#watch-errors).
func (w *scriptedWatch) expire(t *testing.T) {
	t.Helper()
	w.send(t, watch.Error, &apierrors.NewResourceExpired("scripted: too old resource version").ErrStatus)
}

// logCapture collects what a logger writes.
type logCapture struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (c *logCapture) logger() klog.Logger {
	return funcr.New(func(prefix, args string) {
		c.mu.Lock()
		defer c.mu.Unlock()
		fmt.Fprintln(&c.buf, prefix, args)
	}, funcr.Options{})
}

func (c *logCapture) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// #add-or-update, #delete-notification, #initial-list-flag: end to end through
// a fake clientset, a create is an add, a change an update carrying both
// states, a delete carries the last state; only the initial list is "initial".
func TestInformerDeliversAddUpdateDeleteFromFakeClientset(t *testing.T) {
	client := fake.NewClientset(podAt("p1", "1"))
	inf, watching := clientInformer(client, podInformerOptions{})
	h := newRecorder(nil)
	reg := register(t, inf, h)
	runInformer(t, context.Background(), inf)
	eventually(t, "the handler has synced", reg.HasSynced)
	receive(t, watching, "the watch")

	// Across keys, the order of calls follows the order in which keys were
	// first queued (#deltafifo-accumulates): each change here is for a key
	// queued after the
	// previous one's.
	ctx, pods := context.Background(), client.CoreV1().Pods("ns")
	if _, err := pods.Update(ctx, podAt("p1", "3"), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := pods.Create(ctx, podAt("p2", "2"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := pods.Delete(ctx, "p2", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	expectCalls(t, "handler", h.waitFor(t, 4),
		"add ns/p1@1 (initial)", "update ns/p1@1 -> 3", "add ns/p2@2", "delete ns/p2@2")
	if got := anyNames(inf.GetIndexer().List()); !slices.Equal(got, []string{"ns/p1"}) {
		t.Errorf("store holds %v, want [ns/p1]", got)
	}
}

// #add-or-update: whether a change is an add or an update is decided by the
// store, not by the event type; #delete-notification: a watched delete carries
// the deleted object's last state (from the event), with no tombstone: typed
// and untyped handlers alike.
func TestInformerAddOrUpdateIsDecidedByStorePresence(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"))
	inf := lw.informer(podInformerOptions{})
	h, u := newRecorder(nil), newRecorder(nil)
	register(t, inf, h)
	registerUntyped(t, inf, u.untyped())
	runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)

	w.send(t, watch.Added, podAt("p1", "2"))    // cached key: an update
	w.send(t, watch.Modified, podAt("p2", "3")) // uncached key: an add
	w.send(t, watch.Deleted, podAt("p2", "4"))
	for who, r := range map[string]*recorder{"typed handler": h, "untyped handler": u} {
		expectCalls(t, who, r.waitFor(t, 4),
			"add ns/p1@1 (initial)", "update ns/p1@1 -> 2", "add ns/p2@3", "delete ns/p2@4")
	}
	if p, ok := inf.TypedStore().Get(ObjectName{Namespace: "ns", Name: "p1"}); !ok || p.ResourceVersion != "2" || inf.TypedStore().Len() != 1 {
		t.Errorf("store holds %v, want only ns/p1@2", names(inf.TypedStore().List()))
	}
}

// #relist-tombstones, #delete-notification, #initial-list-flag: a relist turns
// objects missing from the new list into deletes with a tombstone
// (finalStateUnknown), carrying the last known state, after the listed objects;
// nothing of a relist counts as initial. A typed handler gets a
// cache.DeletedObject with FinalStateUnknown set, an untyped one a
// cache.DeletedFinalStateUnknown; both hold the key and the object (the
// recorder checks). Waits for one relist backoff.
func TestInformerRelistInfersDeletesWithFinalStateUnknown(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"), podAt("p2", "2"), podAt("p3", "3"))
	inf := lw.informer(podInformerOptions{})
	h, u := newRecorder(nil), newRecorder(nil)
	register(t, inf, h)
	registerUntyped(t, inf, u.untyped())
	runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)
	w.send(t, watch.Modified, podAt("p3", "4"))
	h.waitUntil(t, "update ns/p3@3 -> 4") // else the relist could queue its tombstone with it

	lw.setList("5", podAt("p2", "5"), podAt("p4", "5"))
	w.expire(t)
	lw.nextWatch(t).send(t, watch.Added, podAt("p9", "9"))
	expectCalls(t, "untyped handler", u.waitUntil(t, "add ns/p9@9"),
		"add ns/p1@1 (initial)", "add ns/p2@2 (initial)", "add ns/p3@3 (initial)",
		"update ns/p3@3 -> 4",
		"update ns/p2@2 -> 5", "add ns/p4@5",
		anyOrder{"delete ns/p1@1 (final state unknown)", "delete ns/p3@4 (final state unknown)"},
		"add ns/p9@9")
	expectCalls(t, "typed handler", h.waitUntil(t, "add ns/p9@9"),
		"add ns/p1@1 (initial)", "add ns/p2@2 (initial)", "add ns/p3@3 (initial)",
		"update ns/p3@3 -> 4",
		"update ns/p2@2 -> 5", "add ns/p4@5",
		anyOrder{"delete ns/p1@1 (final state unknown)", "delete ns/p3@4 (final state unknown)"},
		"add ns/p9@9")
}

// #same-rv-is-resync: an update that keeps the resourceVersion (a relist of an
// unchanged object) is a resync: once a resync check has run, it reaches only
// handlers due for resync, never one with resync 0. (Before the first check
// every handler takes it, as in client-go: see
// TestProcessorNewListenerTakesResyncNotificationsUntilFirstCheck.) Uses the
// real clock: with a 1 s period the resync handler is due at every check once
// it has been due once (each check comes at least a period after the previous
// one), so it is due when the relist is processed. Waits for a resync check and
// a relist backoff.
func TestInformerSameResourceVersionUpdateReachesOnlyHandlersDueForResync(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"), podAt("p2", "2"))
	inf := lw.informer(podInformerOptions{ResyncPeriod: time.Second})
	never, due := newRecorder(nil), newRecorder(nil)
	registerWithResync(t, inf, never, 0)
	register(t, inf, due)
	runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)
	due.await(t, "a resync", func(calls []call) (int, bool) {
		return 0, slices.ContainsFunc(calls, func(c call) bool { return c.kind == "resync" })
	})

	lw.setList("3", podAt("p1", "1"), podAt("p2", "3"))
	w.expire(t)
	lw.nextWatch(t).send(t, watch.Added, podAt("p9", "9"))
	expectCalls(t, "handler with resync 0", never.waitUntil(t, "add ns/p9@9"),
		"add ns/p1@1 (initial)", "add ns/p2@2 (initial)", "update ns/p2@2 -> 3", "add ns/p9@9")
	expectCalls(t, "handler with resync 1s", withoutResyncs(due.waitUntil(t, "add ns/p9@9")),
		"add ns/p1@1 (initial)", "add ns/p2@2 (initial)", "update ns/p1@1 -> 1", "update ns/p2@2 -> 3", "add ns/p9@9")
}

// #queue-synced, #handler-synced: the informer is synced once the initial list
// is in the store, a registration once its handler has also returned from every
// initial add. A blocked handler keeps its own registration unsynced, nobody
// else's.
func TestInformerRegistrationSyncsOnlyOnceItsHandlerGotTheInitialList(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"), podAt("p2", "2"))
	inf := lw.informer(podInformerOptions{})
	g := newGate(t)
	slow, fast := newRecorder(g.hold), newRecorder(nil)
	slowReg, fastReg := register(t, inf, slow), register(t, inf, fast)
	if inf.HasSynced() || slowReg.HasSynced() || fastReg.HasSynced() {
		t.Fatal("synced before Run")
	}
	runInformer(t, context.Background(), inf)
	eventually(t, "the informer has synced", inf.HasSynced)
	eventually(t, "the fast handler's registration has synced", fastReg.HasSynced)
	g.waitEntered(t)
	if slowReg.HasSynced() {
		t.Error("the slow handler's registration has synced while its handler is still in its first initial add")
	}
	if got := inf.TypedStore().Len(); got != 2 {
		t.Errorf("the synced informer's store holds %d objects, want 2", got)
	}
	g.open()
	eventually(t, "the slow handler's registration has synced", slowReg.HasSynced)
	expectCalls(t, "slow handler", slow.waitFor(t, 2), "add ns/p1@1 (initial)", "add ns/p2@2 (initial)")
	expectCalls(t, "fast handler", fast.waitFor(t, 2), "add ns/p1@1 (initial)", "add ns/p2@2 (initial)")
}

// #late-handler-replay: a handler added after Run first gets an initial add for
// every object in the store, then exactly every later change, even while
// changes keep coming; its registration syncs once those adds are delivered.
func TestInformerHandlerAddedAfterRunGetsStoreAsInitialAddsFirst(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"), podAt("p2", "1"))
	inf := lw.informer(podInformerOptions{})
	early := newRecorder(nil)
	earlyReg := register(t, inf, early)
	runInformer(t, context.Background(), inf)
	eventually(t, "the first handler has synced", earlyReg.HasSynced)
	w := lw.nextWatch(t)

	// Keep p1 changing while the late handler is added.
	stopSending, sent := make(chan struct{}), make(chan error, 1)
	go func() {
		for rv := 2; ; rv++ {
			select {
			case <-stopSending:
				sent <- nil
				return
			default:
			}
			if err := w.trySend(watch.Modified, podAt("p1", strconv.Itoa(rv))); err != nil {
				sent <- err
				return
			}
		}
	}()
	g := newGate(t)
	late := newRecorder(g.hold)
	lateReg := register(t, inf, late)
	g.waitEntered(t)
	if lateReg.HasSynced() {
		t.Error("the late registration has synced before its initial adds were delivered")
	}
	close(stopSending)
	if err := receive(t, sent, "the sender to stop"); err != nil {
		t.Fatal(err)
	}
	w.send(t, watch.Added, podAt("p9", "1"))
	g.open()

	calls := late.waitUntil(t, "add ns/p9@1")
	if !lateReg.HasSynced() {
		t.Error("the late registration has not synced after its initial adds were delivered")
	}
	if len(calls) < 3 || !calls[0].flag || !calls[1].flag || calls[0].kind != "add" || calls[1].kind != "add" {
		t.Fatalf("the late handler's first calls are not two initial adds: %q", callStrings(calls))
	}
	for _, c := range calls[2:] {
		if c.kind == "add" && c.flag {
			t.Errorf("initial add %q after a later change", c)
		}
	}
	lateLast := checkChains(t, "late handler", calls)
	earlyLast := checkChains(t, "first handler", early.waitUntil(t, "add ns/p9@1"))
	if lateLast["ns/p1"] != earlyLast["ns/p1"] {
		t.Errorf("the late handler ends at ns/p1@%s, the first at ns/p1@%s", lateLast["ns/p1"], earlyLast["ns/p1"])
	}
}

// #handler-registration: the same handler added twice gets two independent
// registrations, and removing one leaves the other.
func TestInformerSameHandlerAddedTwiceGetsTwoRegistrations(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"))
	inf := lw.informer(podInformerOptions{})
	h := newRecorder(nil)
	reg1, reg2 := register(t, inf, h), register(t, inf, h)
	if reg1 == reg2 {
		t.Fatal("adding a handler twice returned one registration")
	}
	runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)
	eventually(t, "both registrations have synced", func() bool { return reg1.HasSynced() && reg2.HasSynced() })
	w.send(t, watch.Added, podAt("p2", "2"))
	h.waitFor(t, 4)

	if err := inf.RemoveEventHandler(reg1); err != nil {
		t.Fatal(err)
	}
	w.send(t, watch.Added, podAt("p3", "3"))
	w.send(t, watch.Added, podAt("p4", "4"))
	// Removal is synchronous with respect to distribution: p3 and p4 reach
	// only the remaining registration.
	calls := h.waitUntil(t, "add ns/p4@4")
	expectCalls(t, "handler", calls,
		"add ns/p1@1 (initial)", "add ns/p1@1 (initial)", "add ns/p2@2", "add ns/p2@2", "add ns/p3@3", "add ns/p4@4")
}

// #handler-registration: removing a registration twice is fine, and removing
// one of another informer does nothing.
func TestInformerRemoveEventHandlerIsIdempotentAndIgnoresForeignHandles(t *testing.T) {
	lw1, lw2 := newScriptedLW("1"), newScriptedLW("1")
	inf1, inf2 := lw1.informer(podInformerOptions{}), lw2.informer(podInformerOptions{})
	removed, witness, foreign := newRecorder(nil), newRecorder(nil), newRecorder(nil)
	reg := register(t, inf1, removed)
	register(t, inf1, witness)
	foreignReg := register(t, inf2, foreign)
	runInformer(t, context.Background(), inf1)
	runInformer(t, context.Background(), inf2)
	w1, w2 := lw1.nextWatch(t), lw2.nextWatch(t)

	if err := inf1.RemoveEventHandler(foreignReg); err != nil {
		t.Errorf("removing another informer's registration: %v", err)
	}
	for i := range 2 {
		if err := inf1.RemoveEventHandler(reg); err != nil {
			t.Errorf("removal %d: %v", i+1, err)
		}
	}
	w1.send(t, watch.Added, podAt("p1", "1"))
	w2.send(t, watch.Added, podAt("p2", "2"))
	witness.waitUntil(t, "add ns/p1@1")
	expectCalls(t, "foreign handler", foreign.waitFor(t, 1), "add ns/p2@2")
	if got := removed.recorded(); len(got) != 0 {
		t.Errorf("the removed handler got %q", callStrings(got))
	}
}

// #handler-registration: a stopped informer refuses new handlers with
// client-go's message, and removing a handler from it succeeds.
func TestInformerStoppedRejectsNewHandlersButAllowsRemoval(t *testing.T) {
	lw := newScriptedLW("1")
	inf := lw.informer(podInformerOptions{})
	reg := register(t, inf, newRecorder(nil))
	runInformer(t, context.Background(), inf).stop(t)
	if !inf.IsStopped() {
		t.Fatal("IsStopped is false after Run returned")
	}
	for name, add := range map[string]func() (cache.ResourceEventHandlerRegistration, error){
		"AddEventHandler": func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddEventHandler(newRecorder(nil).untyped())
		},
		"AddEventHandlerWithResyncPeriod": func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddEventHandlerWithResyncPeriod(newRecorder(nil).untyped(), time.Minute)
		},
		"AddEventHandlerWithOptions": func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddEventHandlerWithOptions(newRecorder(nil).untyped(), cache.HandlerOptions{})
		},
		"AddTypedEventHandler": func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddTypedEventHandler(newRecorder(nil))
		},
	} {
		got, err := add()
		if err == nil || !strings.Contains(err.Error(), "was not added to shared informer because it has stopped already") {
			t.Errorf("%s on a stopped informer: err = %v, want the \"stopped already\" error", name, err)
		}
		if got != nil {
			t.Errorf("%s on a stopped informer returned a registration", name)
		}
	}
	if err := inf.RemoveEventHandler(reg); err != nil {
		t.Errorf("RemoveEventHandler on a stopped informer: %v", err)
	}
}

// #per-handler-delivery: every handler gets every change in the order the
// informer processed them, the same order for all handlers.
func TestInformerDeliversEachHandlersCallsInOrder(t *testing.T) {
	lw := newScriptedLW("1")
	inf := lw.informer(podInformerOptions{})
	h1, h2 := newRecorder(nil), newRecorder(nil)
	register(t, inf, h1)
	register(t, inf, h2)
	runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)

	const events = 300
	present := map[string]bool{}
	for i := range events {
		name := fmt.Sprint("p", i%3)
		p := podAt(name, strconv.Itoa(i+1))
		switch {
		case !present[name]:
			w.send(t, watch.Added, p)
			present[name] = true
		case i%50 == 49:
			w.send(t, watch.Deleted, p)
			present[name] = false
		default:
			w.send(t, watch.Modified, p)
		}
	}
	w.send(t, watch.Added, podAt("marker", "0"))

	calls1, calls2 := h1.waitUntil(t, "add ns/marker@0"), h2.waitUntil(t, "add ns/marker@0")
	if len(calls1) != events+1 {
		t.Errorf("handler 1 got %d calls, want %d", len(calls1), events+1)
	}
	if !slices.Equal(callStrings(calls1), callStrings(calls2)) {
		t.Errorf("the handlers got different sequences:\n%q\n%q", callStrings(calls1), callStrings(calls2))
	}
	checkChains(t, "handler 1", calls1)
	checkChains(t, "handler 2", calls2)
}

// #per-handler-delivery: a blocked handler holds up neither the store nor
// another handler; its calls wait in its own buffer and come in order once it
// unblocks.
func TestInformerBlockedHandlerStallsNeitherOtherHandlersNorStore(t *testing.T) {
	lw := newScriptedLW("1")
	inf := lw.informer(podInformerOptions{})
	g := newGate(t)
	blocked, free := newRecorder(g.hold), newRecorder(nil)
	register(t, inf, blocked)
	register(t, inf, free)
	runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)

	const n = 300 // several times the ring's initial capacity
	for i := range n {
		w.send(t, watch.Added, podAt(fmt.Sprint("p", i), strconv.Itoa(i+1)))
	}
	freeCalls := free.waitFor(t, n)
	g.waitEntered(t)
	if got := len(inf.GetIndexer().ListKeys()); got != n {
		t.Errorf("the store holds %d objects while a handler is blocked, want %d", got, n)
	}
	if got := blocked.recorded(); len(got) != 0 {
		t.Fatalf("the blocked handler recorded %q", callStrings(got))
	}
	g.open()
	if got, want := callStrings(blocked.waitFor(t, n)), callStrings(freeCalls); !slices.Equal(got, want) {
		t.Errorf("the unblocked handler got\n%q\nwant\n%q", got, want)
	}
}

// #per-handler-delivery: a panicking handler is recovered, logged and counted;
// its later calls and the other handlers' calls are still delivered, and its
// registration still syncs.
func TestInformerRecoversPanickingHandler(t *testing.T) {
	var logs logCapture
	ctx := klog.NewContext(context.Background(), logs.logger())
	lw := newScriptedLW("1", podAt("p1", "1"))
	inf := lw.informer(podInformerOptions{})
	panicky := newRecorder(func(c call) {
		if c.key == "ns/p1" {
			panic("scripted handler panic")
		}
	})
	other := newRecorder(nil)
	panickyReg := register(t, inf, panicky)
	register(t, inf, other)
	runInformer(t, ctx, inf)
	w := lw.nextWatch(t)
	w.send(t, watch.Added, podAt("p2", "2"))

	expectCalls(t, "panicking handler", panicky.waitFor(t, 1), "add ns/p2@2")
	expectCalls(t, "other handler", other.waitFor(t, 2), "add ns/p1@1 (initial)", "add ns/p2@2")
	if got := inf.HandlerPanics(); got != 1 {
		t.Errorf("HandlerPanics() = %d, want 1", got)
	}
	if !panickyReg.HasSynced() {
		t.Error("the registration of a handler that panicked on an initial add has not synced")
	}
	if got := logs.String(); !strings.Contains(got, "Event handler panicked") || !strings.Contains(got, "scripted handler panic") {
		t.Errorf("the panic was not logged; logs:\n%s", got)
	}
}

// #resync-periods: a resync sends OnUpdate(obj, obj) for every cached object to
// the handlers with a resync period, and to no other. The fake clock decides
// who is due; client-go's reflector checks on its own real 1 s timer, so the
// test waits for one check after stepping the clock.
func TestInformerResyncReachesOnlyHandlersWithResync(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Now())
	lw := newScriptedLW("1", podAt("p1", "1"), podAt("p2", "2"))
	inf := lw.informer(podInformerOptions{ResyncPeriod: time.Second, Clock: clk})
	withResync, without := newRecorder(nil), newRecorder(nil)
	withReg, withoutReg := register(t, inf, withResync), registerWithResync(t, inf, without, 0)
	runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)
	eventually(t, "both handlers have synced", func() bool { return withReg.HasSynced() && withoutReg.HasSynced() })

	clk.Step(time.Second)
	withResync.waitFor(t, 4)
	w.send(t, watch.Added, podAt("p3", "3"))
	expectCalls(t, "handler with resync", withResync.waitUntil(t, "add ns/p3@3"),
		"add ns/p1@1 (initial)", "add ns/p2@2 (initial)", anyOrder{"resync ns/p1@1", "resync ns/p2@2"}, "add ns/p3@3")
	expectCalls(t, "handler without resync", without.waitUntil(t, "add ns/p3@3"),
		"add ns/p1@1 (initial)", "add ns/p2@2 (initial)", "add ns/p3@3")
}

// typedIndexFuncOf returns fn as a client-go typed index function.
func typedIndexFuncOf(fn IndexFunc[*corev1.Pod]) cache.TypedIndexFunc[*corev1.Pod] {
	return func(p *corev1.Pod) ([]string, error) { return fn(p), nil }
}

// listenerOf returns the listener behind a registration.
func listenerOf(t *testing.T, reg cache.ResourceEventHandlerRegistration) *podListener {
	t.Helper()
	l, ok := reg.(*podListener)
	if !ok {
		t.Fatalf("registration is a %T", reg)
	}
	return l
}

// #resync-periods: an informer created with resync 0 never resyncs, whatever
// its handlers ask for: it gives the reflector no resync period (so client-go
// starts no resync timer) and no listener is ever due.
func TestInformerWithoutResyncPeriodNeverResyncs(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Now())
	inf := newScriptedLW("1").informer(podInformerOptions{Clock: clk})
	l := listenerOf(t, registerWithResync(t, inf, newRecorder(nil), time.Second))
	if inf.resyncCheckPeriod != 0 || l.resyncPeriod != 0 {
		t.Errorf("resync check period %v, listener period %v; want 0 and 0", inf.resyncCheckPeriod, l.resyncPeriod)
	}
	if inf.processor.shouldResync(clk.Now().Add(24 * time.Hour)) {
		t.Error("a listener is due for resync on an informer without resync")
	}
}

// #resync-periods: a handler's resync period below 1 s is raised to 1 s (and
// lowers the informer's check period to it before Run); after Run it is raised
// to the informer's check period.
func TestInformerRaisesHandlerResyncPeriod(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Now())
	lw := newScriptedLW("1")
	inf := lw.informer(podInformerOptions{ResyncPeriod: 5 * time.Second, Clock: clk})
	before := listenerOf(t, registerWithResync(t, inf, newRecorder(nil), 10*time.Millisecond))
	if before.resyncPeriod != time.Second || inf.resyncCheckPeriod != time.Second {
		t.Errorf("before Run: listener period %v, check period %v; want 1s and 1s", before.resyncPeriod, inf.resyncCheckPeriod)
	}
	if inf.processor.shouldResync(clk.Now().Add(999 * time.Millisecond)) {
		t.Error("a handler asking for 10ms is due after 999ms")
	}
	if !inf.processor.shouldResync(clk.Now().Add(time.Second)) {
		t.Error("a handler asking for 10ms is not due after 1s")
	}

	inf = lw.informer(podInformerOptions{ResyncPeriod: 5 * time.Second, Clock: clk})
	runInformer(t, context.Background(), inf)
	lw.nextWatch(t)
	after := listenerOf(t, registerWithResync(t, inf, newRecorder(nil), 10*time.Millisecond))
	if after.resyncPeriod != 5*time.Second {
		t.Errorf("after Run: listener period %v, want the 5s check period", after.resyncPeriod)
	}
}

// #add-indexers-late: AddIndexers after Run indexes the objects already cached,
// and later ones; a clashing name is an error, and so is any call after stop.
func TestInformerAddIndexersAfterRunIndexesExistingItems(t *testing.T) {
	p1, p2 := pod("ns", "p1", "n1", nil), pod("ns", "p2", "n2", nil)
	lw := newScriptedLW("1", p1, p2)
	inf := lw.informer(podInformerOptions{})
	h := newRecorder(nil)
	reg := register(t, inf, h)
	running := runInformer(t, context.Background(), inf)
	eventually(t, "the handler has synced", reg.HasSynced)
	w := lw.nextWatch(t)

	if err := inf.AddIndexers(cache.Indexers{"node": untyped(byNode)}); err != nil {
		t.Fatalf("AddIndexers after Run: %v", err)
	}
	if got := mustByIndex(t, inf.TypedStore(), "node", "", "n1"); !slices.Equal(got, []string{"ns/p1"}) {
		t.Errorf("node n1 holds %v, want [ns/p1]", got)
	}
	if err := inf.AddTypedIndexers(cache.TypedIndexers[*corev1.Pod]{"image": typedIndexFuncOf(byImage)}); err != nil {
		t.Fatalf("AddTypedIndexers after Run: %v", err)
	}
	w.send(t, watch.Added, pod("ns", "p3", "n1", []string{"img"}))
	h.waitUntil(t, "add ns/p3@")
	if got := mustByIndex(t, inf.TypedStore(), "node", "", "n1"); !slices.Equal(got, []string{"ns/p1", "ns/p3"}) {
		t.Errorf("node n1 holds %v, want [ns/p1 ns/p3]", got)
	}
	if got, err := inf.GetIndexer().ByIndex("image", "img"); err != nil || !slices.Equal(anyNames(got), []string{"ns/p3"}) {
		t.Errorf("GetIndexer().ByIndex(image, img) = %v, %v; want [ns/p3]", anyNames(got), err)
	}
	if err := inf.AddIndexers(cache.Indexers{"node": untyped(byNode)}); err == nil {
		t.Error("AddIndexers with an existing index name succeeded")
	}
	if err := inf.AddTypedIndexers(cache.TypedIndexers[*corev1.Pod]{"image": typedIndexFuncOf(byImage)}); err == nil {
		t.Error("AddTypedIndexers with an existing index name succeeded")
	}
	running.stop(t)
	if err := inf.AddIndexers(cache.Indexers{"other": untyped(byImage)}); err == nil {
		t.Error("AddIndexers after stop succeeded")
	}
	if err := inf.AddTypedIndexers(cache.TypedIndexers[*corev1.Pod]{"other": typedIndexFuncOf(byImage)}); err == nil {
		t.Error("AddTypedIndexers after stop succeeded")
	}
}

// #run-and-stop: a second Run returns at once and leaves the first running; a
// Run after stop returns at once too.
func TestInformerRunTwiceReturnsAtOnce(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"))
	inf := lw.informer(podInformerOptions{})
	running := runInformer(t, context.Background(), inf)
	eventually(t, "the informer has synced", inf.HasSynced)
	for _, when := range []string{"while running", "after stop"} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			inf.RunWithContext(context.Background()) // never cancelled: it must return on its own
		}()
		receive(t, done, "a second Run "+when+" to return")
		if when == "while running" {
			if inf.IsStopped() {
				t.Error("a second Run stopped the informer")
			}
			running.stop(t)
		}
	}
}

// #run-and-stop: cancelling Run's context stops everything: Run returns,
// IsStopped turns true, and no goroutine of the informer, its reflector,
// client-go's controller or its handlers is left.
func TestInformerStopsEverythingWhenContextIsCancelled(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	client := fake.NewClientset(podAt("p1", "1"))
	inf, watching := clientInformer(client, podInformerOptions{ResyncPeriod: time.Second})
	reg := register(t, inf, newRecorder(nil))
	running := runInformer(t, context.Background(), inf)
	eventually(t, "the handler has synced", reg.HasSynced)
	receive(t, watching, "the watch")
	late := newRecorder(nil)
	lateReg := register(t, inf, late)
	eventually(t, "the late handler has synced", lateReg.HasSynced)
	if inf.IsStopped() {
		t.Fatal("IsStopped while running")
	}
	running.stop(t)
	if !inf.IsStopped() {
		t.Error("IsStopped is false after Run returned")
	}
	goleak.VerifyNone(t, ignore)
}

// #run-and-stop: Run waits for every goroutine the informer started, like
// client-go's processor, whose WaitGroup also counts removed listeners: a
// handler removed while in a call must have returned before Run does.
//
// The window below can only let a broken informer pass, never fail a correct
// one: a correct Run cannot return while the handler is blocked.
func TestInformerRunWaitsForRemovedHandlerStillInACall(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"))
	inf := lw.informer(podInformerOptions{})
	g := newGate(t)
	h := newRecorder(g.hold)
	reg := register(t, inf, h)
	running := runInformer(t, context.Background(), inf)
	g.waitEntered(t)
	if err := inf.RemoveEventHandler(reg); err != nil {
		t.Fatal(err)
	}
	running.cancel()
	select {
	case <-running.done:
		t.Error("Run returned while a removed handler was still in a call: its goroutine outlives the informer")
	case <-time.After(200 * time.Millisecond):
	}
	g.open()
	receive(t, running.done, "Run to return")
	if len(h.recorded()) != 1 {
		t.Error("Run returned before the removed handler's call did")
	}
}

// MaxQueueSize bounds the DeltaFIFO; an informer still syncs a list many
// times longer than the bound, and follows changes after it.
func TestInformerWithMaxQueueSizeSyncsManyObjects(t *testing.T) {
	const listed, created = 200, 50
	var objs []runtime.Object
	for i := range listed {
		objs = append(objs, podAt(fmt.Sprintf("p%03d", i), "1"))
	}
	client := fake.NewClientset(objs...)
	inf, watching := clientInformer(client, podInformerOptions{MaxQueueSize: 5})
	h := newRecorder(nil)
	reg := register(t, inf, h)
	runInformer(t, context.Background(), inf)
	eventually(t, "the handler has synced", reg.HasSynced)
	calls := h.waitFor(t, listed)
	for _, c := range calls {
		if c.kind != "add" || !c.flag {
			t.Fatalf("initial call %q is not an initial add", c)
		}
	}
	receive(t, watching, "the watch")
	for i := range created {
		if _, err := client.CoreV1().Pods("ns").Create(context.Background(), podAt(fmt.Sprint("new", i), "2"), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	calls = h.waitFor(t, listed+created)
	checkChains(t, "handler", calls)
	if got := inf.TypedStore().Len(); got != listed+created {
		t.Errorf("the store holds %d objects, want %d", got, listed+created)
	}
}

// #watch-errors: an error that ends a list goes to the watch error handler
// (errors in an open watch stream do not); the reflector then retries (after
// its backoff) and syncs.
func TestInformerCallsWatchErrorHandlerWhenListFails(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"))
	lw.failNextList(errors.New("scripted list failure"))
	inf := lw.informer(podInformerOptions{})
	errs := make(chan error, 10)
	if err := inf.SetWatchErrorHandlerWithContext(func(_ context.Context, r *cache.Reflector, err error) {
		if r == nil {
			err = fmt.Errorf("nil reflector with %w", err)
		}
		select {
		case errs <- err:
		default:
		}
	}); err != nil {
		t.Fatal(err)
	}
	runInformer(t, context.Background(), inf)
	if err := receive(t, errs, "the watch error handler"); err == nil || !strings.Contains(err.Error(), "scripted list failure") {
		t.Errorf("the watch error handler got %v, want the list error", err)
	}
	eventually(t, "the informer has synced after the retry", inf.HasSynced)
}
