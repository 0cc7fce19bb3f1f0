package store

// Differential test of Indexer and Lister against client-go.
//
// Random sequences of writes go to our Indexer[*corev1.Pod] and to client-go's
// cache.NewIndexer(cache.MetaNamespaceKeyFunc, ...) with the same indexes;
// after every few steps every read of both is compared. A quarter of the writes
// go through the store's client-go view (AsIndexer), and every read of the view
// is compared too, LastStoreSyncResourceVersion included. Listers are compared
// three ways: over the view (NewLister, which reads the store directly), over
// client-go's indexer (NewLister with client-go's semantics), and client-go's
// own generic lister. It pins these client-go behaviours, named by their
// anchors in docs/clientgo-semantics.md:
//
//   - #keys: ListKeys and GetByKey agree with MetaNamespaceKeyFunc keys, and
//     IndexKeys are client-go's keys parsed (and sorted, #index-lookups).
//   - #index-update: updates change indexed fields (or not, which takes the
//     single-value fast path), a multi-valued index sees duplicate values, and
//     ListIndexFuncValues shows that emptied values go.
//   - #index-lookups: an unknown index is an error from Index, ByIndex and
//     IndexKeys, Index de-duplicates, IndexKeys is sorted. (The panic on a
//     failing index function has no counterpart: our IndexFunc cannot fail.)
//   - #add-indexers-late: AddIndexers (and AddLabelIndex, and AddIndexes, which
//     registers typed and label indexes on our store or as ToIndexers on
//     client-go's) on a populated store index the existing items; a clashing
//     name is an error on both sides and adds nothing.
//   - #store-writes: Add is Update, deleting a missing key is a no-op, Replace
//     swaps the whole content (later duplicates win) and rebuilds every index.
//     (Transaction and resource versions have no counterpart here.)
//   - #shared-pointers: every lookup returns the stored pointers, compared by
//     identity.
//   - #listers: List and Namespace(ns).List answer exactly as client-go's
//     generic listers (cache.ListAllByNamespace) for labels.Everything(),
//     labels.Nothing() and random selectors, whether or not a label index
//     narrows them; Get's NotFound error equals client-go's.
//   - #store-resource-version: LastStoreSyncResourceVersion of the view: the
//     resourceVersion of the last object written or deleted (a tombstone leaves
//     it), or of the last Replace. The typed store's Delete and Replace take no
//     resourceVersion: after them the test notes the one client-go got, as the
//     informer does.
//
// DIFF_SEEDS sets the number of seeds (500 when unset). A failure names its
// seed and step and prints the operations that led to it.
//
// A seed holds at most about 120 objects, so index buckets keep their small
// forms; store_threshold_diff_test.go drives the same comparisons across
// every size threshold of the buckets, with concurrent readers.

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/client-go/listers"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

const (
	diffSteps      = 32 // operations per seed, after the initial list
	diffCheckEvery = 8  // operations between two comparisons
	unknownIndex   = "no-such-index"
	absentValue    = "absent-value"
)

// The universe of objects. It is small so that operations hit existing keys
// and index values often; with most pods Running, the phase index gets
// buckets whose namespace groups hold tens of members.
var (
	diffNamespaces = []string{"alpha", "beta", "gamma", "delta"}
	diffNames      = podNames(30)
	diffKeys       = universeKeys()
	diffNodes      = []string{"", "node-1", "node-2", "node-3"}
	diffImages     = []string{"nginx", "nginx", "redis", "busybox"} // nginx drawn twice as often
	diffPhases     = []corev1.PodPhase{corev1.PodRunning, corev1.PodRunning, corev1.PodRunning, corev1.PodRunning, corev1.PodPending, ""}
	diffLabelVals  = map[string][]string{ // no pod has tier
		"app":  {"web", "db", "cache", ""},
		"team": {"red", "blue"},
		"tier": {"front"},
	}
	// Keys that are never stored: a cluster-scoped one and one in a namespace
	// no pod has.
	ghostKeys = []ObjectName{{Name: "pod-00"}, {Namespace: "omega", Name: "pod-00"}}
	// Namespaces probed by namespaced lookups: all namespaces, each one, and
	// one with no pod.
	lookupNamespaces = append([]string{""}, append(slices.Clone(diffNamespaces), "omega")...)
	// podResource names pods in NotFound errors; its group is not empty so
	// that the comparison shows the group is carried.
	podResource = schema.GroupResource{Group: "diff.example.io", Resource: "pods"}
)

// universeKeys returns every key of the universe.
func universeKeys() []ObjectName {
	var keys []ObjectName
	for _, ns := range diffNamespaces {
		for _, name := range diffNames {
			keys = append(keys, ObjectName{Namespace: ns, Name: name})
		}
	}
	return keys
}

func podNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("pod-%02d", i)
	}
	return names
}

// The index functions, typed; client-go gets them through untyped.

func podNode(p *corev1.Pod) []string {
	if p.Spec.NodeName == "" {
		return nil
	}
	return []string{p.Spec.NodeName}
}

// podImages returns every container image, duplicates included.
func podImages(p *corev1.Pod) []string {
	var images []string
	for _, c := range p.Spec.Containers {
		images = append(images, c.Image)
	}
	return images
}

func podPhase(p *corev1.Pod) []string { return []string{string(p.Status.Phase)} }

func podNamespace(p *corev1.Pod) []string { return []string{p.Namespace} }

// labelIndexFunc is client-go's equivalent of AddLabelIndex(_, key).
var labelIndexFunc = cachetest.LabelIndexFunc

