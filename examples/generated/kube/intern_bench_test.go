//go:build unix

package kube_test

import (
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	corev1listers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testpods"
)

// benchPods is the set the benchmark cycles through: 5,000 testpods pods,
// as runtime/intern's BenchmarkInternPod.
var benchPods = testpods.Config{Namespaces: 5, PodsPerNamespace: 1000, Nodes: 100}

// cpuTime returns the CPU time the process used so far, the collector's
// included: on a loaded machine it moves less than wall time does.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkGeneratedInternPod runs the generated InternPod on one freshly
// decoded pod, as runtime/intern's BenchmarkInternPod runs the hand-written
// transform, so that their figures compare: the pods transformed stay alive
// until the next batch of 5,000 is decoded (untimed), and a first round
// runs before the timer starts, so that most values are already canonical.
// cpu-ns/op is the process's CPU time per pod, the decoding excluded.
func BenchmarkGeneratedInternPod(b *testing.B) {
	data := encodedPods(b, benchPods)
	s := protobuf(b)
	pods := make([]*corev1.Pod, len(data))
	decodeAll := func() {
		for i, d := range data {
			pods[i] = decodePod(b, s, d)
		}
	}
	decodeAll()
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
