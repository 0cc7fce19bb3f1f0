package store

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

// The pods and index functions the package's tests share.
var (
	pod         = cachetest.Pod
	byNode      = cachetest.ByNode
	byImage     = cachetest.ByImage
	names       = cachetest.Names
	anyNames    = cachetest.AnyNames
	mustByIndex = cachetest.MustByIndex
)

func testIndexers() Indexers[*corev1.Pod] {
	return Indexers[*corev1.Pod]{"node": byNode, "image": byImage}
}

// An update removes the index values computed from the stored old object and
// adds the new ones; emptied values disappear
// (docs/clientgo-semantics.md#index-update).
func TestUpdateDropsStaleIndexValues(t *testing.T) {
	s := cachetest.Must(NewIndexer(testIndexers()))
	s.Add(pod("a", "p1", "n1", []string{"img1", "img2"}))
	s.Update(pod("a", "p1", "n2", []string{"img2", "img3"}))

	for _, tc := range []struct {
		index, value string
		want         []string
	}{
		{"node", "n1", nil},
		{"node", "n2", []string{"a/p1"}},
		{"image", "img1", nil},
		{"image", "img2", []string{"a/p1"}},
		{"image", "img3", []string{"a/p1"}},
	} {
		if got := mustByIndex(t, s, tc.index, "", tc.value); !slices.Equal(got, tc.want) && len(got)+len(tc.want) > 0 {
			t.Errorf("ByIndex(%s=%s) = %v, want %v", tc.index, tc.value, got, tc.want)
		}
	}
	if got, want := s.ListIndexFuncValues("node"), []string{"n2"}; !slices.Equal(got, want) {
		t.Errorf("node values = %v, want %v", got, want)
	}
	if got, want := s.ListIndexFuncValues("image"), []string{"img2", "img3"}; !slices.Equal(got, want) {
		t.Errorf("image values = %v, want %v", got, want)
	}
}

// A value whose last object leaves is removed from the index, while values that
// still have objects stay (docs/clientgo-semantics.md#index-update).
func TestDeleteRemovesEmptyIndexValues(t *testing.T) {
	s := cachetest.Must(NewIndexer(testIndexers()))
	s.Add(pod("a", "p1", "n1", nil))
	s.Add(pod("a", "p2", "n1", nil))
	s.Add(pod("a", "p3", "n2", nil))
	s.Delete(ObjectName{Namespace: "a", Name: "p3"})
	s.Delete(ObjectName{Namespace: "a", Name: "p1"})
	if got, want := s.ListIndexFuncValues("node"), []string{"n1"}; !slices.Equal(got, want) {
		t.Errorf("node values = %v, want %v", got, want)
	}
	if got, want := mustByIndex(t, s, "node", "", "n1"), []string{"a/p2"}; !slices.Equal(got, want) {
		t.Errorf("ByIndex(n1) = %v, want %v", got, want)
	}
}

// An object that yields the same value twice is listed once under it, and
// removing it removes it for good (Index de-duplicates:
// docs/clientgo-semantics.md#index-lookups).
func TestObjectIndexedTwiceUnderOneValueIsListedOnce(t *testing.T) {
	s := cachetest.Must(NewIndexer(testIndexers()))
	p := pod("a", "p1", "n1", []string{"img", "img"})
	s.Add(p)
	if got := mustByIndex(t, s, "image", "", "img"); !slices.Equal(got, []string{"a/p1"}) {
		t.Fatalf("ByIndex(img) = %v, want [a/p1]", got)
	}
	keys, err := s.IndexKeys("image", "img")
	if err != nil || len(keys) != 1 {
		t.Fatalf("IndexKeys(img) = %v, %v; want one key", keys, err)
	}
	got, err := s.Index("image", pod("b", "probe", "", []string{"img", "img", "other"}))
	if err != nil || !slices.Equal(names(got), []string{"a/p1"}) {
		t.Fatalf("Index = %v, %v; want [a/p1]", names(got), err)
	}
	s.Delete(KeyOf(p))
	if got := s.ListIndexFuncValues("image"); len(got) != 0 {
		t.Fatalf("image values after delete = %v, want none", got)
	}
}