var untyped = cachetest.Untyped

func TestDifferentialStoreMatchesClientGoIndexer(t *testing.T) {
	seeds := diffSeedCount(t)
	requirements := labelRequirements(t)
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			d := newDiffRun(t, seed, requirements)
			defer d.reportPanic()
			d.run()
		})
	}
}

// diffSeedCount returns DIFF_SEEDS, or 500 when it is unset.
func diffSeedCount(t *testing.T) int {
	s := os.Getenv("DIFF_SEEDS")
	if s == "" {
		return 500
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("DIFF_SEEDS=%q: want a positive number of seeds", s)
	}
	return n
}

// diffRun is one seed: both stores, their listers, the random source and a
// log of the operations applied.
type diffRun struct {
	t    *testing.T
	seed uint64
	rng  *rand.Rand
	step int
	ops  []loggedOp
	rv   int

	requirements []labels.Requirement     // what random selectors combine
	seen         map[*corev1.Pod]struct{} // scratch set of sameFast

	// reproduce is the command that replays the seed, printed on failure.
	reproduce string

	ours *Indexer[*corev1.Pod]
	view cache.TypedIndexer[*corev1.Pod] // ours.AsIndexer()
	ref  cache.Indexer
	// lister reads ours through the view; clientLister is our Lister over
	// client-go's indexer; refLister is client-go's.
	lister       Lister[*corev1.Pod]
	clientLister Lister[*corev1.Pod]
	refLister    listers.ResourceIndexer[*corev1.Pod]
}

func newDiffRun(t *testing.T, seed uint64, requirements []labels.Requirement) *diffRun {
	d := &diffRun{
		t:            t,
		seed:         seed,
		rng:          rand.New(rand.NewPCG(seed, 0x5eed)),
		requirements: requirements,
		seen:         map[*corev1.Pod]struct{}{},
		reproduce:    fmt.Sprintf("DIFF_SEEDS=%d go test -race -run 'TestDifferentialStoreMatchesClientGoIndexer/^seed=%d$' ./runtime/cache/internal/store/", seed+1, seed),
	}
	d.ours = cachetest.Must(NewIndexer(Indexers[*corev1.Pod]{
		cache.NamespaceIndex: podNamespace,
		"node":               podNode,
		"images":             podImages,
	}))
	d.must(d.ours.AddLabelIndex("app", "app"))
	d.view = d.ours.AsIndexer()
	// The key function of an informer's indexer, which takes tombstones.
	d.ref = cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{
		cache.NamespaceIndex: cache.MetaNamespaceIndexFunc,
		"node":               untyped(podNode),
		"images":             untyped(podImages),
		"app":                untyped(labelIndexFunc("app")),
	})
	d.lister = NewLister[*corev1.Pod](d.view, podResource)
	if _, ok := StoreOf[*corev1.Pod](d.view); !ok {
		t.Fatal("StoreOf does not recognise AsIndexer's view")
	}
	d.clientLister = NewLister[*corev1.Pod](d.ref, podResource)
	d.refLister = listers.New[*corev1.Pod](d.ref, podResource)
	return d
}

func (d *diffRun) run() {
	// Start like an informer, from a list that fills most of the universe.
	d.replace(0.85)
	lateIndexStep := 1 + d.rng.IntN(diffSteps)
	for d.step = 1; d.step <= diffSteps; d.step++ {
		if d.step == lateIndexStep {
			d.addLateIndexes()
			d.compare()
		}
		d.applyRandomOp()
		if d.step%diffCheckEvery == diffCheckEvery-1 {
			d.compare()
		}
	}
	d.compare()
}

// fatalf fails the seed, naming the seed, the step and the last operations.
func (d *diffRun) fatalf(format string, args ...any) {
	d.t.Helper()
	var recent []string
	for _, op := range d.ops[max(0, len(d.ops)-15):] {
		recent = append(recent, fmt.Sprintf("%d: ", op.step)+fmt.Sprintf(op.format, op.args...))
	}
	d.t.Fatalf("seed %d, step %d: %s\nlast operations:\n  %s\nreproduce: %s",
		d.seed, d.step, fmt.Sprintf(format, args...), strings.Join(recent, "\n  "), d.reproduce)
}

// reportPanic turns a panic (of either store or of the test) into a failure
// that names the seed and the step.
func (d *diffRun) reportPanic() {
	if r := recover(); r != nil {
		d.fatalf("panic: %v\n%s", r, debug.Stack())
	}
}

func (d *diffRun) must(err error) {
	if err != nil {
		d.fatalf("unexpected error: %v", err)
	}
}

// loggedOp is an operation in the log, formatted only when the seed fails.
type loggedOp struct {
	step   int
	format string
	args   []any
}

func (d *diffRun) logf(format string, args ...any) {
	d.ops = append(d.ops, loggedOp{d.step, format, args})
}

func pick[E any](r *rand.Rand, xs []E) E { return xs[r.IntN(len(xs))] }

// Generating objects. Stored objects are never mutated: a changed object is
// a new pointer (mutate copies).

func (d *diffRun) newPod(key ObjectName) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
	d.setLabels(p)
	d.setNode(p)
	d.setContainers(p)
	d.setPhase(p)
	d.stamp(p)
	return p
}

// mutate returns a copy of old with some indexed fields changed, possibly
// none (then every index takes the unchanged-value path).
func (d *diffRun) mutate(old *corev1.Pod) *corev1.Pod {
	p := old.DeepCopy()
	for _, set := range []func(*corev1.Pod){d.setLabels, d.setNode, d.setContainers, d.setPhase} {
		if d.rng.IntN(3) == 0 {
			set(p)
		}
	}
	d.stamp(p)
	return p
}

