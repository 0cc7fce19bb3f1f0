package store

// Differential test of the store against client-go's indexer across every
// size threshold of the index buckets, with readers running concurrently.
//
// differential_test.go holds at most about 120 objects, so its buckets never
// leave their small forms. Here one writer drives both stores through
// phases, each of which sets how many "hot" pods (label app=web, node-1
// nine times in ten, image nginx, Running nine times in ten) and how many
// other pods each namespace holds. The phases take the app=web bucket, and
// with it those of node-1, nginx, Running and of the largest namespace,
// past every threshold of index.go and idset.go, in both directions, three
// times:
//
//   - to largeBucket members (still sorted) and one more (grouped by
//     namespace), and from a large grouped bucket;
//   - to smallBucket+1 members (still grouped) and smallBucket (sorted
//     again), and from a large sorted one, whose run gives back capacity;
//   - inside a grouped bucket, namespace groups past smallSetMax members (a
//     map) and down to smallSetMin (a slice again);
//   - namespaces emptied, so released, while the bucket is grouped and while
//     it is sorted, and new ones taking their ids in both forms;
//   - a Replace of the whole content while the buckets are grouped;
//   - at the end, the store emptied (then like a new one) and filled again.
//
// The roles (largest namespace, ...) rotate over the namespaces from one
// round to the next. After every phase the writer checks the store's
// internal invariants (checkStoreInvariants), that the app=web bucket and
// its namespace groups are in the form their sizes call for, and compares
// every read with client-go's: diffRun.compare (lists, keys, every index
// value, lookups in a sample of namespaces, the view, the listers, random
// selectors, gets) plus, for every index value, ByIndexInNamespace in every
// namespace and IndexedObjects in all and in one sampled namespace, and in
// every namespace ListNamespace and Select with a set of selectors.
//
// Meanwhile readers check what holds at every instant, whatever the writer
// is doing, since every read takes one read lock and stored objects are
// never mutated: each answer lists each key once, never nil, only objects of
// the namespace asked for and matching the value or selector asked for, and
// always every "pinned" pod, which are stored before the readers start and
// never written again. Readers pause a little between reads, so that the
// writer, which waits for every read lock, keeps going under -race.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
)

// Namespaces of the threshold test: the four persistent ones hold pinned
// pods and are never emptied; the two transient ones come and go.
var (
	thresholdPersistent = diffNamespaces // alpha, beta, gamma, delta
	thresholdTransient  = []string{"epsilon", "zeta"}
	thresholdNamespaces = append(slices.Clone(thresholdPersistent), thresholdTransient...)
)

const (
	pinnedPerNamespace = 3
	thresholdRounds    = 3
)

// Roles of the namespaces in a phase: four persistent, two transient.
const (
	big = iota
	mid
	small
	tiny
	t1
	t2
	roles
)

// census is what a namespace holds: hot pods (pinned ones included) and
// others.
type census struct{ hot, cold int }

// thresholdPhase sets the census of every role, and what the app=web bucket
// must then look like: grouped or sorted, and for a grouped one, which
// roles' groups are maps (true) or slices (false).
type thresholdPhase struct {
	name      string
	census    [roles]census
	grouped   bool
	groupMaps map[int]bool
	replace   bool // Replace the whole content after the phase
}

