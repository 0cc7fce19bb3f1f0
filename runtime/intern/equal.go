package intern

import (
	"maps"
	"slices"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/resource"
)

// The functions of this file compare values for the update path of a
// transform (ShareFrom, StringFrom): each reports true only if its arguments
// are reflect.DeepEqual, so that a value may be given in place of the other.
// They may report false for some equal values (a quantity held as an
// arbitrary-precision decimal): the caller then looks the value up as it
// would without an earlier version. A generated equality function of a
// struct type (func(a, b *T) bool) compares every field, in the order its
// key encoder writes them, with the function of its kind:
//
//   - strings, integers and booleans: ==;
//   - quantities: EqualQuantity;
//   - pointers: EqualPtr, or EqualPtrFunc with the equality of the
//     pointed-to type;
//   - slices: EqualSlice, EqualBytes, or EqualSliceFunc with the equality
//     of the element type;
//   - maps: EqualMap, EqualQuantityMap.

// Equal reports whether *a == *b: the equality of a comparable pointed-to
// or element type, for ShareFrom.
func Equal[T comparable](a, b *T) bool { return *a == *b }

// EqualPtr reports whether a and b are both nil, or both point to equal
// values.
func EqualPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// EqualPtrFunc reports whether a and b are both nil, or both point to
// values equal reports equal.
func EqualPtrFunc[T any](a, b *T, equal func(a, b *T) bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a == b || equal(a, b)
}

// EqualSlice reports whether a and b are both nil, or both not nil with
// equal elements (reflect.DeepEqual tells a nil slice from an empty one).
func EqualSlice[S ~[]E, E comparable](a, b S) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
}

// EqualBytes is EqualSlice for byte slices.
func EqualBytes(a, b []byte) bool {
	return (a == nil) == (b == nil) && string(a) == string(b)
}

// EqualSliceFunc reports whether a and b are both nil, or both not nil with
// elements equal reports equal.
func EqualSliceFunc[S ~[]E, E any](a, b S, equal func(a, b *E) bool) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if !equal(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// EqualMap reports whether a and b are both nil, or both not nil with the
// same entries.
func EqualMap[M ~map[K]V, K, V comparable](a, b M) bool {
	return (a == nil) == (b == nil) && maps.Equal(b, a)
}

// EqualQuantity reports whether two quantities are reflect.DeepEqual: the
// same integer value and scale, cached text and format (see Key.Quantity).
// Quantities held as arbitrary-precision decimals compare unequal.
func EqualQuantity(a, b *resource.Quantity) bool {
	if !quantityLayoutOK {
		return false
	}
	la, lb := (*quantityLayout)(unsafe.Pointer(a)), (*quantityLayout)(unsafe.Pointer(b))
	return la.d.Dec == nil && lb.d.Dec == nil && la.i == lb.i && la.s == lb.s && la.Format == lb.Format
}

// EqualQuantityMap is EqualMap for maps of quantities, such as a
// corev1.ResourceList.
func EqualQuantityMap[M ~map[K]resource.Quantity, K comparable](a, b M) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for k, vb := range b {
		va, ok := a[k]
		if !ok || !EqualQuantity(&va, &vb) {
			return false
		}
	}
	return true
}