func (d *diffRun) setLabels(p *corev1.Pod) {
	p.Labels = nil
	for _, key := range []string{"app", "team"} {
		if d.rng.IntN(4) == 0 {
			continue // label missing
		}
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		// The first value is drawn half the time, so that its bucket in a
		// label index grows larger than the others.
		values := diffLabelVals[key]
		if d.rng.IntN(2) == 0 {
			values = values[:1]
		}
		p.Labels[key] = pick(d.rng, values)
	}
}

func (d *diffRun) setNode(p *corev1.Pod) { p.Spec.NodeName = pick(d.rng, diffNodes) }

func (d *diffRun) setPhase(p *corev1.Pod) { p.Status.Phase = pick(d.rng, diffPhases) }

func (d *diffRun) setContainers(p *corev1.Pod) {
	p.Spec.Containers = nil
	for i := range d.rng.IntN(4) {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: fmt.Sprintf("c%d", i), Image: pick(d.rng, diffImages)})
	}
}

func (d *diffRun) stamp(p *corev1.Pod) {
	d.rv++
	p.ResourceVersion = strconv.Itoa(d.rv)
}

func describe(p *corev1.Pod) string {
	if p == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%s{node=%q images=%q labels=%v phase=%q}", KeyOf(p), p.Spec.NodeName, podImages(p), p.Labels, p.Status.Phase)
}

// lazyPod and lazyPods describe objects in log and failure arguments only
// when printed. Objects are never mutated, so they print as they were.
type lazyPod struct{ p *corev1.Pod }

func (l lazyPod) String() string { return describe(l.p) }

type lazyPods []*corev1.Pod

func (l lazyPods) String() string {
	descriptions := make([]string, len(l))
	for i, p := range l {
		descriptions[i] = describe(p)
	}
	return strings.Join(descriptions, ", ")
}

// Choosing keys. Random choices only ever depend on sorted data, so a seed
// replays the same operations.

func (d *diffRun) randomKey() ObjectName { return pick(d.rng, diffKeys) }

// storedKeys returns client-go's keys, sorted.
func (d *diffRun) storedKeys() []ObjectName {
	var keys []ObjectName
	for _, obj := range d.ref.List() {
		keys = append(keys, KeyOf(obj.(*corev1.Pod)))
	}
	slices.SortFunc(keys, compareKeys)
	return keys
}

func (d *diffRun) stored(key ObjectName) (*corev1.Pod, bool) {
	obj, ok, err := d.ref.GetByKey(key.String())
	d.must(err)
	if !ok {
		return nil, false
	}
	return obj.(*corev1.Pod), true
}

func (d *diffRun) has(key ObjectName) bool {
	_, ok := d.stored(key)
	return ok
}

// missingKey returns a key that is not stored.
func (d *diffRun) missingKey() ObjectName {
	if d.rng.IntN(5) > 0 {
		for range 10 {
			if key := d.randomKey(); !d.has(key) {
				return key
			}
		}
	}
	return pick(d.rng, ghostKeys)
}

// The operations.

func (d *diffRun) applyRandomOp() {
	switch n := d.rng.IntN(20); {
	case n < 7:
		d.write(d.randomKey())
	case n < 13:
		d.updateStored()
	case n < 17:
		d.delete(d.keyToDelete())
	case n < 18:
		d.deleteNamespace(pick(d.rng, diffNamespaces))
	default:
		fill := d.rng.Float64()
		if d.rng.IntN(10) == 0 {
			fill = 0 // an empty list
		}
		d.replace(fill)
	}
}

// write adds or updates key with a new or mutated object; Add and Update are
// the same whether or not the key is stored (#store-writes).
func (d *diffRun) write(key ObjectName) {
	obj, ok := d.stored(key)
	if ok && d.rng.IntN(2) == 0 {
		obj = d.mutate(obj)
	} else {
		obj = d.newPod(key)
	}
	viaView := d.viaView()
	if d.rng.IntN(2) == 0 {
		d.logf("add %s%s", lazyPod{obj}, viaNote(viaView))
		if viaView {
			d.must(d.view.Add(obj))
		} else {
			d.ours.Add(obj)
		}
		d.must(d.ref.Add(obj))
	} else {
		d.logf("update %s%s", lazyPod{obj}, viaNote(viaView))
		if viaView {
			d.must(d.view.Update(obj))
		} else {
			d.ours.Update(obj)
		}
		d.must(d.ref.Update(obj))
	}
}

// viaView says whether a write goes through the view: one in four.
func (d *diffRun) viaView() bool { return d.rng.IntN(4) == 0 }

func viaNote(viaView bool) string {
	if viaView {
		return " (through the view)"
	}
	return ""
}

func (d *diffRun) updateStored() {
	keys := d.storedKeys()
	if len(keys) == 0 {
		d.write(d.randomKey())
		return
	}
	old, _ := d.stored(pick(d.rng, keys))
	obj := d.mutate(old)
	d.logf("update %s (was %s)", lazyPod{obj}, lazyPod{old})
	d.ours.Update(obj)
	d.must(d.ref.Update(obj))
}

// keyToDelete returns a stored key three times in five, else a missing one.
func (d *diffRun) keyToDelete() ObjectName {
	if keys := d.storedKeys(); len(keys) > 0 && d.rng.IntN(5) < 3 {
		return pick(d.rng, keys)
	}
	return d.missingKey()
}

