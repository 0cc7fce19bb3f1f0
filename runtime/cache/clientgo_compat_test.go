package cache

// Tests of the client-go surface of SharedIndexInformer: it is used through
// client-go's cache.SharedIndexInformer and cache.TypedSharedIndexInformer
// interfaces, with client-go's handler types, helpers (cache.WaitFor,
// cache.WaitForCacheSync) and listers, and its GetIndexer is a complete
// cache.Indexer that answers as client-go's does. Where client-go's own
// indexer is the reference, the tests run the same calls on both.
//
// Helpers (recorder, scriptedLW, runInformer, logCapture, ...) are in
// shared_informer_test.go.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/store"
)

// The informer is both of client-go's informer interfaces, its
// registrations are client-go's, and its indexer view is a typed indexer.
var (
	_ cache.SharedIndexInformer                   = (*podInformer)(nil)
	_ cache.TypedSharedIndexInformer[*corev1.Pod] = (*podInformer)(nil)
	_ cache.ResourceEventHandlerRegistration      = (*podListener)(nil)
	_ cache.Controller                            = informerController[*corev1.Pod]{}
)

// rawCall is one call of a rawRecorder: the handler method and its arguments
// as they came.
type rawCall struct {
	method   string // add, update, delete
	obj, old any
	initial  bool
}

// rawRecorder is an untyped handler that keeps its arguments as they came,
// for tests that check their exact types and identities.
type rawRecorder struct{ callLog[rawCall] }

func (r *rawRecorder) OnAdd(obj any, isInInitialList bool) {
	r.add(rawCall{method: "add", obj: obj, initial: isInInitialList})
}
func (r *rawRecorder) OnUpdate(oldObj, newObj any) {
	r.add(rawCall{method: "update", obj: newObj, old: oldObj})
}
func (r *rawRecorder) OnDelete(obj any) { r.add(rawCall{method: "delete", obj: obj}) }

// captureHandledErrors makes utilruntime.HandleError record the errors it is
// given (as well as log them) until the test ends, and returns what it has
// recorded so far. The test must not run in parallel, and must have stopped
// everything that reports errors before it ends.
func captureHandledErrors(t *testing.T) func() []string {
	var mu sync.Mutex
	var got []string
	saved := utilruntime.ErrorHandlers
	utilruntime.ErrorHandlers = append(slices.Clone(saved), func(_ context.Context, err error, msg string, _ ...any) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, fmt.Sprintf("%s: %v", msg, err))
	})
	t.Cleanup(func() { utilruntime.ErrorHandlers = saved })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
}

// containsMatch reports whether one of msgs contains every one of parts.
func containsMatch(msgs []string, parts ...string) bool {
	return slices.ContainsFunc(msgs, func(m string) bool {
		for _, p := range parts {
			if !strings.Contains(m, p) {
				return false
			}
		}
		return true
	})
}

// The informer works through client-go's interfaces alone: handlers of both
// kinds are added through them, it runs with Run(stopCh), client-go's
// cache.WaitForCacheSync and cache.WaitFor wait for it, and its store is
// read through GetStore, GetIndexer and GetTypedIndexer. Closing the stop
// channel stops it.
func TestClientGoInterfacesDriveTheInformer(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"), podAt("p2", "2"))
	inf := lw.informer(podInformerOptions{})
	var untypedIface cache.SharedIndexInformer = inf
	var typedIface cache.TypedSharedIndexInformer[*corev1.Pod] = inf

	untyped, typed := newRecorder(nil), newRecorder(nil)
	untypedReg, err := untypedIface.AddEventHandler(untyped.untyped())
	if err != nil {
		t.Fatal(err)
	}
	typedReg, err := typedIface.AddTypedEventHandler(typed)
	if err != nil {
		t.Fatal(err)
	}

	stopCh := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		untypedIface.Run(stopCh)
	}()
	t.Cleanup(func() {
		select {
		case <-stopCh:
		default:
			close(stopCh)
		}
		receive(t, stopped, "Run to return")
	})
	if !cache.WaitForCacheSync(stopCh, untypedIface.HasSynced, untypedReg.HasSynced, typedReg.HasSynced) {
		t.Fatal("cache.WaitForCacheSync returned false")
	}
	ctx, cancel := context.WithTimeout(context.Background(), informerTestTimeout)
	defer cancel()
	if !cache.WaitFor(ctx, "", untypedIface.HasSyncedChecker(), untypedReg.HasSyncedChecker(), typedReg.HasSyncedChecker()) {
		t.Fatal("cache.WaitFor returned false")
	}
	for who, r := range map[string]*recorder{"untyped handler": untyped, "typed handler": typed} {
		expectCalls(t, who, r.recorded(), "add ns/p1@1 (initial)", "add ns/p2@2 (initial)")
	}

	if got := anyNames(untypedIface.GetStore().List()); !slices.Equal(got, []string{"ns/p1", "ns/p2"}) {
		t.Errorf("GetStore().List() = %v", got)
	}
	if got := anyNames(untypedIface.GetIndexer().List()); !slices.Equal(got, []string{"ns/p1", "ns/p2"}) {
		t.Errorf("GetIndexer().List() = %v", got)
	}
	if got, err := typedIface.GetTypedIndexer().ByTypedIndex(cache.NamespaceIndex, "ns"); err != nil || !slices.Equal(names(got), []string{"ns/p1", "ns/p2"}) {
		t.Errorf("GetTypedIndexer().ByTypedIndex(namespace, ns) = %v, %v", names(got), err)
	}
	if got := untypedIface.LastSyncResourceVersion(); got != "1" {
		t.Errorf("LastSyncResourceVersion() = %q, want 1", got)
	}

	if untypedIface.IsStopped() {
		t.Error("IsStopped while running")
	}
	close(stopCh)
	receive(t, stopped, "Run(stopCh) to return once stopCh is closed")
	if !untypedIface.IsStopped() {
		t.Error("IsStopped is false after Run returned")
	}
}

// Untyped handlers get what typed ones get, as client-go's informer hands it
// out: the very objects of the store (no copies), and for a delete the last
// state: the watch event's object for a watched delete, a
// cache.DeletedFinalStateUnknown{Key, Obj} with the last known object for one
// a relist inferred. Typed handlers get the same object in a
// cache.DeletedObject whose FinalStateUnknown is that tombstone. Waits for
// one relist backoff.
func TestUntypedAndTypedHandlersGetTheSameObjectsAndTombstones(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"), podAt("p2", "2"))
	inf := lw.informer(podInformerOptions{})
	typed, raw := newRecorder(nil), &rawRecorder{}
	register(t, inf, typed)
	reg := registerUntyped(t, inf, raw)
	runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)
	eventually(t, "the untyped handler has synced", reg.HasSynced)
	w.send(t, watch.Modified, podAt("p1", "3"))
	w.send(t, watch.Deleted, podAt("p2", "4"))
	typed.waitUntil(t, "delete ns/p2@4")
	stored, ok := inf.TypedStore().Get(ObjectName{Namespace: "ns", Name: "p1"})
	if !ok {
		t.Fatal("ns/p1 is not stored")
	}

	lw.setList("5") // p1 is gone: the relist infers its delete
	w.expire(t)
	lw.nextWatch(t).send(t, watch.Added, podAt("p9", "9"))
	typedCalls := typed.waitUntil(t, "add ns/p9@9")
	expectCalls(t, "typed handler", typedCalls,
		"add ns/p1@1 (initial)", "add ns/p2@2 (initial)", "update ns/p1@1 -> 3", "delete ns/p2@4",
		"delete ns/p1@3 (final state unknown)", "add ns/p9@9")
	eventually(t, "the untyped handler got every call", func() bool { return len(raw.recorded()) == len(typedCalls) })

	rawCalls := raw.recorded()
	for i, c := range typedCalls {
		r := rawCalls[i]
		var obj any = c.obj
		if c.kind == "delete" && c.flag {
			obj = cache.DeletedFinalStateUnknown{Key: c.key, Obj: c.obj}
		}
		method := map[string]string{"add": "add", "update": "update", "resync": "update", "delete": "delete"}[c.kind]
		if r.method != method || r.obj != obj || (c.kind == "add" && r.initial != c.flag) {
			t.Errorf("call %d: the untyped handler got %s(%#v, initial=%t); the typed one %q with %p", i, r.method, r.obj, r.initial, c, c.obj)
		}
		if c.kind == "update" && r.old != any(c.old) {
			t.Errorf("call %d: the untyped handler's old object %p is not the typed handler's %p", i, r.old, c.old)
		}
	}
	// The tombstone carries the object the store held, not a copy.
	if last := typedCalls[4]; last.obj != stored {
		t.Errorf("the inferred delete carries %p, not the stored object %p", last.obj, stored)
	}
}

