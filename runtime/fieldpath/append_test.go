package fieldpath

import (
	"math"
	"testing"
)

// AppendInt writes what FormatInt returns, for every integer type and at
// the edges of each.
func TestAppendIntIsFormatInt(t *testing.T) {
	check := func(got []byte, want string) {
		t.Helper()
		if string(got) != want {
			t.Errorf("AppendInt = %q, FormatInt = %q", got, want)
		}
	}
	for _, v := range []int64{0, 1, -1, 9, 10, 99, 100, -100, 12345, math.MaxInt64, math.MinInt64} {
		check(AppendInt([]byte(nil), v), FormatInt(v))
		check(AppendInt([]byte("x"), v)[1:], FormatInt(v))
	}
	for _, v := range []int32{math.MaxInt32, math.MinInt32, -7} {
		check(AppendInt(nil, v), FormatInt(v))
	}
	for _, v := range []int8{math.MaxInt8, math.MinInt8} {
		check(AppendInt(nil, v), FormatInt(v))
	}
	for _, v := range []uint64{0, 7, math.MaxUint64} {
		check(AppendInt(nil, v), FormatInt(v))
	}
	for _, v := range []uint8{0, math.MaxUint8} {
		check(AppendInt(nil, v), FormatInt(v))
	}
	type replicas int32 // a named integer type, as enums are
	check(AppendInt(nil, replicas(-3)), FormatInt(replicas(-3)))
	check(AppendInt(nil, uintptr(42)), FormatInt(uintptr(42)))
}

// AppendValues writes what JoinValues returns, escapes included, after what
// dst holds.
func TestAppendValuesIsJoinValues(t *testing.T) {
	for _, values := range [][]string{
		nil,
		{""},
		{"a"},
		{"a\x00b"},
		{"", ""},
		{"Ready", "red"},
		{"a\x00b", "c\x01d", "\x00\x01"},
		{"x", "", "y", ""},
	} {
		want := JoinValues(values...)
		if got := AppendValues(nil, values...); string(got) != want {
			t.Errorf("AppendValues(nil, %q) = %q, JoinValues = %q", values, got, want)
		}
		if got := AppendValues([]byte("prefix"), values...); string(got) != "prefix"+want {
			t.Errorf("AppendValues(prefix, %q) = %q, want prefix%q", values, got, want)
		}
	}
}

// FuzzAppendValues: AppendValues and JoinValues agree on any two values.
func FuzzAppendValues(f *testing.F) {
	f.Add("Ready", "node-1")
	f.Add("a\x00b", "\x01")
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, values := range [][]string{{a}, {a, b}, {b, a, b}} {
			if got, want := string(AppendValues(nil, values...)), JoinValues(values...); got != want {
				t.Fatalf("AppendValues(%q) = %q, JoinValues = %q", values, got, want)
			}
		}
	})
}

// Encoding into a buffer with room allocates nothing, for any integer and
// for composite keys: what the generated iterator lookups rely on.
func TestAppendAllocatesNothing(t *testing.T) {
	phase, node := "Running", "ip-10-0-1-23.ec2.internal"
	n := 0
	allocs := testing.AllocsPerRun(100, func() {
		var buf [64]byte
		n += len(AppendInt(buf[:0], int64(math.MinInt64)))
		n += len(AppendInt(buf[:0], uint16(8080)))
		n += len(AppendValues(buf[:0], phase, node))
		n += len(AppendValues(buf[:0], FormatString(phase), FormatBool(true), node))
	})
	if allocs != 0 {
		t.Errorf("appending to a buffer with room allocates %v times, want 0", allocs)
	}
}
