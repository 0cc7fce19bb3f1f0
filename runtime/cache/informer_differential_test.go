package cache

// Differential test of SharedIndexInformer against client-go's
// cache.NewSharedIndexInformer (0.37 defaults: atomic RealFIFO, batched
// processing).
//
// Per seed, a script of list results and watch events is generated and served
// to both informers by scripted fake list/watchers that share one "server"
// state (infdWorld). Both informers run at the same time; the driver pushes the
// events of each step into both informers' current watchers and (except in
// "burst" steps, see below) waits until both informers have processed them
// before the next step: it sends a barrier object through both watches and
// waits for every handler of both to receive it (infdRun.barrier). At the end it
// compares (every watch the driver is handed must also come from the request
// it expects next)
//
//   - per key, the ordered sequence of handler calls with their flags
//     (isInInitialList for adds, finalStateUnknown for deletes; client-go's
//     cache.DeletedFinalStateUnknown is unwrapped) and the objects they carry
//     (resourceVersion and spec.nodeName; for updates old and new). Calls for
//     different keys may interleave differently and are not compared. Each
//     informer has three handlers, each compared with its twin on the other
//     informer: the main one, which sees isInInitialList (typed,
//     cache.TypedResourceEventHandlerDetailedFuncs, on ours; untyped,
//     cache.ResourceEventHandlerDetailedFuncs, on client-go's), an untyped
//     cache.ResourceEventHandlerFuncs on both, and a typed
//     cache.TypedResourceEventHandlerFuncs[*corev1.Pod] on both (on
//     client-go's through cache.NewTypedSharedIndexInformer). A delete with a
//     tombstone must come as client-go hands it out: to untyped handlers a
//     cache.DeletedFinalStateUnknown whose key is its object's, to typed ones
//     a cache.DeletedObject whose FinalStateUnknown holds the same object and
//     key; anything else is recorded as a bad call, which matches nothing;
//   - the final store (same keys, same resourceVersion and node per key) and
//     the contents of a "node" index (spec.nodeName);
//   - the list and watch requests each informer made (resourceVersions);
//   - LastSyncResourceVersion, and HasSynced and HasSyncedChecker of the
//     informer and of every registration.
//
// Every comparison is ours against client-go; the model (infdModel) is also
// checked against client-go so that a wrong expectation of the test itself
// shows as such. Waiting never depends on the model.
//
// Scenarios in every seed: an initial list (a stream in watch-list seeds, see
// below); adds, updates (half of them move the pod to another node) and
// deletes through the watch, resourceVersion strictly increasing; one to
// three watches closed mid-stream (the reflector re-watches from the last RV
// without listing); one (sometimes two) relists that miss deleted objects,
// triggered either by a watch.Error event carrying a 410 Expired Status or by
// closing the watch and failing the next Watch call with 410. Before the
// relist the server deletes, changes, re-creates and adds objects that no
// watch event reports, so the new list omits some objects and changes others;
// sometimes the relist's first LIST fails with 410 too. More events follow
// the relist.
//
// Watch-list seeds (one in three, seed%3 == 2; in infd_watchlist_test.go):
// both informers get a client that does not opt out of watch-list streaming,
// with client-go's WatchListClient feature on, so both sync, first and on
// every relist, through a watch-list stream instead of a LIST (#watch-list):
// a WATCH with sendInitialEvents=true, resourceVersionMatch=NotOlderThan and
// bookmarks, logged as "watch-list rv=X", at "" first and at the last RV on a
// relist. The driver answers it with an ADDED event for every object of the
// world, in a random order, after about one in four of them a change made
// while the stream is sent (a MODIFIED or DELETED of an object already sent,
// the ADDED of an object created meanwhile, or a bookmark that does not end
// the initial events), then the bookmark annotated
// k8s.io/initial-events-end: "true" at the world's resourceVersion; the same
// stream then carries the script's watch events. Half of these syncs go wrong
// once first: the stream is cut short before its bookmark (after at least one
// event, else the reflector would take it for a failed watch and LIST), and
// the reflector streams again from the same RV; or the stream carries a
// watch.Error 410 Expired, or the watch-list request itself fails with 410,
// and the reflector streams again at once from "". What a cut or failed
// stream brought must be forgotten: before the next stream the world changes
// without any event. Ours collects the initial events itself
// (watchlist.go), client-go in a temporary store; the model takes a sync as a
// list of the objects the stream leaves, in the order of their first arrival
// (the order ours queues them), so every comparison above, the model's
// included, holds for these seeds too, as do the start modes and burst steps
// below. The other seeds opt out of streaming (infdNoWatchListClient);
// picking the watch-list seeds draws no random number, so the other seeds'
// scripts do not depend on it.
//
// Client-go behaviours pinned here, by their anchors in
// docs/clientgo-semantics.md:
//
//   - #relist-order: a relist delivers tombstone deletes for objects missing
//     from the list and updates or adds for the listed ones (per key; the
//     cross-key order differs by design and is not compared).
//   - #add-or-update: add or update is decided by presence in the store:
//     scripts send ADDED for cached keys (OnUpdate) and MODIFIED for uncached
//     ones (OnAdd).
//   - #same-rv-is-resync: an object a relist returns unchanged (same
//     resourceVersion) gives an update counted as a resync. With resync 0,
//     client-go 0.37.2 delivers it to every handler, as OnUpdate(old, new) with
//     equal resourceVersions, because listeners start out marked as syncing and
//     only the resync timer (absent with resync 0) clears the mark (see
//     infdModel.list). Handlers with resync 0 are skipped only once a resync
//     check has run. Ours must do the same.
//   - #delete-notification: deletes carry the last state: the watch event's
//     object for a seen delete, the stored object with finalStateUnknown for an
//     inferred one.
//   - #initial-list-flag: isInInitialList is true for the objects of the first
//     list only: false for objects a later relist adds, and false for an object
//     a watch event adds while the initial list is still being processed
//     (client-go's RealFIFO processes the whole first list before any later
//     event). The "hold" start (infdStartHold, one seed in five) makes the
//     latter deterministic: it blocks the consumer inside the first list,
//     queues events behind it, among them the delete and re-creation of a
//     listed object, then lets it go.
//   - #relist-resource-version, #watch-errors: a watch closed normally is
//     re-opened from the last RV with no LIST; a 410 during a watch (event or
//     Watch error) relists from the last RV, not from ""; a LIST failing with
//     410 is retried at once with RV "".
//   - #watch-list: a sync streams from "" first and from the last RV on a
//     relist; the stream stays open as the watch after its bookmark, whose
//     RV becomes LastSyncResourceVersion; a stream cut short is streamed again
//     from the same RV, one failing with 410 (in the stream or on the
//     request) at once from "", with no LIST.
//
// Documented differences the comparison allows, and nothing else:
//
//   - #delete-unknown-key: a watch DELETED event for a key the store does not
//     hold is dropped by our DeltaFIFO, while client-go's RealFIFO delivers
//     OnDelete for it. Scripts send such deletes (about 5% of events); the
//     model expects them from client-go only, and they are removed from
//     client-go's sequences (each exactly once, identified by its unique
//     resourceVersion) before the per-key comparison with ours. Failure
//     messages and script notes name the anchors.
//   - #delete-dedup: our DeltaFIFO lets a later delete replace a queued
//     tombstone of the same key. To keep that timing-dependent case out, the
//     driver always waits until a relist has been fully processed before the
//     next step.
//
// Burst steps (one in four, and the start of one seed in five) push their
// events without waiting for them to be processed, so our DeltaFIFO
// accumulates several deltas per key; client-go's per-key results do not
// depend on that timing, so ours must not either, and the comparison stays
// exact.
//
// INFORMER_DIFF_SEEDS sets the number of seeds (200 when unset); each seed is
// a subtest named seed=N, so one seed reruns with
// -run 'InformerDifferential/seed=N$'. Seeds run concurrently (a relist costs
// the reflector's ~0.8-1.6 s backoff, which cannot be injected). A failure
// prints the seed's script, the requests of both informers and, per key, the
// calls of the model, ours and client-go.

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

