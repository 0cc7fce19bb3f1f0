package intern

import "unsafe"

// A map value is a pointer to the map's header (runtime.hmap, or the Swiss
// table's Map since Go 1.24), allocated when the map is made. Maps holds
// canonical maps weakly through that pointer, the object a map's lifetime
// is the lifetime of.
//
// mapsArePointers checks the one assumption: a map value is the size of a
// pointer. Were it not, Maps would share nothing.
var mapsArePointers = unsafe.Sizeof(map[int]int(nil)) == unsafe.Sizeof(uintptr(0))

// mapPointer returns the pointer m is.
func mapPointer[K comparable, V any](m map[K]V) *byte {
	return *(**byte)(unsafe.Pointer(&m))
}

// mapOf returns the map p is the pointer of (see mapPointer).
func mapOf[K comparable, V any](p *byte) map[K]V {
	return *(*map[K]V)(unsafe.Pointer(&p))
}