// thresholdPhases take the app=web bucket through every threshold; the hot
// totals are in the names.
var thresholdPhases = []thresholdPhase{
	{
		name:      "grow past largeBucket (1,263)",
		census:    [roles]census{big: {900, 150}, mid: {300, 50}, small: {40, 10}, tiny: {3, 5}, t1: {20, 5}},
		grouped:   true,
		groupMaps: map[int]bool{big: true, mid: true, small: true, tiny: false, t1: false},
		replace:   true,
	},
	{
		name:      "groups cross smallSetMin and smallSetMax, t1 released while grouped (945)",
		census:    [roles]census{big: {560, 150}, mid: {300, 50}, small: {10, 10}, tiny: {45, 5}, t2: {30, 5}},
		grouped:   true,
		groupMaps: map[int]bool{big: true, mid: true, small: false, tiny: true, t2: false},
	},
	{
		// Every namespace shrinks or stays: the bucket never goes below 513
		// on the way, so it stays grouped.
		name:      "smallBucket+1 (513)",
		census:    [roles]census{big: {300, 150}, mid: {128, 40}, small: {10, 10}, tiny: {45, 5}, t2: {30, 5}},
		grouped:   true,
		groupMaps: map[int]bool{big: true, mid: true, small: false, tiny: true, t2: false},
	},
	{
		name:    "smallBucket (512)",
		census:  [roles]census{big: {300, 150}, mid: {127, 40}, small: {10, 10}, tiny: {45, 5}, t2: {30, 5}},
		grouped: false,
	},
	{
		name:    "sorted, t2 released and t1 back while sorted (316)",
		census:  [roles]census{big: {200, 20}, mid: {3, 40}, small: {60, 10}, tiny: {3, 5}, t1: {50, 5}},
		grouped: false,
	},
	{
		name:    "largeBucket (1,024)",
		census:  [roles]census{big: {700, 20}, mid: {150, 40}, small: {60, 10}, tiny: {64, 5}, t1: {50, 5}},
		grouped: false,
	},
	{
		name:      "largeBucket+1, t2 back while grouped (1,025)",
		census:    [roles]census{big: {700, 20}, mid: {150, 40}, small: {60, 10}, tiny: {64, 5}, t1: {50, 5}, t2: {1, 0}},
		grouped:   true,
		groupMaps: map[int]bool{big: true, mid: true, small: true, tiny: true, t1: true, t2: false},
	},
	{
		name:    "drain to the pinned pods (12)",
		census:  [roles]census{big: {3, 0}, mid: {3, 0}, small: {3, 0}, tiny: {3, 0}},
		grouped: false,
	},
}

func TestThresholdDifferentialStoreMatchesClientGoIndexer(t *testing.T) {
	r := newThresholdRun(t, 1)
	defer r.reportPanic()
	r.run()
}

// thresholdRun is the writer's state: a diffRun (both stores, the log, the
// comparisons) and the pods it may write, by namespace.
type thresholdRun struct {
	*diffRun
	hot, cold map[string][]string // writable names, pinned ones excluded
	names     int                 // names handed out
	pinned    map[string][]*corev1.Pod
	allPinned []*corev1.Pod
	roleNS    [roles]string // the namespace of each role in the current round
	writing   atomic.Bool   // set while the writer is reaching a phase
	// forms counts, by "index/value", the switches of a bucket between the
	// sorted and grouped forms seen from one phase to the next.
	forms map[string]*formCount
}

type formCount struct {
	last     string // "sorted", "grouped" or "" (no bucket)
	up, down int
}

func newThresholdRun(t *testing.T, seed uint64) *thresholdRun {
	d := newDiffRun(t, seed, labelRequirements(t))
	d.reproduce = "go test -race -run '^TestThresholdDifferentialStoreMatchesClientGoIndexer$' ./runtime/cache/internal/store/"
	return &thresholdRun{
		diffRun: d,
		hot:     map[string][]string{},
		cold:    map[string][]string{},
		pinned:  map[string][]*corev1.Pod{},
		forms:   map[string]*formCount{},
	}
}

