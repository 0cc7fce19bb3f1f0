package intern

import "unsafe"

// Pointers shares pointed-to values of type T, such as the *corev1.Probe of
// containers: values with equal encodings get one canonical pointer. The
// zero Pointers is ready to use; a Pointers must not be copied after first
// use. It is safe for concurrent use.
type Pointers[T any] struct {
	t table
}

// Share returns the canonical pointer for the value p points to, or nil if p
// is nil. encode writes the value (see Key). If no live value has the same
// encoding, p becomes the canonical pointer, after prepare (when not nil) has
// run on *p: prepare interns and shares what *p holds, without changing what
// it means. If encode invalidates the key, Share runs prepare and returns p.
//
// p must belong to the caller (an object being transformed, not yet visible
// to other goroutines), and must not change once shared.
func (ps *Pointers[T]) Share(p *T, encode func(*Key, *T), prepare func(*T)) *T {
	if p == nil {
		return nil
	}
	k := getKey()
	defer putKey(k)
	encode(k, p)
	if k.invalid {
		if prepare != nil {
			prepare(p)
		}
		return p
	}
	return sharePointer(&ps.t, k.b, p, prepare)
}

// Len returns the number of values in the table, including collected ones
// not yet swept out.
func (ps *Pointers[T]) Len() int { return ps.t.len() }

// Slices shares slices of E, such as the []corev1.Toleration of pods: slices
// whose elements have equal encodings get one canonical slice. The zero
// Slices is ready to use; a Slices must not be copied after first use. It is
// safe for concurrent use.
type Slices[E any] struct {
	t table
}

// Share returns the canonical slice for s. encode writes one element (see
// Key). Nil and empty slices are returned as they are. If no live slice has
// the same encoding, the canonical slice is a copy of s with no spare
// capacity, after prepare (when not nil) has run on each of its elements. If
// encode invalidates the key, Share runs prepare on the elements of s and
// returns s.
//
// s must belong to the caller, and the returned slice must not change
// (appending to it allocates a new array, since it has no spare capacity).
func (ss *Slices[E]) Share(s []E, encode func(*Key, *E), prepare func(*E)) []E {
	if len(s) == 0 {
		return s
	}
	k := getKey()
	defer putKey(k)
	k.Len(len(s), false)
	for i := range s {
		encode(k, &s[i])
	}
	if k.invalid {
		if prepare != nil {
			for i := range s {
				prepare(&s[i])
			}
		}
		return s
	}
	if p, n := ss.t.load(k.b); p != nil {
		return unsafe.Slice(typed[E](p), n)
	}
	c := make([]E, len(s))
	copy(c, s)
	if prepare != nil {
		for i := range c {
			prepare(&c[i])
		}
	}
	p, n := ss.t.store(k.b, bytePointer(&c[0]), len(c), poolName[[]E])
	return unsafe.Slice(typed[E](p), n)
}

// Len returns the number of slices in the table, including collected ones
// not yet swept out.
func (ss *Slices[E]) Len() int { return ss.t.len() }

// Maps shares maps, such as labels or a corev1.ResourceList: maps with equal
// encodings get one canonical map. The zero Maps is ready to use; a Maps
// must not be copied after first use. It is safe for concurrent use.
type Maps[K comparable, V any] struct {
	t table
}

// Share returns the canonical map for m. encode writes the whole map
// (StringMap, QuantityMap, or MapLen and the entries in a fixed order). Nil
// and empty maps are returned as they are. If no live map has the same
// encoding, the canonical map is a copy of m whose entries went through
// prepare (when not nil), which returns its key and value unchanged in
// meaning (interned, typically). If encode invalidates the key, m is
// returned as it is.
//
// The returned map must not change.
func (ms *Maps[K, V]) Share(m map[K]V, encode func(*Key, map[K]V), prepare func(K, V) (K, V)) map[K]V {
	if len(m) == 0 || !mapsArePointers {
		return m
	}
	k := getKey()
	defer putKey(k)
	encode(k, m)
	if k.invalid {
		return m
	}
	if p, _ := ms.t.load(k.b); p != nil {
		return mapOf[K, V](p)
	}
	c := make(map[K]V, len(m))
	for key, v := range m {
		if prepare != nil {
			key, v = prepare(key, v)
		}
		c[key] = v
	}
	p, _ := ms.t.store(k.b, mapPointer(c), 0, poolName[map[K]V])
	return mapOf[K, V](p)
}

// Len returns the number of maps in the table, including collected ones not
// yet swept out.
func (ms *Maps[K, V]) Len() int { return ms.t.len() }