// The typed handler's cache.DeletedObject for an inferred delete is what
// client-go's typed adapter builds from the tombstone: OptionalObj is the
// object, FinalStateUnknown points to a tombstone with its key and the same
// object; GetKey and GetObjectName answer from it.
func TestTypedHandlerDeletedObjectOfInferredDelete(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"))
	inf := lw.informer(podInformerOptions{})
	deletes := make(chan cache.DeletedObject[*corev1.Pod], 10)
	if _, err := inf.AddTypedEventHandler(cache.TypedResourceEventHandlerFuncs[*corev1.Pod]{
		DeleteFunc: func(obj cache.DeletedObject[*corev1.Pod]) { deletes <- obj },
	}); err != nil {
		t.Fatal(err)
	}
	runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)
	eventually(t, "the informer has synced", inf.HasSynced)
	stored, _ := inf.TypedStore().Get(ObjectName{Namespace: "ns", Name: "p1"})
	lw.setList("2")
	w.expire(t)
	d := receive(t, deletes, "the inferred delete")
	if d.OptionalObj != stored || d.FinalStateUnknown == nil {
		t.Fatalf("DeletedObject = %+v, want the stored object with a tombstone", d)
	}
	if want := (cache.DeletedFinalStateUnknown{Key: "ns/p1", Obj: stored}); *d.FinalStateUnknown != want {
		t.Errorf("FinalStateUnknown = %#v, want %#v", *d.FinalStateUnknown, want)
	}
	if d.GetKey() != "ns/p1" || d.GetObjectName() != (ObjectName{Namespace: "ns", Name: "p1"}) {
		t.Errorf("GetKey() = %q, GetObjectName() = %v", d.GetKey(), d.GetObjectName())
	}
}

// AddEventHandlerWithOptions and AddTypedEventHandler take client-go's
// HandlerOptions: ResyncPeriod nil means the informer's default, zero never,
// anything else that period (raised as AddEventHandlerWithResyncPeriod
// raises it); AddTypedEventHandler takes zero or one options, and two are an
// error, as client-go's typed informer says.
func TestHandlerOptionsResyncPeriod(t *testing.T) {
	inf := newScriptedLW("1").informer(podInformerOptions{ResyncPeriod: 10 * time.Second})
	period := func(d time.Duration) *time.Duration { return &d }
	for _, tc := range []struct {
		name string
		add  func() (cache.ResourceEventHandlerRegistration, error)
		want time.Duration
	}{
		{"AddEventHandlerWithOptions without ResyncPeriod", func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddEventHandlerWithOptions(newRecorder(nil).untyped(), cache.HandlerOptions{})
		}, 10 * time.Second},
		{"AddEventHandlerWithOptions with ResyncPeriod 0", func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddEventHandlerWithOptions(newRecorder(nil).untyped(), cache.HandlerOptions{ResyncPeriod: period(0)})
		}, 0},
		{"AddEventHandlerWithOptions with ResyncPeriod 20s", func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddEventHandlerWithOptions(newRecorder(nil).untyped(), cache.HandlerOptions{ResyncPeriod: period(20 * time.Second)})
		}, 20 * time.Second},
		{"AddEventHandler", func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddEventHandler(newRecorder(nil).untyped())
		}, 10 * time.Second},
		{"AddEventHandlerWithResyncPeriod 30s", func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddEventHandlerWithResyncPeriod(newRecorder(nil).untyped(), 30*time.Second)
		}, 30 * time.Second},
		{"AddTypedEventHandler without options", func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddTypedEventHandler(newRecorder(nil))
		}, 10 * time.Second},
		{"AddTypedEventHandler with empty options", func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddTypedEventHandler(newRecorder(nil), cache.HandlerOptions{})
		}, 10 * time.Second},
		{"AddTypedEventHandler with ResyncPeriod 0", func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddTypedEventHandler(newRecorder(nil), cache.HandlerOptions{ResyncPeriod: period(0)})
		}, 0},
		{"AddTypedEventHandler with ResyncPeriod 15s", func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddTypedEventHandler(newRecorder(nil), cache.HandlerOptions{ResyncPeriod: period(15 * time.Second)})
		}, 15 * time.Second},
	} {
		reg, err := tc.add()
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if l := listenerOf(t, reg); l.requestedResync != tc.want || l.resyncPeriod != tc.want {
			t.Errorf("%s: requested %v, period %v; want %v", tc.name, l.requestedResync, l.resyncPeriod, tc.want)
		}
	}

	// A period below 1s is raised to 1s and lowers the check period.
	reg, err := inf.AddEventHandlerWithOptions(newRecorder(nil).untyped(), cache.HandlerOptions{ResyncPeriod: period(time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	if l := listenerOf(t, reg); l.resyncPeriod != time.Second || inf.resyncCheckPeriod != time.Second {
		t.Errorf("ResyncPeriod 1ms: period %v, check period %v; want 1s and 1s", l.resyncPeriod, inf.resyncCheckPeriod)
	}

	two := []cache.HandlerOptions{{}, {ResyncPeriod: period(0)}}
	if reg, err := inf.AddTypedEventHandler(newRecorder(nil), two...); err == nil || reg != nil || !strings.Contains(err.Error(), "at most one HandlerOptions") {
		t.Errorf("AddTypedEventHandler with two options = %v, %v; want no registration and client-go's error", reg, err)
	}
	if got := len(inf.processor.listeners); got != 10 {
		t.Errorf("%d listeners registered, want 10 (the refused ones not among them)", got)
	}
	if _, err := inf.AddTypedEventHandler(nil); err == nil {
		t.Error("AddTypedEventHandler(nil): no error")
	}
	if _, err := inf.AddEventHandler(nil); err == nil {
		t.Error("AddEventHandler(nil): no error")
	}
}

// A handler registered with HandlerOptions.ResyncPeriod gets resyncs (the
// fake clock decides who is due, client-go's reflector checks on its real 1s
// timer), and one with ResyncPeriod 0 does not, whichever way each was
// added.
func TestHandlerOptionsResyncPeriodDrivesResyncs(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Now())
	lw := newScriptedLW("1", podAt("p1", "1"))
	inf := lw.informer(podInformerOptions{ResyncPeriod: time.Hour, Clock: clk})
	second, zero := time.Second, time.Duration(0)
	untypedDue, typedDue, untypedNever, typedNever := newRecorder(nil), newRecorder(nil), newRecorder(nil), newRecorder(nil)
	var regs []cache.ResourceEventHandlerRegistration
	for _, add := range []func() (cache.ResourceEventHandlerRegistration, error){
		func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddEventHandlerWithOptions(untypedDue.untyped(), cache.HandlerOptions{ResyncPeriod: &second})
		},
		func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddTypedEventHandler(typedDue, cache.HandlerOptions{ResyncPeriod: &second})
		},
		func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddEventHandlerWithOptions(untypedNever.untyped(), cache.HandlerOptions{ResyncPeriod: &zero})
		},
		func() (cache.ResourceEventHandlerRegistration, error) {
			return inf.AddTypedEventHandler(typedNever, cache.HandlerOptions{ResyncPeriod: &zero})
		},
	} {
		reg, err := add()
		if err != nil {
			t.Fatal(err)
		}
		regs = append(regs, reg)
	}
	runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)
	eventually(t, "every handler has synced", func() bool {
		return !slices.ContainsFunc(regs, func(r cache.ResourceEventHandlerRegistration) bool { return !r.HasSynced() })
	})
	clk.Step(time.Second)
	untypedDue.waitUntil(t, "resync ns/p1@1")
	typedDue.waitUntil(t, "resync ns/p1@1")
	w.send(t, watch.Added, podAt("p2", "2"))
	for who, r := range map[string]*recorder{"untyped, resync 0": untypedNever, "typed, resync 0": typedNever} {
		expectCalls(t, who, r.waitUntil(t, "add ns/p2@2"), "add ns/p1@1 (initial)", "add ns/p2@2")
	}
}

