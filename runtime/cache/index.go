package cache

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

// index is one named index of a store.
type index[T Object] struct {
	name string
	fn   IndexFunc[T]
	// labelKey is set for label indexes: the index value is the value of this
	// label, and fn is not used.
	labelKey string
	buckets  map[string]*bucket
}

func newIndex[T Object](name string, fn IndexFunc[T], labelKey string) *index[T] {
	return &index[T]{name: name, fn: fn, labelKey: labelKey, buckets: map[string]*bucket{}}
}

// values returns the index values of obj, appending to buf when the index can
// compute them without allocating.
func (ix *index[T]) values(obj T, buf []string) []string {
	if ix.labelKey != "" {
		if v, ok := obj.GetLabels()[ix.labelKey]; ok {
			return append(buf, v)
		}
		return buf
	}
	return ix.call(obj)
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

func (ix *index[T]) add(value string, m member) {
	b := ix.buckets[value]
	if b == nil {
		b = &bucket{}
		ix.buckets[value] = b
	}
	b.add(m)
}

// remove takes m out of value's bucket, dropping the bucket when it becomes
// empty, so that high-cardinality values do not leak empty sets.
func (ix *index[T]) remove(value string, m member) {
	if b := ix.buckets[value]; b != nil && b.remove(m) && b.n == 0 {
		delete(ix.buckets, value)
	}
}

// update moves m from the index values of oldObj to those of newObj; either may
// be the zero value (no object). It computes the old values from oldObj, the
// object the store held, as client-go does
// (docs/clientgo-semantics.md#index-update), and does nothing when both have
// the same single value.
func (ix *index[T]) update(m member, oldObj, newObj T) {
	var zero T
	var oldBuf, newBuf [1]string
	var oldVals, newVals []string
	if oldObj != zero {
		oldVals = ix.values(oldObj, oldBuf[:0])
	}
	if newObj != zero {
		newVals = ix.values(newObj, newBuf[:0])
	}
	if len(oldVals) == 1 && len(newVals) == 1 && oldVals[0] == newVals[0] {
		return
	}
	for _, v := range oldVals {
		ix.remove(v, m)
	}
	for _, v := range newVals {
		ix.add(v, m)
	}
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
