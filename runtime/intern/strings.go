package intern

import (
	"hash/maphash"
	"strings"
	"sync"
	"unsafe"
	"weak"
)

// String returns a string equal to s whose bytes are shared with every other
// string String returned for the same content while any of them is in use.
// The empty string is returned as is, at no cost.
//
// The first string of a content is copied (as unique.Make copies it), so the
// canonical copy never keeps alive a larger buffer s may be part of.
func String[S ~string](s S) S {
	if len(s) == 0 {
		return s
	}
	return S(strs.intern(string(s)))
}

// StringEntry interns the key and the value of a map entry: the prepare
// function of a Maps of labels, annotations or node selectors.
func StringEntry[K, V ~string](k K, v V) (K, V) { return String(k), String(v) }

// StringKey interns the key of a map entry and keeps its value: the prepare
// function of a Maps of resource lists.
func StringKey[K ~string, V any](k K, v V) (K, V) { return String(k), v }

const stringShards = 16

// stringTable is the table of String. It is keyed by a hash of the content,
// so that no key holds the canonical bytes alive: each entry only points to
// them weakly. Two contents with the same 64-bit hash are not interned
// together; the second is returned as is.
type stringTable struct {
	seed   maphash.Seed
	shards [stringShards]stringShard
}

type stringShard struct {
	mu      sync.Mutex
	entries map[uint64]entry
	sweepAt int
	_       [64]byte // keep shards on separate cache lines
}

var strs = stringTable{seed: maphash.MakeSeed()}

func (t *stringTable) intern(s string) string {
	h := maphash.String(t.seed, s)
	sh := &t.shards[h%stringShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if e, ok := sh.entries[h]; ok {
		if p := e.p.Value(); p != nil {
			if c := unsafe.String(p, e.n); c == s {
				return c
			}
			return s // hash collision with a live string
		}
	}
	if sh.entries == nil {
		sh.entries = make(map[uint64]entry)
	}
	if len(sh.entries) >= sh.sweepAt {
		sh.sweep()
	}
	c := strings.Clone(s)
	sh.entries[h] = entry{p: weak.Make(unsafe.StringData(c)), n: len(c)}
	return c
}

func (sh *stringShard) sweep() {
	for h, e := range sh.entries {
		if e.p.Value() == nil {
			delete(sh.entries, h)
		}
	}
	sh.sweepAt = max(2*len(sh.entries), minSweep/stringShards)
}

// internedStrings returns the number of entries of String's table, dead ones
// not yet swept included.
func internedStrings() int {
	n := 0
	for i := range strs.shards {
		sh := &strs.shards[i]
		sh.mu.Lock()
		n += len(sh.entries)
		sh.mu.Unlock()
	}
	return n
}