const (
	infdDefaultSeeds = 200
	// infdParallel seeds run at once: most of a seed's time is the
	// reflector's relist backoff, spent asleep.
	infdParallel = 32
	// infdTimeout bounds every wait; it covers two relist backoffs.
	infdTimeout = 30 * time.Second
	infdIndex   = "node"
)

var (
	infdNamespaces = []string{"ns-a", "ns-b"}
	infdNodes      = []string{"", "n1", "n2", "n3"}
)

func infdSeedCount(t *testing.T) int {
	s := os.Getenv("INFORMER_DIFF_SEEDS")
	if s == "" {
		return infdDefaultSeeds
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		t.Fatalf("INFORMER_DIFF_SEEDS=%q: want a non-negative integer", s)
	}
	return n
}

// infdUniverse is every key a script may use: 2 namespaces × 10 names.
func infdUniverse() []ObjectName {
	var keys []ObjectName
	for _, ns := range infdNamespaces {
		for i := range 10 {
			keys = append(keys, ObjectName{Namespace: ns, Name: fmt.Sprintf("p%02d", i)})
		}
	}
	return keys
}

func infdNode(p *corev1.Pod) []string {
	if p.Spec.NodeName == "" {
		return nil
	}
	return []string{p.Spec.NodeName}
}

// infdState describes the compared content of an object.
func infdState(p *corev1.Pod) string {
	if p == nil {
		return "<nil>"
	}
	node := p.Spec.NodeName
	if node == "" {
		node = "-"
	}
	return "rv=" + p.ResourceVersion + " node=" + node
}

func infdAddCall(p *corev1.Pod, initial bool) string {
	return fmt.Sprintf("add %s init=%t", infdState(p), initial)
}

func infdUpdateCall(old, new *corev1.Pod) string {
	return fmt.Sprintf("update %s -> %s", infdState(old), infdState(new))
}

// infdAddCallNoFlag is an add as a handler that does not see
// isInInitialList records it.
func infdAddCallNoFlag(p *corev1.Pod) string {
	return "add " + infdState(p)
}

// infdWithoutInitialFlag turns the calls of a handler that sees
// isInInitialList into those of one that does not.
func infdWithoutInitialFlag(calls map[ObjectName][]string) map[ObjectName][]string {
	out := make(map[ObjectName][]string, len(calls))
	for k, cs := range calls {
		for _, c := range cs {
			if strings.HasPrefix(c, "add ") {
				c = strings.TrimSuffix(strings.TrimSuffix(c, " init=true"), " init=false")
			}
			out[k] = append(out[k], c)
		}
	}
	return out
}

func infdDeleteCall(p *corev1.Pod, finalStateUnknown bool) string {
	return fmt.Sprintf("delete %s finalStateUnknown=%t", infdState(p), finalStateUnknown)
}

// infdNoWatchListClient opts out of watch-list streaming, so both reflectors
// LIST then WATCH (#watch-list).
type infdNoWatchListClient struct{}

func (infdNoWatchListClient) IsWatchListSemanticsUnSupported() bool { return true }

// infdClient is the client both informers' ListerWatchers are given: one that
// opts out of watch-list streaming, or, for a watch-list seed, none, so that
// both reflectors stream (client-go's WatchListClient feature is on).
func infdClient(watchList bool) any {
	if watchList {
		return nil
	}
	return infdNoWatchListClient{}
}

// infdWorld is the scripted server's state, shared by both informers'
// endpoints. The driver changes it only while no LIST can be in flight.
type infdWorld struct {
	mu    sync.Mutex
	objs  map[ObjectName]*corev1.Pod
	order []ObjectName // LIST order of the keys in objs
	rv    int
}

func (w *infdWorld) nextRV() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.rv++
	return strconv.Itoa(w.rv)
}

// list returns the current objects, deep-copied, in w.order (the keys
// w.order misses, when the world changed since shuffleOrder, last, sorted:
// only a LIST the driver does not expect sees that).
func (w *infdWorld) list() *corev1.PodList {
	w.mu.Lock()
	defer w.mu.Unlock()
	l := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: strconv.Itoa(w.rv)}}
	listed := map[ObjectName]bool{}
	for _, k := range w.order {
		if p, ok := w.objs[k]; ok {
			l.Items = append(l.Items, *p.DeepCopy())
			listed[k] = true
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(w.objs), infdCompareKeys) {
		if !listed[k] {
			l.Items = append(l.Items, *w.objs[k].DeepCopy())
		}
	}
	return l
}

// shuffleOrder sets a random LIST order.
func (w *infdWorld) shuffleOrder(rng *rand.Rand) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.order = slices.SortedFunc(maps.Keys(w.objs), infdCompareKeys)
	rng.Shuffle(len(w.order), func(i, j int) { w.order[i], w.order[j] = w.order[j], w.order[i] })
}

func (w *infdWorld) get(k ObjectName) (*corev1.Pod, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p, ok := w.objs[k]
	return p, ok
}

func (w *infdWorld) set(p *corev1.Pod) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.objs[KeyOf(p)] = p
}

func (w *infdWorld) remove(k ObjectName) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.objs, k)
}

func infdCompareKeys(a, b ObjectName) int {
	return strings.Compare(a.String(), b.String())
}

// infdEndpoint is one informer's connection to the scripted server: it logs
// every request, fails the next LISTs or WATCHes with 410 Expired when told
// to, and hands every watcher it creates to the driver.
type infdEndpoint struct {
	world *infdWorld

	mu          sync.Mutex
	requests    []string
	failLists   int
	failWatches int
	overflow    bool // a watcher did not fit into watchers

	watchers chan infdOpenedWatch
}

// infdOpenedWatch is a watch an endpoint opened and the request that opened
// it, as logged.
type infdOpenedWatch struct {
	w   *watch.RaceFreeFakeWatcher
	req string
}

func newInfdEndpoint(world *infdWorld) *infdEndpoint {
	return &infdEndpoint{world: world, watchers: make(chan infdOpenedWatch, 16)}
}

