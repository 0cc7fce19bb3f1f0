package cache_test

// Benchmarks of the read path at 10,000, 100,000 and 500,000 pods, ours and
// client-go's side by side in the same run, to show that the cost of one
// lookup stays flat as the store grows: a store whose cost grew with its size
// (a sorted structure, a map past a growth cliff, a scan) would show it
// between the sizes, where a single size cannot.
//
// Each size is laid out as test/scalebench lays out its sizes: namespaces of
// 1,000 pods, 100 pods per node, so that a namespace's pods, a global app's
// pods in one namespace and a node's pods (on average at 500k, where each
// namespace runs on a fifth of the nodes) are as many at every size. The
// lookups are those of the 100,000-pod benchmarks (store_get_bench_test.go,
// bench_test.go), made with the same variants on both sides, so that the
// figures compare with those benchmarks'.

import (
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/labels"
	corev1listers "k8s.io/client-go/listers/core/v1"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
)

var (
	scaleMu       sync.Mutex
	scaleFixtures = map[int]*fixture{}
)

// scaleFixture returns the fixture of n pods, its two stores filled, built
// once per process, when a benchmark of its size first runs.
func scaleFixture(b *testing.B, n int) *fixture {
	b.Helper()
	scaleMu.Lock()
	defer scaleMu.Unlock()
	if f, ok := scaleFixtures[n]; ok {
		return f
	}
	start := time.Now()
	f := newFixture(testpods.Scaled(n))
	// Finish the collections the build started, so that they do not run
	// during the first benchmark.
	runtime.GC()
	b.Logf("%d pods and both stores built in %v", n, time.Since(start).Round(time.Millisecond))
	scaleFixtures[n] = f
	return f
}

// A scaleLookup is one lookup of BenchmarkLookupScale: ours and client-go's
// variant of it.
type scaleLookup struct {
	name           string
	ours, clientgo lookupVariant
}

// scaleLookups are the lookups of BenchmarkLookupScale, each from the
// variants of the 100,000-pod benchmarks:
//
//   - getbykey: Indexer.GetByKey("ns/name") against client-go's GetByKey
//     (getByKeyVariants ours and clientgo);
//   - get: Get(cache.ObjectName) against client-go's
//     GetByKey(name.String()), what a client-go user holding an ObjectName
//     pays (getByKeyVariants ours-get and clientgo-name);
//   - listerget: Pods(ns).Get(name) through the namespaced listers
//     (listerGetVariants);
//   - bynode: ByIndex on the node index, 100 pods (byNodeVariants ours and
//     clientgo);
//   - appinns: the 10 pods of a global app in one namespace, ours
//     ByIndexInNamespace against client-go's faster pattern, ByIndex on the
//     app and a filter on the namespace (inNamespaceCases app, ours and
//     clientgo-byvalue);
//   - nslist: the 1,000 pods of one namespace through the namespaced listers
//     (nsListVariants).
func scaleLookups() []scaleLookup {
	app := inNamespaceCaseNamed("app").variants()
	return []scaleLookup{
		{"getbykey", variantNamed(getByKeyVariants, "ours"), variantNamed(getByKeyVariants, "clientgo")},
		{"get", variantNamed(getByKeyVariants, "ours-get"), variantNamed(getByKeyVariants, "clientgo-name")},
		{"listerget", variantNamed(listerGetVariants, "ours"), variantNamed(listerGetVariants, "clientgo")},
		{"bynode", variantNamed(byNodeVariants, "ours"), variantNamed(byNodeVariants, "clientgo")},
		{"appinns", variantNamed(app, "ours"), variantNamed(app, "clientgo-byvalue")},
		{"nslist", variantNamed(nsListVariants, "ours"), variantNamed(nsListVariants, "clientgo")},
	}
}

// variants returns the lookup's two variants, named by their side, ours and
// clientgo.
func (l scaleLookup) variants() []lookupVariant {
	return []lookupVariant{
		{"ours", l.ours.build},
		{"clientgo", l.clientgo.build},
	}
}

