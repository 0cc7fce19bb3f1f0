package dynamicinformer

// Benchmarks of a run-time compiled field index on unstructured objects
// next to hand-written index functions on the same objects, in the same
// store (runtime/cache.Indexer): adding and updating objects (which runs the
// index function), and lookups. The objects are 20,000 pods from
// internal/testing/testpods converted to their JSON form; the indexes are
// spec.nodeName (one value) and spec.containers[*].image (a list).
//
//   - compiled: AddIndex's index functions (compile);
//   - handwritten: the tightest hand-written map walk, type assertions only;
//   - nested: what index functions on unstructured objects are usually
//     written with, apimachinery's unstructured.NestedString and
//     NestedSlice (which deep-copies the list);
//   - keyvalues: fieldpath.Key.Values, the reference evaluator.
//
// See docs/benchmarks.md for the command and the results.

import (
	"fmt"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

const (
	nodeIndex  = "node"
	imageIndex = "image"
)

// benchFixture holds the pods in their JSON form, and updated copies whose
// spec.nodeName moved to another node.
type benchFixture struct {
	pods, moved []*unstructured.Unstructured
	nodes       []string
	images      []string
}

// benchConfig sizes the benchmarks' pods.
var benchConfig = testpods.Config{Namespaces: 20, PodsPerNamespace: 1000, Nodes: 200, Seed: 1}

var getBenchFixture = sync.OnceValue(func() *benchFixture { return newBenchFixture(benchConfig) })

func newBenchFixture(cfg testpods.Config) *benchFixture {
	f := &benchFixture{}
	images := map[string]bool{}
	for i, p := range testpods.Generate(cfg) {
		obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(p)
		if err != nil {
			panic(err)
		}
		u := &unstructured.Unstructured{Object: obj}
		f.pods = append(f.pods, u)
		moved := u.DeepCopy()
		if err := unstructured.SetNestedField(moved.Object, testpods.NodeName((i+1)%cfg.Nodes), "spec", "nodeName"); err != nil {
			panic(err)
		}
		f.moved = append(f.moved, moved)
		for _, c := range p.Spec.Containers {
			images[c.Image] = true
		}
	}
	for i := range cfg.Nodes {
		f.nodes = append(f.nodes, testpods.NodeName(i))
	}
	for image := range images {
		f.images = append(f.images, image)
	}
	return f
}

// indexers returns the two indexes of one variant.
func indexers(variant string) cache.Indexers[*unstructured.Unstructured] {
	node, image := fieldpath.MustParse("spec.nodeName"), fieldpath.MustParse("spec.containers[*].image")
	switch variant {
	case "compiled":
		nodeFn, err := compile(fieldpath.IndexSpec{Field: node})
		if err != nil {
			panic(err)
		}
		imageFn, err := compile(fieldpath.IndexSpec{Field: image})
		if err != nil {
			panic(err)
		}
		return cache.Indexers[*unstructured.Unstructured]{nodeIndex: nodeFn, imageIndex: imageFn}
	case "handwritten":
		return cache.Indexers[*unstructured.Unstructured]{nodeIndex: handNode, imageIndex: handImages}
	case "nested":
		return cache.Indexers[*unstructured.Unstructured]{nodeIndex: nestedNode, imageIndex: nestedImages}
	case "none":
		return nil
	case "keyvalues":
		return cache.Indexers[*unstructured.Unstructured]{
			nodeIndex:  func(u *unstructured.Unstructured) []string { return node.Values(u.Object) },
			imageIndex: func(u *unstructured.Unstructured) []string { return image.Values(u.Object) },
		}
	}
	panic(variant)
}

var variants = []string{"compiled", "handwritten", "nested", "keyvalues"}

// writeVariants adds the store without the two indexes, the baseline of the
// write benchmarks.
var writeVariants = append([]string{"none"}, variants...)

func handNode(u *unstructured.Unstructured) []string {
	spec, _ := u.Object["spec"].(map[string]any)
	if node, ok := spec["nodeName"].(string); ok {
		return []string{node}
	}
	return nil
}

func handImages(u *unstructured.Unstructured) []string {
	spec, _ := u.Object["spec"].(map[string]any)
	containers, _ := spec["containers"].([]any)
	var out []string
	for _, c := range containers {
		container, _ := c.(map[string]any)
		if image, ok := container["image"].(string); ok {
			out = append(out, image)
		}
	}
	return fieldpath.Combine(out)
}

func nestedNode(u *unstructured.Unstructured) []string {
	if node, ok, _ := unstructured.NestedString(u.Object, "spec", "nodeName"); ok {
		return []string{node}
	}
	return nil
}

func nestedImages(u *unstructured.Unstructured) []string {
	containers, _, _ := unstructured.NestedSlice(u.Object, "spec", "containers")
	var out []string
	for _, c := range containers {
		if container, ok := c.(map[string]any); ok {
			if image, ok, _ := unstructured.NestedString(container, "image"); ok {
				out = append(out, image)
			}
		}
	}
	return fieldpath.Combine(out)
}

func newBenchStore(variant string) *cache.Indexer[*unstructured.Unstructured] {
	s, err := cache.NewIndexer(indexers(variant))
	if err != nil {
		panic(err)
	}
	return s
}

// BenchmarkFieldIndexFunc calls each index function on every pod, outside
// any store; ns/call is the cost of computing one object's values.
func BenchmarkFieldIndexFunc(b *testing.B) {
	f := getBenchFixture()
	for _, index := range []string{nodeIndex, imageIndex} {
		for _, variant := range variants {
			fn := indexers(variant)[index]
			b.Run(index+"/"+variant, func(b *testing.B) {
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					for _, p := range f.pods {
						n += len(fn(p))
					}
				}
				if n == 0 {
					b.Fatal("no values")
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(f.pods)), "ns/call")
			})
		}
	}
}