func (r *thresholdRun) run() {
	r.addLateIndexes() // phase and team, so that both label indexes are there
	for _, ns := range thresholdPersistent {
		for i := range pinnedPerNamespace {
			p := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprint("pin-", i), Labels: map[string]string{"app": "web", "team": "red"}},
				Spec:       corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "c0", Image: "nginx"}}},
				Status:     corev1.PodStatus{Phase: corev1.PodRunning},
			}
			r.stamp(p)
			r.put(p)
			r.pinned[ns] = append(r.pinned[ns], p)
			r.allPinned = append(r.allPinned, p)
		}
	}
	r.compareAll("pinned pods stored", nil)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var reads, readsWhileWriting atomic.Int64
	for i := range 2 {
		wg.Go(func() { r.read(uint64(i), stop, &reads, &readsWhileWriting) })
	}
	func() {
		defer func() { close(stop); wg.Wait() }()
		for round := range thresholdRounds {
			r.roleNS = r.roleNamespaces(round)
			for i, ph := range thresholdPhases {
				r.writing.Store(true)
				r.reach(ph)
				r.writing.Store(false)
				r.compareAll(fmt.Sprintf("round %d, phase %d: %s", round, i+1, ph.name), &ph)
				if ph.replace {
					r.replaceAll()
					r.compareAll(fmt.Sprintf("round %d, phase %d: %s, then Replace", round, i+1, ph.name), &ph)
				}
				if r.t.Failed() {
					return
				}
			}
		}
	}()
	if r.t.Failed() {
		return
	}
	r.t.Logf("%d writes, %d concurrent reads, %d of them while the writer was writing", len(r.ops), reads.Load(), readsWhileWriting.Load())
	if readsWhileWriting.Load() == 0 {
		r.t.Error("no read ran while the writer was writing")
	}
	for _, key := range []string{"app/web", "images/nginx", "phase/Running", "node/node-1"} {
		f := r.forms[key]
		if f == nil || f.up < 2 || f.down < 2 {
			r.t.Errorf("bucket %s switched forms %+v; want at least twice each way", key, f)
		}
	}
	switched := false
	for key, f := range r.forms {
		if strings.HasPrefix(key, cache.NamespaceIndex+"/") && f.up > 0 && f.down > 0 {
			switched = true
		}
	}
	if !switched {
		r.t.Error("no bucket of the namespace index switched forms both ways")
	}

	// Emptying the store, pinned pods included, leaves a store like a new
	// one (checkStoreInvariants checks that), which then fills again.
	r.reach(thresholdPhase{name: "drain"})
	for _, p := range r.allPinned {
		r.delete(KeyOf(p))
	}
	r.pinned, r.allPinned = map[string][]*corev1.Pod{}, nil
	r.compareAll("emptied", nil)
	r.roleNS = r.roleNamespaces(1)
	r.reach(thresholdPhases[0])
	r.compareAll("refilled", &thresholdPhases[0])
}

// roleNamespaces returns the namespace of each role in a round: the
// persistent namespaces rotate, the transient ones swap.
func (r *thresholdRun) roleNamespaces(round int) [roles]string {
	var out [roles]string
	for i := range tiny + 1 {
		out[i] = thresholdPersistent[(i+round)%len(thresholdPersistent)]
	}
	out[t1], out[t2] = thresholdTransient[round%2], thresholdTransient[(round+1)%2]
	return out
}

// reach writes until every namespace holds what ph asks, with random steps
// towards it (adds, deletes, relabels between hot and cold) and writes that
// change nothing of it (updates that keep a pod hot or cold, deletes of
// missing keys).
func (r *thresholdRun) reach(ph thresholdPhase) {
	want := map[string]census{}
	for role, ns := range r.roleNS {
		c := ph.census[role]
		c.hot = max(0, c.hot-len(r.pinned[ns]))
		want[ns] = c
	}
	for {
		var off []string
		for _, ns := range thresholdNamespaces {
			if len(r.hot[ns]) != want[ns].hot || len(r.cold[ns]) != want[ns].cold {
				off = append(off, ns)
			}
		}
		if len(off) == 0 {
			return
		}
		r.step++
		ns := pick(r.rng, off)
		w := want[ns]
		hot, cold := len(r.hot[ns]), len(r.cold[ns])
		switch {
		case hot > w.hot && cold < w.cold && r.rng.IntN(2) == 0:
			r.relabel(ns, true)
		case hot < w.hot && cold > w.cold && r.rng.IntN(2) == 0:
			r.relabel(ns, false)
		case hot > w.hot:
			r.remove(ns, true)
		case hot < w.hot:
			r.add(ns, true)
		case cold > w.cold:
			r.remove(ns, false)
		default:
			r.add(ns, false)
		}
		switch n := r.rng.IntN(20); {
		case n < 2:
			r.touch(pick(r.rng, thresholdNamespaces))
		case n < 3:
			r.delete(ObjectName{Namespace: pick(r.rng, thresholdNamespaces), Name: "missing"})
		}
	}
}