// deleteNamespace deletes every object of ns, one by one, as when a
// namespace goes away; namespace groups of large index buckets then empty.
func (d *diffRun) deleteNamespace(ns string) {
	for _, key := range d.storedKeys() {
		if key.Namespace == ns {
			d.delete(key)
		}
	}
}

// delete deletes key with an object carrying only the key and a fresh
// resourceVersion; through the view, one time in three with a tombstone
// holding that object instead (client-go's indexer takes it too).
func (d *diffRun) delete(key ObjectName) {
	gone := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
	d.stamp(gone)
	var obj any = gone
	viaView := d.viaView()
	if viaView && d.rng.IntN(3) == 0 {
		obj = cache.DeletedFinalStateUnknown{Key: key.String(), Obj: gone}
	}
	d.logf("delete %s with %T%s", key, obj, viaNote(viaView))
	if viaView {
		d.must(d.view.Delete(obj))
	} else {
		d.ours.Delete(key)
		d.ours.noteResourceVersion(gone.ResourceVersion)
	}
	d.must(d.ref.Delete(obj))
}

// replace replaces the content with each key of the universe with
// probability fill, plus a few keys repeated at random places (the later
// object of a key wins). A stored key keeps its pointer, gets a mutated copy
// or a new object.
func (d *diffRun) replace(fill float64) {
	var objs []*corev1.Pod
	for _, key := range diffKeys {
		if d.rng.Float64() < fill {
			objs = append(objs, d.replacement(key))
		}
	}
	for range d.rng.IntN(4) {
		objs = append(objs, d.replacement(pick(d.rng, diffKeys)))
	}
	d.rng.Shuffle(len(objs), func(i, j int) { objs[i], objs[j] = objs[j], objs[i] })
	viaView := d.viaView()
	d.logf("replace with %d objects%s: %s", len(objs), viaNote(viaView), lazyPods(objs))
	list := make([]any, len(objs))
	for i, obj := range objs {
		list[i] = obj
	}
	rv := strconv.Itoa(d.rv)
	if viaView {
		d.must(d.view.Replace(slices.Clone(list), rv))
	} else {
		d.ours.Replace(objs)
		d.ours.noteResourceVersion(rv)
	}
	d.must(d.ref.Replace(list, rv))
}

func (d *diffRun) replacement(key ObjectName) *corev1.Pod {
	obj, ok := d.stored(key)
	switch {
	case !ok || d.rng.IntN(3) == 0:
		return d.newPod(key)
	case d.rng.IntN(2) == 0:
		return d.mutate(obj)
	}
	return obj
}

// addLateIndexes adds a function index and a label index to both (possibly
// populated) stores, then checks that re-adding a name fails and adds nothing
// (#add-indexers-late).
//
// Half of the seeds add them with AddIndexes, on the view (which reaches our
// store) and on client-go's indexer (which gets ToIndexers).
func (d *diffRun) addLateIndexes() {
	funcs, labelIndexes := Indexers[*corev1.Pod]{"phase": podPhase}, map[string]string{"team": "team"}
	if d.rng.IntN(2) == 0 {
		d.logf("add indexes phase and team with AddIndexes over %d objects", len(d.ref.ListKeys()))
		d.must(addPlainIndexes(d.view, funcs, labelIndexes))
		d.must(addPlainIndexes(d.ref, funcs, labelIndexes))
	} else {
		d.logf("add indexes phase and team over %d objects", len(d.ref.ListKeys()))
		d.must(d.ours.AddIndexers(funcs))
		d.must(d.ours.AddLabelIndex("team", "team"))
		d.must(d.ref.AddIndexers(cache.Indexers{"phase": untyped(podPhase), "team": untyped(labelIndexFunc("team"))}))
	}

	ourErr := d.ours.AddIndexers(Indexers[*corev1.Pod]{"phase": podPhase, "spare": podPhase})
	refErr := d.ref.AddIndexers(cache.Indexers{"phase": untyped(podPhase), "spare": untyped(podPhase)})
	d.bothFail("AddIndexers with a clashing name", ourErr, refErr)
	if err := d.ours.AddLabelIndex("app", "team"); err == nil {
		d.fatalf("AddLabelIndex with a clashing name: no error")
	}
	ourErr = addPlainIndexes(d.view, Indexers[*corev1.Pod]{"spare": podPhase}, map[string]string{"app": "team"})
	refErr = addPlainIndexes(d.ref, Indexers[*corev1.Pod]{"spare": podPhase}, map[string]string{"app": "team"})
	d.bothFail("AddIndexes with a clashing label index name", ourErr, refErr)
	ourErr = addPlainIndexes(d.view, Indexers[*corev1.Pod]{"phase": podPhase}, nil)
	refErr = addPlainIndexes(d.ref, Indexers[*corev1.Pod]{"phase": podPhase}, nil)
	d.bothFail("AddIndexes with a clashing index name", ourErr, refErr)
}

// The comparisons. Each compare looks at everything the stores hold, but
// samples the namespaces, selectors, lister calls and Index objects it
// probes: across steps and seeds every probe is covered, and the test stays
// fast under -race.

func (d *diffRun) compare() {
	d.compareItems()
	stored := d.storedKeys()
	for _, name := range d.compareIndexNames() {
		d.compareIndex(name, stored)
	}
	d.compareUnknownIndex()
	d.compareNamespaces()
	d.compareSelections()
	d.compareGets(stored)
	d.compareView(stored)
}

