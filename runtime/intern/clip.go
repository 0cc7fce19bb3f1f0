package intern

// Clip returns s, or a copy of s without spare capacity when s has some. A
// decoder appends elements one at a time, so a decoded slice of five
// elements has room for eight: Clip gives the room back, for the slices a
// transform walks rather than shares (shared slices are copied without spare
// capacity already). A nil slice stays nil and an empty one empty.
//
// Like the other functions of the package, Clip is meant for an object that
// is being transformed and that no other goroutine sees yet.
func Clip[S ~[]E, E any](s S) S {
	if cap(s) == len(s) {
		return s
	}
	c := make(S, len(s))
	copy(c, s)
	return c
}