// newHot returns a hot pod: app=web, mostly on node-1 and Running, with
// image nginx, possibly twice.
func (r *thresholdRun) newHot(ns, name string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": "web"}}}
	if r.rng.IntN(3) > 0 {
		p.Labels["team"] = pick(r.rng, diffLabelVals["team"])
	}
	p.Spec.NodeName = "node-1"
	if r.rng.IntN(10) == 0 {
		p.Spec.NodeName = pick(r.rng, diffNodes)
	}
	images := [][]string{{"nginx"}, {"nginx", "nginx"}, {"nginx", "redis"}}[r.rng.IntN(3)]
	for i, image := range images {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: fmt.Sprint("c", i), Image: image})
	}
	p.Status.Phase = corev1.PodRunning
	if r.rng.IntN(10) == 0 {
		p.Status.Phase = pick(r.rng, diffPhases)
	}
	r.stamp(p)
	return p
}

// newCold returns a pod without app=web and never on node-1.
func (r *thresholdRun) newCold(ns, name string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	r.setLabels(p)
	if p.Labels["app"] == "web" {
		p.Labels["app"] = pick(r.rng, []string{"db", "cache", ""})
	}
	p.Spec.NodeName = pick(r.rng, []string{"", "node-2", "node-3"})
	r.setContainers(p)
	r.setPhase(p)
	r.stamp(p)
	return p
}

func (r *thresholdRun) newPod(ns, name string, hot bool) *corev1.Pod {
	if hot {
		return r.newHot(ns, name)
	}
	return r.newCold(ns, name)
}

// put writes p with Add or Update, directly or through the view.
func (r *thresholdRun) put(p *corev1.Pod) {
	viaView := r.viaView()
	if r.rng.IntN(2) == 0 {
		r.logf("add %s%s", lazyPod{p}, viaNote(viaView))
		if viaView {
			r.must(r.view.Add(p))
		} else {
			r.ours.Add(p)
		}
		r.must(r.ref.Add(p))
		return
	}
	r.logf("update %s%s", lazyPod{p}, viaNote(viaView))
	if viaView {
		r.must(r.view.Update(p))
	} else {
		r.ours.Update(p)
	}
	r.must(r.ref.Update(p))
}

// list returns the writable names of ns, hot or cold.
func (r *thresholdRun) list(ns string, hot bool) map[string][]string {
	if hot {
		return r.hot
	}
	return r.cold
}

func (r *thresholdRun) add(ns string, hot bool) {
	r.names++
	name := fmt.Sprintf("p-%05d", r.names)
	r.put(r.newPod(ns, name, hot))
	m := r.list(ns, hot)
	m[ns] = append(m[ns], name)
}

// take removes a random name from ns's hot or cold names and returns it.
func (r *thresholdRun) take(ns string, hot bool) string {
	m := r.list(ns, hot)
	names := m[ns]
	i := r.rng.IntN(len(names))
	name := names[i]
	names[i] = names[len(names)-1]
	m[ns] = names[:len(names)-1]
	return name
}

func (r *thresholdRun) remove(ns string, hot bool) {
	r.delete(ObjectName{Namespace: ns, Name: r.take(ns, hot)})
}

// relabel turns a hot pod of ns cold (fromHot) or a cold one hot, keeping
// its key.
func (r *thresholdRun) relabel(ns string, fromHot bool) {
	name := r.take(ns, fromHot)
	r.put(r.newPod(ns, name, !fromHot))
	m := r.list(ns, !fromHot)
	m[ns] = append(m[ns], name)
}