func (e *infdEndpoint) List(_ context.Context, opts metav1.ListOptions) (*corev1.PodList, error) {
	e.mu.Lock()
	e.requests = append(e.requests, "list rv="+opts.ResourceVersion)
	fail := e.failLists > 0
	if fail {
		e.failLists--
	}
	e.mu.Unlock()
	if fail {
		return nil, apierrors.NewResourceExpired("scripted: list resourceVersion too old")
	}
	return e.world.list(), nil
}

func (e *infdEndpoint) Watch(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	req := infdWatchRequest(opts)
	e.requests = append(e.requests, req)
	if e.failWatches > 0 {
		e.failWatches--
		return nil, apierrors.NewResourceExpired("scripted: watch resourceVersion too old")
	}
	w := watch.NewRaceFreeFake()
	select {
	case e.watchers <- infdOpenedWatch{w: w, req: req}:
	default:
		e.overflow = true
	}
	return w, nil
}

func (e *infdEndpoint) failNext(lists, watches int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.failLists += lists
	e.failWatches += watches
}

func (e *infdEndpoint) requestLog() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.requests)
}

// infdMarkerNamespace holds the barrier objects (see infdRun.barrier): it is
// outside the script's universe, and its objects are left out of every
// comparison.
const infdMarkerNamespace = "ns-z"

func infdIsMarker(k ObjectName) bool { return k.Namespace == infdMarkerNamespace }

// infdRecorder records the handler calls of one informer, per key, except
// those for barrier objects, of which it keeps the newest resourceVersion
// added.
type infdRecorder struct {
	mu       sync.Mutex
	calls    map[ObjectName][]string
	markerRV string
	changed  chan struct{} // closed and replaced when markerRV changes
}

func newInfdRecorder() *infdRecorder {
	return &infdRecorder{calls: map[ObjectName][]string{}, changed: make(chan struct{})}
}

// record records a call for key; p is the object it carries (the new one
// for updates).
func (r *infdRecorder) record(key ObjectName, call string, p *corev1.Pod) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if infdIsMarker(key) {
		if p != nil {
			r.markerRV = p.ResourceVersion
		}
		close(r.changed)
		r.changed = make(chan struct{})
		return
	}
	r.calls[key] = append(r.calls[key], call)
}

// waitMarker waits until the handler has received the marker at rv or the
// deadline passes, and returns the newest marker resourceVersion it got.
func (r *infdRecorder) waitMarker(rv string, deadline time.Time) string {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		r.mu.Lock()
		got, ch := r.markerRV, r.changed
		r.mu.Unlock()
		if got == rv {
			return got
		}
		select {
		case <-ch:
		case <-timer.C:
			return got
		}
	}
}

func (r *infdRecorder) snapshot() map[ObjectName][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[ObjectName][]string, len(r.calls))
	for k, v := range r.calls {
		out[k] = slices.Clone(v)
	}
	return out
}

// infdSide is one informer under test with its endpoint and recorders.
type infdSide struct {
	name string
	ep   *infdEndpoint
	// rec records the main handler, which sees isInInitialList: a typed
	// cache.TypedResourceEventHandlerDetailedFuncs on ours (AddTypedEventHandler),
	// an untyped cache.ResourceEventHandlerDetailedFuncs on client-go's.
	rec *infdRecorder
	// untypedRec and typedRec record the same handlers on both informers:
	// a cache.ResourceEventHandlerFuncs (AddEventHandler) and a
	// cache.TypedResourceEventHandlerFuncs[*corev1.Pod] (AddTypedEventHandler;
	// on client-go's through cache.NewTypedSharedIndexInformer).
	untypedRec, typedRec *infdRecorder
	watcher              *watch.RaceFreeFakeWatcher // the current watch
	// gate blocks the index function until it is closed (infdStartHold);
	// it is created closed otherwise. release closes it.
	gate        chan struct{}
	releaseOnce sync.Once

	run       func(ctx context.Context)
	done      chan struct{}
	store     func() map[ObjectName]string
	nodeIndex func() map[string][]string
	// hasSynced is the informer's HasSynced and HasSyncedChecker; regSynced
	// those of every registration.
	hasSynced  func() bool
	regSynced  func() bool
	lastSyncRV func() string
}

func newInfdSide(name string, world *infdWorld, hold bool) *infdSide {
	return &infdSide{
		name: name, ep: newInfdEndpoint(world), done: make(chan struct{}), gate: newInfdGate(hold),
		rec: newInfdRecorder(), untypedRec: newInfdRecorder(), typedRec: newInfdRecorder(),
	}
}

// recorders returns the side's recorders: main, untyped, typed.
func (s *infdSide) recorders() []*infdRecorder {
	return []*infdRecorder{s.rec, s.untypedRec, s.typedRec}
}

func (s *infdSide) release() {
	s.releaseOnce.Do(func() {
		select {
		case <-s.gate:
		default:
			close(s.gate)
		}
	})
}

func newInfdGate(hold bool) chan struct{} {
	gate := make(chan struct{})
	if !hold {
		close(gate)
	}
	return gate
}

// infdSyncedFuncs returns the informer's and the registrations' sync state:
// HasSynced, and the HasSyncedChecker's channel closed.
func infdSyncedFuncs(inf cache.SharedInformer, regs ...cache.ResourceEventHandlerRegistration) (informer, registrations func() bool) {
	informer = func() bool { return inf.HasSynced() && cache.IsDone(inf.HasSyncedChecker()) }
	registrations = func() bool {
		for _, reg := range regs {
			if !reg.HasSynced() || !cache.IsDone(reg.HasSyncedChecker()) {
				return false
			}
		}
		return true
	}
	return informer, registrations
}

// infdAddHandlers registers the handlers both informers get, recording into
// the side's untypedRec and typedRec.
func infdAddHandlers(t *testing.T, s *infdSide, inf cache.TypedSharedIndexInformer[*corev1.Pod]) []cache.ResourceEventHandlerRegistration {
	untypedReg, err := inf.AddEventHandler(infdUntypedFuncs(s.untypedRec))
	if err != nil {
		t.Fatal(err)
	}
	typedReg, err := inf.AddTypedEventHandler(infdTypedFuncs(s.typedRec))
	if err != nil {
		t.Fatal(err)
	}
	return []cache.ResourceEventHandlerRegistration{untypedReg, typedReg}
}