// sampleNamespaces returns "" (every namespace) and one random namespace,
// possibly one without pods.
func (d *diffRun) sampleNamespaces() []string {
	return []string{"", pick(d.rng, lookupNamespaces[1:])}
}

func (d *diffRun) compareItems() {
	want := refSet(d, d.ref.List())
	d.same(d.ours.List(), want, "List()")
	if n := d.ours.Len(); n != len(want) {
		d.fatalf("Len() = %d, client-go has %d objects", n, len(want))
	}
	var got []string
	for _, key := range d.ours.ListKeys() {
		got = append(got, key.String())
	}
	slices.Sort(got)
	wantKeys := d.ref.ListKeys()
	slices.Sort(wantKeys)
	if !slices.Equal(got, wantKeys) {
		d.fatalf("ListKeys() = %q, client-go %q", got, wantKeys)
	}
}

func (d *diffRun) compareIndexNames() []string {
	want := slices.Sorted(maps.Keys(d.ref.GetIndexers()))
	got := d.ours.IndexNames()
	if !slices.Equal(got, want) {
		d.fatalf("IndexNames() = %q, client-go %q", got, want)
	}
	return got
}

// compareIndex compares the values of an index, the lookups of each value
// and of a value no object has, and Index for a few objects.
func (d *diffRun) compareIndex(name string, stored []ObjectName) {
	values := d.ref.ListIndexFuncValues(name)
	slices.Sort(values)
	if got := d.ours.ListIndexFuncValues(name); !slices.Equal(got, values) {
		d.fatalf("ListIndexFuncValues(%q) = %q, client-go (sorted) %q", name, got, values)
	}
	values = append(values, absentValue)
	ns := pick(d.rng, lookupNamespaces[1:])
	for _, value := range values {
		d.compareIndexValue(name, ns, value)
	}
	d.compareListerByIndex(name, ns, pick(d.rng, values))
	for _, obj := range d.probeObjects(stored) {
		refObjs, err := d.ref.Index(name, obj)
		d.must(err)
		got, err := d.ours.Index(name, obj)
		d.must(err)
		d.same(got, refSet(d, refObjs), "Index(%q, %s)", name, lazyPod{obj})
	}
}

// probeObjects returns objects to pass to Index: one that is not stored and
// one stored, if any.
func (d *diffRun) probeObjects(stored []ObjectName) []*corev1.Pod {
	probes := []*corev1.Pod{d.newPod(d.randomKey())}
	if len(stored) > 0 {
		obj, _ := d.stored(pick(d.rng, stored))
		probes = append(probes, obj)
	}
	return probes
}

// compareIndexValue compares the lookups of one index value: ByIndex and
// IndexKeys with client-go's, and the namespaced lookups, in every namespace
// and in ns, with client-go's ByIndex filtered by namespace.
func (d *diffRun) compareIndexValue(name, ns, value string) {
	refObjs, err := d.ref.ByIndex(name, value)
	d.must(err)
	want := refSet(d, refObjs)
	got, err := d.ours.ByIndex(name, value)
	d.must(err)
	d.same(got, want, "ByIndex(%q, %q)", name, value)

	refKeys, err := d.ref.IndexKeys(name, value)
	d.must(err)
	wantKeys := d.parseKeys(refKeys)
	gotKeys, err := d.ours.IndexKeys(name, value)
	d.must(err)
	if !slices.Equal(gotKeys, wantKeys) {
		d.fatalf("IndexKeys(%q, %q) = %v, client-go (parsed, sorted) %v", name, value, gotKeys, wantKeys)
	}

	for _, ns := range []string{"", ns} {
		want := inNamespace(want, ns)
		got, err := d.ours.ByIndexInNamespace(name, ns, value)
		d.must(err)
		d.same(got, want, "ByIndexInNamespace(%q, %q, %q)", name, ns, value)
		d.compareIndexedObjects(name, ns, value, want)
	}
}

// compareListerByIndex compares the listers' ByIndex, which wrap the store's
// ByIndex and ByIndexInNamespace, with client-go's ByIndex.
func (d *diffRun) compareListerByIndex(name, ns, value string) {
	refObjs, err := d.ref.ByIndex(name, value)
	d.must(err)
	want := refSet(d, refObjs)
	got, err := d.lister.ByIndex(name, value)
	d.must(err)
	d.same(got, want, "Lister.ByIndex(%q, %q)", name, value)
	got, err = d.lister.Namespace(ns).ByIndex(name, value)
	d.must(err)
	d.same(got, inNamespace(want, ns), "Namespace(%q).ByIndex(%q, %q)", ns, name, value)
	got, err = d.clientLister.ByIndex(name, value)
	d.must(err)
	d.same(got, want, "Lister over client-go's indexer: ByIndex(%q, %q)", name, value)
	got, err = d.clientLister.Namespace(ns).ByIndex(name, value)
	d.must(err)
	d.same(got, inNamespace(want, ns), "Lister over client-go's indexer: Namespace(%q).ByIndex(%q, %q)", ns, name, value)
}

// compareIndexedObjects also checks that the loop body may use the store and
// that stopping early is fine.
func (d *diffRun) compareIndexedObjects(name, ns, value string, want podsByKey) {
	var got []*corev1.Pod
	for obj := range d.ours.IndexedObjects(name, ns, value) {
		if obj == nil {
			d.fatalf("IndexedObjects(%q, %q, %q) visited a nil object", name, ns, value)
		}
		if again, ok := d.ours.Get(KeyOf(obj)); !ok || again != obj {
			d.fatalf("IndexedObjects(%q, %q, %q): Get(%s) inside the loop = %p, %v; want the visited %p",
				name, ns, value, KeyOf(obj), again, ok, obj)
		}
		got = append(got, obj)
	}
	d.same(got, want, "IndexedObjects(%q, %q, %q)", name, ns, value)
	for obj := range d.ours.IndexedObjects(name, ns, value) {
		if obj == nil || want[KeyOf(obj)] != obj {
			d.fatalf("IndexedObjects(%q, %q, %q), stopped after one object: visited %s", name, ns, value, describe(obj))
		}
		break
	}
}