// touch rewrites a random writable pod of ns as hot or cold as it was, as a
// mutated copy (which may leave every index value as it was) or a new pod.
func (r *thresholdRun) touch(ns string) {
	hot := r.rng.IntN(2) == 0
	names := r.list(ns, hot)[ns]
	if len(names) == 0 {
		return
	}
	name := pick(r.rng, names)
	old, ok := r.stored(ObjectName{Namespace: ns, Name: name})
	if !ok {
		r.fatalf("%s/%s is not stored in client-go's indexer", ns, name)
	}
	p := r.newPod(ns, name, hot)
	if r.rng.IntN(2) == 0 {
		p = old.DeepCopy()
		if hot {
			p.Labels["team"] = pick(r.rng, diffLabelVals["team"])
		} else {
			r.setContainers(p)
		}
		r.stamp(p)
	}
	r.put(p)
}

// replaceAll replaces the content of both stores with what they hold, in a
// random order, a third of the objects as copies.
func (r *thresholdRun) replaceAll() {
	var objs []*corev1.Pod
	for _, obj := range r.ref.List() {
		p := obj.(*corev1.Pod)
		if r.rng.IntN(3) == 0 && !slices.Contains(r.allPinned, p) {
			p = p.DeepCopy()
			r.stamp(p)
		}
		objs = append(objs, p)
	}
	r.rng.Shuffle(len(objs), func(i, j int) { objs[i], objs[j] = objs[j], objs[i] })
	r.logf("replace with the %d stored objects", len(objs))
	list := make([]any, len(objs))
	for i, obj := range objs {
		list[i] = obj
	}
	rv := fmt.Sprint(r.rv)
	r.ours.Replace(objs)
	r.ours.noteResourceVersion(rv)
	r.must(r.ref.Replace(list, rv))
}

// thresholdSelectors are the selectors Select is compared with in every
// namespace: narrowed by the app or the team label index, by the smaller of
// both, or not at all.
var thresholdSelectors = []string{
	"app=web", "app in (web)", "app=web,team=red", "team=red,app=web", "team=blue", "app=db,team=red",
	"app!=web", "app", "!team", "app in (web,db)", "app=web,tier=front", "tier=front",
}

// compareAll checks the store's invariants, the form of the app=web bucket
// that ph calls for (when ph is not nil), and compares every read with
// client-go's.
func (r *thresholdRun) compareAll(stage string, ph *thresholdPhase) {
	r.t.Helper()
	if err := checkStoreInvariants(r.ours); err != nil {
		r.fatalf("%s: %v", stage, err)
	}
	r.noteForms()
	if ph != nil {
		r.checkForm(stage, ph)
	}
	r.compare()

	all := refSet(r.diffRun, r.ref.List())
	scopes := append([]string{""}, thresholdNamespaces...)
	scopes = append(scopes, "omega")
	for _, name := range r.ours.IndexNames() {
		values := append(r.ref.ListIndexFuncValues(name), absentValue)
		for _, value := range values {
			refObjs, err := r.ref.ByIndex(name, value)
			r.must(err)
			want := refSet(r.diffRun, refObjs)
			visited := pick(r.rng, scopes[1:])
			for _, ns := range scopes {
				want := inNamespace(want, ns)
				got, err := r.ours.ByIndexInNamespace(name, ns, value)
				r.must(err)
				r.same(got, want, "%s: ByIndexInNamespace(%q, %q, %q)", stage, name, ns, value)
				if ns != "" && ns != visited {
					continue // IndexedObjects shares the lookup; a sample will do
				}
				got = got[:0]
				for obj := range r.ours.IndexedObjects(name, ns, value) {
					got = append(got, obj)
				}
				r.same(got, want, "%s: IndexedObjects(%q, %q, %q)", stage, name, ns, value)
			}
		}
	}
	for _, ns := range scopes[1:] {
		r.same(r.ours.ListNamespace(ns), inNamespace(all, ns), "%s: ListNamespace(%q)", stage, ns)
	}
	for _, s := range thresholdSelectors {
		sel, err := labels.Parse(s)
		r.must(err)
		for _, ns := range scopes {
			want := podsByKey{}
			for key, p := range inNamespace(all, ns) {
				if sel.Matches(labels.Set(p.Labels)) {
					want[key] = p
				}
			}
			r.same(r.ours.Select(ns, sel), want, "%s: Select(%q, %q)", stage, ns, s)
		}
	}
}