// HandlerOptions.Logger is the logger of that handler's panics; handlers
// without one log through the informer's (Run's context) logger.
func TestHandlerOptionsLogger(t *testing.T) {
	var informerLogs, handlerLogs logCapture
	handlerLogger := handlerLogs.logger()
	lw := newScriptedLW("1", podAt("p1", "1"))
	inf := lw.informer(podInformerOptions{})
	panicky := func(msg string) cache.ResourceEventHandler {
		return cache.ResourceEventHandlerFuncs{AddFunc: func(any) { panic(msg) }}
	}
	withLogger, err := inf.AddEventHandlerWithOptions(panicky("panic of the handler with a logger"), cache.HandlerOptions{Logger: &handlerLogger})
	if err != nil {
		t.Fatal(err)
	}
	typedWithLogger, err := inf.AddTypedEventHandler(cache.TypedResourceEventHandlerFuncs[*corev1.Pod]{
		AddFunc: func(*corev1.Pod) { panic("panic of the typed handler with a logger") },
	}, cache.HandlerOptions{Logger: &handlerLogger})
	if err != nil {
		t.Fatal(err)
	}
	without, err := inf.AddEventHandler(panicky("panic of the handler without a logger"))
	if err != nil {
		t.Fatal(err)
	}
	runInformer(t, klog.NewContext(context.Background(), informerLogs.logger()), inf)
	eventually(t, "every handler has synced", func() bool {
		return withLogger.HasSynced() && typedWithLogger.HasSynced() && without.HasSynced()
	})
	// A panic is counted, then logged.
	eventually(t, "three panics logged", func() bool {
		hl, il := handlerLogs.String(), informerLogs.String()
		return strings.Contains(hl, "panic of the handler with a logger") && strings.Contains(hl, "panic of the typed handler with a logger") &&
			strings.Contains(il, "panic of the handler without a logger")
	})
	if got := inf.HandlerPanics(); got != 3 {
		t.Errorf("HandlerPanics() = %d, want 3", got)
	}
	if hl := handlerLogs.String(); strings.Contains(hl, "without a logger") {
		t.Errorf("the handlers' logger got the panic of the handler without one:\n%s", hl)
	}
	if il := informerLogs.String(); strings.Contains(il, "with a logger") {
		t.Errorf("the informer's logger got the panic of a handler with its own:\n%s", il)
	}
}

// HasSyncedChecker of the informer and of a registration: their channels
// close once HasSynced holds, which cache.WaitFor waits for; a handler added
// after the informer synced gets a checker that closes only once the replay
// of the store has been delivered to it. GetController's checker is the
// informer's.
func TestHasSyncedCheckers(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"), podAt("p2", "2"))
	inf := lw.informer(podInformerOptions{Name: "checked"})
	early := newRecorder(nil)
	earlyReg := register(t, inf, early)
	checker, earlyChecker := inf.HasSyncedChecker(), earlyReg.HasSyncedChecker()
	if checker.Name() == "" || earlyChecker.Name() == "" {
		t.Errorf("checker names %q and %q; want names", checker.Name(), earlyChecker.Name())
	}
	if cache.IsDone(checker) || cache.IsDone(earlyChecker) || cache.IsDone(inf.GetController().HasSyncedChecker()) {
		t.Fatal("a checker is done before Run")
	}
	expired, cancel := context.WithCancel(context.Background())
	cancel()
	if cache.WaitFor(expired, "", checker) {
		t.Error("cache.WaitFor with an ended context reported an informer that never ran as synced")
	}

	runInformer(t, context.Background(), inf)
	ctx, cancelWait := context.WithTimeout(context.Background(), informerTestTimeout)
	defer cancelWait()
	if !cache.WaitFor(ctx, "", checker, earlyChecker, inf.GetController().HasSyncedChecker()) {
		t.Fatal("cache.WaitFor timed out on the informer's and the registration's checkers")
	}
	if !inf.HasSynced() || !earlyReg.HasSynced() || !inf.GetController().HasSynced() {
		t.Error("a checker is done but HasSynced is false")
	}
	if got := early.recorded(); len(got) != 2 {
		t.Errorf("the registration's checker is done with %d of 2 initial adds delivered", len(got))
	}

	g := newGate(t)
	late := newRecorder(g.hold)
	lateReg := register(t, inf, late)
	lateChecker := lateReg.HasSyncedChecker()
	g.waitEntered(t)
	select {
	case <-lateChecker.Done():
		t.Fatal("the late registration's checker is done while its replay is held")
	case <-time.After(50 * time.Millisecond):
	}
	if lateReg.HasSynced() {
		t.Error("the late registration has synced while its replay is held")
	}
	g.open()
	if !cache.WaitFor(ctx, "", lateChecker) {
		t.Fatal("cache.WaitFor timed out on the late registration's checker")
	}
	expectCalls(t, "late handler, when its checker is done", late.recorded(), anyOrder{"add ns/p1@1 (initial)", "add ns/p2@2 (initial)"})
	if !lateReg.HasSynced() {
		t.Error("the late registration's checker is done but HasSynced is false")
	}
}

// GetController returns a cache.Controller that reports the informer's state
// and whose Run methods return at once, as client-go's does.
func TestGetControllerReportsInformerState(t *testing.T) {
	lw := newScriptedLW("7", podAt("p1", "1"))
	inf := lw.informer(podInformerOptions{})
	c := inf.GetController()
	if c.HasSynced() || c.LastSyncResourceVersion() != "" {
		t.Errorf("before Run: HasSynced %t, LastSyncResourceVersion %q", c.HasSynced(), c.LastSyncResourceVersion())
	}
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		c.Run(make(chan struct{}))
		c.RunWithContext(context.Background())
	}()
	receive(t, returned, "the controller's Run and RunWithContext to return")
	if inf.IsStopped() || inf.HasSynced() {
		t.Error("the controller's Run changed the informer")
	}
	runInformer(t, context.Background(), inf)
	lw.nextWatch(t)
	eventually(t, "the controller reports synced", c.HasSynced)
	if got := c.LastSyncResourceVersion(); got != "7" || got != inf.LastSyncResourceVersion() {
		t.Errorf("LastSyncResourceVersion() = %q, informer %q; want 7", got, inf.LastSyncResourceVersion())
	}
}

