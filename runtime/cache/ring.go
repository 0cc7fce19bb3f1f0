package cache

// ring is a FIFO buffer of values that grows by doubling and shrinks back
// when it is mostly empty, so a burst does not pin memory for the life of the
// informer (client-go's listener buffer never shrinks). The zero value is an
// empty ring; it is not safe for concurrent use.
type ring[E any] struct {
	buf        []E
	head, size int
}

// ringMinCap is the capacity a ring starts with. Once grown, it does not
// shrink below ringKeepCap: a listener whose buffer fills and drains again
// and again, as under a steady stream of events, reuses it instead of
// reallocating it on every fill.
const (
	ringMinCap  = 64
	ringKeepCap = 1024
)

func (r *ring[E]) len() int { return r.size }

func (r *ring[E]) push(e E) {
	if r.size == len(r.buf) {
		r.resize(max(ringMinCap, 2*len(r.buf)))
	}
	r.buf[(r.head+r.size)%len(r.buf)] = e
	r.size++
}

// pop removes and returns the oldest value; the ring must not be empty.
func (r *ring[E]) pop() E {
	var zero E
	e := r.buf[r.head]
	r.buf[r.head] = zero
	r.head = (r.head + 1) % len(r.buf)
	r.size--
	if c := len(r.buf); c > ringKeepCap && r.size < c/4 {
		r.resize(c / 2)
	}
	return e
}

func (r *ring[E]) resize(capacity int) {
	buf := make([]E, capacity)
	n := copy(buf, r.buf[r.head:min(len(r.buf), r.head+r.size)])
	copy(buf[n:], r.buf[:r.size-n])
	r.buf, r.head = buf, 0
}

// clear empties the ring and releases its buffer.
func (r *ring[E]) clear() { *r = ring[E]{} }
