package intern

import "testing"

func TestSmallValues(t *testing.T) {
	if Bool(nil) != nil || Int32(nil) != nil || Int64(nil) != nil {
		t.Error("a nil pointer did not stay nil")
	}
	if b := Bool(ptr(true)); b != Bool(ptr(true)) || !*b {
		t.Error("Bool(true) is not one shared true")
	}
	if b := Bool(ptr(false)); b != Bool(ptr(false)) || *b || b == Bool(ptr(true)) {
		t.Error("Bool(false) is not one shared false")
	}
	first := ptr(int64(-3607))
	if c := Int64(first); c != first {
		t.Error("the first pointer of a value did not become canonical")
	}
	if Int64(ptr(int64(-3607))) != first || *Int64(ptr(int64(3607))) != 3607 {
		t.Error("Int64 did not share equal values, or shared different ones")
	}
	mode := ptr(int32(420))
	if Int32(mode) != mode || Int32(ptr(int32(0o644))) != mode || Int32(ptr(int32(421))) == mode {
		t.Error("Int32 did not share equal values, or shared different ones")
	}
	if *Int32(ptr(int32(0))) != 0 {
		t.Error("Int32(0) is not 0")
	}
}
