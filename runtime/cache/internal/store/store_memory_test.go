package store

// The store's memory follows the objects it holds: a namespace whose last
// object goes is released (its entry, its map and its id), and an emptied
// store keeps nothing of its past content. checkStoreInvariants, which
// walks every internal structure, is shared with the threshold differential
// test.

import (
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/procstat"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

// checkStoreInvariants returns what is wrong with the internal structures of
// s, nil when nothing is:
//   - every namespace holds objects and has its own id below nextNS; the ids
//     of released namespaces are free, each once, and no other id is lost;
//   - every namespace lists live slots holding objects of that namespace
//     and its id, each at the position its entry records; free slots are
//     empty; count is right;
//   - the key map holds the store key of every object, and nothing else;
//   - every bucket is in the representation its size calls for (sorted up
//     to largeBucket members and grouped above smallBucket; each group a
//     slice up to smallSetMax members and a map above smallSetMin), holds
//     no empty group and no duplicate, and its n is its number of members;
//   - every member names a live slot of its namespace whose object has the
//     bucket's value, and every object is a member of the bucket of each of
//     its values: no member survives its object, none names a released
//     namespace;
//   - every bucket records its value, and the buckets each index keeps for
//     a slot are exactly those its object is a member of: one in refs, or
//     several in many; none for a free slot.
func checkStoreInvariants[T Object](s *Indexer[T]) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var errs []error
	more := 0
	fail := func(format string, args ...any) {
		if len(errs) < 20 {
			errs = append(errs, fmt.Errorf(format, args...))
		} else {
			more++
		}
	}
	var zero T

	ids := map[nsID]string{}
	for name, ns := range s.namespaces {
		if len(ns.slots) == 0 {
			fail("namespace %q is empty but kept", name)
		}
		if ns.id >= s.nextNS {
			fail("namespace %q has id %d, not below nextNS %d", name, ns.id, s.nextNS)
		}
		if other, ok := ids[ns.id]; ok {
			fail("namespaces %q and %q share id %d", name, other, ns.id)
		}
		ids[ns.id] = name
	}
	for _, id := range s.freeNS {
		if id >= s.nextNS {
			fail("free namespace id %d is not below nextNS %d", id, s.nextNS)
		}
		if other, ok := ids[id]; ok {
			fail("free namespace id %d is in use (by %q) or free twice", id, other)
		}
		ids[id] = "(free)"
	}
	if len(ids) != int(s.nextNS) {
		fail("%d namespace ids in use or free, nextNS is %d: ids are lost", len(ids), s.nextNS)
	}
	if sp := s.spare; sp != nil && (len(sp.slots) != 0 || sp.peak > spareNamespaceMax) {
		fail("the spare namespace holds %d objects and held up to %d", len(sp.slots), sp.peak)
	}
	for name, ns := range s.namespaces {
		if ns == s.spare {
			fail("namespace %q is the spare", name)
		}
	}
	if len(s.namespaces) == 0 && (s.nextNS != 0 || len(s.entries) != 0 || s.free != nil) {
		fail("the store holds no namespace but keeps nextNS %d, %d entries and %d free slots", s.nextNS, len(s.entries), len(s.free))
	}

	live := 0
	for name, ns := range s.namespaces {
		if c := cap(ns.slots); c > minSlotsCap && 8*len(ns.slots) < c {
			fail("namespace %q: %d slots keep capacity %d", name, len(ns.slots), c)
		}
		for pos, id := range ns.slots {
			if int(id) >= len(s.entries) {
				fail("%s[%d]: slot %d out of range", name, pos, id)
				continue
			}
			e := s.entries[id]
			switch {
			case e.obj == zero:
				fail("%s[%d]: slot %d is empty", name, pos, id)
			case e.obj.GetNamespace() != name:
				fail("%s[%d]: slot %d holds %s", name, pos, id, KeyOf(e.obj))
			case e.ns != ns.id:
				fail("%s[%d]: slot %d has namespace id %d, want %d", name, pos, id, e.ns, ns.id)
			case e.pos != uint32(pos):
				fail("%s[%d]: slot %d records position %d", name, pos, id, e.pos)
			default:
				if found, where := s.keys.find(s.byID, KeyOf(e.obj)); where == absent || found != (keyed[T]{e.obj, id, e.ns}) {
					fail("%s: slot %d is found as %v (%v)", KeyOf(e.obj), id, found, where)
				}
			}
			live++
		}
	}
	if s.keys.n != live {
		fail("key map: %d keys, %d objects", s.keys.n, live)
	}
	checkKeyMap(&s.keys, s.byID, fail)
	if live != s.count {
		fail("count %d, %d objects by name", s.count, live)
	}
	freeSlots := map[slot]bool{}
	for _, id := range s.free {
		if int(id) >= len(s.entries) || s.entries[id].obj != zero || freeSlots[id] {
			fail("free slot %d is out of range, in use or free twice", id)
		}
		freeSlots[id] = true
	}
	if live+len(freeSlots) != len(s.entries) {
		fail("%d live and %d free slots of %d entries", live, len(freeSlots), len(s.entries))
	}

	for _, ix := range s.indexes {
		memberships := 0
		for _, e := range s.entries {
			if e.obj != zero {
				vals := ix.values(e.obj, nil)
				slices.Sort(vals)
				memberships += len(slices.Compact(vals))
			}
		}
		members := 0
		if ix.table != &s.refs || ix.table.stride != len(s.indexes) {
			fail("index %q: column %d of a table of %d, not the store's table of %d indexes", ix.name, ix.col, ix.table.stride, len(s.indexes))
		}
		if len(s.refs.refs) != len(s.entries)*len(s.indexes) {
			fail("index %q: %d refs for %d slots", ix.name, len(s.refs.refs), len(s.entries))
		}
		kept := map[slot][]*bucket{} // what the index keeps, by slot
		for id := range s.entries {
			switch ref := *ix.ref(slot(id)); ref {
			case nil:
			case manyValues:
				if bs := ix.many[slot(id)]; len(bs) < 2 {
					fail("index %q: slot %d has many values, kept %d", ix.name, id, len(bs))
				} else {
					kept[slot(id)] = bs
				}
			default:
				kept[slot(id)] = []*bucket{ref}
			}
		}
		for id := range ix.many {
			if int(id) >= len(s.entries) || *ix.ref(id) != manyValues {
				fail("index %q: slot %d has values in many but not in refs", ix.name, id)
			}
		}
		actual := map[slot][]*bucket{} // the buckets each slot is a member of
		for value, b := range ix.buckets {
			what := fmt.Sprintf("index %q, value %q", ix.name, value)
			if b.value != value {
				fail("%s: bucket records value %q", what, b.value)
			}
			check := func(m member) {
				members++
				actual[m.id] = append(actual[m.id], b)
				if int(m.id) >= len(s.entries) || s.entries[m.id].obj == zero {
					fail("%s: member (%d, %d) names no object", what, m.ns, m.id)
					return
				}
				e := s.entries[m.id]
				if e.ns != m.ns {
					fail("%s: member (%d, %d) holds %s of namespace id %d", what, m.ns, m.id, KeyOf(e.obj), e.ns)
				}
				if !slices.Contains(ix.values(e.obj, nil), value) {
					fail("%s: member %s does not have the value", what, KeyOf(e.obj))
				}
			}
			if b.groups == nil {
				if b.n != len(b.sorted) || b.n == 0 || b.n > largeBucket {
					fail("%s: sorted bucket of %d members with n %d", what, len(b.sorted), b.n)
				}
				if !slices.IsSortedFunc(b.sorted, compareMembers) || len(slices.CompactFunc(slices.Clone(b.sorted), func(a, b member) bool { return a == b })) != len(b.sorted) {
					fail("%s: sorted bucket is not sorted or has duplicates", what)
				}
				if c := cap(b.sorted); c > minSortedCap && 8*len(b.sorted) < c {
					fail("%s: sorted bucket of %d members keeps capacity %d", what, len(b.sorted), c)
				}
				for _, m := range b.sorted {
					check(m)
				}
				continue
			}
			if b.n <= smallBucket {
				fail("%s: grouped bucket of only %d members", what, b.n)
			}
			n := 0
			for ns, g := range b.groups {
				switch {
				case g.len() == 0:
					fail("%s: empty group for namespace id %d", what, ns)
				case g.m == nil && len(g.list) > smallSetMax:
					fail("%s: group of namespace id %d is a slice of %d", what, ns, len(g.list))
				case g.m != nil && (len(g.m) <= smallSetMin || g.list != nil):
					fail("%s: group of namespace id %d is a map of %d (and a slice of %d)", what, ns, len(g.m), len(g.list))
				}
				if g.m == nil && len(slices.Compact(slices.Sorted(slices.Values(g.list)))) != len(g.list) {
					fail("%s: group of namespace id %d has duplicates", what, ns)
				}
				n += g.len()
				g.visit(func(id slot) { check(member{ns, id}) })
			}
			if n != b.n {
				fail("%s: grouped bucket of %d members with n %d", what, n, b.n)
			}
		}
		if members != memberships {
			fail("index %q: %d members, the objects have %d distinct values", ix.name, members, memberships)
		}
		for id, bs := range actual {
			k := kept[id]
			if len(k) != len(bs) || slices.ContainsFunc(bs, func(b *bucket) bool { return !slices.Contains(k, b) }) {
				fail("index %q: slot %d is in %d buckets, the index keeps %d of them", ix.name, id, len(bs), len(k))
			}
		}
		for id, k := range kept {
			if len(actual[id]) == 0 {
				fail("index %q: slot %d keeps %d buckets and is in none", ix.name, id, len(k))
			}
		}
	}
	if more > 0 {
		errs = append(errs, fmt.Errorf("and %d more", more))
	}
	return errors.Join(errs...)
}

