package fieldpath

import (
	"errors"
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "a", "spec.nodeName", "spec.containers[*].image", "spec.containers[*].ports[*].name",
		"status.phase,spec.nodeName", "status.phase, spec.nodeName", "a,  b[*]", "a.b,a.b",
		"spec..x", "spec.", "a[0]", "a[*][*]", "a[", " a", "a ,b", "_x-y.Z9", "0a", "a.é", "a\xff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := Parse(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Input != s || se.Column < 1 || se.Column > len(s)+1 {
				t.Fatalf("Parse(%q): bad error %#v", s, err)
			}
			if k != nil {
				t.Fatalf("Parse(%q) returned %v with an error", s, k)
			}
			return
		}
		if len(k) == 0 {
			t.Fatalf("Parse(%q) returned an empty key", s)
		}
		c := k.String()
		// The only spaces accepted are those after commas, which String drops.
		if want := strings.ReplaceAll(s, " ", ""); c != want {
			t.Fatalf("Parse(%q).String() = %q, want %q", s, c, want)
		}
		k2, err := Parse(c)
		if err != nil {
			t.Fatalf("Parse(%q) (canonical form of %q): %v", c, s, err)
		}
		if c2 := k2.String(); c2 != c {
			t.Fatalf("round trip of %q: %q != %q", s, c2, c)
		}
		if len(k2) != len(k) {
			t.Fatalf("round trip of %q changed the number of paths", s)
		}
		// Evaluation never panics.
		k.Values(map[string]any{"a": []any{map[string]any{"b": "x"}, nil}})
	})
}

func FuzzJoinSplit(f *testing.F) {
	f.Add("", "", "", uint8(2))
	f.Add("a", "b", "c", uint8(3))
	f.Add("a\x00b", "\x01", "", uint8(2))
	f.Add("\x01\x00", "\x00\x01", "\x01", uint8(3))
	f.Add("x\x00", "y", "z", uint8(1))
	f.Add("Running", "node-1", "", uint8(0))
	f.Fuzz(func(t *testing.T, a, b, c string, n uint8) {
		values := []string{a, b, c}[:n%4]
		joined := JoinValues(values...)
		if len(values) == 1 && joined != a {
			t.Fatalf("JoinValues(%q) = %q, want it unchanged", a, joined)
		}
		got, ok := SplitValues(joined, len(values))
		if !ok || !equalValues(got, values) {
			t.Fatalf("SplitValues(JoinValues(%q)) = %q, %v", values, got, ok)
		}
		// Injectivity against the values split differently: moving a byte
		// from one value to its neighbour changes the encoding.
		if len(values) >= 2 && len(values[0]) > 0 {
			moved := append([]string(nil), values...)
			moved[1] = moved[0][len(moved[0])-1:] + moved[1]
			moved[0] = moved[0][:len(moved[0])-1]
			if JoinValues(moved...) == joined {
				t.Fatalf("JoinValues(%q) == JoinValues(%q)", values, moved)
			}
		}
		// Any string splits without panicking, and a successful split
		// joins back to the same string.
		if vs, ok := SplitValues(a, int(n%4)); ok && JoinValues(vs...) != a {
			t.Fatalf("JoinValues(SplitValues(%q, %d)) = %q", a, n%4, JoinValues(vs...))
		}
	})
}
