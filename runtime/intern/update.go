package intern

import "unsafe"

// The update path. An informer holds an earlier version of most objects it
// receives, transformed already: its strings interned and its parts shared.
// A new version usually differs from it in a few fields (status, the
// resourceVersion, managed fields' times), so the functions below first
// compare a value with the earlier version's and, when they are equal, give
// back the earlier version's value, which is canonical, or at least equal
// and read-only, without building its key or looking it up. Only values
// that changed go through String and Share.
//
// old is never written, and may be shared with other goroutines (it is a
// cached object's); s, p and m belong to the caller as for String and Share.

// StringFrom returns old if it equals s, else String(s).
func StringFrom[S ~string](s, old S) S {
	if s != old {
		return S(internString(string(s)))
	}
	return old
}

// internString is String, kept out of StringFrom so that StringFrom is
// inlined.
//
//go:noinline
func internString(s string) string { return String(s) }

// Int32From returns old if p and old point to equal values, else Int32(p).
func Int32From(p, old *int32) *int32 {
	if p != nil && old != nil && *p == *old {
		return old
	}
	return Int32(p)
}

// Int64From returns old if p and old point to equal values, else Int64(p).
func Int64From(p, old *int64) *int64 {
	if p != nil && old != nil && *p == *old {
		return old
	}
	return Int64(p)
}

// At returns a pointer to s[i], or nil if s has no element i: the earlier
// version of an element of a slice a transform walks.
func At[E any](s []E, i int) *E {
	if uint(i) < uint(len(s)) {
		return &s[i]
	}
	return nil
}

// ShareFrom returns old if p and old are not nil and equal reports them
// equal (see Equal), else Share(p, encode, prepare). old is the value an
// earlier version of p's object holds in p's place.
func (ps *Pointers[T]) ShareFrom(p, old *T, equal func(a, b *T) bool, encode func(*Key, *T), prepare func(*T)) *T {
	if p == nil {
		return nil // inlined: most optional fields are unset
	}
	return ps.shareFrom(p, old, equal, encode, prepare)
}

//go:noinline
func (ps *Pointers[T]) shareFrom(p, old *T, equal func(a, b *T) bool, encode func(*Key, *T), prepare func(*T)) *T {
	if old != nil && equal(p, old) {
		return old
	}
	return ps.Share(p, encode, prepare)
}

// ShareFrom returns old if s is not empty and has the length of old and
// elements equal reports equal, else Share(s, encode, prepare). old is the
// slice an earlier version of s's object holds in s's place.
func (ss *Slices[E]) ShareFrom(s, old []E, equal func(a, b *E) bool, encode func(*Key, *E), prepare func(*E)) []E {
	if len(s) == 0 {
		return s // inlined: most optional fields are unset
	}
	return ss.shareFrom(s, old, equal, encode, prepare)
}

//go:noinline
func (ss *Slices[E]) shareFrom(s, old []E, equal func(a, b *E) bool, encode func(*Key, *E), prepare func(*E)) []E {
	if len(s) != len(old) {
		return ss.Share(s, encode, prepare)
	}
	for i := range s {
		if !equal(&s[i], &old[i]) {
			return ss.Share(s, encode, prepare)
		}
	}
	return old
}

// ShareFrom returns old if m is not empty and equal reports it equal to old
// (EqualMap, EqualQuantityMap), else Share(m, encode, prepare). old is the
// map an earlier version of m's object holds in m's place.
func (ms *Maps[K, V]) ShareFrom(m, old map[K]V, equal func(a, b map[K]V) bool, encode func(*Key, map[K]V), prepare func(K, V) (K, V)) map[K]V {
	if len(m) == 0 {
		return m // inlined: most optional fields are unset
	}
	return ms.shareFrom(m, old, equal, encode, prepare)
}

//go:noinline
func (ms *Maps[K, V]) shareFrom(m, old map[K]V, equal func(a, b map[K]V) bool, encode func(*Key, map[K]V), prepare func(K, V) (K, V)) map[K]V {
	if len(m) == len(old) && equal(m, old) {
		return old
	}
	return ms.Share(m, encode, prepare)
}

// ClipFrom returns old if s and old hold the same elements bit for bit
// (the same strings, pointers, slices and maps, the same numbers: what an
// update walker leaves in the elements of s when each equals old's), else
// Clip(s): the slice an earlier version of s's object holds then serves the
// new one too, and s's array is garbage. Elements of equal value that are
// not bit for bit the same (a string of its own) keep s. A nil or empty s is
// returned as it is.
func ClipFrom[S ~[]E, E any](s, old S) S {
	if len(s) == 0 || len(s) != len(old) || !sameBits(s, old) {
		return Clip(s)
	}
	return old
}

// sameBits reports whether a and b, of the same length, have the same
// memory contents. Padding between fields is zero in both (Go zeroes
// memory it allocates, and decoders and Clip copy whole elements), and were
// it not, the slices would only compare unequal.
func sameBits[E any](a, b []E) bool {
	n := len(a) * int(unsafe.Sizeof(a[0]))
	return unsafe.String((*byte)(unsafe.Pointer(&a[0])), n) == unsafe.String((*byte)(unsafe.Pointer(&b[0])), n)
}