// SetWatchErrorHandler takes client-go's func(*cache.Reflector, error): set
// before Run it gets the error of a failed list, with the reflector; after
// Run it cannot be set.
func TestSetWatchErrorHandlerWithReflector(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"))
	lw.failNextList(errors.New("scripted list failure"))
	inf := lw.informer(podInformerOptions{})
	type report struct {
		r   *cache.Reflector
		err error
	}
	reports := make(chan report, 10)
	if err := inf.SetWatchErrorHandler(func(r *cache.Reflector, err error) {
		select {
		case reports <- report{r, err}:
		default:
		}
	}); err != nil {
		t.Fatal(err)
	}
	runInformer(t, context.Background(), inf)
	got := receive(t, reports, "the watch error handler")
	if got.r == nil || got.err == nil || !strings.Contains(got.err.Error(), "scripted list failure") {
		t.Errorf("the watch error handler got %v, %v; want the reflector and the list error", got.r, got.err)
	}
	eventually(t, "the informer has synced after the retry", inf.HasSynced)
	if err := inf.SetWatchErrorHandler(func(*cache.Reflector, error) {}); err == nil {
		t.Error("SetWatchErrorHandler after Run succeeded")
	}
}

// SetTransform takes client-go's untyped cache.TransformFunc: it receives
// the typed objects and what it returns is stored and handed out. One that
// returns an error, nil, a nil pod or an object of another type fails for
// that object: the watch event is dropped (and the error reported), nothing
// panics, and the informer goes on.
func TestSetTransformUntyped(t *testing.T) {
	handled := captureHandledErrors(t)
	lw := newScriptedLW("1", podAt("p1", "1"))
	inf := lw.informer(podInformerOptions{})
	var seen sync.Map // types the transform received
	if err := inf.SetTransform(func(obj any) (any, error) {
		seen.Store(fmt.Sprintf("%T", obj), true)
		p, ok := obj.(*corev1.Pod)
		if !ok {
			return nil, fmt.Errorf("transform got a %T", obj)
		}
		switch p.Name {
		case "err":
			return nil, errors.New("scripted transform error")
		case "nil":
			return nil, nil
		case "nil-pod":
			return (*corev1.Pod)(nil), nil
		case "wrong-type":
			return &corev1.ConfigMap{ObjectMeta: p.ObjectMeta}, nil
		}
		return markTransformed(p)
	}); err != nil {
		t.Fatal(err)
	}
	h := newRecorder(nil)
	register(t, inf, h)
	running := runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)
	for i, name := range []string{"err", "nil", "nil-pod", "wrong-type", "p2"} {
		w.send(t, watch.Added, podAt(name, fmt.Sprint(i+2)))
	}
	calls := h.waitUntil(t, "add ns/p2@6")
	expectCalls(t, "handler", calls, "add ns/p1@1 (initial)", "add ns/p2@6")
	for _, c := range calls {
		if !isTransformed(c.obj) {
			t.Errorf("%q: the handler got an untransformed object", c)
		}
	}
	if got := anyNames(inf.GetIndexer().List()); !slices.Equal(got, []string{"ns/p1", "ns/p2"}) {
		t.Errorf("the store holds %v, want [ns/p1 ns/p2]", got)
	}
	if got := slices.Collect(func(yield func(string) bool) {
		seen.Range(func(k, _ any) bool { return yield(k.(string)) })
	}); !slices.Equal(got, []string{"*v1.Pod"}) {
		t.Errorf("the transform received %v, want only *v1.Pod", got)
	}
	running.stop(t)
	errs := handled()
	for _, want := range [][]string{
		{"scripted transform error"},
		{"nil", "not a *v1.Pod"},
		{"nil-pod", "not a *v1.Pod"},
		{"wrong-type", "*v1.ConfigMap"},
	} {
		if !containsMatch(errs, want...) {
			t.Errorf("no reported error mentions %q; reported:\n%s", want, strings.Join(errs, "\n"))
		}
	}
}

// AddIndexers takes client-go's cache.Indexers. An index function's error
// for an object is reported; the object is still stored and handed to the
// handlers, only not indexed under that index (client-go's store panics
// instead). cache.NamespaceIndex with cache.MetaNamespaceIndexFunc, as
// informer-gen's informers register it, is accepted and answered from the
// store's namespaces; a nil function is refused.
func TestAddIndexersWithClientGoIndexFuncs(t *testing.T) {
	handled := captureHandledErrors(t)
	lw := newScriptedLW("1", pod("ns", "good", "n1", nil), pod("ns", "bad", "n1", nil), pod("other", "good", "n2", nil))
	inf := lw.informer(podInformerOptions{})
	nodeOrError := func(obj any) ([]string, error) {
		p := obj.(*corev1.Pod)
		if strings.HasPrefix(p.Name, "bad") {
			return nil, errors.New("scripted index failure")
		}
		return byNode(p), nil
	}
	if err := inf.AddIndexers(cache.Indexers{"node": nodeOrError, cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}); err != nil {
		t.Fatalf("AddIndexers: %v", err)
	}
	if err := inf.AddIndexers(cache.Indexers{"nil": nil}); err == nil {
		t.Error("AddIndexers with a nil function succeeded")
	}
	h := newRecorder(nil)
	reg := register(t, inf, h)
	running := runInformer(t, context.Background(), inf)
	eventually(t, "the handler has synced", reg.HasSynced)
	w := lw.nextWatch(t)
	w.send(t, watch.Added, pod("ns", "bad2", "n1", nil))
	w.send(t, watch.Added, pod("ns", "bad", "n2", nil)) // an update of bad
	w.send(t, watch.Added, podAt("marker", "9"))
	h.waitUntil(t, "add ns/marker@9")

	idx := inf.GetIndexer()
	if got := anyNames(idx.List()); !slices.Equal(got, []string{"ns/bad", "ns/bad2", "ns/good", "ns/marker", "other/good"}) {
		t.Errorf("the store holds %v; the objects the index function failed for must be kept", got)
	}
	if item, ok, err := idx.GetByKey("ns/bad"); !ok || err != nil || item.(*corev1.Pod).Spec.NodeName != "n2" {
		t.Errorf("GetByKey(ns/bad) = %v, %v, %v; want the updated object", item, ok, err)
	}
	for value, want := range map[string][]string{"n1": {"ns/good"}, "n2": {"other/good"}} {
		got, err := idx.ByIndex("node", value)
		if err != nil || !slices.Equal(anyNames(got), want) {
			t.Errorf("ByIndex(node, %s) = %v, %v; want %v", value, anyNames(got), err, want)
		}
	}
	if got, err := idx.ByIndex(cache.NamespaceIndex, "ns"); err != nil || len(got) != 4 {
		t.Errorf("ByIndex(namespace, ns) = %v, %v; want the four pods of ns", anyNames(got), err)
	}
	if got := slices.Sorted(maps.Keys(idx.GetIndexers())); !slices.Equal(got, []string{"namespace", "node"}) {
		t.Errorf("GetIndexers() has %v, want [namespace node]", got)
	}

	// Over existing objects too.
	if err := inf.AddIndexers(cache.Indexers{"late": nodeOrError}); err != nil {
		t.Fatal(err)
	}
	if got, err := idx.ByIndex("late", "n2"); err != nil || !slices.Equal(anyNames(got), []string{"other/good"}) {
		t.Errorf("ByIndex(late, n2) = %v, %v; want [other/good]", anyNames(got), err)
	}
	running.stop(t)
	errs := handled()
	for _, want := range [][]string{
		{`"ns/bad"`, `"node"`, "scripted index failure"},
		{`"ns/bad2"`, `"node"`, "scripted index failure"},
		{`"ns/bad"`, `"late"`, "scripted index failure"},
	} {
		if !containsMatch(errs, want...) {
			t.Errorf("no reported error mentions %q; reported:\n%s", want, strings.Join(errs, "\n"))
		}
	}
}