func newOurSide(t *testing.T, world *infdWorld, hold, watchList bool) *infdSide {
	s := newInfdSide("ours", world, hold)
	lw := NewListWatch[*corev1.Pod](s.ep.List, s.ep.Watch, infdClient(watchList))
	inf := cachetest.Must(NewSharedIndexInformer(lw, SharedIndexInformerOptions[*corev1.Pod]{
		Name: "differential-ours",
		Indexers: Indexers[*corev1.Pod]{infdIndex: func(p *corev1.Pod) []string {
			<-s.gate
			return infdNode(p)
		}},
	}))
	reg, err := inf.AddTypedEventHandler(cache.TypedResourceEventHandlerDetailedFuncs[*corev1.Pod]{
		AddFunc: func(p *corev1.Pod, initial bool) { s.rec.record(KeyOf(p), infdAddCall(p, initial), p) },
		UpdateFunc: func(old, new *corev1.Pod) {
			s.rec.record(KeyOf(new), infdUpdateCall(old, new), new)
		},
		DeleteFunc: func(obj cache.DeletedObject[*corev1.Pod]) { infdTypedDelete(s.rec, obj) },
	})
	if err != nil {
		t.Fatal(err)
	}
	regs := append(infdAddHandlers(t, s, inf), reg)
	s.run = inf.RunWithContext
	s.store = func() map[ObjectName]string { return infdStoreView(inf.GetIndexer().List(), infdAssertPod) }
	s.nodeIndex = func() map[string][]string {
		idx := inf.GetIndexer()
		return infdIndexView(idx.ListIndexFuncValues(infdIndex), func(v string) ([]any, error) { return idx.ByIndex(infdIndex, v) }, infdAssertPod)
	}
	s.hasSynced, s.regSynced = infdSyncedFuncs(inf, regs...)
	s.lastSyncRV = inf.LastSyncResourceVersion
	return s
}

func infdAssertPod(obj any) *corev1.Pod { return obj.(*corev1.Pod) }

// infdStoreView summarises the pods of a store's List, barriers excluded, by
// key; pod reads a pod out of one of the store's objects.
func infdStoreView[O any](list []O, pod func(O) *corev1.Pod) map[ObjectName]string {
	m := map[ObjectName]string{}
	for _, obj := range list {
		if p := pod(obj); !infdIsMarker(KeyOf(p)) {
			m[KeyOf(p)] = infdState(p)
		}
	}
	return m
}

// infdIndexView maps every value of an index to the sorted keys indexed under
// it, or to the lookup's error.
func infdIndexView[O any](values []string, byIndex func(string) ([]O, error), pod func(O) *corev1.Pod) map[string][]string {
	m := map[string][]string{}
	for _, v := range values {
		objs, err := byIndex(v)
		if err != nil {
			m[v] = []string{"error: " + err.Error()}
			continue
		}
		for _, obj := range objs {
			m[v] = append(m[v], KeyOf(pod(obj)).String())
		}
		slices.Sort(m[v])
	}
	return m
}

// infdBadCall records, under a key that matches nothing, a call a handler
// could not take as it came.
func infdBadCall(rec *infdRecorder, format string, args ...any) {
	rec.record(ObjectName{Name: "<bad call>"}, fmt.Sprintf(format, args...), nil)
}

// infdUntypedPod returns obj as a pod, recording a bad call for anything
// else.
func infdUntypedPod(rec *infdRecorder, obj any) (*corev1.Pod, bool) {
	p, ok := obj.(*corev1.Pod)
	if !ok || p == nil {
		infdBadCall(rec, "%T", obj)
		return nil, false
	}
	return p, true
}

// infdUntypedDelete records an untyped OnDelete: the object, or a
// cache.DeletedFinalStateUnknown whose key must be its object's.
func infdUntypedDelete(rec *infdRecorder, obj any) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		key, err := cache.ParseObjectName(tomb.Key)
		if err != nil {
			infdBadCall(rec, "tombstone key %q", tomb.Key)
			return
		}
		var p *corev1.Pod
		if tomb.Obj != nil {
			if p, ok = infdUntypedPod(rec, tomb.Obj); !ok {
				return
			}
			if KeyOf(p) != key {
				infdBadCall(rec, "tombstone key %q holds %s", tomb.Key, KeyOf(p))
				return
			}
		}
		rec.record(key, infdDeleteCall(p, true), nil)
		return
	}
	if p, ok := infdUntypedPod(rec, obj); ok {
		rec.record(KeyOf(p), infdDeleteCall(p, false), nil)
	}
}

// infdTypedDelete records a typed OnDelete: the object, with a tombstone
// (FinalStateUnknown) that must hold the same object and its key.
func infdTypedDelete(rec *infdRecorder, obj cache.DeletedObject[*corev1.Pod]) {
	p, tomb := obj.OptionalObj, obj.FinalStateUnknown
	key := obj.GetObjectName()
	switch {
	case tomb == nil && p == nil:
		infdBadCall(rec, "delete of %s without object or tombstone", key)
		return
	case tomb != nil && p == nil && tomb.Obj != nil:
		infdBadCall(rec, "tombstone %q holds %T but OptionalObj is nil", tomb.Key, tomb.Obj)
		return
	case tomb != nil && p != nil && (tomb.Obj != any(p) || tomb.Key != KeyOf(p).String()):
		infdBadCall(rec, "tombstone %q holding %T does not match OptionalObj %s", tomb.Key, tomb.Obj, KeyOf(p))
		return
	}
	rec.record(key, infdDeleteCall(p, tomb != nil), nil)
}

// infdUntypedFuncs is the cache.ResourceEventHandlerFuncs both informers get.
func infdUntypedFuncs(rec *infdRecorder) cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if p, ok := infdUntypedPod(rec, obj); ok {
				rec.record(KeyOf(p), infdAddCallNoFlag(p), p)
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			old, ok1 := infdUntypedPod(rec, oldObj)
			new, ok2 := infdUntypedPod(rec, newObj)
			if ok1 && ok2 {
				rec.record(KeyOf(new), infdUpdateCall(old, new), new)
			}
		},
		DeleteFunc: func(obj any) { infdUntypedDelete(rec, obj) },
	}
}

// infdTypedFuncs is the cache.TypedResourceEventHandlerFuncs both informers
// get.
func infdTypedFuncs(rec *infdRecorder) cache.TypedResourceEventHandlerFuncs[*corev1.Pod] {
	return cache.TypedResourceEventHandlerFuncs[*corev1.Pod]{
		AddFunc: func(p *corev1.Pod) { rec.record(KeyOf(p), infdAddCallNoFlag(p), p) },
		UpdateFunc: func(old, new *corev1.Pod) {
			rec.record(KeyOf(new), infdUpdateCall(old, new), new)
		},
		DeleteFunc: func(obj cache.DeletedObject[*corev1.Pod]) { infdTypedDelete(rec, obj) },
	}
}

