package intern

import (
	"sync"
	"unsafe"
	"weak"
)

// minSweep is the table size below which dead entries are not swept.
const minSweep = 1024

// table maps canonical encodings to weakly held canonical values. A value is
// a pointer and a length: the length lets a table hold slices (a pointer to
// the first element) as well as single values. The table is not generic: it
// holds every value as a pointer to its first byte, and the typed pools
// (Pointers, Slices, Maps) convert back, so that each type interned
// compiles into a few small wrappers instead of a table, its weak pointers
// and its map of its own (a generated transform shares values of a hundred
// types and more). A weak pointer to an object's first byte is one to the
// object: it turns nil when the object is collected, whatever its type.
type table struct {
	mu         sync.Mutex
	entries    map[string]entry
	sweepAt    int  // sweep dead entries when len(entries) reaches this
	registered bool // in the registry of Sizes (see register)
}

type entry struct {
	p weak.Pointer[byte]
	n int
}

// bytePointer returns p as a pointer to its first byte, as table holds it.
func bytePointer[T any](p *T) *byte { return (*byte)(unsafe.Pointer(p)) }

// typed returns a pointer table returned (from bytePointer) as a *T.
func typed[T any](p *byte) *T { return (*T)(unsafe.Pointer(p)) }

// sharePointer returns the canonical *T of key in t: its live value, or else
// p, made canonical after prepare (when not nil) has run on *p. It is what
// Pointers.Share, Int32 and Int64 do once they have the key.
func sharePointer[T any](t *table, key []byte, p *T, prepare func(*T)) *T {
	if c, _ := t.load(key); c != nil {
		return typed[T](c)
	}
	if prepare != nil {
		prepare(p)
	}
	c, _ := t.store(key, bytePointer(p), 1, poolName[T])
	return typed[T](c)
}

// load returns the live canonical value of key, or nil.
func (t *table) load(key []byte) (*byte, int) {
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
func (t *table) store(key []byte, p *byte, n int, name func() string) (*byte, int) {
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
		t.entries = make(map[string]entry)
	}
	if len(t.entries) >= t.sweepAt {
		t.sweep()
	}
	t.entries[string(key)] = entry{p: weak.Make(p), n: n}
	return p, n
}

// sweep deletes the entries whose values were collected and sets the size
// of the next sweep to twice the live entries, so that sweeping costs a
// constant time per insertion.
func (t *table) sweep() {
	for k, e := range t.entries {
		if e.p.Value() == nil {
			delete(t.entries, k)
		}
	}
	t.sweepAt = max(2*len(t.entries), minSweep)
}

// len returns the number of entries, dead ones not yet swept included.
func (t *table) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.entries)
}