// variantNamed returns the variant of variants called name.
func variantNamed(variants []lookupVariant, name string) lookupVariant {
	for _, v := range variants {
		if v.name == name {
			return v
		}
	}
	panic("no lookup variant " + name)
}

// inNamespaceCaseNamed returns the case of inNamespaceCases called name.
func inNamespaceCaseNamed(name string) inNamespaceCase {
	for _, c := range inNamespaceCases {
		if c.name == name {
			return c
		}
	}
	panic("no ByIndexInNamespace case " + name)
}

// nsListVariants list the 1,000 pods of one namespace, every namespace in
// turn, with labels.Everything(): ours cache.Lister over the client-go view
// of the store (what generated listers build), client-go's generated pod
// lister over its indexer (cache.ListAllByNamespace). Each returns the number
// of pods listed.
var nsListVariants = []lookupVariant{
	{"ours", func(f *fixture) func(int) int {
		lister := oursLister(f)
		return func(i int) int {
			list, _ := lister.Namespace(f.namespaces[i%len(f.namespaces)]).List(labels.Everything())
			return len(list)
		}
	}},
	{"clientgo", func(f *fixture) func(int) int {
		lister := corev1listers.NewPodLister(f.clientgo)
		return func(i int) int {
			list, _ := lister.Pods(f.namespaces[i%len(f.namespaces)]).List(labels.Everything())
			return len(list)
		}
	}},
}

// countingLookups makes the lookups (lookups) and reports, besides their
// time, their allocations and the collections that ran during them per
// lookup (gcs/op). The lookups that allocate pay for collections, whose
// frequency depends on the live heap: a run too short to reach the
// collector's goal, which is far at large sizes, pays for none.
func countingLookups(b *testing.B, lookup func(int) int) {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	lookups(b, lookup)
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.NumGC-before.NumGC)/float64(b.N), "gcs/op")
}

// benchFillHeap reports, per pod of f, the growth of the live heap when a
// store is filled with f's pods (heapB/obj) and the allocations of the fill
// (allocs/obj), measured once (fillHeap) before a timed loop that does
// nothing: its ns/op is reported as 0, which the output leaves out.
func benchFillHeap(b *testing.B, f *fixture, fill func([]pod) any) {
	retained, mallocs := fillHeap(f.pods, fill)
	for b.Loop() {
	}
	n := float64(len(f.pods))
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(retained)/n, "heapB/obj")
	b.ReportMetric(float64(mallocs)/n, "allocs/obj")
}

// BenchmarkLookupScale makes, at each size (testpods.ScaleSizes), every lookup of
// scaleLookups, ours and client-go's: <size>/<lookup>/ours and
// <size>/<lookup>/clientgo, one lookup per iteration, the lookups independent
// of each other. <size>/memory/ours and <size>/memory/clientgo report the
// heap a store with the three indexes keeps beyond the pods, per pod
// (benchFillHeap), as Store/Memory does at 100,000 pods.
func BenchmarkLookupScale(b *testing.B) {
	for _, n := range testpods.ScaleSizes() {
		fixtureOf := func(b *testing.B) *fixture { return scaleFixture(b, n) }
		b.Run(strconv.Itoa(n/1000)+"k", func(b *testing.B) {
			for _, l := range scaleLookups() {
				b.Run(l.name, func(b *testing.B) {
					runLookupsOn(b, fixtureOf, l.variants(), countingLookups)
				})
			}
			b.Run("memory", func(b *testing.B) {
				b.Run("ours", func(b *testing.B) { benchFillHeap(b, fixtureOf(b), fillOurs(allIndexes...)) })
				b.Run("clientgo", func(b *testing.B) { benchFillHeap(b, fixtureOf(b), fillClientGo(allIndexes...)) })
			})
		})
	}
}