// bucketForm returns the form of the bucket of value in index: "sorted",
// "grouped" or "" when there is no such bucket.
func (r *thresholdRun) bucketForm(index, value string) string {
	r.ours.mu.RLock()
	defer r.ours.mu.RUnlock()
	switch b := r.ours.indexByName[index].buckets[value]; {
	case b == nil:
		return ""
	case b.groups != nil:
		return "grouped"
	}
	return "sorted"
}

// noteForms records the form of every bucket and counts its switches.
func (r *thresholdRun) noteForms() {
	for _, name := range r.ours.IndexNames() {
		values := r.ours.ListIndexFuncValues(name)
		for key, f := range r.forms {
			if strings.HasPrefix(key, name+"/") && !slices.Contains(values, strings.TrimPrefix(key, name+"/")) {
				f.last = ""
			}
		}
		for _, value := range values {
			key := name + "/" + value
			f := r.forms[key]
			if f == nil {
				f = &formCount{}
				r.forms[key] = f
			}
			form := r.bucketForm(name, value)
			switch {
			case f.last == "sorted" && form == "grouped":
				f.up++
			case f.last == "grouped" && form == "sorted":
				f.down++
			}
			f.last = form
		}
	}
}

// checkForm requires the app=web bucket to be in the form ph calls for, and
// its namespace groups to be maps or slices as ph says.
func (r *thresholdRun) checkForm(stage string, ph *thresholdPhase) {
	if got, want := r.bucketForm("app", "web"), map[bool]string{true: "grouped", false: "sorted"}[ph.grouped]; got != want {
		r.fatalf("%s: the app=web bucket is %s, want %s", stage, got, want)
	}
	if !ph.grouped {
		return
	}
	roleNS := r.roleNS
	r.ours.mu.RLock()
	defer r.ours.mu.RUnlock()
	b := r.ours.indexByName["app"].buckets["web"]
	for role, isMap := range ph.groupMaps {
		ns := r.ours.namespaces[roleNS[role]]
		if ns == nil || b.groups[ns.id] == nil {
			r.fatalf("%s: the app=web bucket has no group for %s", stage, roleNS[role])
		}
		if g := b.groups[ns.id]; (g.m != nil) != isMap {
			r.fatalf("%s: the app=web group of %s (%d members) is a map: %v, want %v", stage, roleNS[role], g.len(), g.m != nil, isMap)
		}
	}
}