// indexerOp is one call on a client-go indexer; it returns what the call
// returned, for comparison.
type indexerOp struct {
	name string
	call func(cache.Indexer) []any
}

// clientGoIndexerFor builds client-go's indexer as its shared informer does
// (DeletionHandlingMetaNamespaceKeyFunc, with NamespaceIndex) plus "node".
func clientGoIndexerFor() cache.Indexer {
	return cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{
		cache.NamespaceIndex: cache.MetaNamespaceIndexFunc,
		"node":               untyped(byNode),
	})
}

// normalize turns a result into something comparable across both indexers:
// lists of objects and strings are sorted, objects are named by key and
// pointer, errors are reduced to "error".
func normalize(v any) any {
	switch v := v.(type) {
	case error:
		if v == nil {
			return nil
		}
		return "error"
	case []any:
		out := make([]string, len(v))
		for i, obj := range v {
			out[i] = fmt.Sprint(normalize(obj))
		}
		slices.Sort(out)
		return fmt.Sprint(out)
	case []string:
		out := slices.Clone(v)
		slices.Sort(out)
		return fmt.Sprint(out)
	case []runtime.Object:
		out := make([]any, len(v))
		for i, obj := range v {
			out[i] = obj
		}
		return normalize(out)
	case *corev1.Pod:
		if v == nil {
			return "(*v1.Pod)(nil)"
		}
		return fmt.Sprintf("%s@%s(%p)", KeyOf(v), v.ResourceVersion, v)
	case cache.Indexers:
		return fmt.Sprint(slices.Sorted(maps.Keys(v)))
	}
	return v
}

// GetIndexer is a complete cache.Indexer: the same calls on it and on
// client-go's informer indexer give the same answers, with the objects of
// the store (not copies). The view's own rules: writes of anything but a
// *corev1.Pod are refused with an error (client-go's stores whatever has
// metadata), and cache.NamespaceIndex is answered without being registered.
func TestGetIndexerAnswersAsClientGoIndexer(t *testing.T) {
	inf := newScriptedLW("1").informer(podInformerOptions{})
	if err := inf.AddIndexers(cache.Indexers{"node": untyped(byNode)}); err != nil {
		t.Fatal(err)
	}
	ours, ref := inf.GetIndexer(), clientGoIndexerFor()
	withRV := func(p *corev1.Pod, rv string) *corev1.Pod { p.ResourceVersion = rv; return p }
	a1 := withRV(pod("a", "p1", "n1", nil), "10")
	a1b := withRV(pod("a", "p1", "n2", nil), "11")
	a2 := withRV(pod("a", "p2", "n1", nil), "12")
	b1 := withRV(pod("b", "p1", "n1", nil), "13")
	cluster := withRV(pod("", "c1", "n3", nil), "14")
	gone := withRV(pod("a", "p2", "", nil), "15")

	reads := []indexerOp{
		{"List", func(i cache.Indexer) []any { return []any{i.List()} }},
		{"ListKeys", func(i cache.Indexer) []any { return []any{i.ListKeys()} }},
		{"LastStoreSyncResourceVersion", func(i cache.Indexer) []any { return []any{i.LastStoreSyncResourceVersion()} }},
		{"GetIndexers", func(i cache.Indexer) []any { return []any{i.GetIndexers()} }},
		{"Get(a/p1)", func(i cache.Indexer) []any {
			item, ok, err := i.Get(pod("a", "p1", "", nil))
			return []any{item, ok, err}
		}},
		{"Get(tombstone a/p2)", func(i cache.Indexer) []any {
			item, ok, err := i.Get(cache.DeletedFinalStateUnknown{Key: "a/p2"})
			return []any{item, ok, err}
		}},
		{"GetByKey(a/p1)", func(i cache.Indexer) []any { item, ok, err := i.GetByKey("a/p1"); return []any{item, ok, err} }},
		{"GetByKey(c1)", func(i cache.Indexer) []any { item, ok, err := i.GetByKey("c1"); return []any{item, ok, err} }},
		{"GetByKey(z/absent)", func(i cache.Indexer) []any { item, ok, err := i.GetByKey("z/absent"); return []any{item, ok, err} }},
		{"Index(node, a/p1)", func(i cache.Indexer) []any { objs, err := i.Index("node", a1); return []any{objs, err} }},
		{"Index(namespace, a pod of a)", func(i cache.Indexer) []any {
			objs, err := i.Index(cache.NamespaceIndex, pod("a", "x", "", nil))
			return []any{objs, err}
		}},
		{"Index(unknown)", func(i cache.Indexer) []any { _, err := i.Index("unknown", a1); return []any{err} }},
		{"IndexKeys(node, n1)", func(i cache.Indexer) []any { keys, err := i.IndexKeys("node", "n1"); return []any{keys, err} }},
		{"IndexKeys(namespace, a)", func(i cache.Indexer) []any {
			keys, err := i.IndexKeys(cache.NamespaceIndex, "a")
			return []any{keys, err}
		}},
		{"IndexKeys(unknown)", func(i cache.Indexer) []any { _, err := i.IndexKeys("unknown", "x"); return []any{err} }},
		{"ByIndex(node, n1)", func(i cache.Indexer) []any { objs, err := i.ByIndex("node", "n1"); return []any{objs, err} }},
		{"ByIndex(node, absent)", func(i cache.Indexer) []any { objs, err := i.ByIndex("node", "absent"); return []any{len(objs), err} }},
		{"ByIndex(namespace, a)", func(i cache.Indexer) []any {
			objs, err := i.ByIndex(cache.NamespaceIndex, "a")
			return []any{objs, err}
		}},
		{"ByIndex(namespace, \"\")", func(i cache.Indexer) []any {
			objs, err := i.ByIndex(cache.NamespaceIndex, "")
			return []any{objs, err}
		}},
		{"ByIndex(unknown)", func(i cache.Indexer) []any { _, err := i.ByIndex("unknown", "x"); return []any{err} }},
		{"ListIndexFuncValues(node)", func(i cache.Indexer) []any { return []any{i.ListIndexFuncValues("node")} }},
		{"ListIndexFuncValues(namespace)", func(i cache.Indexer) []any { return []any{i.ListIndexFuncValues(cache.NamespaceIndex)} }},
		{"ListIndexFuncValues(unknown)", func(i cache.Indexer) []any { return []any{len(i.ListIndexFuncValues("unknown"))} }},
	}
	compareReads := func(after string) {
		t.Helper()
		for _, op := range reads {
			got, want := op.call(ours), op.call(ref)
			for i := range want {
				if g, w := normalize(got[i]), normalize(want[i]); fmt.Sprint(g) != fmt.Sprint(w) {
					t.Errorf("after %s: %s result %d = %v, client-go %v", after, op.name, i, g, w)
				}
			}
		}
		// An absent object is an untyped nil, as client-go's.
		if item, _, _ := ours.GetByKey("z/absent"); item != nil {
			t.Errorf("after %s: GetByKey of an absent key returns %#v, not an untyped nil", after, item)
		}
		if item, _, _ := ours.Get(pod("z", "absent", "", nil)); item != nil {
			t.Errorf("after %s: Get of an absent object returns %#v, not an untyped nil", after, item)
		}
	}

	compareReads("nothing")
	for _, step := range []struct {
		name string
		do   func(cache.Indexer) error
	}{
		{"Add(a/p1)", func(i cache.Indexer) error { return i.Add(a1) }},
		{"Add(a/p2)", func(i cache.Indexer) error { return i.Add(a2) }},
		{"Update(b/p1), a new key", func(i cache.Indexer) error { return i.Update(b1) }},
		{"Add(c1), cluster-scoped", func(i cache.Indexer) error { return i.Add(cluster) }},
		{"Update(a/p1) to another node", func(i cache.Indexer) error { return i.Update(a1b) }},
		{"Bookmark(20)", func(i cache.Indexer) error { i.Bookmark("20"); return nil }},
		{"Delete(a/p2) with its last state", func(i cache.Indexer) error { return i.Delete(gone) }},
		{"Delete(b/p1) with a tombstone", func(i cache.Indexer) error {
			return i.Delete(cache.DeletedFinalStateUnknown{Key: "b/p1", Obj: b1})
		}},
		{"Delete of an absent key", func(i cache.Indexer) error { return i.Delete(pod("z", "absent", "", nil)) }},
		{"Resync", func(i cache.Indexer) error { return i.Resync() }},
		{"Replace", func(i cache.Indexer) error { return i.Replace([]any{a2, b1, cluster, a1}, "42") }},
		{"Replace with nothing", func(i cache.Indexer) error { return i.Replace(nil, "43") }},
		{"Replace again", func(i cache.Indexer) error { return i.Replace([]any{a1b, b1}, "44") }},
	} {
		errOurs, errRef := step.do(ours), step.do(ref)
		if (errOurs == nil) != (errRef == nil) {
			t.Errorf("%s: error %v, client-go %v", step.name, errOurs, errRef)
		}
		compareReads(step.name)
	}

	// Writes of anything but a pod are refused and change nothing.
	before := normalize(ours.List())
	for name, bad := range map[string]any{
		"a ConfigMap": &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "cm"}},
		"nil":         nil,
		"a nil pod":   (*corev1.Pod)(nil),
		"a Pod value": *a2,
	} {
		if err := ours.Add(bad); err == nil {
			t.Errorf("Add(%s) succeeded", name)
		}
		if err := ours.Update(bad); err == nil {
			t.Errorf("Update(%s) succeeded", name)
		}
		if err := ours.Replace([]any{a2, bad}, "99"); err == nil {
			t.Errorf("Replace with %s succeeded", name)
		}
	}
	if after := normalize(ours.List()); after != before {
		t.Errorf("refused writes changed the store: %v, was %v", after, before)
	}
	if got := ours.LastStoreSyncResourceVersion(); got != "44" {
		t.Errorf("refused writes changed LastStoreSyncResourceVersion to %q", got)
	}
	if _, err := ours.Index("node", &corev1.ConfigMap{}); err == nil {
		t.Error("Index with a ConfigMap: no error")
	}

	// GetIndexers' functions index as the registered ones do, also on
	// objects that are not stored.
	fns := ours.GetIndexers()
	for _, p := range []*corev1.Pod{a1, a1b, pod("x", "y", "", nil)} {
		for _, name := range []string{"node", cache.NamespaceIndex} {
			got, err := fns[name](p)
			want, _ := ref.GetIndexers()[name](p)
			if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("GetIndexers()[%q](%s) = %v, %v; client-go %v", name, KeyOf(p), got, err, want)
			}
		}
	}
	if _, err := fns["node"](&corev1.ConfigMap{}); err == nil {
		t.Error("GetIndexers()[node](a ConfigMap): no error")
	}
}

