package intern

import (
	"sync"
	"weak"
)

// minSweep is the table size below which dead entries are not swept.
const minSweep = 1024

// table maps canonical encodings to weakly held canonical values. A value is
// a *T and a length: the length lets a table hold slices (a pointer to the
// first element) as well as single values.
type table[T any] struct {
	mu         sync.Mutex
	entries    map[string]entry[T]
	sweepAt    int  // sweep dead entries when len(entries) reaches this
	registered bool // in the registry of Sizes (see register)
}

type entry[T any] struct {
	p weak.Pointer[T]
	n int
}

// load returns the live canonical value of key, or nil.
func (t *table[T]) load(key []byte) (*T, int) {
	t.mu.Lock()
	e, ok := t.entries[string(key)]
	t.mu.Unlock()
	if !ok {
		return nil, 0
	}
	// A nil Value means the canonical value was collected; store replaces
	// the entry.
	return e.p.Value(), e.n
}

// store makes (p, n) the canonical value of key unless a live one exists,
// and returns the canonical value. The first store registers the table
// under the name name returns (see Sizes).
func (t *table[T]) store(key []byte, p *T, n int, name func() string) (*T, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.registered {
		t.registered = true
		register(name(), t)
	}
	if e, ok := t.entries[string(key)]; ok {
		if v := e.p.Value(); v != nil {
			return v, e.n
		}
	}
	if t.entries == nil {
		t.entries = make(map[string]entry[T])
	}
	if len(t.entries) >= t.sweepAt {
		t.sweep()
	}
	t.entries[string(key)] = entry[T]{p: weak.Make(p), n: n}
	return p, n
}

// sweep deletes the entries whose values were collected and sets the size
// of the next sweep to twice the live entries, so that sweeping costs a
// constant time per insertion.
func (t *table[T]) sweep() {
	for k, e := range t.entries {
		if e.p.Value() == nil {
			delete(t.entries, k)
		}
	}
	t.sweepAt = max(2*len(t.entries), minSweep)
}

// len returns the number of entries, dead ones not yet swept included.
func (t *table[T]) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.entries)
}