// A namespace whose last object is removed is released, its id reused by
// the next new namespace; lookups in every namespace stay right across the
// reuse, in sorted and grouped buckets; an emptied store keeps nothing.
func TestEmptiedNamespaceIsReleased(t *testing.T) {
	s := cachetest.Must(NewIndexer(testIndexers()))
	if err := s.AddLabelIndex("app", "app"); err != nil {
		t.Fatal(err)
	}
	check := func(stage string) {
		t.Helper()
		if err := checkStoreInvariants(s); err != nil {
			t.Fatalf("%s: %v", stage, err)
		}
	}
	// want holds what each namespace should hold; every pod is on node
	// "hot" with label app=web.
	want := map[string][]string{}
	add := func(ns string, n int) {
		for range n {
			name := fmt.Sprint("p", len(want[ns]))
			s.Add(pod(ns, name, "hot", nil, "app", "web"))
			want[ns] = append(want[ns], ns+"/"+name)
		}
		slices.Sort(want[ns])
	}
	empty := func(ns string) {
		for _, key := range want[ns] {
			s.Delete(cachetest.Must(cache.ParseObjectName(key)))
		}
		delete(want, ns)
	}
	lookups := func(stage string) {
		t.Helper()
		check(stage)
		var all []string
		for _, ns := range []string{"a", "b", "c", "d", "e", "s", "t"} {
			all = append(all, want[ns]...)
			for _, index := range []string{"node", "app"} {
				if got := mustByIndex(t, s, index, ns, map[string]string{"node": "hot", "app": "web"}[index]); !slices.Equal(got, want[ns]) && len(got)+len(want[ns]) > 0 {
					t.Fatalf("%s: ByIndexInNamespace(%q, %q) = %d objects, want %d", stage, index, ns, len(got), len(want[ns]))
				}
			}
			if got := names(s.ListNamespace(ns)); !slices.Equal(got, want[ns]) && len(got)+len(want[ns]) > 0 {
				t.Fatalf("%s: ListNamespace(%q) = %d objects, want %d", stage, ns, len(got), len(want[ns]))
			}
			if got := names(s.Select(ns, labels.SelectorFromSet(labels.Set{"app": "web"}))); !slices.Equal(got, want[ns]) && len(got)+len(want[ns]) > 0 {
				t.Fatalf("%s: Select(%q, app=web) = %d objects, want %d", stage, ns, len(got), len(want[ns]))
			}
		}
		slices.Sort(all)
		if got := mustByIndex(t, s, "node", "", "hot"); !slices.Equal(got, all) && len(got)+len(all) > 0 {
			t.Fatalf("%s: ByIndex(node, hot) = %d objects, want %d", stage, len(got), len(all))
		}
		if got, wantNS := s.namespaceNames(), slices.Sorted(maps.Keys(want)); !slices.Equal(got, wantNS) {
			t.Fatalf("%s: namespaces %q, want %q", stage, got, wantNS)
		}
	}

	// Sorted buckets: b's id goes to d, which sorts between a and c.
	add("a", 20)
	add("b", 20)
	add("c", 20)
	lookups("three namespaces")
	idB := s.namespaces["b"].id
	empty("b")
	lookups("b emptied")
	if len(s.namespaces) != 2 || !slices.Equal(s.freeNS, []nsID{idB}) {
		t.Fatalf("after emptying b: %d namespaces, free ids %v; want 2 and [%d]", len(s.namespaces), s.freeNS, idB)
	}
	add("d", 20)
	lookups("d created")
	if got := s.namespaces["d"].id; got != idB || s.nextNS != 3 {
		t.Fatalf("d got id %d (nextNS %d), want b's %d (nextNS 3)", got, s.nextNS, idB)
	}

	// Grouped buckets: c's id goes to e while the node bucket is grouped.
	add("a", largeBucket)
	lookups("grouped")
	idC := s.namespaces["c"].id
	empty("c")
	add("e", 40)
	lookups("c emptied, e created")
	if got := s.namespaces["e"].id; got != idC {
		t.Fatalf("e got id %d, want c's %d", got, idC)
	}

	// A small namespace is kept, empty, for the next new one.
	add("s", 2)
	small := s.namespaces["s"]
	empty("s")
	if s.spare != small {
		t.Fatalf("the emptied namespace of 2 objects is not the spare")
	}
	add("t", 1)
	lookups("s emptied, t created")
	if s.namespaces["t"] != small || s.spare != nil {
		t.Fatalf("t did not take the spare namespace")
	}

	// Emptying every namespace leaves a store like a new one.
	for _, ns := range slices.Sorted(maps.Keys(want)) {
		empty(ns)
		lookups("emptied " + ns)
	}
	if s.Len() != 0 || len(s.namespaces) != 0 || s.nextNS != 0 || s.freeNS != nil || s.entries == nil || len(s.entries) != 0 || s.free != nil {
		t.Fatalf("emptied store: %d objects, %d namespaces, nextNS %d, free ids %v, %d entries, %d free slots",
			s.Len(), len(s.namespaces), s.nextNS, s.freeNS, len(s.entries), len(s.free))
	}
	for _, ix := range s.indexes {
		if len(ix.buckets) != 0 {
			t.Fatalf("emptied store: index %q has %d buckets", ix.name, len(ix.buckets))
		}
	}
	add("a", 3)
	lookups("refilled")
}

