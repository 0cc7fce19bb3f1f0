package cache

import (
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// A #name in comments is the anchor, in docs/clientgo-semantics.md, of the
// client-go behaviour a test pins.
// Helpers (recorder, gate, receive, ...) are in shared_informer_test.go.

type podNotification = notification[*corev1.Pod]

func alwaysSynced() bool { return true }

// closedChan is an upstream that has synced, for alwaysSynced listeners.
var closedChan = func() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}()

// newTestListener returns a listener for h with no resync, whose upstream
// HasSynced is synced and whose upstream's synced channel is upstreamDone.
func newTestListener(h cache.TypedResourceEventHandler[*corev1.Pod], synced func() bool, upstreamDone <-chan struct{}) *podListener {
	return newListener[*corev1.Pod](nil, h, synced, upstreamDone, 0, 0, time.Now())
}

// startProcessor starts a processor over listeners; the test's cleanup stops
// it, waiting for the listeners' goroutines.
func startProcessor(t *testing.T, listeners ...*podListener) *processor[*corev1.Pod] {
	p := &processor[*corev1.Pod]{}
	for _, l := range listeners {
		p.addListener(l)
	}
	p.start(klog.Background())
	t.Cleanup(p.stop)
	return p
}

// addOf returns the add notification of pod ns/<name><i> at resourceVersion i.
func addOf(name string, i int, initial bool) podNotification {
	return podNotification{kind: addNotification, flag: initial, newObj: podAt(fmt.Sprint(name, i), strconv.Itoa(i))}
}

// buffered returns how many notifications wait in l's buffer.
func buffered(l *podListener) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pending.len()
}

// #per-handler-delivery: notifications added while the handler is blocked wait
// in the listener's buffer (growing it well past its initial size) and are all
// delivered, in order, once it unblocks.
func TestListenerDeliversNotificationsBufferedWhileBlockedInOrder(t *testing.T) {
	g := newGate(t)
	h := newRecorder(g.hold)
	l := newTestListener(h, alwaysSynced, closedChan)
	startProcessor(t, l)

	const n = 1000
	for i := range n {
		l.add(addOf("p", i, false))
	}
	g.waitEntered(t)
	if got := buffered(l); got != n-1 {
		t.Errorf("%d notifications buffered behind the blocked call, want %d", got, n-1)
	}
	g.open()
	for i, c := range h.waitFor(t, n) {
		if want := fmt.Sprintf("add ns/p%d@%d", i, i); c.String() != want {
			t.Fatalf("call %d is %q, want %q", i, c, want)
		}
	}
}

// #handler-registration: removing a listener drops the notifications still
// buffered for it, its goroutine ends once the handler returns, and it gets
// nothing more.
func TestListenerShutdownDropsBufferedNotificationsAndEndsItsGoroutine(t *testing.T) {
	g := newGate(t)
	h := newRecorder(g.hold)
	l := newTestListener(h, alwaysSynced, closedChan)
	p := startProcessor(t, l)
	for i := range 100 {
		p.distribute(addOf("p", i, false))
	}
	g.waitEntered(t)

	p.removeListener(l)
	g.open()
	receive(t, l.done, "the removed listener's goroutine to end")
	expectCalls(t, "removed handler", h.recorded(), "add ns/p0@0")
	l.mu.Lock()
	left, capacity := l.pending.len(), len(l.pending.buf)
	l.mu.Unlock()
	if left != 0 || capacity != 0 {
		t.Errorf("the removed listener keeps %d notifications in a buffer of %d", left, capacity)
	}
	p.distribute(addOf("late", 1, false))
	l.add(addOf("late", 2, false))
	if got := buffered(l); got != 0 {
		t.Errorf("a removed listener buffered %d notifications", got)
	}
}

