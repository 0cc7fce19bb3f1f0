package intern

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unique"
	"unsafe"
)

// fresh returns a copy of s in its own allocation, as a decoder makes.
func fresh(s string) string { return string([]byte(s)) }

func TestStringSharesBytes(t *testing.T) {
	a, b := fresh("payments-core"), fresh("payments-core")
	if unsafe.StringData(a) == unsafe.StringData(b) {
		t.Fatal("test strings share their bytes before interning")
	}
	ia, ib := String(a), String(b)
	if ia != a || ib != b {
		t.Fatalf("String changed the contents: %q, %q", ia, ib)
	}
	if unsafe.StringData(ia) != unsafe.StringData(ib) {
		t.Error("equal strings were not given the same bytes")
	}
	if c := String(fresh("payments-edge")); unsafe.StringData(c) == unsafe.StringData(ia) || c != "payments-edge" {
		t.Errorf("String(%q) = %q sharing the bytes of %q", "payments-edge", c, ia)
	}
	if String("") != "" {
		t.Error(`String("") is not empty`)
	}
	type name string
	if n := String(name(fresh("payments-core"))); unsafe.StringData(string(n)) != unsafe.StringData(ia) {
		t.Error("a string kind was not interned with the strings of the same content")
	}
}

// A canonical string stays canonical across collections while it is in use,
// where unique's canonical copy is forgotten once no Handle refers to it.
func TestStringSurvivesCollection(t *testing.T) {
	first := String(fresh("kube-controller-manager-survives"))
	runtime.GC()
	runtime.GC()
	again := String(fresh("kube-controller-manager-survives"))
	if unsafe.StringData(first) != unsafe.StringData(again) {
		t.Error("a canonical string still in use was forgotten by a collection")
	}
	runtime.KeepAlive(first)

	u1 := unique.Make(fresh("unique-forgets-its-canonical-copy")).Value()
	runtime.GC()
	runtime.GC()
	u2 := unique.Make(fresh("unique-forgets-its-canonical-copy")).Value()
	t.Logf("unique.Make(s).Value() across a collection gives the same bytes: %v", unsafe.StringData(u1) == unsafe.StringData(u2))
	runtime.KeepAlive(u1)
}

// Strings no longer in use are collected, and their entries swept.
func TestStringCollected(t *testing.T) {
	const n = 4 * minSweep
	before := internedStrings()
	for i := range n {
		// 40 bytes: not a tiny allocation, which could stay alive with
		// its neighbours.
		_ = String(fmt.Sprintf("%s%08d", strings.Repeat("x", 32), i))
	}
	runtime.GC()
	runtime.GC()
	// Intern enough new strings to trigger sweeps in every shard.
	for i := range n {
		_ = String(fmt.Sprintf("%s%08d", strings.Repeat("z", 32), i))
	}
	if got := internedStrings(); got >= before+2*n {
		t.Errorf("table holds %d entries after %d dead and %d new strings; dead entries were not swept", got-before, n, n)
	}
}
