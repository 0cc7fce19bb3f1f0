package cache_test

// Point lookups at each scale size with ours' and client-go's variants
// interleaved: one iteration is one round, in which every variant makes the
// same number of lookups, in an order drawn at random for the round. The
// figures are the medians of the per-round ratios to client-go, so that the
// drift of a shared machine between sub-benchmarks run one after the other
// (which BenchmarkGetByKey and BenchmarkLookupScale do) falls on both sides
// of a ratio alike, as does the advantage of running right after another
// variant that warmed the same stores.

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
)

// roundLookups is the number of lookups each variant makes in one round.
const roundLookups = 50_000

// An interleavedVariant is a lookup of BenchmarkPointLookupsInterleaved and
// the client-go variant its ratio is taken to (by its index in the list).
type interleavedVariant struct {
	name string
	to   int
	lookupVariant
}

// interleavedVariants are ours' Get and GetByKey against client-go's
// GetByKey, and ours' namespaced lister Get against client-go's generated
// pod lister's Get (getByKeyVariants and listerGetVariants).
func interleavedVariants() []interleavedVariant {
	const clientgo, clientgoLister = 0, 1
	return []interleavedVariant{
		clientgo:       {"clientgo", clientgo, variantNamed(getByKeyVariants, "clientgo")},
		clientgoLister: {"clientgo-lister", clientgoLister, variantNamed(listerGetVariants, "clientgo")},
		{"get", clientgo, variantNamed(getByKeyVariants, "ours-get")},
		{"getbykey", clientgo, variantNamed(getByKeyVariants, "ours")},
		{"lister", clientgoLister, variantNamed(listerGetVariants, "ours")},
	}
}

// BenchmarkPointLookupsInterleaved runs, at each size, rounds of the
// interleavedVariants' lookups, independent of each other (<size>/independent)
// or each waiting for the previous one's result (<size>/chained, as
// chainedLookups). It reports, per ours' variant, the median of the
// per-round ratios of its time to its client-go variant's (<name>/cg), and
// every variant's median time per lookup (<name>-ns).
func BenchmarkPointLookupsInterleaved(b *testing.B) {
	for _, n := range testpods.ScaleSizes() {
		b.Run(strconv.Itoa(n/1000)+"k", func(b *testing.B) {
			for _, chained := range []bool{false, true} {
				mode := "independent"
				if chained {
					mode = "chained"
				}
				b.Run(mode, func(b *testing.B) { interleavedRounds(b, scaleFixture(b, n), chained) })
			}
		})
	}
}

// interleavedRounds runs one round of the interleavedVariants per iteration
// on f and reports the figures BenchmarkPointLookupsInterleaved describes.
func interleavedRounds(b *testing.B, f *fixture, chained bool) {
	variants := interleavedVariants()
	lookups := make([]func(int) int, len(variants))
	for v, variant := range variants {
		lookups[v] = variant.build(f)
	}
	rng := rand.New(rand.NewPCG(5, 8))
	perRound := make([][]float64, len(variants)) // ns per lookup, by variant
	start := 0
	for b.Loop() {
		for _, v := range rng.Perm(len(variants)) {
			perRound[v] = append(perRound[v], timeRound(lookups[v], start, chained))
		}
		start += roundLookups
	}
	for v, variant := range variants {
		b.ReportMetric(median(perRound[v]), variant.name+"-ns")
		if variant.to == v {
			continue
		}
		ratios := make([]float64, len(perRound[v]))
		for r, ns := range perRound[v] {
			ratios[r] = ns / perRound[variant.to][r]
		}
		b.ReportMetric(median(ratios), variant.name+"/cg")
	}
	b.ReportMetric(0, "ns/op") // a round's time means nothing
}

// timeRound makes roundLookups lookups from the start-th key on, chained or
// independent, and returns their time per lookup in nanoseconds.
func timeRound(lookup func(int) int, start int, chained bool) float64 {
	n, i := 0, start
	t0 := time.Now()
	for range roundLookups {
		r := lookup(i)
		n += r
		i++
		if chained {
			i += r >> 40 // always 0: the next key waits for this result
		}
	}
	elapsed := time.Since(t0)
	sink += n
	return float64(elapsed.Nanoseconds()) / roundLookups
}

// median returns the median of xs, which it sorts.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}
