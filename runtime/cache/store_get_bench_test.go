package cache_test

// Benchmarks of point lookups by key at 100,000 objects, side by side with
// client-go's indexer and generated lister on the fixture of bench_test.go.
// The keys are every stored key in a fixed random order, built before the
// timed loop, so that the loop allocates nothing of its own and successive
// lookups touch unrelated parts of the stores, as a controller's do. Every
// key is a string of its own (or two, for the namespace and the name), built
// in the order of the lookups, as keys taken from a work queue or from
// other objects are, not the stored objects' own strings.

import (
	"math/rand/v2"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	corev1listers "k8s.io/client-go/listers/core/v1"

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

// objectNames returns the keys of pods as ObjectNames, each string a copy.
func objectNames(pods []pod) []cache.ObjectName {
	out := make([]cache.ObjectName, len(pods))
	for i, p := range pods {
		out[i] = cache.ObjectName{Namespace: strings.Clone(p.Namespace), Name: strings.Clone(p.Name)}
	}
	return out
}

// BenchmarkGetByKey looks up one stored key per iteration: ours by
// ObjectName (Get), by string key (GetByKey), and by string key through the
// client-go view of the store (AsIndexer().GetByKey, what code written for
// client-go calls); client-go's indexer by string key, and by the string
// form of an ObjectName (GetByKey(name.String()), what a client-go user
// holding an ObjectName pays).
func BenchmarkGetByKey(b *testing.B) {
	b.Run("ours-get", func(b *testing.B) {
		f := getFixture(b)
		keys := objectNames(shuffledPods(f))
		lookups(b, func(i int) int {
			p, _ := f.ours.Get(keys[i%len(keys)])
			return len(p.Name)
		})
	})
	b.Run("ours", func(b *testing.B) {
		f := getFixture(b)
		keys := stringKeys(shuffledPods(f))
		lookups(b, func(i int) int {
			p, _, _ := f.ours.GetByKey(keys[i%len(keys)])
			return len(p.Name)
		})
	})
	b.Run("ours-view", func(b *testing.B) {
		f := getFixture(b)
		keys := stringKeys(shuffledPods(f))
		view := f.ours.AsIndexer()
		lookups(b, func(i int) int {
			obj, _, _ := view.GetByKey(keys[i%len(keys)])
			return len(obj.(pod).Name)
		})
	})
	b.Run("clientgo", func(b *testing.B) {
		f := getFixture(b)
		keys := stringKeys(shuffledPods(f))
		lookups(b, func(i int) int {
			obj, _, _ := f.clientgo.GetByKey(keys[i%len(keys)])
			return len(obj.(pod).Name)
		})
	})
	b.Run("clientgo-name", func(b *testing.B) {
		f := getFixture(b)
		keys := objectNames(shuffledPods(f))
		lookups(b, func(i int) int {
			obj, _, _ := f.clientgo.GetByKey(keys[i%len(keys)].String())
			return len(obj.(pod).Name)
		})
	})
}

// BenchmarkListerGet looks up one stored pod per iteration through a
// namespaced lister, Pods(namespace).Get(name): ours cache.Lister over the
// client-go view of the store (what generated listers build), and
// client-go's generated pod lister over client-go's indexer.
func BenchmarkListerGet(b *testing.B) {
	type query struct{ ns, name string }
	queries := func(f *fixture) []query {
		pods := shuffledPods(f)
		out := make([]query, len(pods))
		for i, p := range pods {
			out[i] = query{strings.Clone(p.Namespace), strings.Clone(p.Name)}
		}
		return out
	}
	b.Run("ours", func(b *testing.B) {
		f := getFixture(b)
		qs := queries(f)
		lister := cache.NewLister[pod](f.ours.AsIndexer(), corev1.Resource("pods"))
		lookups(b, func(i int) int {
			q := qs[i%len(qs)]
			p, _ := lister.Namespace(q.ns).Get(q.name)
			return len(p.Name)
		})
	})
	b.Run("clientgo", func(b *testing.B) {
		f := getFixture(b)
		qs := queries(f)
		lister := corev1listers.NewPodLister(f.clientgo)
		lookups(b, func(i int) int {
			q := qs[i%len(qs)]
			p, _ := lister.Pods(q.ns).Get(q.name)
			return len(p.Name)
		})
	})
}
