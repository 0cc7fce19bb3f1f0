package fieldpath

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// AppendCombined gives Combine's values, in Combine's order, after the
// caller's values, for random parts with duplicates, empty parts and values
// that need escaping.
func TestAppendCombinedMatchesCombine(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "c", "a\x00b", "\x01", ""}
	for step := range 2000 {
		parts := make([][]string, 1+r.IntN(4))
		for i := range parts {
			n := r.IntN(4)
			if step%50 == 0 {
				n = 20 + r.IntN(20) // long enough to be deduplicated with a map
			}
			for range n {
				parts[i] = append(parts[i], alphabet[r.IntN(len(alphabet))]+fmt.Sprint(r.IntN(n+1)))
			}
		}
		prefix := []string{"keep", "these"}[:r.IntN(3)]
		dst := slices.Clone(prefix)
		start := len(dst)
		var ends []int
		for i, p := range parts {
			if i > 0 {
				ends = append(ends, len(dst))
			}
			dst = append(dst, p...)
		}
		got := AppendCombined(dst, start, ends...)
		want := append(slices.Clone(prefix), Combine(parts...)...)
		if !slices.Equal(got, want) {
			t.Fatalf("parts %q: AppendCombined = %q, want %q", parts, got, want)
		}
	}
}