// compareUnknownIndex pins #index-lookups: an unknown index is an error from
// Index, ByIndex and IndexKeys, and has no values.
func (d *diffRun) compareUnknownIndex() {
	_, ourErr := d.ours.ByIndex(unknownIndex, "x")
	_, refErr := d.ref.ByIndex(unknownIndex, "x")
	d.bothFail("ByIndex of an unknown index", ourErr, refErr)
	_, ourErr = d.ours.IndexKeys(unknownIndex, "x")
	_, refErr = d.ref.IndexKeys(unknownIndex, "x")
	d.bothFail("IndexKeys of an unknown index", ourErr, refErr)
	probe := d.newPod(d.randomKey())
	_, ourErr = d.ours.Index(unknownIndex, probe)
	_, refErr = d.ref.Index(unknownIndex, probe)
	d.bothFail("Index of an unknown index", ourErr, refErr)
	if _, err := d.ours.ByIndexInNamespace(unknownIndex, "alpha", "x"); err == nil {
		d.fatalf("ByIndexInNamespace of an unknown index: no error")
	}
	for obj := range d.ours.IndexedObjects(unknownIndex, "", "x") {
		d.fatalf("IndexedObjects of an unknown index visited %s", describe(obj))
	}
	if got, want := d.ours.ListIndexFuncValues(unknownIndex), d.ref.ListIndexFuncValues(unknownIndex); len(got) != 0 || len(want) != 0 {
		d.fatalf("ListIndexFuncValues of an unknown index = %q, client-go %q", got, want)
	}
}

func (d *diffRun) compareNamespaces() {
	for _, ns := range lookupNamespaces {
		refObjs, err := d.ref.ByIndex(cache.NamespaceIndex, ns)
		d.must(err)
		d.same(d.ours.ListNamespace(ns), refSet(d, refObjs), "ListNamespace(%q)", ns)
	}
}

// compareSelections compares Select and the listers' List with client-go's
// generic listers (cache.ListAllByNamespace, #listers).
func (d *diffRun) compareSelections() {
	selectors := []labels.Selector{labels.Everything(), labels.Nothing(), d.randomSelector(), d.randomSelector()}
	for _, sel := range selectors {
		refObjs, err := d.refLister.List(sel)
		d.must(err)
		got, err := d.lister.List(sel)
		d.must(err)
		d.same(got, refSet(d, refObjs), "List(%q)", sel)
		got, err = d.clientLister.List(sel)
		d.must(err)
		d.same(got, refSet(d, refObjs), "Lister over client-go's indexer: List(%q)", sel)
		for _, ns := range d.sampleNamespaces() {
			refObjs, err := listers.NewNamespaced(d.refLister, ns).List(sel)
			d.must(err)
			want := refSet(d, refObjs)
			d.same(d.ours.Select(ns, sel), want, "Select(%q, %q)", ns, sel)
			got, err := d.lister.Namespace(ns).List(sel)
			d.must(err)
			d.same(got, want, "Namespace(%q).List(%q)", ns, sel)
			got, err = d.clientLister.Namespace(ns).List(sel)
			d.must(err)
			d.same(got, want, "Lister over client-go's indexer: Namespace(%q).List(%q)", ns, sel)
		}
	}
}

// randomSelector combines one to three random requirements.
func (d *diffRun) randomSelector() labels.Selector {
	sel := labels.NewSelector()
	for range 1 + d.rng.IntN(3) {
		sel = sel.Add(pick(d.rng, d.requirements))
	}
	return sel
}

// labelRequirements returns the requirements random selectors combine: every
// operator on app (label index from the start), team (label index once the
// late indexes are added) and tier (never set, never indexed), with each
// value, each pair of values for in and notin, and a value no pod has.
func labelRequirements(t *testing.T) []labels.Requirement {
	var reqs []labels.Requirement
	add := func(key string, op selection.Operator, values ...string) {
		req, err := labels.NewRequirement(key, op, values)
		if err != nil {
			t.Fatalf("NewRequirement(%q, %q, %q): %v", key, op, values, err)
		}
		reqs = append(reqs, *req)
	}
	for _, key := range slices.Sorted(maps.Keys(diffLabelVals)) {
		add(key, selection.Exists)
		add(key, selection.DoesNotExist)
		values := append(slices.Clone(diffLabelVals[key]), "other")
		for i, v := range values {
			for _, op := range []selection.Operator{selection.Equals, selection.DoubleEquals, selection.NotEquals, selection.In, selection.NotIn} {
				add(key, op, v)
			}
			for _, w := range values[i+1:] {
				add(key, selection.In, v, w)
				add(key, selection.NotIn, v, w)
			}
		}
	}
	return reqs
}