// client-go's listers ask the namespace index with a *metav1.ObjectMeta that
// carries only the namespace (cache.ListAllByNamespace): the view must answer
// that as client-go's indexer does, or every namespaced List of a client-go
// lister over GetIndexer falls back to a full scan and logs a warning.
func TestGetIndexerNamespaceIndexTakesObjectMeta(t *testing.T) {
	inf := newScriptedLW("1").informer(podInformerOptions{})
	ours, ref := inf.GetIndexer(), clientGoIndexerFor()
	for _, p := range []*corev1.Pod{pod("a", "p1", "", nil), pod("a", "p2", "", nil), pod("b", "p1", "", nil)} {
		if err := ours.Add(p); err != nil {
			t.Fatal(err)
		}
		if err := ref.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	probe := &metav1.ObjectMeta{Namespace: "a"}
	want, err := ref.Index(cache.NamespaceIndex, probe)
	if err != nil {
		t.Fatalf("client-go: %v", err)
	}
	got, err := ours.Index(cache.NamespaceIndex, probe)
	if err != nil || normalize(got) != normalize(want) {
		t.Errorf("Index(namespace, &ObjectMeta{Namespace: a}) = %v, %v; client-go %v", normalize(got), err, normalize(want))
	}
}

// Deleting and getting by a cache.ExplicitKey works on client-go's informer
// indexer (its key function, DeletionHandlingMetaNamespaceKeyFunc, takes
// one); the view takes it too.
func TestGetIndexerTakesExplicitKeys(t *testing.T) {
	inf := newScriptedLW("1").informer(podInformerOptions{})
	ours, ref := inf.GetIndexer(), clientGoIndexerFor()
	for _, i := range []cache.Indexer{ours, ref} {
		for _, p := range []*corev1.Pod{pod("a", "p1", "", nil), pod("a", "p2", "", nil)} {
			if err := i.Add(p); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, i := range []struct {
		name    string
		indexer cache.Indexer
	}{{"client-go", ref}, {"ours", ours}} {
		item, ok, err := i.indexer.Get(cache.ExplicitKey("a/p1"))
		if err != nil || !ok || KeyOf(item.(*corev1.Pod)).String() != "a/p1" {
			t.Errorf("%s: Get(ExplicitKey(a/p1)) = %v, %v, %v", i.name, item, ok, err)
		}
		if err := i.indexer.Delete(cache.ExplicitKey("a/p1")); err != nil {
			t.Errorf("%s: Delete(ExplicitKey(a/p1)): %v", i.name, err)
		}
		if got := i.indexer.ListKeys(); !slices.Equal(got, []string{"a/p2"}) {
			t.Errorf("%s: after Delete(ExplicitKey(a/p1)) the store holds %v", i.name, got)
		}
	}
}

// client-go's listers work over GetIndexer: cache.NewGenericLister and the
// generated pod lister (k8s.io/client-go/listers/core/v1) answer List,
// namespaced List and Get as they do over client-go's own indexer, with the
// stored objects.
func TestClientGoListersOverGetIndexer(t *testing.T) {
	inf := newScriptedLW("1").informer(podInformerOptions{})
	ours, ref := inf.GetIndexer(), clientGoIndexerFor()
	for _, p := range []*corev1.Pod{
		pod("a", "p1", "n1", nil, "app", "web"),
		pod("a", "p2", "n1", nil, "app", "db"),
		pod("b", "p1", "n2", nil, "app", "web"),
		pod("", "c1", "", nil, "app", "web"),
	} {
		if err := ours.Add(p); err != nil {
			t.Fatal(err)
		}
		if err := ref.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	gr := schema.GroupResource{Resource: "pods"}
	web := labels.SelectorFromSet(labels.Set{"app": "web"})
	type result struct {
		objs any
		err  string
	}
	answer := func(objs any, err error) result {
		r := result{objs: normalize(objs)}
		if err != nil {
			r.err = err.Error()
		}
		return r
	}
	podsOf := func(pods []*corev1.Pod) []any {
		out := make([]any, len(pods))
		for i, p := range pods {
			out[i] = p
		}
		return out
	}
	for name, ask := range map[string]func(cache.Indexer) result{
		"GenericLister.List(app=web)": func(i cache.Indexer) result {
			return answer(cache.NewGenericLister(i, gr).List(web))
		},
		"GenericLister.List(everything)": func(i cache.Indexer) result {
			return answer(cache.NewGenericLister(i, gr).List(labels.Everything()))
		},
		"GenericLister.ByNamespace(a).List(everything)": func(i cache.Indexer) result {
			return answer(cache.NewGenericLister(i, gr).ByNamespace("a").List(labels.Everything()))
		},
		"GenericLister.ByNamespace(a).List(app=web)": func(i cache.Indexer) result {
			return answer(cache.NewGenericLister(i, gr).ByNamespace("a").List(web))
		},
		"GenericLister.ByNamespace(z).List(everything)": func(i cache.Indexer) result {
			objs, err := cache.NewGenericLister(i, gr).ByNamespace("z").List(labels.Everything())
			return answer(len(objs), err)
		},
		"GenericLister.ByNamespace(b).Get(p1)": func(i cache.Indexer) result {
			obj, err := cache.NewGenericLister(i, gr).ByNamespace("b").Get("p1")
			return answer([]any{obj}, err)
		},
		"GenericLister.ByNamespace(b).Get(p2)": func(i cache.Indexer) result {
			_, err := cache.NewGenericLister(i, gr).ByNamespace("b").Get("p2")
			return answer(nil, err)
		},
		"GenericLister.Get(c1)": func(i cache.Indexer) result {
			obj, err := cache.NewGenericLister(i, gr).Get("c1")
			return answer([]any{obj}, err)
		},
		"GenericLister.Get(p1)": func(i cache.Indexer) result {
			_, err := cache.NewGenericLister(i, gr).Get("p1")
			return answer(nil, err)
		},
		"PodLister.List(app=web)": func(i cache.Indexer) result {
			pods, err := corev1listers.NewPodLister(i).List(web)
			return answer(podsOf(pods), err)
		},
		"PodLister.Pods(a).List(app=web)": func(i cache.Indexer) result {
			pods, err := corev1listers.NewPodLister(i).Pods("a").List(web)
			return answer(podsOf(pods), err)
		},
		"PodLister.Pods(a).Get(p2)": func(i cache.Indexer) result {
			p, err := corev1listers.NewPodLister(i).Pods("a").Get("p2")
			return answer([]any{p}, err)
		},
		"PodLister.Pods(a).Get(absent)": func(i cache.Indexer) result {
			_, err := corev1listers.NewPodLister(i).Pods("a").Get("absent")
			return answer(nil, err)
		},
	} {
		if got, want := ask(ours), ask(ref); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s = %v; over client-go's indexer %v", name, got, want)
		}
	}
	if _, err := cache.NewGenericLister(ours, gr).ByNamespace("b").Get("p2"); !apierrors.IsNotFound(err) {
		t.Errorf("GenericLister Get of an absent pod: %v, want NotFound", err)
	}
}

// StoreOf finds the typed store behind every client-go view of it, and
// nothing behind client-go's own indexer or behind a view of another type.
func TestStoreOf(t *testing.T) {
	inf := newScriptedLW("1").informer(podInformerOptions{})
	for name, view := range map[string]cache.Store{
		"GetIndexer":      inf.GetIndexer(),
		"GetStore":        inf.GetStore(),
		"GetTypedIndexer": inf.GetTypedIndexer(),
		"AsIndexer":       inf.TypedStore().AsIndexer(),
	} {
		if got, ok := store.StoreOf[*corev1.Pod](view); !ok || got != inf.TypedStore() {
			t.Errorf("StoreOf(%s) = %p, %t; want the informer's store %p", name, got, ok, inf.TypedStore())
		}
	}
	if got, ok := store.StoreOf[*corev1.Pod](clientGoIndexerFor()); ok || got != nil {
		t.Errorf("StoreOf(client-go's indexer) = %p, %t", got, ok)
	}
	if got, ok := store.StoreOf[*corev1.ConfigMap](inf.GetIndexer()); ok || got != nil {
		t.Errorf("StoreOf[*ConfigMap](a pod view) = %p, %t", got, ok)
	}
	p := pod("a", "p1", "", nil)
	if err := inf.TypedStore().AsIndexer().Add(p); err != nil {
		t.Fatal(err)
	}
	if got, ok := inf.TypedStore().Get(KeyOf(p)); !ok || got != p {
		t.Error("a write through AsIndexer did not reach the store")
	}
	if item, ok, _ := inf.GetIndexer().GetByKey("a/p1"); !ok || item != any(p) {
		t.Error("GetIndexer does not see a write through AsIndexer")
	}
}

// clientGoInformerOver returns client-go's shared informer over lw, with the
// same indexes as clientGoIndexerFor.
func clientGoInformerOver(lw *scriptedLW) cache.SharedIndexInformer {
	return cache.NewSharedIndexInformer(cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return lw.list(ctx, opts)
		},
		WatchFuncWithContext: lw.watch,
	}, lw), &corev1.Pod{}, 0, cache.Indexers{"node": untyped(byNode)})
}

