package shard_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
	clientcache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned"
	shopcontrollers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/controllers/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/informers/externalversions"
	kubeinformers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions"
	shoplisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/listers/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/widgetcontroller"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testcluster"
	rcache "github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/controller"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
)

// The ring of the replicas of TestShardedReplicas.
const (
	ringName      = "widget-operator"
	leaseDuration = 6 * time.Second
	renewPeriod   = time.Second
	// replicaWorkers is each replica's number of reconcile workers.
	replicaWorkers = 4
)

// errKilled is the error of every request of a killed replica.
var errKilled = errors.New("the replica was killed")

// reconcile is one call of a replica's reconciler.
type reconcile struct {
	replica string
	key     rcache.ObjectName
	// generation is the Widget's metadata.generation in the replica's
	// lister when the reconcile started; gone when it was not there.
	generation int64
	start, end time.Time
	err        error
}

// gone is the generation of a reconcile of a key whose Widget the lister
// did not have.
const gone = -1

// reconcileLog is the reconciles of every replica of a test.
type reconcileLog struct {
	mu      sync.Mutex
	entries []reconcile
}

func (l *reconcileLog) add(r reconcile) {
	l.mu.Lock()
	l.entries = append(l.entries, r)
	l.mu.Unlock()
}

// snapshot returns the reconciles so far.
func (l *reconcileLog) snapshot() []reconcile {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.entries)
}