// compareGets looks up every key of the universe and the ghost keys in the
// store, and a sample of them through the listers (namespaced and
// cluster-scoped).
func (d *diffRun) compareGets(stored []ObjectName) {
	keys := append(slices.Clone(diffKeys), ghostKeys...)
	for _, key := range keys {
		want, wantOK := d.stored(key)
		if got, ok := d.ours.Get(key); got != want || ok != wantOK {
			d.fatalf("Get(%s) = %p, %v; client-go %p, %v", key, got, ok, want, wantOK)
		}
		got, ok, err := d.ours.GetByKey(key.String())
		if got != want || ok != wantOK || err != nil {
			d.fatalf("GetByKey(%q) = %p, %v, %v; client-go %p, %v, nil", key, got, ok, err, want, wantOK)
		}
	}
	sample := []ObjectName{pick(d.rng, keys), pick(d.rng, keys), pick(d.rng, ghostKeys)}
	if len(stored) > 0 {
		sample = append(sample, pick(d.rng, stored))
	}
	for _, key := range sample {
		got, err := d.lister.Namespace(key.Namespace).Get(key.Name)
		want, wantErr := listers.NewNamespaced(d.refLister, key.Namespace).Get(key.Name)
		d.sameGet(got, err, want, wantErr, "Namespace(%q).Get(%q)", key.Namespace, key.Name)
		got, err = d.clientLister.Namespace(key.Namespace).Get(key.Name)
		d.sameGet(got, err, want, wantErr, "Lister over client-go's indexer: Namespace(%q).Get(%q)", key.Namespace, key.Name)
		got, err = d.lister.Get(key.Name)
		want, wantErr = d.refLister.Get(key.Name)
		d.sameGet(got, err, want, wantErr, "Get(%q)", key.Name)
		got, err = d.clientLister.Get(key.Name)
		d.sameGet(got, err, want, wantErr, "Lister over client-go's indexer: Get(%q)", key.Name)
	}
}

// compareView compares every read of the client-go view of our store with
// client-go's indexer: the same objects (as the same pointers), keys,
// indexes and resourceVersion.
func (d *diffRun) compareView(stored []ObjectName) {
	want := refSet(d, d.ref.List())
	d.same(d.viewPods(d.view.List(), "view List()"), want, "view List()")
	gotKeys, wantKeys := d.view.ListKeys(), d.ref.ListKeys()
	slices.Sort(gotKeys)
	slices.Sort(wantKeys)
	if !slices.Equal(gotKeys, wantKeys) {
		d.fatalf("view ListKeys() = %q, client-go %q", gotKeys, wantKeys)
	}
	for _, key := range append(slices.Clone(diffKeys), ghostKeys...) {
		wantObj, wantOK := d.stored(key)
		item, ok, err := d.view.GetByKey(key.String())
		d.must(err)
		if ok != wantOK || (wantOK && item != any(wantObj)) || (!wantOK && item != nil) {
			d.fatalf("view GetByKey(%q) = %#v, %v; client-go %p, %v", key, item, ok, wantObj, wantOK)
		}
	}
	for _, probe := range d.probeObjects(stored) {
		item, ok, err := d.view.Get(probe)
		d.must(err)
		refItem, refOK, err := d.ref.Get(probe)
		d.must(err)
		if item != refItem || ok != refOK {
			d.fatalf("view Get(%s) = %p, %v; client-go %p, %v", KeyOf(probe), item, ok, refItem, refOK)
		}
	}
	if got, want := slices.Sorted(maps.Keys(d.view.GetIndexers())), slices.Sorted(maps.Keys(d.ref.GetIndexers())); !slices.Equal(got, want) {
		d.fatalf("view GetIndexers() names %q, client-go %q", got, want)
	}
	if got, want := d.view.LastStoreSyncResourceVersion(), d.ref.LastStoreSyncResourceVersion(); got != want {
		d.fatalf("view LastStoreSyncResourceVersion() = %q, client-go %q", got, want)
	}
	for _, name := range d.ours.IndexNames() {
		values := d.ref.ListIndexFuncValues(name)
		slices.Sort(values)
		got := d.view.ListIndexFuncValues(name)
		slices.Sort(got)
		if !slices.Equal(got, values) {
			d.fatalf("view ListIndexFuncValues(%q) = %q, client-go %q", name, got, values)
		}
		value := absentValue
		if len(values) > 0 && d.rng.IntN(5) > 0 {
			value = pick(d.rng, values)
		}
		refObjs, err := d.ref.ByIndex(name, value)
		d.must(err)
		wantObjs := refSet(d, refObjs)
		objs, err := d.view.ByIndex(name, value)
		d.must(err)
		d.same(d.viewPods(objs, "view ByIndex"), wantObjs, "view ByIndex(%q, %q)", name, value)
		typed, err := d.view.ByTypedIndex(name, value)
		d.must(err)
		d.same(typed, wantObjs, "view ByTypedIndex(%q, %q)", name, value)
		refKeys, err := d.ref.IndexKeys(name, value)
		d.must(err)
		slices.Sort(refKeys)
		keys, err := d.view.IndexKeys(name, value)
		d.must(err)
		if parsed := d.parseKeys(keys); !slices.Equal(keys, keyStrings(parsed)) {
			d.fatalf("view IndexKeys(%q, %q) = %q: not sorted by namespace, then name", name, value, keys)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, refKeys) {
			d.fatalf("view IndexKeys(%q, %q) = %q, client-go %q", name, value, keys, refKeys)
		}
		for _, probe := range d.probeObjects(stored) {
			refObjs, err := d.ref.Index(name, probe)
			d.must(err)
			objs, err := d.view.Index(name, probe)
			d.must(err)
			d.same(d.viewPods(objs, "view Index"), refSet(d, refObjs), "view Index(%q, %s)", name, lazyPod{probe})
			typed, err := d.view.TypedIndex(name, probe)
			d.must(err)
			d.same(typed, refSet(d, refObjs), "view TypedIndex(%q, %s)", name, lazyPod{probe})
		}
	}
	_, ourErr := d.view.ByIndex(unknownIndex, "x")
	_, refErr := d.ref.ByIndex(unknownIndex, "x")
	d.bothFail("view ByIndex of an unknown index", ourErr, refErr)
	_, ourErr = d.view.IndexKeys(unknownIndex, "x")
	_, refErr = d.ref.IndexKeys(unknownIndex, "x")
	d.bothFail("view IndexKeys of an unknown index", ourErr, refErr)
	_, ourErr = d.view.Index(unknownIndex, d.newPod(d.randomKey()))
	_, refErr = d.ref.Index(unknownIndex, d.newPod(d.randomKey()))
	d.bothFail("view Index of an unknown index", ourErr, refErr)
}