// The informer's GetIndexer().LastStoreSyncResourceVersion follows the watch
// events the informer has processed, as client-go's does; unlike client-go's,
// it records neither the list's resourceVersion nor a bookmark's (a
// documented difference): it stays at the last processed object's.
func TestInformerIndexerResourceVersionFollowsWatchEvents(t *testing.T) {
	script := func() *scriptedLW { return newScriptedLW("5", podAt("p1", "1"), podAt("p2", "2")) }
	oursLW, refLW := script(), script()
	ours, ref := oursLW.informer(podInformerOptions{}), clientGoInformerOver(refLW)
	runInformer(t, context.Background(), ours)
	refCtx, refCancel := context.WithCancel(context.Background())
	refDone := make(chan struct{})
	go func() {
		defer close(refDone)
		ref.RunWithContext(refCtx)
	}()
	t.Cleanup(func() {
		refCancel()
		receive(t, refDone, "client-go's informer to stop")
	})
	oursW, refW := oursLW.nextWatch(t), refLW.nextWatch(t)
	eventually(t, "both informers have synced", func() bool { return ours.HasSynced() && ref.HasSynced() })

	ourRV := func(want string) {
		t.Helper()
		eventually(t, "our store at "+want, func() bool { return ours.GetIndexer().LastStoreSyncResourceVersion() == want })
	}
	refRV := func(want string) {
		t.Helper()
		eventually(t, "client-go's store at "+want, func() bool { return ref.GetIndexer().LastStoreSyncResourceVersion() == want })
	}
	refRV("5")

	for _, w := range []*scriptedWatch{oursW, refW} {
		w.send(t, watch.Added, podAt("p3", "6"))
	}
	refRV("6")
	ourRV("6")

	for _, w := range []*scriptedWatch{oursW, refW} {
		w.send(t, watch.Modified, podAt("p1", "7"))
	}
	refRV("7")
	ourRV("7")

	for _, w := range []*scriptedWatch{oursW, refW} {
		w.send(t, watch.Bookmark, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "8"}})
	}
	refRV("8")
	for _, w := range []*scriptedWatch{oursW, refW} {
		w.send(t, watch.Deleted, podAt("p2", "9"))
	}
	refRV("9")
	ourRV("9")
}

