package shard_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testcluster"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testwait"
	rcache "github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
)

const (
	// fleetWidgets Widgets are spread over fleetNamespaces namespaces.
	fleetWidgets    = 3000
	fleetNamespaces = 30
	// fleetWriters is how many Widgets the test writes at once.
	fleetWriters = 8
	// settleTimeout bounds the wait for the ring and the informers to
	// settle after a replica comes or goes.
	settleTimeout = time.Minute
	// reconcileTimeout bounds the wait for every Widget to be reconciled.
	reconcileTimeout = 3 * time.Minute
	// takeOverBound is how soon after a replica's crash the survivors must
	// have reconciled its Widgets: its Lease expires LeaseDuration after
	// its last renewal, and 10 s are left for the survivors to list and
	// reconcile.
	takeOverBound = leaseDuration + 10*time.Second
	// maxMoved is the most slots that may change owner when a fourth
	// replica joins three: its share is 16 of the 64, and bounded-load
	// rendezvous hashing moves a few more (Assign).
	maxMoved = 0.35
	// pollEvery spaces the checks of the test's waits, which scan every
	// Widget and every reconcile.
	pollEvery = 200 * time.Millisecond
)

// TestShardedReplicas runs replicas of the example Widget operator in this
// process, sharded by uid through a ring of Leases, against a real
// kube-apiserver and etcd: with server-side sharded lists and watches (the
// package's cluster, with the ShardedListAndWatch gate: each replica's
// LISTs carry its share only), and with a server without the gate, where
// the replicas' informers list and watch every Widget and keep their share
// themselves.
//
// Three replicas reconcile 3,000 Widgets in 30 namespaces: every Widget is
// reconciled at its generation, never by two replicas at once, each
// informer caches exactly the Widgets of its replica's slots (about a
// third), and the members agree on the ring. One replica then crashes (its
// requests fail, its Lease stays): the survivors take its slots over once
// the Lease expires and reconcile each of its Widgets at its latest
// generation (a tenth of them changed after the crash) within
// LeaseDuration + 10 s. A replacement joins, then a fourth
// replica while every Widget changes: at most 35% of the slots move, the
// new replica caches about a quarter, and every Widget is reconciled at its
// new generation, still never by two replicas at once.
func TestShardedReplicas(t *testing.T) {
	t.Run("server-side", func(t *testing.T) {
		testReplicas(t, cluster, true)
	})
	t.Run("client-side", func(t *testing.T) {
		plain := testcluster.StartForTest(t, testcluster.Options{})
		testReplicas(t, plain, false)
	})
}