// overlaps describes every pair of reconciles of one key by two replicas
// whose intervals intersect.
func overlaps(entries []reconcile) []string {
	byKey := map[rcache.ObjectName][]reconcile{}
	for _, e := range entries {
		byKey[e.key] = append(byKey[e.key], e)
	}
	var out []string
	for key, es := range byKey {
		sort.Slice(es, func(i, j int) bool { return es[i].start.Before(es[j].start) })
		for i := range es {
			for j := i + 1; j < len(es) && es[j].start.Before(es[i].end); j++ {
				if es[i].replica != es[j].replica {
					out = append(out, fmt.Sprintf("%s: %s reconciled it from %s to %s, %s from %s to %s",
						key, es[i].replica, es[i].start.Format(time.StampMicro), es[i].end.Format(time.StampMicro),
						es[j].replica, es[j].start.Format(time.StampMicro), es[j].end.Format(time.StampMicro)))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// loggingReconciler is the example operator's reconciler, logging every
// reconcile.
type loggingReconciler struct {
	replica *replica
	inner   controller.Reconciler
	widgets shoplisters.WidgetLister
	log     *reconcileLog
}

func (r *loggingReconciler) Reconcile(ctx context.Context, key rcache.ObjectName) (controller.Result, error) {
	if r.replica.dead.Load() {
		// A crashed process runs no code: the worker that took the key
		// between the kill and the end of its context does nothing.
		return controller.Result{}, errKilled
	}
	generation := int64(gone)
	if w, err := r.widgets.Widgets(key.Namespace).Get(key.Name); err == nil {
		generation = w.Generation
	}
	start := time.Now()
	result, err := r.inner.Reconcile(ctx, key)
	r.log.add(reconcile{replica: r.replica.name, key: key, generation: generation, start: start, end: time.Now(), err: err})
	return result, err
}

// replica is one in-process replica of the example Widget operator: its
// own clients (which a kill makes fail), ring member, informer factories
// and controller.
type replica struct {
	name     string
	dead     atomic.Bool
	kube     kubernetes.Interface
	shop     versioned.Interface
	ring     *shard.Ring
	shopInf  externalversions.SharedInformerFactory
	kubeInf  kubeinformers.SharedInformerFactory
	widgets  clientcache.Store // the sharded Widget informer's store
	ctrl     *controller.Controller[*shopv1.Widget]
	registry *prometheus.Registry
	logs     *logRecorder

	lists widgetLists // what its Widget LISTs carried

	statesMu sync.Mutex
	states   []stateChange // every State of the ring member, in order

	cancel   context.CancelFunc
	wg       sync.WaitGroup
	runErr   error // the controller's, once wg is done
	killedAt time.Time
}

// startReplica starts a replica named name (its ring identity) against c,
// with its Leases in ringNamespace. It is stopped when the test ends.
func startReplica(t *testing.T, c *testcluster.Cluster, ringNamespace, name string, log *reconcileLog) *replica {
	t.Helper()
	r := &replica{name: name, registry: prometheus.NewRegistry(), logs: &logRecorder{}}
	config := c.Config()
	config.QPS, config.Burst = 1000, 2000
	config.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripper(func(req *http.Request) (*http.Response, error) {
			if r.dead.Load() {
				return nil, errKilled
			}
			if isWidgetList(req) && req.URL.Query().Get("continue") == "" {
				r.lists.started(time.Now())
			}
			resp, err := rt.RoundTrip(req)
			if err == nil && resp.StatusCode == http.StatusOK && isWidgetList(req) {
				q := req.URL.Query()
				continued, selector := q.Get("continue") != "", q.Get("shardSelector")
				resp.Body = &listBody{ReadCloser: resp.Body, done: func(items int, next string) {
					r.lists.page(continued, selector, items, next)
				}}
			}
			return resp, err
		})
	})
	r.kube = kubernetes.NewForConfigOrDie(config)
	r.shop = versioned.NewForConfigOrDie(config)

	ring, err := shard.NewRing(shard.RingOptions{
		Client:        r.kube.CoordinationV1(),
		Namespace:     ringNamespace,
		Name:          ringName,
		Identity:      name,
		LeaseDuration: leaseDuration,
		RenewPeriod:   renewPeriod,
		Registerer:    r.registry,
	})
	if err != nil {
		t.Fatal(err)
	}
	r.ring = ring
	// The Widgets are sharded by uid; the ConfigMaps are not, as the
	// reconciler finds a Widget's by owner, which uid sharding does not
	// keep together.
	r.shopInf = externalversions.NewSharedInformerFactoryWithOptions(r.shop, 0, informers.WithShardScope(ring.Scope(shard.ByUID)))
	r.kubeInf = kubeinformers.NewSharedInformerFactoryWithOptions(r.kube, 0)

	// As widgetcontroller.New builds it, with a logging reconciler.
	widgets := r.shopInf.Shop().V1().Widgets()
	configMaps := r.kubeInf.Core().V1().ConfigMaps()
	r.widgets = widgets.Informer().GetStore()
	inner := &widgetcontroller.Reconciler{
		Clients:    widgetcontroller.Clients{Shop: r.shop, Kube: r.kube},
		Widgets:    widgets.Lister(),
		ConfigMaps: configMaps.Lister(),
	}
	reconciler := &loggingReconciler{replica: r, inner: inner, widgets: widgets.Lister(), log: log}
	r.ctrl, err = shopcontrollers.NewWidgetController(r.shopInf, reconciler, controller.Options{
		Name:               widgetcontroller.Name + "-" + name,
		SkipNameValidation: true, // both modes run replicas of these names
		Workers:            replicaWorkers,
		GracePeriod:        10 * time.Second,
		Registerer:         r.registry,
		Shard:              ring,
		ShardKey:           shard.ByUID,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := controller.WatchOwned(r.ctrl, configMaps.TypedInformer()); err != nil {
		t.Fatal(err)
	}
	referrers := controller.MapByLookup(func(cm *corev1.ConfigMap) ([]*shopv1.Widget, error) {
		return widgets.Lister().Widgets(cm.Namespace).ByConfigRef(cm.Name)
	})
	if err := controller.Watch(r.ctrl, configMaps.TypedInformer(), referrers); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	ctx = klog.NewContext(ctx, logr.New(&logSink{rec: r.logs}))
	r.cancel = cancel
	r.wg.Go(func() { _ = ring.Run(ctx) })
	r.wg.Go(func() { r.recordStates(ctx) })
	r.shopInf.StartWithContext(ctx)
	r.kubeInf.StartWithContext(ctx)
	r.wg.Go(func() { r.runErr = r.ctrl.Run(ctx) })
	t.Cleanup(func() {
		r.stop()
		if r.runErr != nil {
			t.Errorf("replica %s: %v", r.name, r.runErr)
		}
	})
	return r
}

// isWidgetList reports whether req LISTs Widgets.
func isWidgetList(req *http.Request) bool {
	q := req.URL.Query()
	return req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/widgets") && q.Get("watch") != "true" && q.Get("watch") != "1"
}

// widgetLists counts the Widgets a replica's LISTs carried, page by page.
type widgetLists struct {
	mu       sync.Mutex
	tally    int // the Widgets of the pages so far of the LIST under way
	lists    int // complete LISTs
	last     int // the Widgets of the last complete LIST
	selector string
	starts   []time.Time // when each LIST sent its first page
}

// started records that a LIST sends its first page.
func (l *widgetLists) started(at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.starts = append(l.starts, at)
}

// relistDelays returns, for every change of the replica's active slots
// after after, how long its Widget informer took to start listing again.
func (r *replica) relistDelays(after time.Time) []time.Duration {
	r.lists.mu.Lock()
	starts := slices.Clone(r.lists.starts)
	r.lists.mu.Unlock()
	r.statesMu.Lock()
	defer r.statesMu.Unlock()
	var out []time.Duration
	for i, c := range r.states {
		if i == 0 || c.at.Before(after) || c.state.Generation == r.states[i-1].state.Generation {
			continue
		}
		for _, s := range starts {
			if s.After(c.at) {
				out = append(out, s.Sub(c.at).Round(10*time.Millisecond))
				break
			}
		}
	}
	return out
}

// page counts one page of a LIST: continued unless it is the first, with
// the shard selector it sent, the Widgets it carried, and its continue
// token ("" for the last page).
func (l *widgetLists) page(continued bool, selector string, items int, next string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !continued {
		l.tally = 0
	}
	l.tally += items
	if next == "" {
		l.lists++
		l.last, l.selector = l.tally, selector
	}
}

// lastList returns the Widgets the last complete LIST carried and how many
// LISTs completed.
func (l *widgetLists) lastList() (items, lists int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last, l.lists
}

// listBody reads a JSON list response through, and once it has been read
// to its end calls done with the number of its items and its continue
// token.
type listBody struct {
	io.ReadCloser
	buf  bytes.Buffer
	once sync.Once
	done func(items int, next string)
}

func (b *listBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.buf.Write(p[:n])
	if err == io.EOF {
		b.once.Do(func() {
			var list struct {
				Metadata struct {
					Continue string `json:"continue"`
				} `json:"metadata"`
				Items []json.RawMessage `json:"items"`
			}
			if json.Unmarshal(b.buf.Bytes(), &list) == nil {
				b.done(len(list.Items), list.Metadata.Continue)
			}
		})
	}
	return n, err
}

// stateChange is a State of a ring member and when it began.
type stateChange struct {
	at    time.Time
	state shard.State
}

// recordStates records every State of the replica's ring member until ctx
// ends.
func (r *replica) recordStates(ctx context.Context) {
	for {
		changed := r.ring.Changed()
		st := r.ring.State()
		r.statesMu.Lock()
		r.states = append(r.states, stateChange{at: time.Now(), state: st})
		r.statesMu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
	}
}

// firstState returns when the replica's ring member first was, at or after
// after, in a State that cond holds for; zero when never so far.
func (r *replica) firstState(after time.Time, cond func(shard.State) bool) time.Time {
	r.statesMu.Lock()
	defer r.statesMu.Unlock()
	for i, c := range r.states {
		// The State that began before after still held at after.
		if i+1 < len(r.states) && !r.states[i+1].at.After(after) {
			continue
		}
		if cond(c.state) {
			return later(c.at, after)
		}
	}
	return time.Time{}
}

// memberViews returns the distinct member lists the replica's ring member
// saw, in order, with when each began relative to begin.
func (r *replica) memberViews(begin time.Time) string {
	r.statesMu.Lock()
	defer r.statesMu.Unlock()
	var out []string
	var last []string
	for _, c := range r.states {
		if c.state.Members == nil || slices.Equal(c.state.Members, last) {
			continue
		}
		last = c.state.Members
		out = append(out, fmt.Sprintf("%v at %v", c.state.Members, c.at.Sub(begin).Round(time.Millisecond)))
	}
	return strings.Join(out, ", ")
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// stop ends the replica's contexts and waits for all it runs to return.
// It may be called more than once.
func (r *replica) stop() {
	r.cancel()
	r.wg.Wait()
	r.shopInf.Shutdown()
	r.kubeInf.Shutdown()
}

// kill stops the replica as a crash would: from now on every request of
// its clients fails, so that it neither reconciles nor deletes its Lease,
// and its contexts end. It returns the moment of the kill, once everything
// the replica ran has returned.
func (r *replica) kill() time.Time {
	r.dead.Store(true)
	r.killedAt = time.Now()
	r.stop()
	return r.killedAt
}

// cachedKeys returns the keys of the Widgets the replica's informer holds.
func (r *replica) cachedKeys() []string { return r.widgets.ListKeys() }

// counter returns the value of the replica's controller counter name, 0
// when it has none.
func (r *replica) counter(name string) float64 {
	families, err := r.registry.Gather()
	if err != nil {
		return -1
	}
	var sum float64
	for _, f := range families {
		if f.GetName() == name {
			for _, m := range f.GetMetric() {
				sum += m.GetCounter().GetValue()
			}
		}
	}
	return sum
}

// logRecorder keeps what a replica logs: how often each message came, the
// messages of the sharded informers' mode, and the first errors.
type logRecorder struct {
	mu     sync.Mutex
	counts map[string]int
	modes  []string
	errors []string
	nerrs  int
}

// maxErrors is how many error lines a logRecorder keeps.
const maxErrors = 20

func (l *logRecorder) info(msg string, kv []any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.counts == nil {
		l.counts = map[string]int{}
	}
	l.counts[msg]++
	if strings.HasPrefix(msg, "Sharded informer:") {
		l.modes = append(l.modes, fmt.Sprintf("%s %v", msg, kv))
	}
}

func (l *logRecorder) error(err error, msg string, kv []any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.nerrs++
	if len(l.errors) < maxErrors {
		l.errors = append(l.errors, fmt.Sprintf("%s: %v %v", msg, err, kv))
	}
}

// modeLines returns the mode messages of the sharded informers.
func (l *logRecorder) modeLines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.modes)
}

// errorSummary returns the number of errors logged and the first ones.
func (l *logRecorder) errorSummary() (int, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.nerrs, slices.Clone(l.errors)
}

// logSink is a logr.LogSink that records into a logRecorder, at V(0) only,
// and writes nothing: the replicas log a line per ConfigMap they write.
type logSink struct {
	rec    *logRecorder
	values []any
}

func (s *logSink) Init(logr.RuntimeInfo)  {}
func (s *logSink) Enabled(level int) bool { return level == 0 }
func (s *logSink) Info(_ int, msg string, kv ...any) {
	s.rec.info(msg, append(slices.Clone(s.values), kv...))
}
func (s *logSink) Error(err error, msg string, kv ...any) {
	s.rec.error(err, msg, append(slices.Clone(s.values), kv...))
}
func (s *logSink) WithValues(kv ...any) logr.LogSink {
	return &logSink{rec: s.rec, values: append(slices.Clone(s.values), kv...)}
}
func (s *logSink) WithName(string) logr.LogSink { return s }
