package intern

import (
	"encoding/binary"
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Key builds the canonical encoding Pointers, Slices and Maps compare values
// by. Two values must get equal encodings if and only if they are
// reflect.DeepEqual, so an encoder function (one per struct type,
// func(*Key, *T)) writes every field of its type in declaration order, each
// with the method of its kind:
//
//   - strings, integers and booleans: String, Int, Uint, Bool;
//   - pointers: Ptr, then the pointed-to value if it returned true (or
//     StringPtr, Int32Ptr, Int64Ptr, BoolPtr for pointers to scalars);
//   - slices: Len, then every element if it returned true;
//   - maps: StringMap, QuantityMap, or MapLen then the entries in sorted
//     key order;
//   - resource.Quantity: Quantity.
//
// Every item is self-delimiting (strings carry their length, slices and
// maps their length and whether they are nil), so the concatenation is
// injective as long as each encoder writes its fields in a fixed order.
// A value that cannot be encoded exactly (Invalidate) is not shared.
type Key struct {
	b       []byte
	invalid bool
	sorted  []string // scratch for the keys of the maps being written
}

var keys = sync.Pool{New: func() any { return new(Key) }}

func getKey() *Key {
	k := keys.Get().(*Key)
	k.b, k.invalid = k.b[:0], false
	return k
}

func putKey(k *Key) {
	if cap(k.b) > 64<<10 {
		return // do not keep a buffer grown by an unusually large value
	}
	clear(k.sorted[:cap(k.sorted)])
	k.sorted = k.sorted[:0]
	keys.Put(k)
}

// Invalidate marks the value being encoded as not shareable.
func (k *Key) Invalidate() { k.invalid = true }

// String writes a string; a value of a string kind is written as
// k.String(string(v)).
func (k *Key) String(s string) {
	k.b = binary.AppendUvarint(k.b, uint64(len(s)))
	k.b = append(k.b, s...)
}

// Int writes a signed integer of any size.
func (k *Key) Int(v int64) { k.b = binary.AppendVarint(k.b, v) }

// Uint writes an unsigned integer of any size.
func (k *Key) Uint(v uint64) { k.b = binary.AppendUvarint(k.b, v) }

// Bool writes a boolean.
func (k *Key) Bool(v bool) {
	if v {
		k.b = append(k.b, 1)
	} else {
		k.b = append(k.b, 0)
	}
}

// Ptr writes whether a pointer is set and returns it, so that the caller
// writes the pointed-to value only then: if k.Ptr(p != nil) { encodeT(k, p) }.
func (k *Key) Ptr(set bool) bool {
	k.Bool(set)
	return set
}

// Len writes the length of a slice and whether it is nil, and returns
// whether there are elements to write.
func (k *Key) Len(n int, isNil bool) bool {
	if isNil {
		k.b = append(k.b, 0)
		return false
	}
	k.Uint(uint64(n) + 1)
	return n > 0
}

// MapLen is Len for maps.
func (k *Key) MapLen(n int, isNil bool) bool { return k.Len(n, isNil) }

// StringPtr writes a pointer to a string kind.
func StringPtr[S ~string](k *Key, p *S) {
	if k.Ptr(p != nil) {
		k.String(string(*p))
	}
}

// Int32Ptr writes a pointer to an int32.
func (k *Key) Int32Ptr(p *int32) {
	if k.Ptr(p != nil) {
		k.Int(int64(*p))
	}
}

// Int64Ptr writes a pointer to an int64.
func (k *Key) Int64Ptr(p *int64) {
	if k.Ptr(p != nil) {
		k.Int(*p)
	}
}

// BoolPtr writes a pointer to a bool.
func (k *Key) BoolPtr(p *bool) {
	if k.Ptr(p != nil) {
		k.Bool(*p)
	}
}

// StringSlice writes a slice of a string kind.
func StringSlice[S ~string](k *Key, s []S) {
	if k.Len(len(s), s == nil) {
		for _, v := range s {
			k.String(string(v))
		}
	}
}

// StringMap writes a map of string kinds, entries in key order.
func StringMap[K, V ~string](k *Key, m map[K]V) {
	if !k.MapLen(len(m), m == nil) {
		return
	}
	start := len(k.sorted)
	for key := range m {
		k.sorted = append(k.sorted, string(key))
	}
	for _, key := range sortStrings(k.sorted[start:]) {
		k.String(key)
		k.String(string(m[K(key)]))
	}
	k.sorted = k.sorted[:start]
}

// QuantityMap writes a map from a string kind to quantities, such as a
// corev1.ResourceList, entries in key order.
func QuantityMap[K ~string](k *Key, m map[K]resource.Quantity) {
	if !k.MapLen(len(m), m == nil) {
		return
	}
	// Keys are appended to the scratch space after those of the maps being
	// written around this one, if any.
	start := len(k.sorted)
	for key := range m {
		k.sorted = append(k.sorted, string(key))
	}
	for _, key := range sortStrings(k.sorted[start:]) {
		k.String(key)
		k.Quantity(m[K(key)])
	}
	k.sorted = k.sorted[:start]
}

// sortStrings sorts s and returns it.
func sortStrings(s []string) []string {
	if len(s) < 12 {
		// Insertion sort: the maps of API objects are small.
		for i := 1; i < len(s); i++ {
			for j := i; j > 0 && s[j] < s[j-1]; j-- {
				s[j], s[j-1] = s[j-1], s[j]
			}
		}
		return s
	}
	slices.Sort(s)
	return s
}
