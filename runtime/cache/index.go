package cache

import (
	"maps"
	"slices"
)

// IndexFunc computes the values under which obj is indexed. It is called with
// the store's write lock held, must not fail, must not mutate obj and must not
// call back into the store. It may return no value (obj is not indexed) or the
// same value more than once (obj is then listed once under that value).
type IndexFunc[T any] func(obj T) []string

// Indexers maps index names to index functions.
type Indexers[T any] map[string]IndexFunc[T]

// groupMin is the bucket size above which a bucket keeps its members grouped
// by namespace. Below it, a namespace-scoped lookup scans at most groupMin
// members, a constant; above it, the lookup visits only the namespace's group.
const groupMin = 64

// bucket holds the slots of the objects indexed under one value.
type bucket struct {
	n      int
	flat   idSet             // members while groups is nil
	groups map[string]*idSet // members by namespace once n exceeded groupMin
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
	return ix.fn(obj)
}

// add files slot id (in namespace ns) under value.
func (ix *index[T]) add(value string, id slot, ns string, entries []entry[T]) {
	b := ix.buckets[value]
	if b == nil {
		b = &bucket{}
		ix.buckets[value] = b
	}
	if b.groups == nil {
		if !b.flat.add(id) {
			return
		}
		b.n++
		if b.n > groupMin {
			b.groups = map[string]*idSet{}
			for _, m := range b.flat.list {
				b.group(entries[m].key.Namespace).add(m)
			}
			for m := range b.flat.m {
				b.group(entries[m].key.Namespace).add(m)
			}
			b.flat = idSet{}
		}
		return
	}
	if b.group(ns).add(id) {
		b.n++
	}
}

func (b *bucket) group(ns string) *idSet {
	g := b.groups[ns]
	if g == nil {
		g = &idSet{}
		b.groups[ns] = g
	}
	return g
}

// remove takes slot id (in namespace ns) out of value's bucket, dropping
// the group and the bucket when they become empty.
func (ix *index[T]) remove(value string, id slot, ns string) {
	b := ix.buckets[value]
	if b == nil {
		return
	}
	if b.groups == nil {
		if !b.flat.remove(id) {
			return
		}
	} else {
		g := b.groups[ns]
		if g == nil || !g.remove(id) {
			return
		}
		if g.len() == 0 {
			delete(b.groups, ns)
		}
	}
	b.n--
	if b.n == 0 {
		delete(ix.buckets, value)
	}
}

// update moves slot id from the index values of oldObj to those of newObj;
// either may be the zero value (no object). It computes the old values from
// oldObj, the object the store held, as client-go does (semantics item 36),
// and does nothing when both have the same single value.
func (ix *index[T]) update(id slot, ns string, oldObj, newObj T, entries []entry[T]) {
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
		ix.remove(v, id, ns)
	}
	for _, v := range newVals {
		ix.add(v, id, ns, entries)
	}
}

// count returns the number of objects indexed under value, in namespace ns
// when ns is not empty. For a flat bucket with a namespace it returns the
// bucket size, an upper bound that is at most groupMin.
func (ix *index[T]) count(ns, value string) int {
	b := ix.buckets[value]
	switch {
	case b == nil:
		return 0
	case ns == "" || b.groups == nil:
		return b.n
	default:
		if g := b.groups[ns]; g != nil {
			return g.len()
		}
		return 0
	}
}

// appendMatches appends the objects indexed under value (only those in
// namespace ns when ns is not empty) to dst.
func (ix *index[T]) appendMatches(dst []T, ns, value string, entries []entry[T]) []T {
	b := ix.buckets[value]
	if b == nil {
		return dst
	}
	if b.groups == nil {
		return appendSet(dst, &b.flat, ns, entries)
	}
	if ns != "" {
		if g := b.groups[ns]; g != nil {
			return appendSet(dst, g, "", entries)
		}
		return dst
	}
	for _, g := range b.groups {
		dst = appendSet(dst, g, "", entries)
	}
	return dst
}

// appendSet appends the objects of set s to dst, only those in namespace ns
// when ns is not empty.
func appendSet[T Object](dst []T, s *idSet, ns string, entries []entry[T]) []T {
	if s.m != nil {
		for id := range s.m {
			if ns == "" || entries[id].key.Namespace == ns {
				dst = append(dst, entries[id].obj)
			}
		}
		return dst
	}
	for _, id := range s.list {
		if ns == "" || entries[id].key.Namespace == ns {
			dst = append(dst, entries[id].obj)
		}
	}
	return dst
}

// appendSlots appends the slots indexed under value, in namespace ns when ns is
// not empty, to dst.
func (ix *index[T]) appendSlots(dst []slot, ns, value string, entries []entry[T]) []slot {
	b := ix.buckets[value]
	if b == nil {
		return dst
	}
	add := func(s *idSet) {
		for _, id := range s.list {
			if ns == "" || entries[id].key.Namespace == ns {
				dst = append(dst, id)
			}
		}
		for id := range s.m {
			if ns == "" || entries[id].key.Namespace == ns {
				dst = append(dst, id)
			}
		}
	}
	if b.groups == nil {
		add(&b.flat)
	} else if ns != "" {
		if g := b.groups[ns]; g != nil {
			add(g)
		}
	} else {
		for _, g := range b.groups {
			add(g)
		}
	}
	return dst
}

// sortedValues returns the values that have at least one object, sorted.
func (ix *index[T]) sortedValues() []string {
	return slices.Sorted(maps.Keys(ix.buckets))
}
