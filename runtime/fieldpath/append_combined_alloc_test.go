//go:build !race

// The race detector makes allocation counts meaningless: `go test -race`
// leaves this file out.

package fieldpath

import (
	"slices"
	"testing"
)

// With room in dst, AppendCombined allocates only the joined keys: none for
// one part, one per combination for several.
func TestAppendCombinedAllocatesOnlyTheKeys(t *testing.T) {
	dst := make([]string, 0, 64)
	for _, tc := range []struct {
		name   string
		parts  [][]string
		allocs float64
	}{
		{"one part", [][]string{{"a", "b", "a"}}, 0},
		{"empty part", [][]string{{"a"}, {}}, 0},
		{"two parts", [][]string{{"a", "b", "a"}, {"x"}}, 2},
	} {
		fill := func() []string {
			d := dst[:0]
			var ends []int
			for i, p := range tc.parts {
				if i > 0 {
					ends = append(ends, len(d))
				}
				d = append(d, p...)
			}
			return AppendCombined(d, 0, ends...)
		}
		if got, want := fill(), Combine(tc.parts...); !slices.Equal(got, want) {
			t.Fatalf("%s: %q, want %q", tc.name, got, want)
		}
		if allocs := testing.AllocsPerRun(100, func() { fill() }); allocs != tc.allocs {
			t.Errorf("%s: %v allocations, want %v", tc.name, allocs, tc.allocs)
		}
	}
}
