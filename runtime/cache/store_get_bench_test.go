package cache_test

// Benchmarks of point lookups by key at 100,000 objects, side by side with
// client-go's indexer and generated lister on the fixture of bench_test.go.
// The keys are every stored key in a fixed random order, built before the
// timed loop, so that the loop allocates nothing of its own and successive
// lookups touch unrelated parts of the stores, as a controller's do. Every
// key is a string of its own, "namespace/name", built in the order of the
// lookups, as a controller takes keys from its work queue, not the stored
// objects' own strings. Lookups by ObjectName or by namespace and name take
// the parts of that string, as cache.ParseObjectName and
// cache.SplitMetaNamespaceKey give them to a controller.

import (
	"math/rand/v2"
	"testing"

	corev1listers "k8s.io/client-go/listers/core/v1"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// shuffledPods returns the fixture's pods in a fixed random order.
func shuffledPods(f *fixture) []pod {
	out := append([]pod(nil), f.pods...)
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// stringKeys returns the client-go keys ("namespace/name") of pods.
func stringKeys(pods []pod) []string {
	out := make([]string, len(pods))
	for i, p := range pods {
		out[i] = p.Namespace + "/" + p.Name
	}
	return out
}

// objectNames returns the keys of pods as ObjectNames, each parsed from a
// client-go key of its own, so that namespace and name share its bytes.
func objectNames(pods []pod) []cache.ObjectName {
	keys := stringKeys(pods)
	out := make([]cache.ObjectName, len(keys))
	for i, key := range keys {
		name, err := clientcache.ParseObjectName(key)
		if err != nil {
			panic(err)
		}
		out[i] = name
	}
	return out
}

// A lookupVariant builds, outside the timed loop, a function that looks up
// the i-th key of its own list (modulo its length) and returns a number read
// from the object found, so that the object is reached, as a caller's next
// step would (index lookups and lists return the number of matches).
type lookupVariant struct {
	name  string
	build func(f *fixture) func(i int) int
}

// getByKeyVariants are the lookups by key: ours by ObjectName (Get), by
// string key (GetByKey), and by string key through the client-go view of the
// store (AsIndexer().GetByKey, what code written for client-go calls);
// client-go's indexer by string key, and by the string form of an ObjectName
// (GetByKey(name.String()), what a client-go user holding an ObjectName
// pays).
var getByKeyVariants = []lookupVariant{
	{"ours-get", func(f *fixture) func(int) int {
		keys := objectNames(shuffledPods(f))
		return func(i int) int {
			p, _ := f.ours.Get(keys[i%len(keys)])
			return len(p.Name)
		}
	}},
	{"ours", func(f *fixture) func(int) int {
		keys := stringKeys(shuffledPods(f))
		return func(i int) int {
			p, _, _ := f.ours.GetByKey(keys[i%len(keys)])
			return len(p.Name)
		}
	}},
	{"ours-view", func(f *fixture) func(int) int {
		keys := stringKeys(shuffledPods(f))
		view := f.ours.AsIndexer()
		return func(i int) int {
			obj, _, _ := view.GetByKey(keys[i%len(keys)])
			return len(obj.(pod).Name)
		}
	}},
	{"clientgo", func(f *fixture) func(int) int {
		keys := stringKeys(shuffledPods(f))
		return func(i int) int {
			obj, _, _ := f.clientgo.GetByKey(keys[i%len(keys)])
			return len(obj.(pod).Name)
		}
	}},
	{"clientgo-name", func(f *fixture) func(int) int {
		keys := objectNames(shuffledPods(f))
		return func(i int) int {
			obj, _, _ := f.clientgo.GetByKey(keys[i%len(keys)].String())
			return len(obj.(pod).Name)
		}
	}},
}

// listerGetVariants are the lookups through a namespaced lister,
// Pods(namespace).Get(name): ours cache.Lister over the client-go view of the
// store (what generated listers build), and client-go's generated pod lister
// over client-go's indexer.
var listerGetVariants = []lookupVariant{
	{"ours", func(f *fixture) func(int) int {
		qs := objectNames(shuffledPods(f))
		lister := oursLister(f)
		return func(i int) int {
			q := qs[i%len(qs)]
			p, _ := lister.Namespace(q.Namespace).Get(q.Name)
			return len(p.Name)
		}
	}},
	{"clientgo", func(f *fixture) func(int) int {
		qs := objectNames(shuffledPods(f))
		lister := corev1listers.NewPodLister(f.clientgo)
		return func(i int) int {
			q := qs[i%len(qs)]
			p, _ := lister.Pods(q.Namespace).Get(q.Name)
			return len(p.Name)
		}
	}},
}

// runLookups runs each variant as a sub-benchmark on the shared fixture, its
// lookups made by run.
func runLookups(b *testing.B, variants []lookupVariant, run func(*testing.B, func(int) int)) {
	runLookupsOn(b, getFixture, variants, run)
}

// runLookupsOn runs each variant as a sub-benchmark on the fixture that
// fixtureOf returns, its lookups made by run.
func runLookupsOn(b *testing.B, fixtureOf func(*testing.B) *fixture, variants []lookupVariant, run func(*testing.B, func(int) int)) {
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) { run(b, v.build(fixtureOf(b))) })
	}
}

// chainedLookups runs lookup once per iteration, each time with a number
// computed from the previous lookup's result (always the next number: the
// result's bits above 40 are zero, which the compiler cannot know), so that a
// lookup starts only once the previous one has read its object. It measures
// the time of one lookup from start to end, as a controller making one
// lookup among other work sees it; lookups, whose iterations are
// independent, lets the processor overlap the memory accesses of successive
// lookups and measures how many a loop can make.
func chainedLookups(b *testing.B, lookup func(i int) int) {
	i, n := 0, 0
	for b.Loop() {
		r := lookup(i)
		n += r
		i += 1 + r>>40
	}
	sink += n
}

// BenchmarkGetByKey looks up one stored key per iteration, the lookups
// independent of each other (getByKeyVariants).
func BenchmarkGetByKey(b *testing.B) { runLookups(b, getByKeyVariants, lookups) }

// BenchmarkGetByKeyChained is BenchmarkGetByKey with each lookup waiting for
// the previous one's result (chainedLookups).
func BenchmarkGetByKeyChained(b *testing.B) { runLookups(b, getByKeyVariants, chainedLookups) }

// BenchmarkListerGet looks up one stored pod per iteration through a
// namespaced lister, the lookups independent of each other
// (listerGetVariants).
func BenchmarkListerGet(b *testing.B) { runLookups(b, listerGetVariants, lookups) }

// BenchmarkListerGetChained is BenchmarkListerGet with each lookup waiting
// for the previous one's result (chainedLookups).
func BenchmarkListerGetChained(b *testing.B) { runLookups(b, listerGetVariants, chainedLookups) }