func newClientGoSide(t *testing.T, world *infdWorld, hold, watchList bool) *infdSide {
	s := newInfdSide("client-go", world, hold)
	lw := cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			l, err := s.ep.List(ctx, opts)
			if err != nil {
				return nil, err
			}
			return l, nil
		},
		WatchFuncWithContext: s.ep.Watch,
	}, infdClient(watchList))
	inf := cache.NewSharedIndexInformer(lw, &corev1.Pod{}, 0, cache.Indexers{
		infdIndex: func(obj any) ([]string, error) {
			<-s.gate
			return infdNode(obj.(*corev1.Pod)), nil
		},
	})
	reg, err := inf.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, initial bool) {
			if p, ok := infdUntypedPod(s.rec, obj); ok {
				s.rec.record(KeyOf(p), infdAddCall(p, initial), p)
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			old, ok1 := infdUntypedPod(s.rec, oldObj)
			new, ok2 := infdUntypedPod(s.rec, newObj)
			if ok1 && ok2 {
				s.rec.record(KeyOf(new), infdUpdateCall(old, new), new)
			}
		},
		DeleteFunc: func(obj any) { infdUntypedDelete(s.rec, obj) },
	})
	if err != nil {
		t.Fatal(err)
	}
	regs := append(infdAddHandlers(t, s, cache.NewTypedSharedIndexInformer[*corev1.Pod](inf)), reg)
	s.run = inf.RunWithContext
	s.store = func() map[ObjectName]string { return infdStoreView(inf.GetIndexer().List(), infdAssertPod) }
	s.nodeIndex = func() map[string][]string {
		idx := inf.GetIndexer()
		return infdIndexView(idx.ListIndexFuncValues(infdIndex), func(v string) ([]any, error) { return idx.ByIndex(infdIndex, v) }, infdAssertPod)
	}
	s.hasSynced, s.regSynced = infdSyncedFuncs(inf, regs...)
	s.lastSyncRV = inf.LastSyncResourceVersion
	return s
}

// infdModel predicts client-go's store and handler calls from the events and
// lists the script delivers (barrier objects excluded). Its view equals the
// server's state at every step boundary.
type infdModel struct {
	view map[ObjectName]*corev1.Pod
	// want are client-go's expected calls per key; ours must be the same
	// minus unknownDeletes (#delete-unknown-key).
	want           map[ObjectName][]string
	unknownDeletes map[string]bool // calls, which are unique by resourceVersion
}

func (m *infdModel) expect(k ObjectName, call string) {
	m.want[k] = append(m.want[k], call)
}

// list applies a LIST result: tombstones for missing keys, updates for listed
// cached ones, adds with isInInitialList only for the first list
// (#relist-order, #initial-list-flag).
//
// #same-rv-is-resync as client-go 0.37.2 behaves: an object the relist returns
// unchanged (same resourceVersion) gives an update counted as a resync, which
// reaches the listeners marked as syncing; but sharedProcessor.addListener
// registers every listener as syncing (p.listeners[listener] = true) and only
// sharedProcessor.shouldResync, called from the reflector's resync timer, ever
// clears the mark. With resync 0 there is no timer, so every handler receives
// OnUpdate(old, new) with old and new at the same resourceVersion.
func (m *infdModel) list(items []corev1.Pod, initial bool) {
	listed := map[ObjectName]*corev1.Pod{}
	for i := range items {
		listed[KeyOf(&items[i])] = &items[i]
	}
	for _, k := range slices.SortedFunc(maps.Keys(m.view), infdCompareKeys) {
		if _, ok := listed[k]; !ok {
			m.expect(k, infdDeleteCall(m.view[k], true))
		}
	}
	for i := range items {
		p := &items[i]
		k := KeyOf(p)
		if old, ok := m.view[k]; !ok {
			m.expect(k, infdAddCall(p, initial))
		} else {
			m.expect(k, infdUpdateCall(old, p))
		}
	}
	m.view = listed
}

// event applies a watch event (#add-or-update, #delete-notification,
// #delete-unknown-key).
func (m *infdModel) event(typ watch.EventType, p *corev1.Pod) {
	k := KeyOf(p)
	old, cached := m.view[k]
	switch typ {
	case watch.Added, watch.Modified:
		if cached {
			m.expect(k, infdUpdateCall(old, p))
		} else {
			m.expect(k, infdAddCall(p, false))
		}
		m.view[k] = p
	case watch.Deleted:
		if cached {
			m.expect(k, infdDeleteCall(p, false))
			delete(m.view, k)
			return
		}
		call := infdDeleteCall(p, false)
		m.want[k] = append(m.want[k], call)
		m.unknownDeletes[call] = true
	}
}

// withoutUnknownDeletes returns calls without the deletes of unknown keys,
// and how many it removed.
func (m *infdModel) withoutUnknownDeletes(calls map[ObjectName][]string) (map[ObjectName][]string, int) {
	out := map[ObjectName][]string{}
	removed := 0
	for k, cs := range calls {
		for _, c := range cs {
			if m.unknownDeletes[c] {
				removed++
				continue
			}
			out[k] = append(out[k], c)
		}
	}
	return out, removed
}

func (m *infdModel) store() map[ObjectName]string {
	out := map[ObjectName]string{}
	for k, p := range m.view {
		out[k] = infdState(p)
	}
	return out
}

func (m *infdModel) nodeIndex() map[string][]string {
	out := map[string][]string{}
	for k, p := range m.view {
		for _, v := range infdNode(p) {
			out[v] = append(out[v], k.String())
		}
	}
	for _, ks := range out {
		slices.Sort(ks)
	}
	return out
}

type infdStepKind int

const (
	infdEvents infdStepKind = iota
	infdClose
	infdRelist
)

// infdRun drives one seed.
type infdRun struct {
	t       *testing.T
	seed    uint64
	rng     *rand.Rand
	world   *infdWorld
	model   *infdModel
	keys    []ObjectName // this seed's universe
	sides   []*infdSide  // ours, client-go
	lastRV  string       // the RV the reflectors last saw
	wantReq []string     // the requests each informer must have made
	script  []string     // what happened, for failure reports
	step    int
	// watchList: both informers sync (first and on every relist) through
	// watch-list streams instead of LISTs (infd_watchlist_test.go).
	watchList bool
}

func (d *infdRun) logf(format string, args ...any) {
	d.script = append(d.script, fmt.Sprintf("step %d: ", d.step)+fmt.Sprintf(format, args...))
}

// report describes the run so far, for failures.
func (d *infdRun) report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, step %d\nscript:\n", d.seed, d.step)
	for _, s := range d.script {
		fmt.Fprintf(&b, "  %s\n", s)
	}
	fmt.Fprintf(&b, "expected requests: %v\n", d.wantReq)
	for _, s := range d.sides {
		fmt.Fprintf(&b, "%s requests: %v\n", s.name, s.ep.requestLog())
	}
	b.WriteString(d.callTable())
	return b.String()
}

// infdHandlerNames name the handlers of infdSide.recorders.
var infdHandlerNames = []string{
	"main (isInInitialList)",
	"cache.ResourceEventHandlerFuncs",
	"cache.TypedResourceEventHandlerFuncs",
}

// modelCalls returns the calls the model expects from client-go for handler
// i of infdSide.recorders.
func (d *infdRun) modelCalls(i int) map[ObjectName][]string {
	if i == 0 {
		return d.model.want
	}
	return infdWithoutInitialFlag(d.model.want)
}

