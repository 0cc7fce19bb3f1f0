package store

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// IndexFunc computes the values under which obj is indexed. It is called with
// the store's write lock held, must not mutate obj and must not call back
// into the store. A panic is reported through utilruntime.HandleError and obj
// then gets no value in that index. It may return no value (obj is not
// indexed) or the same value more than once (obj is then listed once under
// that value).
type IndexFunc[T any] func(obj T) []string

// Indexers maps index names to index functions.
type Indexers[T any] map[string]IndexFunc[T]

// nsID identifies a namespace inside a store: namespaces are interned, so
// index buckets can order and compare them as small integers.
type nsID uint32

// member is one object of a bucket.
type member struct {
	ns nsID
	id slot
}

func compareMembers(a, b member) int {
	return cmp.Or(cmp.Compare(a.ns, b.ns), cmp.Compare(a.id, b.id))
}

// largeBucket is the size above which a bucket switches from one sorted run of
// members to per-namespace sets, so that adding to or removing from a huge
// bucket does not move all of it. smallBucket is the size at which a grouped
// bucket switches back to a sorted run: half of largeBucket, so that a
// bucket whose size hovers around either threshold does not switch back and
// forth (each switch moves every member).
const (
	largeBucket = 1024
	smallBucket = largeBucket / 2
)

// minSortedCap is the capacity up to which a sorted run is not reallocated
// when it shrinks.
const minSortedCap = 64

// bucket holds the objects indexed under one value. Up to largeBucket members
// it is a slice sorted by (namespace, slot): 8 bytes a member, the members of
// one namespace contiguous and found by binary search. Beyond that, members
// are kept in one set per namespace, until they are smallBucket again.
type bucket struct {
	value  string // the value, the same string as the index's key for the bucket
	n      int
	sorted []member        // while groups is nil
	groups map[nsID]*idSet // from when n exceeded largeBucket until n is smallBucket
}

// add inserts m and reports whether it was not already a member.
func (b *bucket) add(m member) bool {
	if b.groups != nil {
		g := b.groups[m.ns]
		if g == nil {
			g = &idSet{}
			b.groups[m.ns] = g
		}
		if !g.add(m.id) {
			return false
		}
		b.n++
		return true
	}
	i, found := slices.BinarySearchFunc(b.sorted, m, compareMembers)
	if found {
		return false
	}
	b.sorted = slices.Insert(b.sorted, i, m)
	b.n++
	if b.n > largeBucket {
		b.groups = map[nsID]*idSet{}
		for _, x := range b.sorted {
			g := b.groups[x.ns]
			if g == nil {
				g = &idSet{}
				b.groups[x.ns] = g
			}
			g.add(x.id)
		}
		b.sorted = nil
	}
	return true
}

// remove deletes m and reports whether it was a member.
func (b *bucket) remove(m member) bool {
	if b.groups != nil {
		g := b.groups[m.ns]
		if g == nil || !g.remove(m.id) {
			return false
		}
		if g.len() == 0 {
			delete(b.groups, m.ns)
		}
		b.n--
		if b.n <= smallBucket {
			b.ungroup()
		}
		return true
	}
	i, found := slices.BinarySearchFunc(b.sorted, m, compareMembers)
	if !found {
		return false
	}
	b.sorted = slices.Delete(b.sorted, i, i+1)
	b.n--
	if c := cap(b.sorted); c > minSortedCap && 4*len(b.sorted) <= c {
		// Give back most of what the run grew to: memory follows the
		// members, and halving leaves room to grow again.
		b.sorted = append(make([]member, 0, c/2), b.sorted...)
	}
	return true
}

// ungroup switches a grouped bucket back to one sorted run.
func (b *bucket) ungroup() {
	sorted := make([]member, 0, b.n)
	for ns, g := range b.groups {
		g.visit(func(id slot) { sorted = append(sorted, member{ns, id}) })
	}
	slices.SortFunc(sorted, compareMembers)
	b.sorted, b.groups = sorted, nil
}

// nsRange returns the members of namespace ns in a sorted bucket.
func (b *bucket) nsRange(ns nsID) []member {
	lo, _ := slices.BinarySearchFunc(b.sorted, member{ns: ns}, compareMembers)
	hi := lo
	for hi < len(b.sorted) && b.sorted[hi].ns == ns {
		hi++
	}
	return b.sorted[lo:hi]
}

// scope says which members of a bucket a lookup wants: all of them, or those
// of one namespace.
type scope struct {
	all bool
	ns  nsID
}

var everywhere = scope{all: true}

