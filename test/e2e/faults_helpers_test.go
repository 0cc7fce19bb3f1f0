package e2e

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	toolscache "k8s.io/client-go/tools/cache"

	rcache "github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// faultListWatch lists and watches the ConfigMaps of one namespace for an
// informer, counting every call, and lets a test interfere: override the
// timeout of every watch, or hold the informer's watch down (Hold, Release).
type faultListWatch struct {
	api corev1client.ConfigMapInterface
	// watchTimeout, when positive, replaces the TimeoutSeconds of every
	// watch, so that the server ends each watch after that many seconds.
	watchTimeout int64

	// lists counts LIST calls; watchLists counts watches that stream the
	// initial state (SendInitialEvents, client-go's watch-list, which
	// replaces a LIST); rewatches counts watches that resume from a
	// resourceVersion without initial events.
	lists, watchLists, rewatches atomic.Int64
	// gone counts 410 Gone answers: a list or watch call refused with it,
	// or a watch stream ended by an ERROR event carrying it.
	gone atomic.Int64
	// held counts the calls currently waiting for Release.
	held atomic.Int64

	mu sync.Mutex
	// hold, while not nil, is closed by Release; list and watch calls
	// made meanwhile wait for it before they reach the server.
	hold chan struct{}
	// open are the watches handed out and not stopped yet, with the time
	// each was opened.
	open map[*faultWatch]time.Time
}

// newFaultListWatch returns a faultListWatch over the ConfigMaps api
// serves.
func newFaultListWatch(api corev1client.ConfigMapInterface) *faultListWatch {
	return &faultListWatch{api: api, open: map[*faultWatch]time.Time{}}
}

// ListWatch returns the runtime's ListWatch over f. client is the clientset
// the calls go through: client-go asks it whether it supports watch-list.
func (f *faultListWatch) ListWatch(client any) *rcache.ListWatch[*corev1.ConfigMap] {
	return rcache.NewListWatch[*corev1.ConfigMap](f.list, f.watch, client)
}

// fullLists is the number of times the informer fetched the full state: LIST
// calls plus watch-list streams. One is the initial list; more are relists.
func (f *faultListWatch) fullLists() int64 { return f.lists.Load() + f.watchLists.Load() }

// wait blocks while the list and watch calls are held.
func (f *faultListWatch) wait(ctx context.Context) error {
	f.mu.Lock()
	hold := f.hold
	f.mu.Unlock()
	if hold == nil {
		return nil
	}
	f.held.Add(1)
	defer f.held.Add(-1)
	select {
	case <-hold:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// list is the informer's LIST: counted, held while Hold is in force.
func (f *faultListWatch) list(ctx context.Context, opts metav1.ListOptions) (*corev1.ConfigMapList, error) {
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	f.lists.Add(1)
	list, err := f.api.List(ctx, opts)
	if faultIsGone(err) {
		f.gone.Add(1)
	}
	return list, err
}

// watch is the informer's WATCH: counted (watch-list streams apart from
// re-watches), held while Hold is in force, with the timeout override, and
// relayed through a faultWatch.
func (f *faultListWatch) watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		f.watchLists.Add(1)
	} else {
		f.rewatches.Add(1)
	}
	if f.watchTimeout > 0 {
		opts.TimeoutSeconds = &f.watchTimeout
	}
	w, err := f.api.Watch(ctx, opts)
	if err != nil {
		if faultIsGone(err) {
			f.gone.Add(1)
		}
		return nil, err
	}
	tw := &faultWatch{inner: w, owner: f, result: make(chan watch.Event), stop: make(chan struct{})}
	f.mu.Lock()
	f.open[tw] = time.Now()
	f.mu.Unlock()
	go tw.relay()
	return tw, nil
}

// faultWatch is a watch a faultListWatch handed out: it relays the
// server's events, counting the 410s, and is open until stopped (the
// reflector stops every watch it is done with, also one the server ended).
type faultWatch struct {
	inner    watch.Interface
	owner    *faultListWatch
	result   chan watch.Event
	stop     chan struct{}
	stopOnce sync.Once
}

// relay passes the server's events on until the stream ends or Stop.
func (w *faultWatch) relay() {
	defer close(w.result)
	for {
		select {
		case e, ok := <-w.inner.ResultChan():
			if !ok {
				return
			}
			if e.Type == watch.Error && faultIsGone(apierrors.FromObject(e.Object)) {
				w.owner.gone.Add(1)
			}
			select {
			case w.result <- e:
			case <-w.stop:
				return
			}
		case <-w.stop:
			return
		}
	}
}

