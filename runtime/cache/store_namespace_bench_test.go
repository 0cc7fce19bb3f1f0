package cache_test

// Benchmarks of the store's key lookups and of namespace churn, side by side
// with client-go's indexer on the fixture of bench_test.go.

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// BenchmarkGet looks up stored keys of the 100,000-pod fixture, one per
// iteration, round robin.
func BenchmarkGet(b *testing.B) {
	b.Run("ours", func(b *testing.B) {
		f := getFixture(b)
		keys := make([]cache.ObjectName, len(f.pods))
		for i, p := range f.pods {
			keys[i] = cache.KeyOf(p)
		}
		i := 0
		for b.Loop() {
			p, _ := f.ours.Get(keys[i%len(keys)])
			sink += len(p.Name)
			i++
		}
	})
	b.Run("clientgo", func(b *testing.B) {
		f := getFixture(b)
		keys := make([]string, len(f.pods))
		for i, p := range f.pods {
			keys[i] = p.Namespace + "/" + p.Name
		}
		i := 0
		for b.Loop() {
			obj, _, _ := f.clientgo.GetByKey(keys[i%len(keys)])
			sink += len(obj.(pod).Name)
			i++
		}
	})
}

// BenchmarkNamespaceChurn deletes and re-adds the only object of one of 100
// namespaces per iteration, next to 10,000 other pods: every iteration
// empties a namespace and brings it back.
func BenchmarkNamespaceChurn(b *testing.B) {
	const namespaces = 100
	lone := make([]pod, namespaces)
	for i := range lone {
		lone[i] = &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: fmt.Sprint("lone-", i), Name: "p"}}
		lone[i].Spec.NodeName = fmt.Sprint("node-", i%10)
		lone[i].Labels = map[string]string{"app": "lone"}
	}
	f := getFixture(b)
	b.Run("ours", func(b *testing.B) {
		s := newOurs()
		for _, p := range f.pods[:10_000] {
			s.Add(p)
		}
		for _, p := range lone {
			s.Add(p)
		}
		i := 0
		for b.Loop() {
			p := lone[i%namespaces]
			s.Delete(cache.KeyOf(p))
			s.Add(p)
			i++
		}
	})
	b.Run("clientgo", func(b *testing.B) {
		s := newClientGo()
		for _, p := range f.pods[:10_000] {
			_ = s.Add(p)
		}
		for _, p := range lone {
			_ = s.Add(p)
		}
		i := 0
		for b.Loop() {
			p := lone[i%namespaces]
			_ = s.Delete(p)
			_ = s.Add(p)
			i++
		}
	})
}