// compareCalls compares the per-key calls of handler i of both informers: ours
// must equal client-go's without its deletes of unknown keys
// (#delete-unknown-key), and client-go's must equal the model's.
func (d *infdRun) compareCalls(i int, ours, ref *infdRecorder) {
	d.t.Helper()
	name := infdHandlerNames[i]
	ourCalls := ours.snapshot()
	refAll := ref.snapshot()
	refCalls, removed := d.model.withoutUnknownDeletes(refAll)
	if removed != len(d.model.unknownDeletes) {
		d.errorf("handler %s: client-go delivered %d deletes of unknown keys, the script sent %d (#delete-unknown-key)", name, removed, len(d.model.unknownDeletes))
	}
	if _, n := d.model.withoutUnknownDeletes(ourCalls); n != 0 {
		d.errorf("handler %s: ours delivered %d deletes of keys the store did not hold (#delete-unknown-key)", name, n)
	}
	if !maps.EqualFunc(ourCalls, refCalls, slices.Equal) {
		d.errorf("handler %s: per-key handler calls differ between ours and client-go (deletes of unknown keys removed from client-go's)", name)
	} else if !maps.EqualFunc(refAll, d.modelCalls(i), slices.Equal) {
		d.errorf("handler %s: per-key handler calls: both informers agree but the model differs (harness bug)", name)
	}
}

// callTable prints every key's calls: model (client-go's expectation), ours,
// client-go; for the handlers other than the main one only where ours and
// client-go differ.
func (d *infdRun) callTable() string {
	var b strings.Builder
	for i, name := range infdHandlerNames {
		ours, ref := d.sides[0].recorders()[i].snapshot(), d.sides[1].recorders()[i].snapshot()
		model := d.modelCalls(i)
		keys := map[ObjectName]bool{}
		for _, m := range []map[ObjectName][]string{model, ours, ref} {
			for k := range m {
				keys[k] = true
			}
		}
		fmt.Fprintf(&b, "handler %s:\n", name)
		for _, k := range slices.SortedFunc(maps.Keys(keys), infdCompareKeys) {
			mark := ""
			stripped, _ := d.model.withoutUnknownDeletes(map[ObjectName][]string{k: ref[k]})
			if !slices.Equal(ours[k], stripped[k]) {
				mark = "  <-- ours and client-go differ"
			} else if i > 0 {
				continue
			}
			fmt.Fprintf(&b, "key %s%s\n  model:     %q\n  ours:      %q\n  client-go: %q\n", k, mark, model[k], ours[k], ref[k])
		}
	}
	return b.String()
}

func (d *infdRun) fatalf(format string, args ...any) {
	d.t.Helper()
	d.t.Fatalf("%s\n%s", fmt.Sprintf(format, args...), d.report())
}

func (d *infdRun) errorf(format string, args ...any) {
	d.t.Helper()
	d.t.Errorf("%s\n%s", fmt.Sprintf(format, args...), d.report())
}

// awaitWatchers waits for the next watch of both informers, which must come
// from the request the driver expects last (the end of d.wantReq).
func (d *infdRun) awaitWatchers(what string) {
	d.t.Helper()
	want := d.wantReq[len(d.wantReq)-1]
	deadline := time.After(infdTimeout)
	for _, s := range d.sides {
		select {
		case o := <-s.ep.watchers:
			if o.req != want {
				d.fatalf("%s: %s opened a watch with %q, want %q", what, s.name, o.req, want)
			}
			s.watcher = o.w
		case <-deadline:
			d.fatalf("%s: %s did not open a new watch within %v", what, s.name, infdTimeout)
		}
	}
}

// barrier waits until both informers have processed everything sent so far:
// it sends an ADDED event for a new barrier object, under a key never used
// before, and waits until every handler of both has received it. Both queues
// deliver in order across keys (our DeltaFIFO queues a new key behind every
// queued one; client-go's RealFIFO is strictly FIFO), so every earlier change
// has been handled by then. The barrier does not depend on how many calls the
// informers make, so a missing or extra call shows in the final comparison,
// not as a timeout.
//
// Barrier objects are not part of the world, so the next relist deletes them
// (tombstones, ignored like every call for them).
func (d *infdRun) barrier(what string) {
	d.t.Helper()
	rv := d.world.nextRV()
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace: infdMarkerNamespace, Name: "barrier-" + rv, ResourceVersion: rv,
	}}
	d.lastRV = rv
	for _, s := range d.sides {
		s.watcher.Add(p.DeepCopy())
	}
	deadline := time.Now().Add(infdTimeout)
	for _, s := range d.sides {
		for i, rec := range s.recorders() {
			if got := rec.waitMarker(p.ResourceVersion, deadline); got != p.ResourceVersion {
				d.fatalf("%s: %s handler %s did not get the barrier at rv=%s within %v (newest: %q)", what, s.name, infdHandlerNames[i], p.ResourceVersion, infdTimeout, got)
			}
		}
	}
}

// newPod returns a fresh pod for key with the next resourceVersion.
func (d *infdRun) newPod(k ObjectName) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: k.Namespace, Name: k.Name, ResourceVersion: d.world.nextRV()},
		Spec:       corev1.PodSpec{NodeName: infdNodes[d.rng.IntN(len(infdNodes))]},
	}
}

// changed returns a copy of p with the next resourceVersion, on another node
// half of the time.
func (d *infdRun) changed(p *corev1.Pod) *corev1.Pod {
	p = p.DeepCopy()
	p.ResourceVersion = d.world.nextRV()
	if d.rng.IntN(2) == 0 {
		p.Spec.NodeName = infdNodes[(slices.Index(infdNodes, p.Spec.NodeName)+1+d.rng.IntN(len(infdNodes)-1))%len(infdNodes)]
	}
	return p
}

func (d *infdRun) presentAbsent() (present, absent []ObjectName) {
	for _, k := range d.keys {
		if _, ok := d.world.get(k); ok {
			present = append(present, k)
		} else {
			absent = append(absent, k)
		}
	}
	return present, absent
}

// event generates one watch event, applies it to the world and the model and
// pushes it to both informers.
func (d *infdRun) event() string {
	present, absent := d.presentAbsent()
	r := d.rng.IntN(100)
	var typ watch.EventType
	var p *corev1.Pod
	note := ""
	switch {
	case len(absent) > 0 && (len(present) == 0 || r < 25):
		k := absent[d.rng.IntN(len(absent))]
		p, typ = d.newPod(k), watch.Added
		if d.rng.IntN(6) == 0 {
			typ, note = watch.Modified, " (uncached: OnAdd, #add-or-update)"
		}
		d.world.set(p)
	case len(absent) > 0 && r < 30:
		k := absent[d.rng.IntN(len(absent))]
		p, typ, note = d.newPod(k), watch.Deleted, " (unknown key: client-go only, #delete-unknown-key)"
	case r < 50:
		k := present[d.rng.IntN(len(present))]
		old, _ := d.world.get(k)
		p, typ = d.changed(old), watch.Deleted
		p.Spec.NodeName = old.Spec.NodeName
		d.world.remove(k)
	default:
		k := present[d.rng.IntN(len(present))]
		old, _ := d.world.get(k)
		p, typ = d.changed(old), watch.Modified
		if d.rng.IntN(6) == 0 {
			typ, note = watch.Added, " (cached: OnUpdate, #add-or-update)"
		}
		d.world.set(p)
	}
	return d.send(typ, p, note)
}