// count returns the number of members in scope.
func (b *bucket) count(sc scope) int {
	switch {
	case sc.all:
		return b.n
	case b.groups != nil:
		if g := b.groups[sc.ns]; g != nil {
			return g.len()
		}
		return 0
	default:
		return len(b.nsRange(sc.ns))
	}
}

// visit calls fn with the slot of every member in scope.
func (b *bucket) visit(sc scope, fn func(slot)) {
	if b.groups == nil {
		members := b.sorted
		if !sc.all {
			members = b.nsRange(sc.ns)
		}
		for _, m := range members {
			fn(m.id)
		}
		return
	}
	if !sc.all {
		if g := b.groups[sc.ns]; g != nil {
			g.visit(fn)
		}
		return
	}
	for _, g := range b.groups {
		g.visit(fn)
	}
}

// refTable keeps, for every slot of a store and every index, the bucket of
// the slot's object in that index: one row of stride pointers per slot, the
// indexes' columns side by side, so that updating an object reads the
// buckets of all its indexes from one place in memory (usually one cache
// line) rather than from one array per index. A column holds nil when the
// object has no value in that index, manyValues when it has several (their
// buckets are then in the index's many).
type refTable struct {
	refs   []*bucket
	stride int // the number of indexes
}

// grow gives the table a row for every slot below slots.
func (t *refTable) grow(slots int) {
	if n := slots * t.stride; len(t.refs) < n {
		t.refs = append(t.refs, make([]*bucket, n-len(t.refs))...)
	}
}

// reset empties the table, with room for slots rows.
func (t *refTable) reset(slots int) {
	t.refs = make([]*bucket, 0, slots*t.stride)
}

// widen adds a column for a new index, nil in every row, and returns its
// number.
func (t *refTable) widen() int {
	col := t.stride
	if len(t.refs) > 0 {
		rows := len(t.refs) / t.stride
		refs := make([]*bucket, rows*(t.stride+1), cap(t.refs)/t.stride*(t.stride+1))
		for r := range rows {
			copy(refs[r*(t.stride+1):], t.refs[r*t.stride:(r+1)*t.stride])
		}
		t.refs = refs
	}
	t.stride++
	return col
}

// index is one named index of a store.
//
// It keeps, for every slot, the buckets its object was added to (its column
// of the store's refTable, and many), so that an update or a delete takes the
// object out of them without running the index function on the object it
// replaces or removes: that object is usually cold in the CPU cache when the
// event arrives, and the call would allocate. The buckets hold the value
// strings (bucket.value), so what is kept per object is one pointer per
// index.
type index[T Object] struct {
	name string
	// The index values of an object are computed by fn, or by appendFn
	// (AppendIndexFunc) into scratch, or, when labelKey is set, are the
	// value of that label; one of the three is set.
	fn       IndexFunc[T]
	appendFn AppendIndexFunc[T]
	labelKey string
	scratch  []string // appendFn's and label lookups' destination, reused
	buckets  map[string]*bucket
	// table holds, in column col, by slot, the bucket of the object's one
	// value; nil when it has none, manyValues when it has several, whose
	// buckets are then in many.
	table *refTable
	col   int
	many  map[slot][]*bucket
}

// manyValues marks, in an index's column of the refTable, an object indexed
// under several values.
var manyValues = &bucket{}

func newIndex[T Object](name string, fn IndexFunc[T], labelKey string) *index[T] {
	return &index[T]{name: name, fn: fn, labelKey: labelKey, buckets: map[string]*bucket{}, many: map[slot][]*bucket{}}
}

// reset empties the index; the store resets its refTable.
func (ix *index[T]) reset() {
	ix.buckets = map[string]*bucket{}
	ix.many = map[slot][]*bucket{}
}

// ref returns where the table keeps the bucket of slot id in this index.
func (ix *index[T]) ref(id slot) **bucket {
	return &ix.table.refs[int(id)*ix.table.stride+ix.col]
}

// values returns the index values of obj, appending to buf when the index can
// compute them without allocating (label indexes and append-form functions).
func (ix *index[T]) values(obj T, buf []string) []string {
	switch {
	case ix.labelKey != "":
		if v, ok := obj.GetLabels()[ix.labelKey]; ok {
			return append(buf, v)
		}
		return buf
	case ix.appendFn != nil:
		return ix.callAppend(obj, buf)
	}
	return ix.call(obj)
}

// maxScratch is the capacity up to which an index keeps the slice its
// values were last computed into, for the next object.
const maxScratch = 64

// callAppend runs the append-form index function on obj with dst, as call
// runs the other form.
func (ix *index[T]) callAppend(obj T, dst []string) (values []string) {
	defer func() {
		if r := recover(); r != nil {
			utilruntime.HandleError(fmt.Errorf("index function %q panicked on %s: %v", ix.name, KeyOf(obj).String(), r))
			values = dst[:0]
		}
	}()
	return ix.appendFn(obj, dst)
}