// #run-and-stop: stopping the processor ends every listener's goroutine before
// it returns; stopping one that never started returns at once.
func TestProcessorStopEndsEveryListenerGoroutine(t *testing.T) {
	var listeners []*podListener
	for range 3 {
		listeners = append(listeners, newTestListener(newRecorder(nil), alwaysSynced, closedChan))
	}
	p := startProcessor(t, listeners...)
	for i := range 10 {
		p.distribute(addOf("p", i, false))
	}
	p.stop()
	for i, l := range listeners {
		select {
		case <-l.done:
		default:
			t.Errorf("listener %d still runs after stop returned", i)
		}
	}

	idle := &processor[*corev1.Pod]{}
	idle.addListener(newTestListener(newRecorder(nil), alwaysSynced, closedChan))
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		idle.stop()
	}()
	receive(t, stopped, "stop of a processor that never started")
}

// #same-rv-is-resync, #resync-periods: a resync notification reaches only the
// listeners that the last shouldResync found due, and each is due again one
// period later.
func TestProcessorResyncReachesOnlyDueListeners(t *testing.T) {
	t0 := time.Now()
	never, every1s, every2s := newRecorder(nil), newRecorder(nil), newRecorder(nil)
	p := startProcessor(t,
		newListener[*corev1.Pod](nil, never, alwaysSynced, closedChan, 0, 0, t0),
		newListener[*corev1.Pod](nil, every1s, alwaysSynced, closedChan, time.Second, time.Second, t0),
		newListener[*corev1.Pod](nil, every2s, alwaysSynced, closedChan, 2*time.Second, 2*time.Second, t0),
	)
	for _, step := range []struct {
		at  time.Duration
		due bool
	}{
		{999 * time.Millisecond, false},
		{time.Second, true},     // every1s
		{2 * time.Second, true}, // every1s, every2s
		{2500 * time.Millisecond, false},
	} {
		if got := p.shouldResync(t0.Add(step.at)); got != step.due {
			t.Errorf("shouldResync at %v = %v, want %v", step.at, got, step.due)
		}
		obj := podAt("p", step.at.String())
		p.distribute(podNotification{kind: updateNotification, oldObj: obj, newObj: obj})
	}
	p.distribute(addOf("marker", 0, false))

	expectCalls(t, "listener without resync", never.waitUntil(t, "add ns/marker0@0"), "add ns/marker0@0")
	expectCalls(t, "listener with 1s resync", every1s.waitUntil(t, "add ns/marker0@0"),
		"resync ns/p@1s", "resync ns/p@2s", "add ns/marker0@0")
	expectCalls(t, "listener with 2s resync", every2s.waitUntil(t, "add ns/marker0@0"),
		"resync ns/p@2s", "add ns/marker0@0")
}

// #same-rv-is-resync: what makes an update a resync is the resourceVersion,
// not the object: a new object with the old one's resourceVersion reaches
// only the listeners due for a resync, one with another resourceVersion
// reaches every listener, whether or not it is due.
func TestProcessorUpdateIsResyncByResourceVersion(t *testing.T) {
	t0 := time.Now()
	never, every1s := newRecorder(nil), newRecorder(nil)
	p := startProcessor(t,
		newListener[*corev1.Pod](nil, never, alwaysSynced, closedChan, 0, 0, t0),
		newListener[*corev1.Pod](nil, every1s, alwaysSynced, closedChan, time.Second, time.Second, t0),
	)
	update := func(oldRV, newRV string) {
		p.distribute(podNotification{kind: updateNotification, oldObj: podAt("p", oldRV), newObj: podAt("p", newRV)})
	}
	update("1", "1") // before the first check, every listener takes resyncs
	p.shouldResync(t0.Add(time.Second))
	update("2", "2") // every1s is due
	update("2", "3")
	p.shouldResync(t0.Add(1500 * time.Millisecond))
	update("3", "3") // no one is due
	update("3", "4")
	p.distribute(addOf("marker", 0, false))

	expectCalls(t, "listener without resync", never.waitUntil(t, "add ns/marker0@0"),
		"update ns/p@1 -> 1", "update ns/p@2 -> 3", "update ns/p@3 -> 4", "add ns/marker0@0")
	expectCalls(t, "listener with 1s resync", every1s.waitUntil(t, "add ns/marker0@0"),
		"update ns/p@1 -> 1", "update ns/p@2 -> 2", "update ns/p@2 -> 3", "update ns/p@3 -> 4", "add ns/marker0@0")
}