// ResultChan implements watch.Interface.
func (w *faultWatch) ResultChan() <-chan watch.Event { return w.result }

// Stop stops the watch and forgets it.
func (w *faultWatch) Stop() {
	w.stopOnce.Do(func() {
		w.owner.mu.Lock()
		delete(w.owner.open, w)
		w.owner.mu.Unlock()
		close(w.stop)
		w.inner.Stop()
	})
}

// faultIsGone tells whether err says the resourceVersion asked for has been
// compacted away (410 Gone, or the Expired reason that comes with it).
func faultIsGone(err error) bool {
	return err != nil && (apierrors.IsGone(err) || apierrors.IsResourceExpired(err))
}

// errFaultNotHeld is what Hold returns when the informer did not come back
// to wait in a held call in time.
var errFaultNotHeld = errors.New("no list or watch call is waiting")

// Hold takes the informer's watch down: every later list or watch call
// waits until Release, and every open watch is stopped once it has been
// open for minAge (client-go takes a watch that ends sooner without an
// event for a failure, and relists instead of watching again). It returns
// once the informer waits in a held call.
func (f *faultListWatch) Hold(ctx context.Context, minAge time.Duration) error {
	f.mu.Lock()
	if f.hold == nil {
		f.hold = make(chan struct{})
	}
	f.mu.Unlock()
	deadline := time.Now().Add(30 * time.Second)
	for f.held.Load() == 0 {
		if time.Now().After(deadline) || ctx.Err() != nil {
			return errFaultNotHeld
		}
		// Watches are stopped on every round: one may have been opened by
		// a call that got past wait just before the hold began.
		f.mu.Lock()
		open := maps.Clone(f.open)
		f.mu.Unlock()
		for w, opened := range open {
			if time.Since(opened) >= minAge {
				w.Stop()
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// Release lets the held list and watch calls, and every later one, through.
func (f *faultListWatch) Release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.hold != nil {
		close(f.hold)
		f.hold = nil
	}
}

// String summarises the calls, for failure messages and logs.
func (f *faultListWatch) String() string {
	return fmt.Sprintf("LISTs %d, watch-lists %d, re-watches %d, 410 Gone %d",
		f.lists.Load(), f.watchLists.Load(), f.rewatches.Load(), f.gone.Load())
}

// faultDelete is one OnDelete a faultRecorder received.
type faultDelete struct {
	resourceVersion   string
	finalStateUnknown bool
}

// faultRecorder is an event handler that rebuilds the set of live ConfigMaps
// (name to resourceVersion) from the notifications alone, and notes every
// notification that does not fit what it was told before: an add of a live
// object, an update or delete of one that is not live, an update whose old
// object is not the last state it was given, a tombstone whose state is not
// that last state.
type faultRecorder struct {
	mu       sync.Mutex
	live     map[string]string
	seen     map[string]bool // every name ever added
	deletes  map[string][]faultDelete
	calls    int
	problems []string
}

// newFaultRecorder returns an empty recorder.
func newFaultRecorder() *faultRecorder {
	return &faultRecorder{live: map[string]string{}, seen: map[string]bool{}, deletes: map[string][]faultDelete{}}
}

// problem notes a notification that does not fit the earlier ones.
func (r *faultRecorder) problem(format string, args ...any) {
	if len(r.problems) < 20 {
		r.problems = append(r.problems, fmt.Sprintf(format, args...))
	}
}

// OnAdd implements toolscache.TypedResourceEventHandler.
func (r *faultRecorder) OnAdd(obj *corev1.ConfigMap, _ bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if rv, ok := r.live[obj.Name]; ok {
		r.problem("OnAdd(%s@%s) while it is live at %s", obj.Name, obj.ResourceVersion, rv)
	}
	r.live[obj.Name] = obj.ResourceVersion
	r.seen[obj.Name] = true
}

// OnUpdate implements toolscache.TypedResourceEventHandler.
func (r *faultRecorder) OnUpdate(oldObj, newObj *corev1.ConfigMap) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if oldObj.Name != newObj.Name {
		r.problem("OnUpdate(%s, %s): names differ", oldObj.Name, newObj.Name)
	}
	if rv, ok := r.live[oldObj.Name]; !ok {
		r.problem("OnUpdate(%s@%s) of an object that is not live", oldObj.Name, oldObj.ResourceVersion)
	} else if rv != oldObj.ResourceVersion {
		r.problem("OnUpdate(%s): old object at %s, last seen at %s", oldObj.Name, oldObj.ResourceVersion, rv)
	}
	r.live[newObj.Name] = newObj.ResourceVersion
}

// OnDelete implements toolscache.TypedResourceEventHandler. The deleted
// object is a tombstone (FinalStateUnknown set) when the informer inferred
// the delete from a relist; the informer always has its last state.
func (r *faultRecorder) OnDelete(d toolscache.DeletedObject[*corev1.ConfigMap]) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	name, finalStateUnknown := d.GetName(), d.FinalStateUnknown != nil
	if d.OptionalObj == nil {
		r.problem("OnDelete(%s, %v) without the object", name, finalStateUnknown)
		return
	}
	obj := d.OptionalObj
	rv, ok := r.live[name]
	switch {
	case !ok:
		r.problem("OnDelete(%s@%s, %v) of an object that is not live", name, obj.ResourceVersion, finalStateUnknown)
	case finalStateUnknown && rv != obj.ResourceVersion:
		r.problem("OnDelete(%s, finalStateUnknown): tombstone at %s, last seen at %s", name, obj.ResourceVersion, rv)
	}
	delete(r.live, name)
	r.deletes[name] = append(r.deletes[name], faultDelete{obj.ResourceVersion, finalStateUnknown})
}

// liveSet returns the recorder's view of the live objects.
func (r *faultRecorder) liveSet() map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.live)
}