func testReplicas(t *testing.T, c *testcluster.Cluster, serverSide bool) {
	ctx := t.Context()
	crdCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := c.InstallCRDs(crdCtx, filepath.Join("..", "..", "..", "examples", "config", "crd")); err != nil {
		t.Fatal(err)
	}
	f := newFleet(t, c)
	namespaces := newNamespaces(t, c, fleetNamespaces)
	ringNamespace := c.NewNamespace(t)
	if serverSide {
		// The package's cluster outlives the test: empty its namespaces
		// (nothing does once they are deleted), after the replicas have
		// stopped (cleanups run last first).
		t.Cleanup(func() { f.deleteAll(namespaces) })
	}
	begin := time.Now()
	f.createWidgets(namespaces)
	t.Logf("created %d Widgets in %d namespaces in %v", fleetWidgets, len(namespaces), since(begin))

	// Three replicas.
	start := func(name string) *replica { return startReplica(t, c, ringNamespace, name, &f.log) }
	begin = time.Now()
	replicas := []*replica{start("replica-a"), start("replica-b"), start("replica-c")}
	owners3 := f.waitSettled("three replicas", replicas, begin)
	done := f.waitReconciled("every Widget reconciled by three replicas", f.all(), time.Time{}, nil, reconcileTimeout)
	t.Logf("three replicas: every Widget reconciled %v after the start", done.Sub(begin).Round(time.Millisecond))
	f.checkNoOverlap("three replicas")
	f.checkShares(replicas)
	f.checkLists("three replicas", replicas, serverSide)

	// A crash: replica-b's requests fail from now on, and its contexts end.
	victim, survivors := replicas[1], []*replica{replicas[0], replicas[2]}
	lost := victim.ring.State().Active
	orphans := f.in(lost)
	killedAt := victim.kill()
	t.Logf("killed %s, which owned %d slots and %d Widgets", victim.name, len(lost), len(orphans))
	// A tenth of its Widgets change meanwhile: the survivors must reconcile
	// the new generation of those, and the others at the generation they
	// had (the adds of the LIST after the survivors gained the slots).
	// Changing all of them would measure how fast two cores write a
	// thousand statuses, not how fast the slots are handed over.
	var changed []*widgetRecord
	for i, w := range orphans {
		if i%10 == 0 {
			changed = append(changed, w)
		}
	}
	begin = time.Now()
	if err := f.bump(changed, 1); err != nil {
		t.Fatal(err)
	}
	t.Logf("crash: bumped the generation of %d of the %d Widgets of %s in %v", len(changed), len(orphans), victim.name, since(begin))
	owners2 := f.waitSettled("two survivors", survivors, killedAt)
	var expired time.Time
	for _, r := range survivors {
		at := r.firstState(killedAt, func(st shard.State) bool { return !slices.Contains(st.Members, victim.name) })
		expired = later(expired, at)
	}
	t.Logf("crash: both survivors dropped %s from the ring %v after the kill", victim.name, expired.Sub(killedAt).Round(time.Millisecond))
	done = f.waitReconciled("every Widget of the crashed replica reconciled at its latest generation by a survivor",
		orphans, killedAt, names(survivors), takeOverBound+30*time.Second)
	takeOver := done.Sub(killedAt)
	t.Logf("crash: the survivors reconciled every Widget of %s at its latest generation %v after the kill (bound %v)",
		victim.name, takeOver.Round(time.Millisecond), takeOverBound)
	if takeOver > takeOverBound {
		t.Errorf("the survivors took %v to reconcile the crashed replica's Widgets; want at most %v", takeOver, takeOverBound)
	}
	t.Logf("crash: %d of %d slots changed owner", moved(owners3, owners2), slots)
	f.checkCrashed(victim, ringNamespace)
	f.checkNoOverlap("after the crash")

	// A replacement for the crashed replica (a new pod, a new identity):
	// three live members again, then a fourth joins them.
	begin = time.Now()
	three := []*replica{replicas[0], replicas[2], start("replica-d")}
	owners3 = f.waitSettled("a replacement joined", three, begin)
	t.Logf("replacement: %d of %d slots changed owner; its members: %s", moved(owners2, owners3), slots, three[2].memberViews(begin))

	begin = time.Now()
	fourth := start("replica-e")
	four := append(slices.Clone(three), fourth)
	// Every Widget changes while the fourth replica joins, so that slots
	// are handed over while their Widgets are being reconciled.
	var bumped sync.WaitGroup
	var bumpErr error
	var bumpTook time.Duration
	bumped.Go(func() {
		bumpErr = f.bump(f.all(), 2)
		bumpTook = since(begin)
	})
	t.Cleanup(bumped.Wait) // when the test fails first; its context ends the writes
	owners4 := f.waitSettled("a fourth replica joined", four, begin)
	t.Logf("fourth replica: its members: %s", fourth.memberViews(begin))
	bumped.Wait()
	if bumpErr != nil {
		t.Fatal(bumpErr)
	}
	t.Logf("fourth replica: bumped the generation of every Widget in %v", bumpTook)
	n := moved(owners3, owners4)
	t.Logf("fourth replica: %d of %d slots (%.0f%%) changed owner", n, slots, 100*float64(n)/slots)
	if float64(n) > maxMoved*slots {
		t.Errorf("%d of %d slots changed owner when a fourth replica joined three; want at most %.0f%%", n, slots, 100*maxMoved)
	}
	done = f.waitReconciled("every Widget reconciled at its new generation by four replicas", f.all(), begin, names(four), reconcileTimeout)
	t.Logf("fourth replica: every Widget reconciled at its new generation %v after it started", done.Sub(begin).Round(time.Millisecond))
	f.checkShares(four)
	f.checkLists("four replicas", four, serverSide)
	f.checkNoOverlap("four replicas")
	f.checkStatus()
	// The informers tell the modes apart by the server's echo of the
	// selector (ListMeta.ShardInfo).
	echoes := f.echoesShardInfo()
	if serverSide && !echoes {
		t.Logf("NOTE: the server selects the Widgets by shard (each replica's LISTs carried only its share) but echoes no shardInfo " +
			"in lists of custom resources, so the informers take it for a server without ShardedListAndWatch and filter again what it selected")
	}
	f.checkModes(append(slices.Clone(replicas), three[2], fourth), serverSide && echoes)
	for _, r := range append(slices.Clone(replicas), three[2], fourth) {
		nerrs, first := r.logs.errorSummary()
		t.Logf("%s: %d reconciles, %v keys let go as another replica's, %v slots gained or lost, Widget informer relisted %v after each change of its slots, %d errors logged %s",
			r.name, f.reconciles(r.name), r.counter("controller_shard_skipped_total"), r.counter("shard_handovers_total"), r.relistDelays(time.Time{}), nerrs, short(first))
	}
}