// read runs lookups until stop is closed, checking what holds at every
// instant; it reports the first failure and returns.
func (r *thresholdRun) read(seed uint64, stop <-chan struct{}, reads, readsWhileWriting *atomic.Int64) {
	rng := rand.New(rand.NewPCG(seed, 0x7ead))
	s := r.ours
	t := r.t
	web, _ := labels.Parse("app=web")
	webRed, _ := labels.Parse("app=web,team=red")
	// check requires objs to list each key once, no nil, only objects of ns
	// (when set) for which ok holds, and every pod of required.
	check := func(what string, objs []*corev1.Pod, ns string, ok func(*corev1.Pod) bool, required []*corev1.Pod) bool {
		seen := make(map[ObjectName]*corev1.Pod, len(objs))
		for _, p := range objs {
			if p == nil {
				t.Errorf("concurrent %s listed nil", what)
				return false
			}
			key := KeyOf(p)
			if _, dup := seen[key]; dup {
				t.Errorf("concurrent %s listed %s twice", what, key)
				return false
			}
			seen[key] = p
			if (ns != "" && p.Namespace != ns) || !ok(p) {
				t.Errorf("concurrent %s listed %s", what, describe(p))
				return false
			}
		}
		for _, p := range required {
			if seen[KeyOf(p)] != p {
				t.Errorf("concurrent %s lacks the pinned %s (has %p)", what, KeyOf(p), seen[KeyOf(p)])
				return false
			}
		}
		return true
	}
	hasValue := func(index IndexFunc[*corev1.Pod], value string) func(*corev1.Pod) bool {
		return func(p *corev1.Pod) bool { return slices.Contains(index(p), value) }
	}
	isWeb := hasValue(labelIndexFunc("app"), "web")
	onNode1 := hasValue(podNode, "node-1")
	anyPod := func(*corev1.Pod) bool { return true }
	pinnedIn := func(ns string) []*corev1.Pod {
		if ns == "" {
			return r.allPinned
		}
		return r.pinned[ns]
	}
	namespaces := append([]string{""}, thresholdNamespaces...)
	for {
		// Pause between reads: a read of the whole store holds the read lock
		// for long under the race detector, and the writer waits for it.
		select {
		case <-stop:
			return
		case <-time.After(time.Duration(rng.IntN(50)) * time.Microsecond):
		}
		reads.Add(1)
		if r.writing.Load() {
			readsWhileWriting.Add(1)
		}
		ns := pick(rng, namespaces)
		var ok bool
		switch rng.IntN(10) {
		case 0:
			got, err := s.ByIndexInNamespace("app", ns, "web")
			ok = err == nil && check(fmt.Sprintf("ByIndexInNamespace(app, %q, web)", ns), got, ns, isWeb, pinnedIn(ns))
		case 1:
			var got []*corev1.Pod
			for p := range s.IndexedObjects("node", ns, "node-1") {
				got = append(got, p)
			}
			ok = check(fmt.Sprintf("IndexedObjects(node, %q, node-1)", ns), got, ns, onNode1, pinnedIn(ns))
		case 2:
			got, err := s.ByIndex("images", "nginx")
			ok = err == nil && check("ByIndex(images, nginx)", got, "", hasValue(podImages, "nginx"), r.allPinned)
		case 3:
			if ns == "" {
				ok = check("List()", s.List(), "", anyPod, r.allPinned)
			} else {
				ok = check(fmt.Sprintf("ListNamespace(%q)", ns), s.ListNamespace(ns), ns, anyPod, r.pinned[ns])
			}
		case 4:
			ok = check(fmt.Sprintf("Select(%q, app=web)", ns), s.Select(ns, web), ns, isWeb, pinnedIn(ns))
		case 5:
			matches := func(p *corev1.Pod) bool { return webRed.Matches(labels.Set(p.Labels)) }
			ok = check(fmt.Sprintf("Select(%q, app=web,team=red)", ns), s.Select(ns, webRed), ns, matches, pinnedIn(ns))
		case 6:
			keys, err := s.IndexKeys("phase", "Running")
			ok = err == nil && slices.IsSortedFunc(keys, compareNames) && len(slices.Compact(slices.Clone(keys))) == len(keys)
			for _, p := range r.allPinned {
				ok = ok && slices.Contains(keys, KeyOf(p))
			}
			if !ok {
				t.Errorf("concurrent IndexKeys(phase, Running) = %d keys (error %v): not sorted, not unique or without a pinned pod", len(keys), err)
			}
		case 7:
			p := pick(rng, r.allPinned)
			got, err := s.Index("node", p)
			ok = err == nil && check(fmt.Sprintf("Index(node, %s)", KeyOf(p)), got, "", onNode1, r.allPinned)
			if again, found := s.Get(KeyOf(p)); !found || again != p {
				t.Errorf("concurrent Get(%s) = %p, %v; want the pinned %p", KeyOf(p), again, found, p)
				ok = false
			}
		case 8:
			if ns == "" {
				ns = "alpha"
			}
			got, err := s.ByIndex(cache.NamespaceIndex, ns)
			ok = err == nil && check(fmt.Sprintf("ByIndex(namespace, %q)", ns), got, ns, anyPod, r.pinned[ns])
		default:
			values := s.ListIndexFuncValues("app")
			ok = slices.IsSorted(values) && len(slices.Compact(slices.Clone(values))) == len(values) && slices.Contains(values, "web")
			if !ok {
				t.Errorf("concurrent ListIndexFuncValues(app) = %q: not sorted, not unique or without web", values)
			}
		}
		if !ok {
			return
		}
	}
}