// callCount returns how many notifications the recorder received.
func (r *faultRecorder) callCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

// inconsistencies returns the notifications that did not fit the earlier
// ones, "" when there were none.
func (r *faultRecorder) inconsistencies() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.problems, "; ")
}

// deletesOf returns the deletes the recorder received for name, in order.
func (r *faultRecorder) deletesOf(name string) []faultDelete {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.deletes[name])
}

// deleteCounts returns how many deletes the recorder received, and how many
// of them had finalStateUnknown set.
func (r *faultRecorder) deleteCounts() (all, finalStateUnknown int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ds := range r.deletes {
		for _, d := range ds {
			all++
			if d.finalStateUnknown {
				finalStateUnknown++
			}
		}
	}
	return all, finalStateUnknown
}

// lostDeletes returns the names among gone (objects that no longer exist)
// that the recorder saw added and never saw deleted since.
func (r *faultRecorder) lostDeletes(gone []string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var lost []string
	for _, name := range gone {
		if _, live := r.live[name]; live && r.seen[name] {
			lost = append(lost, name)
		}
	}
	return lost
}

// faultServerState lists the ConfigMaps api serves: name to resourceVersion.
func faultServerState(ctx context.Context, api corev1client.ConfigMapInterface) (map[string]string, error) {
	list, err := api.List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	state := make(map[string]string, len(list.Items))
	for _, cm := range list.Items {
		state[cm.Name] = cm.ResourceVersion
	}
	return state, nil
}

// faultCacheState returns an informer's cache: name to resourceVersion.
func faultCacheState(inf *rcache.SharedIndexInformer[*corev1.ConfigMap]) map[string]string {
	objs := inf.TypedStore().List()
	state := make(map[string]string, len(objs))
	for _, cm := range objs {
		state[cm.Name] = cm.ResourceVersion
	}
	return state
}

// faultStateDiff describes how got differs from want, at most a few names of
// each kind; "" when they are equal.
func faultStateDiff(got, want map[string]string) string {
	var missing, extra, stale []string
	for name, rv := range want {
		switch g, ok := got[name]; {
		case !ok:
			missing = append(missing, name)
		case g != rv:
			stale = append(stale, fmt.Sprintf("%s@%s (want %s)", name, g, rv))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			extra = append(extra, name)
		}
	}
	if len(missing)+len(extra)+len(stale) == 0 {
		return ""
	}
	short := func(s []string) []string {
		slices.Sort(s)
		if len(s) > 5 {
			return append(s[:5:5], fmt.Sprintf("... (%d in all)", len(s)))
		}
		return s
	}
	return fmt.Sprintf("%d objects, want %d: missing %v, extra %v, stale %v",
		len(got), len(want), short(missing), short(extra), short(stale))
}