// Indexes added after objects exist index them at once; a name in use is an
// error and adds nothing (docs/clientgo-semantics.md#add-indexers-late).
func TestAddIndexersIndexesExistingObjects(t *testing.T) {
	s := cachetest.Must(NewIndexer(Indexers[*corev1.Pod]{"node": byNode}))
	s.Add(pod("a", "p1", "n1", []string{"img1"}, "app", "web"))
	s.Add(pod("b", "p2", "n1", []string{"img2"}))
	if err := s.AddIndexers(Indexers[*corev1.Pod]{"image": byImage}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddLabelIndex("app", "app"); err != nil {
		t.Fatal(err)
	}
	if got := mustByIndex(t, s, "image", "", "img2"); !slices.Equal(got, []string{"b/p2"}) {
		t.Errorf("ByIndex(image=img2) = %v", got)
	}
	if got := mustByIndex(t, s, "app", "", "web"); !slices.Equal(got, []string{"a/p1"}) {
		t.Errorf("ByIndex(app=web) = %v", got)
	}
	for name, add := range map[string]func() error{
		"duplicate index":       func() error { return s.AddIndexers(Indexers[*corev1.Pod]{"fresh": byNode, "node": byNode}) },
		"duplicate label index": func() error { return s.AddLabelIndex("node", "team") },
		"nil index function":    func() error { return s.AddIndexers(Indexers[*corev1.Pod]{"nil": nil}) },
		"empty label key":       func() error { return s.AddLabelIndex("team", "") },
	} {
		if err := add(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if got, want := s.IndexNames(), []string{"app", "image", "node"}; !slices.Equal(got, want) {
		t.Errorf("IndexNames = %v, want %v (a failed AddIndexers must add nothing)", got, want)
	}
}

// An unknown index name is an error for lookups, and has no values
// (docs/clientgo-semantics.md#index-lookups).
func TestUnknownIndexIsAnError(t *testing.T) {
	s := cachetest.Must(NewIndexer(testIndexers()))
	s.Add(pod("a", "p1", "n1", nil))
	if _, err := s.ByIndex("nope", "x"); err == nil {
		t.Error("ByIndex: no error")
	}
	if _, err := s.ByIndexInNamespace("nope", "a", "x"); err == nil {
		t.Error("ByIndexInNamespace: no error")
	}
	if _, err := s.IndexKeys("nope", "x"); err == nil {
		t.Error("IndexKeys: no error")
	}
	if _, err := s.Index("nope", pod("a", "p1", "n1", nil)); err == nil {
		t.Error("Index: no error")
	}
	if got := s.ListIndexFuncValues("nope"); got != nil {
		t.Errorf("ListIndexFuncValues = %v", got)
	}
	for range s.IndexedObjects("nope", "", "x") {
		t.Error("IndexedObjects yielded an object for an unknown index")
	}
}

// IndexKeys is sorted (docs/clientgo-semantics.md#index-lookups).
func TestIndexKeysAreSorted(t *testing.T) {
	s := cachetest.Must(NewIndexer(testIndexers()))
	for _, k := range []string{"c/z", "a/y", "b/x", "a/b"} {
		ns, name, _ := splitKey(k)
		s.Add(pod(ns, name, "n", nil))
	}
	keys, err := s.IndexKeys("node", "n")
	if err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(keys))
	for i, k := range keys {
		got[i] = k.String()
	}
	if want := []string{"a/b", "a/y", "b/x", "c/z"}; !slices.Equal(got, want) {
		t.Errorf("IndexKeys = %v, want %v", got, want)
	}
}

func splitKey(k string) (ns, name string, ok bool) {
	for i := range k {
		if k[i] == '/' {
			return k[:i], k[i+1:], true
		}
	}
	return "", k, false
}

// Add is Update, deleting a missing key is a no-op, and Replace swaps the
// content and rebuilds every index (the later of two objects with one key wins;
// docs/clientgo-semantics.md#store-writes).
func TestStoreWrites(t *testing.T) {
	s := cachetest.Must(NewIndexer(testIndexers()))
	s.Add(pod("a", "p1", "n1", nil))
	s.Add(pod("a", "p1", "n2", nil))
	s.Delete(ObjectName{Namespace: "a", Name: "missing"})
	if s.Len() != 1 {
		t.Fatalf("Len = %d, want 1", s.Len())
	}
	if got := mustByIndex(t, s, "node", "", "n2"); !slices.Equal(got, []string{"a/p1"}) {
		t.Fatalf("after Add over Add: ByIndex(n2) = %v", got)
	}

	latest := pod("b", "p2", "n4", nil)
	s.Replace([]*corev1.Pod{pod("b", "p2", "n3", nil), pod("c", "p3", "n3", nil), latest})
	if s.Len() != 2 {
		t.Fatalf("after Replace: Len = %d, want 2", s.Len())
	}
	if got, ok := s.Get(ObjectName{Namespace: "b", Name: "p2"}); !ok || got != latest {
		t.Fatalf("after Replace: Get(b/p2) = %v, %v; want the later object", got, ok)
	}
	if _, ok := s.Get(ObjectName{Namespace: "a", Name: "p1"}); ok {
		t.Fatal("after Replace: a/p1 still present")
	}
	if got, want := s.ListIndexFuncValues("node"), []string{"n3", "n4"}; !slices.Equal(got, want) {
		t.Fatalf("after Replace: node values = %v, want %v", got, want)
	}
	if got, want := names(s.List()), []string{"b/p2", "c/p3"}; !slices.Equal(got, want) {
		t.Fatalf("after Replace: List = %v, want %v", got, want)
	}
	var keys []string
	for _, k := range s.ListKeys() {
		keys = append(keys, k.String())
	}
	slices.Sort(keys)
	if want := []string{"b/p2", "c/p3"}; !slices.Equal(keys, want) {
		t.Fatalf("after Replace: ListKeys = %v, want %v", keys, want)
	}
}

// client-go string keys ("namespace/name", "name") work with GetByKey; a
// malformed key is an error (docs/clientgo-semantics.md#keys).
func TestGetByKeyAcceptsClientGoKeys(t *testing.T) {
	s := cachetest.Must(NewIndexer[*corev1.Pod](nil))
	namespaced, cluster := pod("a", "p1", "", nil), pod("", "p2", "", nil)
	s.Add(namespaced)
	s.Add(cluster)
	for key, want := range map[string]*corev1.Pod{"a/p1": namespaced, "p2": cluster, "a/p2": nil} {
		got, ok, err := s.GetByKey(key)
		if err != nil || ok != (want != nil) || got != want {
			t.Errorf("GetByKey(%q) = %v, %v, %v; want %v", key, got, ok, err, want)
		}
	}
	for _, malformed := range []string{"a/b/c", "/p2"} {
		if _, _, err := s.GetByKey(malformed); err == nil {
			t.Errorf("GetByKey(%q): no error", malformed)
		}
	}
}

// Buckets switch from a sorted run to per-namespace sets past largeBucket
// members, and those sets from a slice to a map past smallSetMax: lookups
// must answer the same in every representation, while growing and shrinking.
func TestIndexLookupsAcrossBucketRepresentations(t *testing.T) {
	s := cachetest.Must(NewIndexer(testIndexers()))
	want := map[string]map[string]bool{} // namespace -> names on node "hot"
	check := func(stage string) {
		t.Helper()
		var all []string
		for ns, set := range want {
			var inNS []string
			for name := range set {
				inNS = append(inNS, ns+"/"+name)
			}
			slices.Sort(inNS)
			all = append(all, inNS...)
			if got := mustByIndex(t, s, "node", ns, "hot"); !slices.Equal(got, inNS) && len(got)+len(inNS) > 0 {
				t.Fatalf("%s: ByIndexInNamespace(%s) = %d objects, want %d", stage, ns, len(got), len(inNS))
			}
			var visited []*corev1.Pod
			for p := range s.IndexedObjects("node", ns, "hot") {
				visited = append(visited, p)
			}
			if got := names(visited); !slices.Equal(got, inNS) && len(got)+len(inNS) > 0 {
				t.Fatalf("%s: IndexedObjects(%s) = %d objects, want %d", stage, ns, len(got), len(inNS))
			}
		}
		slices.Sort(all)
		if got := mustByIndex(t, s, "node", "", "hot"); !slices.Equal(got, all) && len(got)+len(all) > 0 {
			t.Fatalf("%s: ByIndex = %d objects, want %d", stage, len(got), len(all))
		}
	}
	add := func(ns, name string) {
		s.Add(pod(ns, name, "hot", nil))
		if want[ns] == nil {
			want[ns] = map[string]bool{}
		}
		want[ns][name] = true
	}
	remove := func(ns, name string) {
		s.Delete(ObjectName{Namespace: ns, Name: name})
		delete(want[ns], name)
	}
	for i := range 10 {
		add(fmt.Sprint("ns", i%3), fmt.Sprint("p", i))
	}
	check("sorted bucket")
	const total = largeBucket + 100
	for i := 10; i < total; i++ {
		add(fmt.Sprint("ns", i%3), fmt.Sprint("p", i))
	}
	check("per-namespace sets held in maps")
	for i := 0; i < total-10; i++ {
		remove(fmt.Sprint("ns", i%3), fmt.Sprint("p", i))
	}
	check("shrunk bucket")
	for i := total - 10; i < total; i++ {
		remove(fmt.Sprint("ns", i%3), fmt.Sprint("p", i))
	}
	check("emptied bucket")
	if got := s.ListIndexFuncValues("node"); len(got) != 0 {
		t.Fatalf("node values after emptying = %v", got)
	}
}

func newNodeSpreadStore() *Indexer[*corev1.Pod] {
	s := cachetest.Must(NewIndexer(testIndexers()))
	for i := range 200 {
		s.Add(pod(fmt.Sprint("ns", i%4), fmt.Sprint("p", i), fmt.Sprint("n", i%2), nil))
	}
	return s
}

// The visiting form allocates nothing once warmed up. The race detector makes
// sync.Pool drop values on purpose, so `make test` runs this test a second
// time without -race.
func TestIndexedObjectsAllocatesNothing(t *testing.T) {
	if cachetest.RaceEnabled {
		t.Skip("allocation counts are meaningless under -race; make test runs this without it")
	}
	s := newNodeSpreadStore()
	sum := 0
	for _, ns := range []string{"", "ns1"} {
		allocs := testing.AllocsPerRun(50, func() {
			for p := range s.IndexedObjects("node", ns, "n1") {
				sum += len(p.Name)
			}
		})
		if allocs != 0 {
			t.Errorf("IndexedObjects(namespace %q) allocates %v times per lookup, want 0", ns, allocs)
		}
	}
}

// The visiting form stops when the loop breaks and lets the loop body write to
// the store (no lock is held while it runs).
func TestIndexedObjectsReleasesTheLock(t *testing.T) {
	s := newNodeSpreadStore()
	seen := 0
	for range s.IndexedObjects("node", "", "n1") {
		seen++
		if seen == 3 {
			break
		}
	}
	if seen != 3 {
		t.Errorf("loop ran %d times, want 3", seen)
	}
	for p := range s.IndexedObjects("node", "ns1", "n1") {
		moved := p.DeepCopy()
		moved.Spec.NodeName = "n0"
		s.Update(moved)
	}
	if got := mustByIndex(t, s, "node", "ns1", "n1"); len(got) != 0 {
		t.Errorf("after moving every ns1 pod off n1, %d remain", len(got))
	}
}

// Select narrows with a label index when the selector requires an exact value
// and otherwise scans; both give the same answer as matching every object.
func TestSelectMatchesFullScan(t *testing.T) {
	indexed := cachetest.Must(NewIndexer(Indexers[*corev1.Pod]{}))
	if err := indexed.AddLabelIndex("byApp", "app"); err != nil {
		t.Fatal(err)
	}
	if err := indexed.AddLabelIndex("byTeam", "team"); err != nil {
		t.Fatal(err)
	}
	plain := cachetest.Must(NewIndexer(Indexers[*corev1.Pod]{}))
	apps, teams := []string{"web", "db", ""}, []string{"red", "blue"}
	for i := range 300 {
		pairs := []string{"team", teams[i%2]}
		if app := apps[i%3]; app != "" {
			pairs = append(pairs, "app", app)
		}
		p := pod(fmt.Sprint("ns", i%5), fmt.Sprint("p", i), "", nil, pairs...)
		indexed.Add(p)
		plain.Add(p)
	}
	for _, sel := range []string{
		"app=web", "app==db", "app in (web)", "app in (web,db)", "app=web,team=red",
		"team=blue,app!=web", "app notin (web)", "app", "!app", "app=missing", "",
	} {
		selector, err := labels.Parse(sel)
		if err != nil {
			t.Fatal(err)
		}
		for _, ns := range []string{"", "ns2", "nowhere"} {
			var want []*corev1.Pod
			for _, p := range plain.List() {
				if (ns == "" || p.Namespace == ns) && selector.Matches(labels.Set(p.Labels)) {
					want = append(want, p)
				}
			}
			if got := indexed.Select(ns, selector); !slices.Equal(names(got), names(want)) {
				t.Errorf("Select(%q, %q) = %d objects, want %d", ns, sel, len(got), len(want))
			}
		}
	}
	if got := indexed.Select("", labels.Nothing()); len(got) != 0 {
		t.Errorf("Select(Nothing) = %d objects", len(got))
	}
	if got := indexed.Select("", labels.Everything()); len(got) != 300 {
		t.Errorf("Select(Everything) = %d objects, want 300", len(got))
	}
}

// Readers and writers run concurrently without races (run with -race), and
// the store ends consistent with the last writes.
func TestConcurrentReadersAndWriters(t *testing.T) {
	s := cachetest.Must(NewIndexer(testIndexers()))
	if err := s.AddLabelIndex("app", "app"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 500 {
				name := fmt.Sprint("w", w, "-", i%50)
				switch i % 5 {
				case 4:
					s.Delete(ObjectName{Namespace: "ns", Name: name})
				default:
					s.Update(pod("ns", name, fmt.Sprint("n", i%7), []string{"img"}, "app", fmt.Sprint(i%3)))
				}
			}
		})
	}
	for range 4 {
		wg.Go(func() {
			sel, _ := labels.Parse("app=1")
			for i := range 300 {
				_, _ = s.ByIndexInNamespace("node", "ns", fmt.Sprint("n", i%7))
				for range s.IndexedObjects("image", "", "img") {
				}
				_ = s.Select("ns", sel)
				_ = s.ListIndexFuncValues("node")
			}
		})
	}
	wg.Wait()
	total := 0
	for _, v := range s.ListIndexFuncValues("node") {
		got, _ := s.ByIndex("node", v)
		total += len(got)
	}
	if total != s.Len() {
		t.Errorf("node index holds %d objects, store holds %d", total, s.Len())
	}
}

// Reserve makes room in an empty store for n objects at once (the informer
// calls it with the length of its first list): the slot array is allocated
// for n, not grown to it. A store that holds objects is left as it is.
func TestReserveMakesRoomInAnEmptyStoreOnly(t *testing.T) {
	const listed = 3000
	s := cachetest.Must(NewIndexer(testIndexers()))
	Reserve(s, listed)
	for i := range listed {
		s.Add(pod("ns", fmt.Sprintf("p%04d", i), "n", nil))
	}
	if got := cap(s.entries); got != listed {
		t.Errorf("the slot array has room for %d objects after Reserve(%d) and as many adds", got, listed)
	}
	Reserve(s, 10*listed)
	if got := cap(s.entries); got != listed || s.Len() != listed {
		t.Errorf("Reserve on a full store changed it: room for %d, %d objects", got, s.Len())
	}
}