func keyStrings(names []ObjectName) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n.String()
	}
	return out
}

// viewPods converts what the view listed to pods, failing on anything else.
func (d *diffRun) viewPods(objs []any, what string) []*corev1.Pod {
	out := make([]*corev1.Pod, len(objs))
	for i, obj := range objs {
		p, ok := obj.(*corev1.Pod)
		if !ok {
			d.fatalf("%s listed a %T", what, obj)
		}
		out[i] = p
	}
	return out
}

// sameGet requires the same object, or the same NotFound error, as
// client-go's lister.
func (d *diffRun) sameGet(got *corev1.Pod, err error, want *corev1.Pod, wantErr error, format string, args ...any) {
	if got != want || (err == nil) != (wantErr == nil) {
		d.fatalf("%s = %p, %v; client-go %p, %v", fmt.Sprintf(format, args...), got, err, want, wantErr)
	}
	if wantErr == nil {
		return
	}
	var status, wantStatus apierrors.APIStatus
	if !apierrors.IsNotFound(err) || !errors.As(err, &status) || !errors.As(wantErr, &wantStatus) ||
		!reflect.DeepEqual(status.Status(), wantStatus.Status()) {
		d.fatalf("%s: error %#v; client-go %#v", fmt.Sprintf(format, args...), err, wantErr)
	}
}

func (d *diffRun) bothFail(what string, ourErr, refErr error) {
	if ourErr == nil || refErr == nil {
		d.fatalf("%s: error %v, client-go %v; want both to fail", what, ourErr, refErr)
	}
}

// Sets of objects, by key.

type podsByKey map[ObjectName]*corev1.Pod

// toSet indexes objs by key; dup is an object whose key is listed twice.
func toSet[E any](objs []E) (set podsByKey, dup *corev1.Pod) {
	set = make(podsByKey, len(objs))
	for _, obj := range objs {
		p := any(obj).(*corev1.Pod)
		key := KeyOf(p)
		if _, ok := set[key]; ok {
			dup = p
		}
		set[key] = p
	}
	return set, dup
}

// refSet indexes an answer of client-go by key.
func refSet[E any](d *diffRun, objs []E) podsByKey {
	set, dup := toSet(objs)
	if dup != nil {
		d.fatalf("client-go listed %s twice", describe(dup))
	}
	return set
}

func inNamespace(set podsByKey, ns string) podsByKey {
	if ns == "" {
		return set
	}
	out := podsByKey{}
	for key, p := range set {
		if key.Namespace == ns {
			out[key] = p
		}
	}
	return out
}

// same requires got to list the objects of want, each once, as the same
// pointers (#shared-pointers). format and args name the lookup.
func (d *diffRun) same(got []*corev1.Pod, want podsByKey, format string, args ...any) {
	if d.sameFast(got, want) {
		return
	}
	if slices.Contains(got, nil) {
		d.fatalf("%s lists a nil object", fmt.Sprintf(format, args...))
	}
	set, dup := toSet(got)
	var diffs []string
	if dup != nil {
		diffs = append(diffs, "listed twice: "+describe(dup))
	}
	for key, w := range want {
		switch g, ok := set[key]; {
		case !ok:
			diffs = append(diffs, "missing "+describe(w))
		case g != w:
			diffs = append(diffs, fmt.Sprintf("%s is %s, not the stored %s", key, describe(g), describe(w)))
		}
	}
	for key, g := range set {
		if _, ok := want[key]; !ok {
			diffs = append(diffs, "extra "+describe(g))
		}
	}
	if len(diffs) > 0 {
		slices.Sort(diffs)
		d.fatalf("%s differs from client-go:\n    %s", fmt.Sprintf(format, args...), strings.Join(diffs, "\n    "))
	}
}

// sameFast reports whether got lists the objects of want, each once, without
// allocating: as many objects, each want's, none twice.
func (d *diffRun) sameFast(got []*corev1.Pod, want podsByKey) bool {
	if len(got) != len(want) {
		return false
	}
	clear(d.seen)
	for _, p := range got {
		if p == nil || want[KeyOf(p)] != p {
			return false
		}
		d.seen[p] = struct{}{}
	}
	return len(d.seen) == len(got)
}

func compareKeys(a, b ObjectName) int {
	return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
}

// parseKeys parses client-go string keys and sorts them by namespace, then
// name.
func (d *diffRun) parseKeys(keys []string) []ObjectName {
	names := make([]ObjectName, len(keys))
	for i, key := range keys {
		name, err := cache.ParseObjectName(key)
		d.must(err)
		names[i] = name
	}
	slices.SortFunc(names, compareKeys)
	return names
}