// faultWaitConverged waits until the informer's cache and the recorder's view of
// the live objects both equal a fresh LIST, and returns that LIST. The
// objects must have stopped changing.
func faultWaitConverged(t *testing.T, api corev1client.ConfigMapInterface, inf *rcache.SharedIndexInformer[*corev1.ConfigMap], rec *faultRecorder) map[string]string {
	t.Helper()
	var want map[string]string
	eventually(t, "cache and handler agree with a fresh LIST", func() string {
		var err error
		if want, err = faultServerState(t.Context(), api); err != nil {
			return err.Error()
		}
		if d := faultStateDiff(faultCacheState(inf), want); d != "" {
			return "cache: " + d
		}
		if d := faultStateDiff(rec.liveSet(), want); d != "" {
			return "handler: " + d
		}
		return ""
	})
	if p := rec.inconsistencies(); p != "" {
		t.Errorf("handler notifications inconsistent: %s", p)
	}
	return want
}

// faultRunInformer runs inf until the test ends (waiting for it to return in
// Cleanup) and waits until it and the handler registration have synced.
func faultRunInformer(t *testing.T, inf *rcache.SharedIndexInformer[*corev1.ConfigMap], reg toolscache.ResourceEventHandlerRegistration) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		inf.RunWithContext(t.Context())
	}()
	t.Cleanup(func() { <-done }) // t.Context() ends before cleanups run
	eventually(t, "informer sync", func() string {
		if !inf.HasSynced() || !reg.HasSynced() {
			return "not synced"
		}
		return ""
	})
}

// faultRunRecorded adds a faultRecorder to inf, runs inf until the test
// ends and waits until both have synced.
func faultRunRecorded(t *testing.T, inf *rcache.SharedIndexInformer[*corev1.ConfigMap]) *faultRecorder {
	t.Helper()
	rec := newFaultRecorder()
	reg, err := inf.AddTypedEventHandler(rec)
	if err != nil {
		t.Fatal(err)
	}
	faultRunInformer(t, inf, reg)
	return rec
}

// faultConfigMap returns a ConfigMap named name with one data entry.
func faultConfigMap(name, value string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Data:       map[string]string{"v": value},
	}
}

// faultNoWatchListClient is passed to rcache.NewListWatch as the client to tell
// client-go's reflector that watch-list streaming is not supported: it then
// fetches the full state with LIST calls.
type faultNoWatchListClient struct{}

// IsWatchListSemanticsUnSupported is what client-go asks.
func (faultNoWatchListClient) IsWatchListSemanticsUnSupported() bool { return true }

// faultListModes are the two ways a reflector fetches the full state, for tests
// that run in both: a watch-list stream (client-go's default) and LIST.
var faultListModes = []struct {
	name   string
	client func(c clients) any
}{
	{"watch-list", func(c clients) any { return c.kube }},
	{"LIST", func(clients) any { return faultNoWatchListClient{} }},
}

// faultChurn creates, updates and deletes ConfigMaps from several goroutines
// until Stop. Each goroutine owns its own names and writes one of them at a
// time: it creates a missing one, and updates (unconditionally) or deletes
// a present one. A write that fails (the server is down) leaves the
// object's state unknown; the goroutine learns it again with a GET before
// writing that name again, retrying until the server answers.
type faultChurn struct {
	api    corev1client.ConfigMapInterface
	names  []string
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// Writes that succeeded, and calls that failed.
	creates, updates, deletes, failures atomic.Int64
}

// startFaultChurn starts writers goroutines, each owning namesEach names
// (prefix-<writer>-<n>), pausing pause between writes.
func startFaultChurn(t *testing.T, api corev1client.ConfigMapInterface, prefix string, writers, namesEach int, pause time.Duration) *faultChurn {
	ctx, cancel := context.WithCancel(t.Context())
	c := &faultChurn{api: api, cancel: cancel}
	for w := range writers {
		var own []string
		for n := range namesEach {
			own = append(own, fmt.Sprintf("%s-%d-%d", prefix, w, n))
		}
		c.names = append(c.names, own...)
		c.wg.Go(func() { c.write(ctx, own, pause) })
	}
	t.Cleanup(c.Stop)
	return c
}

// faultObjState is what a churn goroutine knows about one of its objects.
type faultObjState int

const (
	faultAbsent faultObjState = iota
	faultPresent
	faultUnknown
)