// upsertEvent sends an add of a new object or an update of an existing one.
func (d *infdRun) upsertEvent() string {
	present, absent := d.presentAbsent()
	if len(absent) > 0 && (len(present) == 0 || d.rng.IntN(2) == 0) {
		p := d.newPod(absent[d.rng.IntN(len(absent))])
		d.world.set(p)
		return d.send(watch.Added, p, "")
	}
	old, _ := d.world.get(present[d.rng.IntN(len(present))])
	p := d.changed(old)
	d.world.set(p)
	return d.send(watch.Modified, p, "")
}

// send applies an event to the model and pushes it to both informers; the
// world must already reflect it.
func (d *infdRun) send(typ watch.EventType, p *corev1.Pod, note string) string {
	d.model.event(typ, p)
	d.lastRV = p.ResourceVersion
	for _, s := range d.sides {
		obj := p.DeepCopy()
		switch typ {
		case watch.Added:
			s.watcher.Add(obj)
		case watch.Modified:
			s.watcher.Modify(obj)
		case watch.Deleted:
			s.watcher.Delete(obj)
		}
	}
	return fmt.Sprintf("%s %s %s%s", typ, KeyOf(p), infdState(p), note)
}

// recreate sends the delete of k and the add of a new object under k.
func (d *infdRun) recreate(k ObjectName) []string {
	old, _ := d.world.get(k)
	gone := d.changed(old)
	gone.Spec.NodeName = old.Spec.NodeName
	d.world.remove(k)
	evs := []string{d.send(watch.Deleted, gone, "")}
	p := d.newPod(k)
	d.world.set(p)
	return append(evs, d.send(watch.Added, p, " (re-created)"))
}

func (d *infdRun) events(n int) {
	var evs []string
	for range n {
		evs = append(evs, d.event())
	}
	d.logf("events %v", evs)
}

// How start treats the initial list.
type infdStartMode int

const (
	// infdStartWait waits until the initial list has been processed.
	infdStartWait infdStartMode = iota
	// infdStartNoWait sends the first events without waiting.
	infdStartNoWait
	// infdStartHold holds the processing of the initial list (the index
	// function blocks on infdSide.gate) until the first events, among them the
	// delete and re-creation of a listed object, have been queued behind it.
	// client-go's RealFIFO processes the whole initial list before any of them,
	// so the re-created object's add has isInInitialList false
	// (#initial-list-flag); our DeltaFIFO appends them to the listed keys'
	// deltas.
	infdStartHold
)

// start lists the initial objects and opens the first watch.
func (d *infdRun) start(ctx context.Context, mode infdStartMode) {
	d.logf("start")
	for _, k := range d.keys {
		if d.rng.IntN(10) < 6 {
			d.world.set(d.newPod(k))
		}
	}
	d.world.shuffleOrder(d.rng)
	runInformers := func() {
		for _, s := range d.sides {
			go func() {
				defer close(s.done)
				s.run(ctx)
			}()
		}
	}
	// initial is the first list in the order ours queues it.
	var initial []corev1.Pod
	if d.watchList {
		trouble := d.streamTrouble()
		if trouble == infdWatchListGone {
			for _, s := range d.sides {
				s.ep.failNext(0, 1)
			}
		}
		runInformers()
		initial = d.streamSync("initial stream", "", true, trouble)
	} else {
		list := d.world.list()
		d.logf("initial list rv=%s %v", list.ResourceVersion, infdListDesc(list))
		d.model.list(list.Items, true)
		d.lastRV = list.ResourceVersion
		d.wantReq = append(d.wantReq, "list rv=0", "watch rv="+d.lastRV)
		runInformers()
		d.awaitWatchers("initial watch")
		initial = list.Items
	}
	switch mode {
	case infdStartWait:
		d.barrier("initial list")
	case infdStartNoWait:
		d.logf("not waiting for the initial list to be processed")
	case infdStartHold:
		d.logf("initial list held in the consumer while the next events are queued")
		// No other deletes while the consumer holds the store's lock: our
		// DeltaFIFO asks the store about a delete of a key it has not
		// queued, and that would wait for the gate.
		evs := []string{}
		for range d.rng.IntN(3) {
			evs = append(evs, d.upsertEvent())
		}
		// Re-create a listed object other than the first one listed (ours
		// pops that one first, so it is in flight, not queued).
		var listed []ObjectName
		for _, it := range initial[min(1, len(initial)):] {
			if _, ok := d.world.get(KeyOf(&it)); ok {
				listed = append(listed, KeyOf(&it))
			}
		}
		if len(listed) > 0 {
			evs = append(evs, d.recreate(listed[d.rng.IntN(len(listed))])...)
		}
		d.logf("events %v", evs)
		// The reflector records an event's RV after queueing it.
		deadline := time.Now().Add(infdTimeout)
		for _, s := range d.sides {
			for s.lastSyncRV() != d.lastRV {
				if time.Now().After(deadline) {
					d.fatalf("%s did not queue the events up to rv=%s within %v (at %q)", s.name, d.lastRV, infdTimeout, s.lastSyncRV())
				}
				time.Sleep(time.Millisecond)
			}
		}
		d.logf("release the initial list")
		for _, s := range d.sides {
			s.release()
		}
		d.barrier("held initial list")
	}
}

func infdListDesc(l *corev1.PodList) []string {
	var out []string
	for i := range l.Items {
		out = append(out, KeyOf(&l.Items[i]).String()+" "+infdState(&l.Items[i]))
	}
	return out
}

// closeWatch ends the current watch normally after at least one event (a watch
// closed within 1 s with no events is an error that relists, #watch-errors);
// the reflectors must re-watch from the last RV without listing.
func (d *infdRun) closeWatch(wait bool) {
	d.events(1 + d.rng.IntN(2))
	d.logf("close the watch")
	for _, s := range d.sides {
		s.watcher.Stop()
	}
	d.wantReq = append(d.wantReq, "watch rv="+d.lastRV)
	d.awaitWatchers("re-watch after close")
	if wait {
		d.barrier("events before close")
	}
}

// relist makes both reflectors relist after changing the world behind their
// backs, and waits until the relist has been processed.
func (d *infdRun) relist() {
	byError := d.rng.IntN(2) == 0
	if byError {
		d.events(d.rng.IntN(3))
	} else {
		d.events(1 + d.rng.IntN(2))
	}
	// Changes no event reports.
	missed := d.changeBehind(infdOdds{delete: 30, recreate: 45, change: 65, create: 25})
	d.logf("missed changes %v", missed)
	if d.watchList {
		d.relistStream(byError)
		return
	}
	d.world.shuffleOrder(d.rng)
	list := d.world.list()
	listFails := d.rng.IntN(10) < 3
	failLists := 0
	if listFails {
		failLists = 1
	}
	if byError {
		d.logf("watch.Error 410 Expired; the relist's first LIST fails with 410: %t", listFails)
		d.wantReq = append(d.wantReq, "list rv="+d.lastRV)
		for _, s := range d.sides {
			s.ep.failNext(failLists, 0)
			st := apierrors.NewResourceExpired("scripted: watch too old").ErrStatus
			s.watcher.Error(&st)
		}
	} else {
		d.logf("close the watch, the next WATCH fails with 410 Expired; the relist's first LIST fails with 410: %t", listFails)
		d.wantReq = append(d.wantReq, "watch rv="+d.lastRV, "list rv="+d.lastRV)
		for _, s := range d.sides {
			s.ep.failNext(failLists, 1)
			s.watcher.Stop()
		}
	}
	if listFails {
		d.wantReq = append(d.wantReq, "list rv=")
	}
	d.logf("relist rv=%s %v", list.ResourceVersion, infdListDesc(list))
	d.model.list(list.Items, false)
	d.lastRV = list.ResourceVersion
	d.wantReq = append(d.wantReq, "watch rv="+d.lastRV)
	d.awaitWatchers("watch after relist")
	// Always wait: see the note on #delete-dedup at the top of the file.
	d.barrier("relist")
}

