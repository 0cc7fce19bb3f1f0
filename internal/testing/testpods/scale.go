package testpods

import "os"

// ScaleSizes are the numbers of pods the scale benchmarks measure: 10k and
// 100k, and 500k when the environment sets SCALE_BENCH_500K=1 (a 500k set
// and what is built from it take several GB).
func ScaleSizes() []int {
	s := []int{10_000, 100_000}
	if os.Getenv("SCALE_BENCH_500K") == "1" {
		s = append(s, 500_000)
	}
	return s
}

// Scaled lays out n pods (a multiple of 1,000) as Default lays out 100,000:
// namespaces of 1,000 pods and n/100 nodes, so 100 pods per node (exactly up
// to 1,000 nodes, where each namespace puts one pod on every node; on average
// beyond).
func Scaled(n int) Config {
	return Config{Namespaces: n / 1000, PodsPerNamespace: 1000, Nodes: n / 100, Seed: 1}
}
