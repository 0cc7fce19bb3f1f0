package cache

import "testing"

// The ring keeps FIFO order across growth, wrap-around and shrinking, and
// gives memory back once drained.
func TestRingKeepsOrderWhileGrowingAndShrinking(t *testing.T) {
	var r ring[int]
	next, want := 0, 0
	for round := range 5 {
		for range 1000 * (round + 1) {
			r.push(next)
			next++
		}
		for r.len() > 10*round {
			if got := r.pop(); got != want {
				t.Fatalf("round %d: pop = %d, want %d", round, got, want)
			}
			want++
		}
	}
	for r.len() > 0 {
		if got := r.pop(); got != want {
			t.Fatalf("drain: pop = %d, want %d", got, want)
		}
		want++
	}
	if want != next {
		t.Fatalf("popped %d values, pushed %d", want, next)
	}
	if c := len(r.buf); c > ringKeepCap {
		t.Fatalf("drained ring keeps capacity %d, want at most %d", c, ringKeepCap)
	}
}

// A ring that fills up to ringKeepCap values and drains, again and again,
// keeps its buffer: a steady stream reallocates nothing.
func TestRingKeepsItsBufferAcrossFillsAndDrains(t *testing.T) {
	var r ring[int]
	for range ringKeepCap {
		r.push(0)
	}
	buf := &r.buf[0]
	for round := range 10 {
		for r.len() > 0 {
			r.pop()
		}
		for range ringKeepCap - round {
			r.push(round)
		}
		if &r.buf[0] != buf {
			t.Fatalf("round %d: the ring reallocated its buffer (capacity %d)", round, len(r.buf))
		}
	}
}