// plan returns the kinds of this seed's steps: 12-30 steps, one relist
// (two in one seed of ten) with events after the last one, one to three
// closed watches, the rest event batches.
func (d *infdRun) plan() []infdStepKind {
	n := 12 + d.rng.IntN(19)
	kinds := make([]infdStepKind, n)
	relists := 1
	if d.rng.IntN(10) == 0 {
		relists = 2
	}
	for placed := 0; placed < relists; {
		if i := d.rng.IntN(n - 1); kinds[i] == infdEvents {
			kinds[i] = infdRelist
			placed++
		}
	}
	closes := 1 + d.rng.IntN(3)
	for placed := 0; placed < closes; {
		if i := d.rng.IntN(n); kinds[i] == infdEvents {
			kinds[i] = infdClose
			placed++
		}
	}
	return kinds
}

// compare checks the end state of both informers.
func (d *infdRun) compare() {
	d.t.Helper()
	ours, ref := d.sides[0], d.sides[1]

	// Stores, after the final barrier.
	wantStore := d.model.store()
	if got, want := ours.store(), ref.store(); !maps.Equal(got, want) {
		d.errorf("final store: ours %v\nclient-go %v", got, want)
	} else if !maps.Equal(want, wantStore) {
		d.errorf("final store: both %v\nmodel %v (harness bug)", want, wantStore)
	}
	eqIndex := func(a, b map[string][]string) bool { return maps.EqualFunc(a, b, slices.Equal) }
	if got, want := ours.nodeIndex(), ref.nodeIndex(); !eqIndex(got, want) {
		d.errorf("final %q index: ours %v\nclient-go %v", infdIndex, got, want)
	} else if model := d.model.nodeIndex(); !eqIndex(want, model) {
		d.errorf("final %q index: both %v\nmodel %v (harness bug)", infdIndex, want, model)
	}

	// Handler calls per key, for each of the three handlers: the main one
	// against the model, the other two against the model without
	// isInInitialList.
	for i := range infdHandlerNames {
		d.compareCalls(i, ours.recorders()[i], ref.recorders()[i])
	}

	// Requests (#relist-resource-version, #watch-errors), resourceVersion and
	// sync state.
	for _, s := range d.sides {
		if got := s.ep.requestLog(); !slices.Equal(got, d.wantReq) {
			d.errorf("%s made requests %v, want %v", s.name, got, d.wantReq)
		}
		if s.ep.overflow {
			d.errorf("%s opened more watches than the driver consumed", s.name)
		}
		// The reflector records an event's RV only after queueing the event, so
		// the handler may see the last barrier first
		// (#informer-resource-version): poll.
		deadline := time.Now().Add(infdTimeout)
		for s.lastSyncRV() != d.lastRV && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if got := s.lastSyncRV(); got != d.lastRV {
			d.errorf("%s LastSyncResourceVersion %q, want %q", s.name, got, d.lastRV)
		}
		if !s.hasSynced() || !s.regSynced() {
			d.errorf("%s: informer synced %t, registration synced %t; want both", s.name, s.hasSynced(), s.regSynced())
		}
	}
}

func runInformerDifferentialSeed(t *testing.T, seed uint64) {
	world := &infdWorld{objs: map[ObjectName]*corev1.Pod{}, rv: 100}
	d := &infdRun{
		t:     t,
		seed:  seed,
		rng:   rand.New(rand.NewPCG(seed, 0x1f0c_a11b)),
		world: world,
		// A third of the seeds, picked without drawing from rng, so
		// that the others keep their scripts.
		watchList: seed%3 == 2,
		model: &infdModel{
			view:           map[ObjectName]*corev1.Pod{},
			want:           map[ObjectName][]string{},
			unknownDeletes: map[string]bool{},
		},
	}
	universe := infdUniverse()
	d.rng.Shuffle(len(universe), func(i, j int) { universe[i], universe[j] = universe[j], universe[i] })
	d.keys = universe[:4+d.rng.IntN(len(universe)-3)]
	mode := infdStartWait
	switch r := d.rng.IntN(10); {
	case r >= 8:
		mode = infdStartHold
	case r >= 6:
		mode = infdStartNoWait
	}
	hold := mode == infdStartHold
	d.sides = []*infdSide{newOurSide(t, world, hold, d.watchList), newClientGoSide(t, world, hold, d.watchList)}

	ctx, cancel := context.WithCancel(context.Background())
	defer func() {
		cancel()
		deadline := time.Now().Add(infdTimeout)
		for _, s := range d.sides {
			s.release()
			select {
			case <-s.done:
			case <-time.After(time.Until(deadline)):
				t.Errorf("seed %d: %s informer's Run did not return within %v of cancel", seed, s.name, infdTimeout)
			}
		}
	}()

	kinds := d.plan()
	d.start(ctx, mode)
	for i, kind := range kinds {
		d.step = i + 1
		// A burst step does not wait for its events to be processed; never
		// right before the end, which waits anyway.
		burst := d.rng.IntN(4) == 0
		switch kind {
		case infdEvents:
			d.events(1 + d.rng.IntN(4))
			if !burst {
				d.barrier("events")
			}
		case infdClose:
			d.closeWatch(!burst)
		case infdRelist:
			d.relist()
		}
	}
	d.step++
	d.barrier("end")
	d.compare()
}

// TestInformerDifferential_HandlerCallsStoreAndIndexMatchClientGo feeds the
// same random list/watch scripts to our SharedIndexInformer and to client-go's
// and requires the same per-key handler calls, store, index and requests (see
// the top of the file).
func TestInformerDifferential_HandlerCallsStoreAndIndexMatchClientGo(t *testing.T) {
	infdEnableWatchListClient(t)
	seeds := infdSeedCount(t)
	sem := make(chan struct{}, infdParallel)
	var wg sync.WaitGroup
	for seed := range seeds {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			// t.Run may be called from several goroutines at once; the
			// subtests do not call t.Parallel, so -parallel does not cap
			// them (the default, GOMAXPROCS, would serialise the relist
			// backoffs).
			t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
				runInformerDifferentialSeed(t, uint64(seed))
			})
		}()
	}
	wg.Wait()
}