// A namespace that loses and regains its only object takes the spare
// namespace back and allocates nothing for the namespace: no more than
// deleting and re-adding an object of a namespace that stays, which
// allocates the object's store key. `make unit` runs the test a second time
// without -race, under which allocation counts are meaningless.
func TestRefilledNamespaceAllocatesNothing(t *testing.T) {
	if cachetest.RaceEnabled {
		t.Skip("allocation counts are meaningless under -race; make unit runs this without it")
	}
	s := cachetest.Must(NewIndexer[*corev1.Pod](nil))
	stays, other, lone := pod("x", "p", "", nil), pod("x", "q", "", nil), pod("y", "p", "", nil)
	s.Add(stays)
	s.Add(other)
	s.Add(lone)
	churn := func(p *corev1.Pod) float64 {
		return testing.AllocsPerRun(100, func() {
			s.Delete(KeyOf(p))
			s.Add(p)
		})
	}
	if base, allocs := churn(other), churn(lone); allocs > base || base > 1 {
		t.Errorf("emptying a namespace and adding its object back allocates %v times, re-adding an object of a namespace that stays %v; want at most 1 for both", allocs, base)
	}
	if err := checkStoreInvariants(s); err != nil {
		t.Fatal(err)
	}
}

// Namespace churn through a store that always holds objects (one namespace
// stays): after thousands of namespaces came and went, the store keeps an
// entry and an id for the namespaces it holds, at most as many free ids as
// it ever held namespaces at once, and no memory per namespace it saw.
func TestNamespaceChurnKeepsNoPerNamespaceState(t *testing.T) {
	const rounds, nsPerRound, podsPerNS = 20, 50, 5
	s := cachetest.Must(NewIndexer(Indexers[*corev1.Pod]{cache.NamespaceIndex: func(p *corev1.Pod) []string { return []string{p.Namespace} }, "node": byNode}))
	s.Add(pod("kube-system", "dns", "n0", nil))
	for r := range rounds {
		for n := range nsPerRound {
			for i := range podsPerNS {
				s.Add(pod(fmt.Sprintf("ci-%d-%d", r, n), fmt.Sprint("p", i), fmt.Sprint("n", i), nil))
			}
		}
		if r == 0 {
			if err := checkStoreInvariants(s); err != nil {
				t.Fatal(err)
			}
		}
		for n := range nsPerRound {
			for i := range podsPerNS {
				s.Delete(ObjectName{Namespace: fmt.Sprintf("ci-%d-%d", r, n), Name: fmt.Sprint("p", i)})
			}
		}
		if err := checkStoreInvariants(s); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if len(s.namespaces) != 1 || s.nextNS > nsPerRound+1 || len(s.freeNS) > nsPerRound {
			t.Fatalf("round %d: %d namespace entries, nextNS %d, %d free ids; want 1, at most %d, at most %d",
				r, len(s.namespaces), s.nextNS, len(s.freeNS), nsPerRound+1, nsPerRound)
		}
	}
	if got := s.ListIndexFuncValues(cache.NamespaceIndex); !slices.Equal(got, []string{"kube-system"}) {
		t.Fatalf("namespace index values %q", got)
	}
}