// Another function registered as cache.NamespaceIndex replaces the built-in
// answer from the store's namespaces, in every lookup of the view.
func TestNamespaceIndexReplacedByAnotherFunction(t *testing.T) {
	inf := newScriptedLW("1").informer(podInformerOptions{})
	idx := inf.GetIndexer()
	for _, p := range []*corev1.Pod{
		pod("a", "p1", "", nil, "team", "red"),
		pod("a", "p2", "", nil, "team", "blue"),
		pod("b", "p1", "", nil, "team", "red"),
	} {
		if err := idx.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := idx.ByIndex(cache.NamespaceIndex, "a"); err != nil || !slices.Equal(anyNames(got), []string{"a/p1", "a/p2"}) {
		t.Fatalf("built in: ByIndex(namespace, a) = %v, %v", anyNames(got), err)
	}
	byTeam := func(obj any) ([]string, error) { return []string{obj.(*corev1.Pod).Labels["team"]}, nil }
	if err := inf.AddIndexers(cache.Indexers{cache.NamespaceIndex: byTeam}); err != nil {
		t.Fatal(err)
	}
	if got, err := idx.ByIndex(cache.NamespaceIndex, "red"); err != nil || !slices.Equal(anyNames(got), []string{"a/p1", "b/p1"}) {
		t.Errorf("ByIndex(namespace, red) = %v, %v; want [a/p1 b/p1]", anyNames(got), err)
	}
	if got, err := idx.ByIndex(cache.NamespaceIndex, "a"); err != nil || len(got) != 0 {
		t.Errorf("ByIndex(namespace, a) = %v, %v; want nothing", anyNames(got), err)
	}
	if got, err := idx.IndexKeys(cache.NamespaceIndex, "blue"); err != nil || !slices.Equal(got, []string{"a/p2"}) {
		t.Errorf("IndexKeys(namespace, blue) = %v, %v", got, err)
	}
	if got := idx.ListIndexFuncValues(cache.NamespaceIndex); !slices.Equal(got, []string{"blue", "red"}) {
		t.Errorf("ListIndexFuncValues(namespace) = %v, want [blue red]", got)
	}
	if got, err := idx.Index(cache.NamespaceIndex, pod("z", "x", "", nil, "team", "blue")); err != nil || !slices.Equal(anyNames(got), []string{"a/p2"}) {
		t.Errorf("Index(namespace, a blue pod) = %v, %v", anyNames(got), err)
	}
	if got, err := idx.GetIndexers()[cache.NamespaceIndex](pod("z", "x", "", nil, "team", "green")); err != nil || !slices.Equal(got, []string{"green"}) {
		t.Errorf("GetIndexers()[namespace] = %v, %v; want the registered function", got, err)
	}
	if err := inf.AddIndexers(cache.Indexers{cache.NamespaceIndex: byTeam}); err == nil {
		t.Error("a second function as cache.NamespaceIndex was accepted")
	}
}

// A panicking index function is reported like an index function's error: the
// object is stored and handed to the handlers, only not indexed under that
// index, and the informer carries on. client-go's informer dies of the panic
// unless utilruntime.ReallyCrash is false.
func TestIndexFunctionPanicIsReportedAndTheInformerCarriesOn(t *testing.T) {
	handled := captureHandledErrors(t)
	lw := newScriptedLW("1", pod("ns", "good", "n1", nil), pod("ns", "bad", "n1", nil))
	inf := lw.informer(podInformerOptions{Indexers: Indexers[*corev1.Pod]{
		"node": func(p *corev1.Pod) []string {
			if strings.HasPrefix(p.Name, "bad") {
				panic("scripted index panic")
			}
			return byNode(p)
		},
	}})
	h := newRecorder(nil)
	reg := register(t, inf, h)
	running := runInformer(t, context.Background(), inf)
	eventually(t, "the handler has synced", reg.HasSynced)
	w := lw.nextWatch(t)
	w.send(t, watch.Added, pod("ns", "bad2", "n1", nil))
	w.send(t, watch.Modified, pod("ns", "bad", "n2", nil))
	w.send(t, watch.Deleted, pod("ns", "bad2", "n1", nil))
	w.send(t, watch.Added, podAt("marker", "9"))
	h.waitUntil(t, "add ns/marker@9")

	store := inf.TypedStore()
	if got := names(store.List()); !slices.Equal(got, []string{"ns/bad", "ns/good", "ns/marker"}) {
		t.Errorf("the store holds %v, want [ns/bad ns/good ns/marker]", got)
	}
	if got, err := store.ByIndex("node", "n1"); err != nil || !slices.Equal(names(got), []string{"ns/good"}) {
		t.Errorf("ByIndex(node, n1) = %v, %v; want [ns/good]", names(got), err)
	}
	if got := store.ListIndexFuncValues("node"); !slices.Equal(got, []string{"n1"}) {
		t.Errorf("ListIndexFuncValues(node) = %v, want [n1]", got)
	}
	running.stop(t)
	errs := handled()
	for _, want := range [][]string{{`"node"`, "ns/bad", "scripted index panic"}, {`"node"`, "ns/bad2", "scripted index panic"}} {
		if !containsMatch(errs, want...) {
			t.Errorf("no reported error mentions %q; reported:\n%s", want, strings.Join(errs, "\n"))
		}
	}
}

// client-go's cache.ShutDownEventHandler works on the informer's
// registrations: it removes the handler and returns once the handler is not
// running and will not be called again, at once for a handler that never
// ran.
func TestShutDownEventHandler(t *testing.T) {
	lw := newScriptedLW("1", podAt("a", "1"))
	inf := lw.informer(podInformerOptions{})
	idle, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{})
	if err != nil {
		t.Fatal(err)
	}
	if err := cache.ShutDownEventHandler(inf, idle); err != nil {
		t.Fatalf("ShutDownEventHandler of a handler that never ran: %v", err)
	}

	entered, release := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	reg, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(any) {
		if calls.Add(1) == 1 {
			close(entered)
			<-release
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	running := runInformer(t, context.Background(), inf)
	defer running.stop(t)
	receive(t, entered, "the handler to be called")
	shutDown := make(chan error, 1)
	go func() { shutDown <- cache.ShutDownEventHandler(inf, reg) }()
	select {
	case err := <-shutDown:
		t.Fatalf("ShutDownEventHandler returned (%v) while the handler was still running", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if err := receive(t, shutDown, "ShutDownEventHandler to return"); err != nil {
		t.Fatalf("ShutDownEventHandler: %v", err)
	}
	w := lw.nextWatch(t)
	w.send(t, watch.Added, podAt("b", "2"))
	if n := calls.Load(); n != 1 {
		t.Errorf("the handler was called %d times, want 1: nothing after its shutdown", n)
	}
}