// #same-rv-is-resync: like client-go's (sharedProcessor.addListener marks every
// new listener as syncing), a new listener takes resync notifications until the
// first resync check decides who is due.
func TestProcessorNewListenerTakesResyncNotificationsUntilFirstCheck(t *testing.T) {
	t0 := time.Now()
	h := newRecorder(nil)
	p := startProcessor(t, newListener[*corev1.Pod](nil, h, alwaysSynced, closedChan, 0, 0, t0))
	before, after := podAt("p", "before"), podAt("p", "after")
	p.distribute(podNotification{kind: updateNotification, oldObj: before, newObj: before})
	p.shouldResync(t0)
	p.distribute(podNotification{kind: updateNotification, oldObj: after, newObj: after})
	p.distribute(addOf("marker", 0, false))
	expectCalls(t, "listener without resync", h.waitUntil(t, "add ns/marker0@0"), "resync ns/p@before", "add ns/marker0@0")
}

// #handler-synced: a registration is synced once its upstream is and every
// initial add queued for it has been handed to the handler and returned; other
// notifications do not count. Its HasSyncedChecker's channel closes exactly
// then.
func TestListenerHasSyncedWaitsForInitialAddsToBeDelivered(t *testing.T) {
	var upstream atomic.Bool
	upstreamDone := make(chan struct{})
	g := newGate(t)
	h := newRecorder(g.hold)
	l := newTestListener(h, upstream.Load, upstreamDone)
	startProcessor(t, l)
	checker := l.HasSyncedChecker()
	if checker.Name() == "" {
		t.Error("the registration's checker has no name")
	}
	if l.HasSynced() || isClosed(checker.Done()) {
		t.Error("synced while the upstream is not")
	}
	l.add(addOf("p", 1, true))
	l.add(addOf("p", 2, true))
	l.add(addOf("p", 3, false))
	g.waitEntered(t)
	upstream.Store(true)
	close(upstreamDone)
	if l.HasSynced() {
		t.Error("synced while initial adds are undelivered")
	}
	// The checker's goroutine sees upstreamDone at some point; it must not
	// close the channel while initial adds are undelivered.
	select {
	case <-checker.Done():
		t.Error("the checker's channel closed while initial adds are undelivered")
	case <-time.After(50 * time.Millisecond):
	}
	g.open()
	h.waitFor(t, 3)
	if !l.HasSynced() {
		t.Error("not synced after every initial add was delivered")
	}
	receive(t, checker.Done(), "the checker's channel to close")
}

// A listener whose upstream syncs with no initial add pending is synced at
// once, and its checker's channel closes.
func TestListenerCheckerClosesWhenUpstreamSyncsWithNothingPending(t *testing.T) {
	upstreamDone := make(chan struct{})
	var upstream atomic.Bool
	l := newTestListener(newRecorder(nil), upstream.Load, upstreamDone)
	startProcessor(t, l)
	if isClosed(l.HasSyncedChecker().Done()) {
		t.Fatal("the checker's channel is closed before the upstream synced")
	}
	upstream.Store(true)
	close(upstreamDone)
	receive(t, l.HasSyncedChecker().Done(), "the checker's channel to close")
	if !l.HasSynced() {
		t.Error("HasSynced is false once the checker's channel closed")
	}
}

// isClosed reports whether ch is closed, without waiting.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// #resync-periods: a listener's effective resync period is never shorter than
// the informer's check period, and zero when either is zero.
func TestEffectiveResync(t *testing.T) {
	for _, tc := range []struct{ requested, check, want time.Duration }{
		{0, time.Second, 0},
		{time.Second, 0, 0},
		{time.Second, 5 * time.Second, 5 * time.Second},
		{10 * time.Second, 5 * time.Second, 10 * time.Second},
	} {
		if got := effectiveResync(tc.requested, tc.check); got != tc.want {
			t.Errorf("effectiveResync(%v, %v) = %v, want %v", tc.requested, tc.check, got, tc.want)
		}
	}
}