// 8,000 namespaces are created (200 at a time, 50 pods each) and emptied in
// our store and in client-go's indexer, both holding one namespace that
// stays, and both with a namespace index: the memory each retains must not
// grow with the namespaces it saw. Before namespaces were released ours kept
// about 2 KiB for each of them (15.6 MiB), client-go 0.6 MiB.
//
// The bound: no more than client-go retains (its items map keeps the size
// of the largest population, as our slots do) plus 32 bytes per namespace
// seen, a quarter of a map header and far below the 2 KiB per namespace of
// a leak. The race detector does not change heap accounting, so the test
// runs in both modes; under it, 4,000 namespaces of 10 pods (a leak would
// still keep about 500 bytes for each), to keep it short.
func TestEmptiedNamespacesReleaseMemory(t *testing.T) {
	rounds, nsPerRound, podsPerNS := 40, 200, 50
	if cachetest.RaceEnabled {
		rounds, podsPerNS = 20, 10
	}
	churn := func(put func(*corev1.Pod), del func(*corev1.Pod)) {
		put(pod("kube-system", "dns", "", nil))
		for r := range rounds {
			for n := range nsPerRound {
				ns := fmt.Sprintf("ci-%d-%d", r, n)
				for i := range podsPerNS {
					put(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprint("p", i)}})
				}
			}
			for n := range nsPerRound {
				ns := fmt.Sprintf("ci-%d-%d", r, n)
				for i := range podsPerNS {
					del(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprint("p", i)}})
				}
			}
		}
	}

	base := procstat.LiveHeap()
	ours := cachetest.Must(NewIndexer(Indexers[*corev1.Pod]{cache.NamespaceIndex: func(p *corev1.Pod) []string { return []string{p.Namespace} }}))
	churn(func(p *corev1.Pod) { ours.Add(p) }, func(p *corev1.Pod) { ours.Delete(KeyOf(p)) })
	oursHeap := procstat.LiveHeap() - base
	oursNS := len(ours.namespaces)
	invariants := checkStoreInvariants(ours)
	runtime.KeepAlive(ours)
	ours = nil

	base = procstat.LiveHeap()
	ref := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	churn(func(p *corev1.Pod) { _ = ref.Add(p) }, func(p *corev1.Pod) { _ = ref.Delete(p) })
	refHeap := procstat.LiveHeap() - base
	if n := len(ref.List()); n != 1 {
		t.Fatalf("client-go holds %d objects, want 1", n)
	}
	runtime.KeepAlive(ref)

	seen := int64(rounds * nsPerRound)
	t.Logf("after %d namespaces came and went: ours retains %d KiB (%d namespace entries), client-go %d KiB",
		seen, oursHeap>>10, oursNS, refHeap>>10)
	if limit := max(refHeap, 0) + 32*seen; oursNS != 1 || oursHeap > limit {
		t.Errorf("the store retains memory for the namespaces it held: %d namespace entries (want 1), %d KiB (client-go %d KiB, limit %d KiB)",
			oursNS, oursHeap>>10, refHeap>>10, limit>>10)
	}
	if invariants != nil {
		t.Error(invariants)
	}
}

