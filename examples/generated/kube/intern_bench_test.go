//go:build unix

package kube_test

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	corev1listers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/procstat"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
)

// benchPods is the set the benchmarks cycle through: 5,000 testpods pods.
var benchPods = testpods.Config{Namespaces: 5, PodsPerNamespace: 1000, Nodes: 100}

// cpuTime returns the CPU time the process used so far, the collector's
// included: on a loaded machine it moves less than wall time does.
func cpuTime(b *testing.B) time.Duration {
	cpu, err := procstat.CPU()
	if err != nil {
		b.Fatal(err)
	}
	return cpu
}

// BenchmarkDecodePod decodes one pod from its protobuf encoding, what an
// informer does for every object it lists or watches, and what
// BenchmarkInternPod is to be compared with. Besides ns/op (wall time) it
// reports cpu-ns/op, the process's CPU time per pod.
func BenchmarkDecodePod(b *testing.B) {
	data := encodedPods(b, benchPods)
	s := protobuf(b)
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime(b)
	for i := range b.N {
		_ = decodePod(b, s, data[i%len(data)])
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkInternPod runs the generated InternPod on one freshly decoded
// pod. The pods transformed stay alive until the next batch of 5,000 is
// decoded (untimed), as cached pods do, so their canonical values stay
// canonical. cpu-ns/op is the process's CPU time per pod, the untimed
// decoding excluded.
func BenchmarkInternPod(b *testing.B) {
	data := encodedPods(b, benchPods)
	s := protobuf(b)
	pods := make([]*corev1.Pod, len(data))
	decodeAll := func() {
		for i, d := range data {
			pods[i] = decodePod(b, s, d)
		}
	}
	decodeAll()
	// One round first, so that the benchmark measures the steady state of
	// a cache, where most values are already canonical.
	for _, p := range pods {
		corev1listers.InternPod(p)
	}
	b.StopTimer()
	decodeAll()
	b.ReportAllocs()
	b.ResetTimer()
	b.StartTimer()
	start, untimed := cpuTime(b), time.Duration(0)
	for i := range b.N {
		j := i % len(pods)
		if j == 0 && i > 0 {
			b.StopTimer()
			u := cpuTime(b)
			decodeAll()
			untimed += cpuTime(b) - u
			b.StartTimer()
		}
		corev1listers.InternPod(pods[j])
	}
	b.ReportMetric(float64(cpuTime(b)-start-untimed)/float64(b.N), "cpu-ns/op")
}

// BenchmarkInternPodUpdate runs the generated InternPodUpdate on one freshly
// decoded pod, given the version of it a cache holds (decoded from the same
// bytes but for its resourceVersion, and interned): the update path of an
// interned informer. As in BenchmarkInternPod, the pods stay alive until
// the next batch is decoded, untimed.
func BenchmarkInternPodUpdate(b *testing.B) {
	data := encodedPods(b, benchPods)
	s := protobuf(b)
	old := make([]*corev1.Pod, len(data))
	for i, d := range data {
		old[i] = decodePod(b, s, d)
		corev1listers.InternPod(old[i])
	}
	pods := make([]*corev1.Pod, len(data))
	decodeAll := func() {
		for i, d := range data {
			pods[i] = decodePod(b, s, d)
			pods[i].ResourceVersion += "1"
		}
	}
	decodeAll()
	b.ReportAllocs()
	b.ResetTimer()
	start, untimed := cpuTime(b), time.Duration(0)
	for i := range b.N {
		j := i % len(pods)
		if j == 0 && i > 0 {
			b.StopTimer()
			u := cpuTime(b)
			decodeAll()
			untimed += cpuTime(b) - u
			b.StartTimer()
		}
		corev1listers.InternPodUpdate(pods[j], old[j])
	}
	b.ReportMetric(float64(cpuTime(b)-start-untimed)/float64(b.N), "cpu-ns/op")
}