// write is one churn goroutine.
func (c *faultChurn) write(ctx context.Context, names []string, pause time.Duration) {
	state := make([]faultObjState, len(names)) // all absent: the namespace is new
	for i := 0; ctx.Err() == nil; i++ {
		n := rand.IntN(len(names))
		name := names[n]
		var err error
		switch state[n] {
		case faultUnknown:
			_, err = c.api.Get(ctx, name, metav1.GetOptions{})
			switch {
			case err == nil:
				state[n] = faultPresent
			case apierrors.IsNotFound(err):
				state[n], err = faultAbsent, nil
			}
		case faultAbsent:
			_, err = c.api.Create(ctx, faultConfigMap(name, fmt.Sprint(i)), metav1.CreateOptions{})
			switch {
			case err == nil:
				c.creates.Add(1)
				state[n] = faultPresent
			case apierrors.IsAlreadyExists(err):
				state[n], err = faultPresent, nil
			default:
				state[n] = faultUnknown
			}
		case faultPresent:
			if rand.IntN(3) == 0 {
				err = c.api.Delete(ctx, name, metav1.DeleteOptions{})
				switch {
				case err == nil:
					c.deletes.Add(1)
					state[n] = faultAbsent
				case apierrors.IsNotFound(err):
					state[n], err = faultAbsent, nil
				default:
					state[n] = faultUnknown
				}
			} else {
				_, err = c.api.Update(ctx, faultConfigMap(name, fmt.Sprint(i)), metav1.UpdateOptions{})
				switch {
				case err == nil:
					c.updates.Add(1)
				case apierrors.IsNotFound(err):
					state[n], err = faultAbsent, nil
				default:
					state[n] = faultUnknown
				}
			}
		}
		wait := pause
		if err != nil && ctx.Err() == nil {
			c.failures.Add(1)
			wait = 100 * time.Millisecond
		}
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
	}
}

// writes returns how many writes have succeeded.
func (c *faultChurn) writes() int64 { return c.creates.Load() + c.updates.Load() + c.deletes.Load() }

// Stop stops the writers and waits for them. It may be called more than once.
func (c *faultChurn) Stop() {
	c.cancel()
	c.wg.Wait()
}

// String summarises the writes.
func (c *faultChurn) String() string {
	return fmt.Sprintf("%d creates, %d updates, %d deletes, %d failed calls",
		c.creates.Load(), c.updates.Load(), c.deletes.Load(), c.failures.Load())
}

// missingFrom returns the churn's names that state does not hold: the
// objects that were deleted (or never created).
func (c *faultChurn) missingFrom(state map[string]string) []string {
	var gone []string
	for _, name := range c.names {
		if _, ok := state[name]; !ok {
			gone = append(gone, name)
		}
	}
	return gone
}

// faultQueueGauge is the queued-items gauge of an informer's metrics: it keeps
// the largest and the last value set, and how many times it was set.
type faultQueueGauge struct {
	mu              sync.Mutex
	max, last, sets int
}

// Set implements toolscache.GaugeMetric.
func (g *faultQueueGauge) Set(v float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.max, g.last = max(g.max, int(v)), int(v)
	g.sets++
}

// values returns the largest and the last value set, and how many times.
func (g *faultQueueGauge) values() (largest, last, sets int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.max, g.last, g.sets
}

// faultMetricsProvider is an informer metrics provider whose queued-items
// gauge is queued; it ignores the other metrics.
type faultMetricsProvider struct{ queued *faultQueueGauge }

// NewQueuedItemMetric implements toolscache.InformerMetricsProvider.
func (p faultMetricsProvider) NewQueuedItemMetric(toolscache.InformerNameAndResource) toolscache.GaugeMetric {
	return p.queued
}

// NewProcessingLatencyMetric implements toolscache.InformerMetricsProvider.
func (faultMetricsProvider) NewProcessingLatencyMetric(toolscache.InformerNameAndResource) toolscache.HistogramMetric {
	return faultDiscard{}
}

// NewStoreResourceVersionMetric implements toolscache.InformerMetricsProvider.
func (faultMetricsProvider) NewStoreResourceVersionMetric(toolscache.InformerNameAndResource) toolscache.GaugeMetric {
	return faultDiscard{}
}

// faultDiscard is a metric that records nothing.
type faultDiscard struct{}

func (faultDiscard) Set(float64)     {}
func (faultDiscard) Observe(float64) {}
