package intern

import (
	"reflect"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/resource"
)

// quantityLayout mirrors the fields of resource.Quantity, which are
// unexported: two quantities are DeepEqual when these are, and the exported
// API cannot tell them apart (String, for one, returns the same text for
// "1" and "1000m" and caches it in the quantity).
type quantityLayout struct {
	i struct {
		value int64
		scale int32
	}
	d struct {
		Dec unsafe.Pointer // *inf.Dec
	}
	s      string
	Format resource.Format
}

// quantityLayoutOK reports whether resource.Quantity has the layout of
// quantityLayout, checked once by reflection. When it does not (a future
// apimachinery), Quantity invalidates every key, and values holding
// quantities are not shared.
var quantityLayoutOK = sameLayout(reflect.TypeFor[resource.Quantity](), reflect.TypeFor[quantityLayout]())

// sameLayout reports whether a and b have the same fields, recursively, at
// the same offsets, with the same names and kinds; an unsafe.Pointer in b
// stands for any pointer in a.
func sameLayout(a, b reflect.Type) bool {
	if a.Kind() == reflect.Pointer && b.Kind() == reflect.UnsafePointer {
		return true
	}
	if a.Kind() != b.Kind() || a.Size() != b.Size() {
		return false
	}
	switch a.Kind() {
	case reflect.Struct:
		if a.NumField() != b.NumField() {
			return false
		}
		for i := range a.NumField() {
			fa, fb := a.Field(i), b.Field(i)
			if fa.Name != fb.Name || fa.Offset != fb.Offset || !sameLayout(fa.Type, fb.Type) {
				return false
			}
		}
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Array, reflect.Chan, reflect.Func, reflect.Interface:
		return a == b
	}
	return true
}

// Quantity writes a quantity exactly: its integer value and scale, its
// cached text and its format. A quantity held as an arbitrary-precision
// decimal (values beyond int64, rare in API objects) invalidates the key.
func (k *Key) Quantity(q resource.Quantity) {
	if !quantityLayoutOK {
		k.Invalidate()
		return
	}
	l := (*quantityLayout)(unsafe.Pointer(&q))
	if l.d.Dec != nil {
		k.Invalidate()
		return
	}
	k.Int(l.i.value)
	k.Int(int64(l.i.scale))
	k.String(l.s)
	k.String(string(l.Format))
}