// checkKeyMap reports, through fail, what breaks the key map's invariants:
// every entry of others has a name byName holds for another namespace (or
// vacant), shared counts them by name, a vacant entry is there only for
// names others holds, and byName and others together hold n objects, each
// under its own name and namespace.
func checkKeyMap[T Object](m *keyMap[T], byID []*namespace, fail func(string, ...any)) {
	var zero T
	stored := 0
	for name, k := range m.byName {
		if k.ns == vacantNS {
			if k.obj != zero || m.shared[name] == 0 {
				fail("key map: vacant entry %q holds %v, with %d others", name, k.obj, m.shared[name])
			}
			continue
		}
		stored++
		if int(k.ns) >= len(byID) || byID[k.ns] == nil || k.obj == zero ||
			k.obj.GetName() != name || k.obj.GetNamespace() != byID[k.ns].name {
			fail("key map: entry %q holds %v of namespace id %d", name, k.obj, k.ns)
		}
	}
	perName := map[string]int{}
	for key, k := range m.others {
		stored++
		perName[key.Name]++
		first, ok := m.byName[key.Name]
		if !ok || (first.ns != vacantNS && byID[first.ns].name == key.Namespace) {
			fail("key map: %s is in others, but its name is not held for another namespace", key)
		}
		if k.obj == zero || KeyOf(k.obj) != key || int(k.ns) >= len(byID) || byID[k.ns] == nil || byID[k.ns].name != key.Namespace {
			fail("key map: %s holds %v of namespace id %d", key, k.obj, k.ns)
		}
	}
	if !maps.Equal(perName, m.shared) {
		fail("key map: others per name %v, counted %v", perName, m.shared)
	}
	if stored != m.n {
		fail("key map: %d entries, counted %d", stored, m.n)
	}
}