// call runs the index function on obj. A panic is reported through
// utilruntime.HandleError, as an index function's error is, and obj gets no
// value in this index: a bad index function cannot take the informer down or
// lose the object. Index functions are deterministic, so removing obj later
// finds no value either and the index stays consistent.
func (ix *index[T]) call(obj T) (values []string) {
	defer func() {
		if r := recover(); r != nil {
			utilruntime.HandleError(fmt.Errorf("index function %q panicked on %s: %v", ix.name, KeyOf(obj).String(), r))
			values = nil
		}
	}()
	return ix.fn(obj)
}

// add puts m into value's bucket and returns the bucket.
func (ix *index[T]) add(value string, m member) *bucket {
	b := ix.buckets[value]
	if b == nil {
		b = &bucket{value: value}
		ix.buckets[value] = b
	}
	b.add(m)
	return b
}

// removeFrom takes m out of bucket b, dropping the bucket when it becomes
// empty, so that high-cardinality values do not leak empty sets.
func (ix *index[T]) removeFrom(b *bucket, m member) {
	if b.remove(m) && b.n == 0 {
		delete(ix.buckets, b.value)
	}
}

// update indexes m under the values of obj, the object now stored in m's
// slot, or under no value when obj is the zero value (the slot was
// emptied). The values m was indexed under before are those kept when it
// was last indexed, not computed again from the object it held: for the
// deterministic index functions the store requires they are the same
// (docs/clientgo-semantics.md#index-update). When m had and gets the same
// single value, nothing moves.
func (ix *index[T]) update(m member, obj T) {
	var zero T
	if obj == zero {
		ix.move(m, nil)
		return
	}
	values := ix.values(obj, ix.scratch[:0])
	ix.move(m, values)
	if ix.fn == nil {
		// The store owns the slice: keep it for the next object, and let it
		// pin no value meanwhile.
		clear(values)
		if cap(values) <= maxScratch {
			ix.scratch = values[:0]
		}
	}
}

// move indexes m under values instead of the values it was kept under. It
// adds m to the buckets of the new values first and then takes it out of
// the old buckets that are not among them, so that a bucket the object stays
// in is neither emptied nor dropped on the way.
func (ix *index[T]) move(m member, values []string) {
	at := ix.ref(m.id)
	ref := *at
	var old []*bucket
	switch ref {
	case nil:
	case manyValues:
		old = ix.many[m.id]
		if sameValues(old, values) {
			return
		}
	default:
		if len(values) == 1 && ref.value == values[0] {
			return
		}
		old = []*bucket{ref}
	}
	var first *bucket
	var all []*bucket // every bucket of values, when there are several
	for _, v := range values {
		b := ix.add(v, m)
		switch {
		case first == nil:
			first = b
		case b != first && !slices.Contains(all, b):
			if all == nil {
				all = append(make([]*bucket, 0, len(values)), first)
			}
			all = append(all, b)
		}
	}
	for _, b := range old {
		if b != first && !slices.Contains(all, b) {
			ix.removeFrom(b, m)
		}
	}
	if ref == manyValues {
		delete(ix.many, m.id)
	}
	switch {
	case all != nil:
		*at = manyValues
		ix.many[m.id] = all
	default:
		*at = first
	}
}

// maxCompared is the number of values up to which sameValues compares them;
// it reports larger sets as different.
const maxCompared = 16

// sameValues reports whether buckets are the buckets of exactly the values
// in values (which may repeat a value).
func sameValues(buckets []*bucket, values []string) bool {
	if len(values) < len(buckets) || len(values) > maxCompared {
		return false
	}
	for _, v := range values {
		if !slices.ContainsFunc(buckets, func(b *bucket) bool { return b.value == v }) {
			return false
		}
	}
	for _, b := range buckets {
		if !slices.Contains(values, b.value) {
			return false
		}
	}
	return true
}

// count returns the number of objects indexed under value in scope.
func (ix *index[T]) count(sc scope, value string) int {
	if b := ix.buckets[value]; b != nil {
		return b.count(sc)
	}
	return 0
}

// visit calls fn with the slot of every object indexed under value in scope.
func (ix *index[T]) visit(sc scope, value string, fn func(slot)) {
	if b := ix.buckets[value]; b != nil {
		b.visit(sc, fn)
	}
}

// sortedValues returns the values that have at least one object, sorted.
func (ix *index[T]) sortedValues() []string {
	return slices.Sorted(maps.Keys(ix.buckets))
}