// widgetRecord is what the test knows of one of its Widgets.
type widgetRecord struct {
	key  rcache.ObjectName
	uid  types.UID
	slot int
	// generation is the Widget's latest generation; guarded by fleet.mu.
	generation int64
}

// fleet is a test's Widgets, its clients, and the reconciles of its
// replicas.
type fleet struct {
	t    *testing.T
	kube kubernetes.Interface
	shop versioned.Interface
	log  reconcileLog

	mu      sync.Mutex
	widgets []*widgetRecord
}

func newFleet(t *testing.T, c *testcluster.Cluster) *fleet {
	config := c.Config()
	config.QPS, config.Burst = 1000, 2000
	return &fleet{t: t, kube: kubernetes.NewForConfigOrDie(config), shop: versioned.NewForConfigOrDie(config)}
}

// all returns every Widget.
func (f *fleet) all() []*widgetRecord { return f.widgets }

// in returns the Widgets in the given slots.
func (f *fleet) in(owned []int) []*widgetRecord {
	var out []*widgetRecord
	for _, w := range f.widgets {
		if slices.Contains(owned, w.slot) {
			out = append(out, w)
		}
	}
	return out
}

// each calls fn for every index below n on fleetWriters goroutines, and
// returns the first error; no more calls start after it.
func (f *fleet) each(n int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancelCause(f.t.Context())
	defer cancel(nil)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range fleetWriters {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				if err := fn(ctx, i); err != nil {
					cancel(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return context.Cause(ctx)
}

// createWidgets creates fleetWidgets Widgets, spread in turn over
// namespaces. Their spec renders without a referenced ConfigMap.
func (f *fleet) createWidgets(namespaces []string) {
	f.t.Helper()
	colors := []string{"red", "green", "blue"}
	f.widgets = make([]*widgetRecord, fleetWidgets)
	err := f.each(fleetWidgets, func(ctx context.Context, i int) error {
		w := &shopv1.Widget{
			ObjectMeta: metav1.ObjectMeta{Namespace: namespaces[i%len(namespaces)], Name: fmt.Sprintf("w-%04d", i)},
			Spec: shopv1.WidgetSpec{
				WidgetIdentity: shopv1.WidgetIdentity{SKU: fmt.Sprintf("sku-%04d", i)},
				Color:          colors[i%len(colors)],
				Size:           int32(i % 7),
			},
		}
		created, err := f.shop.ShopV1().Widgets(w.Namespace).Create(ctx, w, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("creating Widget %s/%s: %w", w.Namespace, w.Name, err)
		}
		f.widgets[i] = &widgetRecord{
			key:        rcache.ObjectName{Namespace: created.Namespace, Name: created.Name},
			uid:        created.UID,
			slot:       shard.SlotOf(shard.Hash(string(created.UID)), slots),
			generation: created.Generation,
		}
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
}

// bump sets the revision of every Widget of ws to round, so that each has
// a new generation to reconcile: the operator records it in the status
// (spec.revision is not rendered into the ConfigMap, which stays as it is:
// one write per Widget, to keep the test's load within what two cores
// serve in the time it measures).
func (f *fleet) bump(ws []*widgetRecord, round int) error {
	return f.each(len(ws), func(ctx context.Context, i int) error {
		w := ws[i]
		patch := fmt.Sprintf(`{"spec":{"revision":%d}}`, round)
		updated, err := f.shop.ShopV1().Widgets(w.key.Namespace).Patch(ctx, w.key.Name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		if err != nil {
			return fmt.Errorf("changing Widget %s: %w", w.key, err)
		}
		f.mu.Lock()
		w.generation = max(w.generation, updated.Generation)
		f.mu.Unlock()
		return nil
	})
}

// generations returns the latest generation of every Widget of ws.
func (f *fleet) generations(ws []*widgetRecord) map[rcache.ObjectName]int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[rcache.ObjectName]int64, len(ws))
	for _, w := range ws {
		out[w.key] = w.generation
	}
	return out
}

// poll calls check every pollEvery until it returns "", failing the test
// after timeout.
func poll(t *testing.T, timeout time.Duration, what string, check func() string) {
	t.Helper()
	var last time.Time
	testwait.For(t, timeout, what, func() string {
		if wait := pollEvery - time.Since(last); !last.IsZero() && wait > 0 {
			time.Sleep(wait)
		}
		last = time.Now()
		return check()
	})
}

// waitReconciled waits until every Widget of ws has been reconciled at its
// latest generation, successfully, in a reconcile that started at or after
// after, by one of the replicas named in by (any when nil), and returns
// when the last of those reconciles ended (the first of each Widget).
func (f *fleet) waitReconciled(what string, ws []*widgetRecord, after time.Time, by map[string]bool, timeout time.Duration) time.Time {
	f.t.Helper()
	var last time.Time
	poll(f.t, timeout, what, func() string {
		want := f.generations(ws)
		first := make(map[rcache.ObjectName]time.Time, len(want))
		for _, e := range f.log.snapshot() {
			if e.err != nil || e.start.Before(after) || (by != nil && !by[e.replica]) {
				continue
			}
			if g, ok := want[e.key]; ok && e.generation == g {
				if end, seen := first[e.key]; !seen || e.end.Before(end) {
					first[e.key] = e.end
				}
			}
		}
		if len(first) < len(want) {
			var missing []string
			for k := range want {
				if _, ok := first[k]; !ok {
					missing = append(missing, k.String())
				}
			}
			sort.Strings(missing)
			return fmt.Sprintf("%d of %d reconciled; not yet %s", len(first), len(want), short(missing))
		}
		last = time.Time{}
		for _, end := range first {
			if end.After(last) {
				last = end
			}
		}
		return ""
	})
	return last
}

// waitSettled waits until the live replicas agree on the ring (they are
// its members, each works on all its assigned slots, their active slots
// are disjoint and cover every slot, as Assign splits them) and each one's
// Widget informer holds exactly the Widgets of its slots; it logs how long
// that took from begin and what each replica caches, and returns the owner
// of every slot.
func (f *fleet) waitSettled(what string, live []*replica, begin time.Time) []string {
	f.t.Helper()
	var owners []string
	poll(f.t, settleTimeout, "the ring and the informers to settle: "+what, func() string {
		var msg string
		owners, msg = ringSettled(live)
		if msg != "" {
			return msg
		}
		return f.cachesSettled(live)
	})
	settled := since(begin)
	total := 0
	var counts []string
	for _, r := range live {
		n := len(r.cachedKeys())
		total += n
		counts = append(counts, fmt.Sprintf("%s %d (%d slots)", r.name, n, len(r.ring.State().Active)))
	}
	f.t.Logf("%s: settled in %v; cached Widgets: %s; %d in all", what, settled, strings.Join(counts, ", "), total)
	if total != len(f.widgets) {
		f.t.Errorf("%s: the replicas cache %d Widgets in all; want %d", what, total, len(f.widgets))
	}
	return owners
}

// ringSettled returns the owner of every slot when the live replicas agree
// on the ring, and otherwise what they disagree on.
func ringSettled(live []*replica) ([]string, string) {
	members := names(live)
	want := make([]string, 0, len(live))
	for name := range members {
		want = append(want, name)
	}
	slices.Sort(want)
	assignment, err := shard.Assign(want, slots)
	if err != nil {
		return nil, err.Error()
	}
	owners := make([]string, slots)
	for _, r := range live {
		st := r.ring.State()
		switch {
		case !slices.Equal(st.Members, want):
			return nil, fmt.Sprintf("%s sees the members %v; want %v", r.name, st.Members, want)
		case st.Slots != slots:
			return nil, fmt.Sprintf("%s has %d slots; want %d", r.name, st.Slots, slots)
		case !slices.Equal(st.Active, st.Assigned):
			return nil, fmt.Sprintf("%s works on slots %v of its assigned %v", r.name, st.Active, st.Assigned)
		}
		for _, s := range st.Active {
			if owners[s] != "" {
				return nil, fmt.Sprintf("slot %d is active on %s and %s", s, owners[s], r.name)
			}
			owners[s] = r.name
		}
	}
	for s, o := range owners {
		if o == "" {
			return nil, fmt.Sprintf("slot %d is active nowhere", s)
		}
		if o != assignment.Owners[s] {
			return nil, fmt.Sprintf("slot %d is active on %s; Assign(%v) gives it to %s", s, o, want, assignment.Owners[s])
		}
	}
	return owners, ""
}

// cachesSettled returns "" when each replica's Widget informer holds
// exactly the Widgets of its active slots, and otherwise the first
// difference.
func (f *fleet) cachesSettled(live []*replica) string {
	for _, r := range live {
		active := r.ring.State().Active
		want := map[string]bool{}
		for _, w := range f.in(active) {
			want[w.key.String()] = true
		}
		got := r.cachedKeys()
		var extra []string
		for _, k := range got {
			if !want[k] {
				extra = append(extra, k)
			}
			delete(want, k)
		}
		if len(extra) > 0 || len(want) > 0 {
			missing := make([]string, 0, len(want))
			for k := range want {
				missing = append(missing, k)
			}
			sort.Strings(missing)
			sort.Strings(extra)
			return fmt.Sprintf("%s caches %d Widgets: %d of other slots %s, %d of its slots missing %s",
				r.name, len(got), len(extra), short(extra), len(missing), short(missing))
		}
	}
	return ""
}

// checkShares checks that each replica caches about its share of the
// Widgets. Uids are random, so the number of Widgets in a replica's k of
// the 64 slots is binomial: n·k/64 on average with a standard deviation of
// √(n·p·(1−p)), p = k/64; about 26 for n = 3,000 and a third of the slots,
// 24 for a quarter. 64 slots do not split in thirds: with three replicas
// one gets 22 slots (1,031 Widgets on average, 1,100 is only 2.6 standard
// deviations away) and two get 21 (984). So the test allows each replica
// its slots' share of the Widgets ± 10%, or ± 4 standard deviations when
// that is wider (a quarter: 750 ± 95), which a fair split misses about
// once in 10,000 runs; the exact check (it caches the Widgets of its slots
// and no other) is waitSettled's.
func (f *fleet) checkShares(live []*replica) {
	f.t.Helper()
	n := float64(len(f.widgets))
	var counts []string
	for _, r := range live {
		k := len(r.ring.State().Active)
		p := float64(k) / slots
		mean := n * p
		tolerance := max(0.1*mean, 4*math.Sqrt(n*p*(1-p)))
		got := len(r.cachedKeys())
		counts = append(counts, fmt.Sprintf("%s %d of %d (%.1f%%; %d slots, %.0f±%.0f expected)", r.name, got, len(f.widgets), 100*float64(got)/n, k, mean, tolerance))
		if math.Abs(float64(got)-mean) > tolerance {
			f.t.Errorf("%s caches %d Widgets in %d slots; want %.0f ± %.0f", r.name, got, k, mean, tolerance)
		}
		if want := 1 / float64(len(live)); math.Abs(p-want) > 1.0/slots {
			f.t.Errorf("%s owns %d slots; want %.0f of %d members", r.name, k, want*slots, len(live))
		}
	}
	f.t.Logf("shares: %s", strings.Join(counts, "; "))
}

// checkLists checks what each replica's last Widget LIST carried: with
// server-side sharding the Widgets of its slots only, as many as it caches;
// without, every Widget, of which its informer kept its share.
func (f *fleet) checkLists(what string, live []*replica, serverSide bool) {
	f.t.Helper()
	var figures []string
	for _, r := range live {
		items, lists := r.lists.lastList()
		cached := len(r.cachedKeys())
		want := len(f.widgets)
		if serverSide {
			want = cached
		}
		figures = append(figures, fmt.Sprintf("%s %d (caches %d; %d LISTs in all)", r.name, items, cached, lists))
		if items != want {
			f.t.Errorf("%s: the last Widget LIST of %s carried %d Widgets; want %d", what, r.name, items, want)
		}
	}
	f.t.Logf("%s: Widgets in each replica's last LIST: %s", what, strings.Join(figures, ", "))
}

// echoesShardInfo reports whether the server echoes the shard selector of
// a LIST of Widgets.
func (f *fleet) echoesShardInfo() bool {
	f.t.Helper()
	sel, err := shard.Selector(shard.ByUID, []int{0}, slots)
	if err != nil {
		f.t.Fatal(err)
	}
	list, err := f.shop.ShopV1().Widgets("").List(f.t.Context(), metav1.ListOptions{ShardSelector: sel.String(), Limit: 1})
	if err != nil {
		f.t.Fatal(err)
	}
	return list.ShardInfo != nil
}

// checkNoOverlap fails the test when two replicas reconciled one Widget at
// overlapping times.
func (f *fleet) checkNoOverlap(what string) {
	f.t.Helper()
	entries := f.log.snapshot()
	if o := overlaps(entries); len(o) > 0 {
		f.t.Errorf("%s: %d overlapping reconciles of one Widget by two replicas: %s", what, len(o), short(o))
		return
	}
	f.t.Logf("%s: no overlap in %d reconciles", what, len(entries))
}

// checkCrashed checks that the crashed replica reconciled nothing after the
// kill beyond what was in flight, and that its Lease is still there, as a
// crash leaves it.
func (f *fleet) checkCrashed(victim *replica, ringNamespace string) {
	f.t.Helper()
	var lastEnd time.Time
	for _, e := range f.log.snapshot() {
		if e.replica != victim.name {
			continue
		}
		if e.start.After(victim.killedAt) {
			f.t.Errorf("%s started reconciling %s %v after it was killed", victim.name, e.key, e.start.Sub(victim.killedAt))
		}
		if e.end.After(lastEnd) {
			lastEnd = e.end
		}
	}
	f.t.Logf("crash: the last reconcile of %s ended %v after the kill", victim.name, lastEnd.Sub(victim.killedAt))
	lease, err := f.kube.CoordinationV1().Leases(ringNamespace).Get(f.t.Context(), ringName+"-"+victim.name, metav1.GetOptions{})
	if err != nil {
		f.t.Errorf("the crashed replica's Lease: %v", err)
		return
	}
	if lease.Spec.RenewTime != nil && lease.Spec.RenewTime.After(victim.killedAt) {
		f.t.Errorf("the crashed replica's Lease was renewed at %v, after the kill at %v", lease.Spec.RenewTime, victim.killedAt)
	}
}

// checkStatus checks on the server that every Widget's status reports its
// current generation rendered.
func (f *fleet) checkStatus() {
	f.t.Helper()
	list, err := f.shop.ShopV1().Widgets("").List(f.t.Context(), metav1.ListOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	ours := map[rcache.ObjectName]bool{}
	for _, w := range f.widgets {
		ours[w.key] = true
	}
	var wrong []string
	seen := 0
	for i := range list.Items {
		w := &list.Items[i]
		if !ours[rcache.ObjectName{Namespace: w.Namespace, Name: w.Name}] {
			continue
		}
		seen++
		if w.Status.ObservedGeneration != w.Generation || w.Status.Phase != shopv1.WidgetReady {
			wrong = append(wrong, fmt.Sprintf("%s/%s: generation %d, status %s of generation %d", w.Namespace, w.Name, w.Generation, w.Status.Phase, w.Status.ObservedGeneration))
		}
	}
	if seen != len(f.widgets) || len(wrong) > 0 {
		f.t.Errorf("the server has %d of the %d Widgets; %d not rendered at their generation: %s", seen, len(f.widgets), len(wrong), short(wrong))
	}
}

// checkModes checks that each replica's Widget informer logged the mode
// the server allows: selected by the server, or filtered by the informer.
func (f *fleet) checkModes(all []*replica, serverSide bool) {
	f.t.Helper()
	want, other := "Sharded informer: the server selects", "Sharded informer: the server does not say"
	if !serverSide {
		want, other = other, want
	}
	for _, r := range all {
		lines := r.logs.modeLines()
		ok := len(lines) > 0
		for _, l := range lines {
			ok = ok && strings.HasPrefix(l, want) && !strings.HasPrefix(l, other)
		}
		if !ok {
			f.t.Errorf("%s logged the modes %q; want %q only", r.name, lines, want)
		}
	}
	f.t.Logf("informer mode: %q", all[0].logs.modeLines())
}

// reconciles returns how many reconciles the replica named name ran.
func (f *fleet) reconciles(name string) int {
	n := 0
	for _, e := range f.log.snapshot() {
		if e.replica == name {
			n++
		}
	}
	return n
}

// deleteAll deletes the Widgets and ConfigMaps of namespaces.
func (f *fleet) deleteAll(namespaces []string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, ns := range namespaces {
		if err := f.shop.ShopV1().Widgets(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
			f.t.Logf("deleting the Widgets of %s: %v", ns, err)
		}
		if err := f.kube.CoreV1().ConfigMaps(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
			f.t.Logf("deleting the ConfigMaps of %s: %v", ns, err)
		}
	}
}

// names returns the set of the replicas' names.
func names(rs []*replica) map[string]bool {
	out := make(map[string]bool, len(rs))
	for _, r := range rs {
		out[r.name] = true
	}
	return out
}

// moved returns how many slots have another owner in after than in before.
func moved(before, after []string) int {
	n := 0
	for s := range before {
		if before[s] != after[s] {
			n++
		}
	}
	return n
}

// since is the time since t, rounded to the millisecond.
func since(t time.Time) time.Duration { return time.Since(t).Round(time.Millisecond) }