// BenchmarkFieldIndexAdd fills an empty store with every pod; ns/obj is the
// time to store and index one.
func BenchmarkFieldIndexAdd(b *testing.B) {
	f := getBenchFixture()
	for _, variant := range writeVariants {
		b.Run(variant, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := newBenchStore(variant)
				for _, p := range f.pods {
					s.Add(p)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(f.pods)), "ns/obj")
		})
	}
}

// BenchmarkFieldIndexUpdate replaces every pod of a full store by a copy on
// another node, and back; ns/obj is the time to replace one (both index
// functions run on the old and the new object, the node index moves it).
func BenchmarkFieldIndexUpdate(b *testing.B) {
	f := getBenchFixture()
	for _, variant := range writeVariants {
		b.Run(variant, func(b *testing.B) {
			s := newBenchStore(variant)
			for _, p := range f.pods {
				s.Add(p)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				set := f.moved
				if i%2 == 1 {
					set = f.pods
				}
				i++
				for _, p := range set {
					s.Update(p)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(f.pods)), "ns/obj")
		})
	}
}

// BenchmarkFieldIndexLookup looks up every node (100 pods each) and every
// image in a full store; the index function does not run, so the variants
// differ only in what they indexed (they index the same values).
func BenchmarkFieldIndexLookup(b *testing.B) {
	f := getBenchFixture()
	for _, variant := range variants {
		s := newBenchStore(variant)
		for _, p := range f.pods {
			s.Add(p)
		}
		b.Run(variant, func(b *testing.B) {
			b.ReportAllocs()
			found := 0
			for b.Loop() {
				for _, node := range f.nodes {
					objs, _ := s.ByIndex(nodeIndex, node)
					found += len(objs)
				}
				for _, image := range f.images {
					objs, _ := s.ByIndex(imageIndex, image)
					found += len(objs)
				}
			}
			if found == 0 {
				b.Fatal("nothing found")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*(len(f.nodes)+len(f.images))), "ns/lookup")
		})
	}
}

// The variants index the same values, so the benchmarks compare like with
// like.
func TestBenchmarkVariantsAgree(t *testing.T) {
	f := newBenchFixture(testpods.Config{Namespaces: 2, PodsPerNamespace: 200, Nodes: 20, Seed: 1})
	want := indexers("keyvalues")
	for _, variant := range variants {
		for name, fn := range indexers(variant) {
			for _, p := range append(f.pods, f.moved...) {
				if got, w := fn(p), want[name](p); fmt.Sprint(got) != fmt.Sprint(w) {
					t.Fatalf("%s %s: %q, Key.Values %q", variant, name, got, w)
				}
			}
		}
	}
}
