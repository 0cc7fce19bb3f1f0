//go:build unix

package scalebench

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/eventcount"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/procstat"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
)

// heapRounds is the number of rounds of updates BenchmarkScaleHeapAfterUpdates
// streams after the sync.
const heapRounds = 10

// heapMaxEnv names the environment variable that limits
// BenchmarkScaleHeapAfterUpdates to the sizes of at most that many pods:
// SCALE_BENCH_HEAP_MAX=10000 measures 10k only (100k peaks at about 4.5 GB
// resident and takes 2.5 to 4 minutes per process on a 2-core machine).
const heapMaxEnv = "SCALE_BENCH_HEAP_MAX"

// BenchmarkScaleHeapAfterUpdates measures, at each size of
// testpods.ScaleSizes (at most $SCALE_BENCH_HEAP_MAX pods when it is set)
// and for each side (ours, ours-interned, clientgo, in orderedSides' order),
// the live heap a synced informer keeps, and how it changes once every pod
// has been replaced by watch updates. One iteration (run it with
// -test.benchtime 1x):
//
//  1. starts a server of the size's bodies and its clientset, then takes the
//     baseline: HeapAlloc after a full collection;
//  2. builds the side's informer (with its counting handler) and runs it
//     until it has synced by watch-list (one WATCH with sendInitialEvents, as
//     BenchmarkScale's updates sub-benchmarks), checking the requests and the
//     keys as every sync of the package does; then reads HeapAlloc after a
//     full collection: the fill;
//  3. streams heapRounds (10) rounds of updates through the open watch, each
//     one of the two prebuilt update sets in turn (the first set first), and
//     waits for each round with the handler's update count. A set holds
//     min(n, 100,000) MODIFIED events, the j-th for pod j%n: up to 100k pods,
//     every round updates every pod once, every event a freshly decoded copy
//     with a new resourceVersion, one in ten moving its pod to another node
//     (and the next round back); at 500k only the first 100,000 pods are
//     updated. After the rounds it checks the requests and keys again and
//     reads HeapAlloc after a full collection: the heap after the updates;
//  4. stops the informer and closes the server.
//
// A full collection is runtime.GC twice (the second frees what the first
// left in sync.Pools' victim caches), then runtime.ReadMemStats. Reported,
// per cached pod (n) and averaged over the iterations:
//
//   - fill-heapB/obj: HeapAlloc after the sync minus the baseline: what the
//     synced informer keeps (objects, store, indexes, queue, the reflector's
//     and the watch decoder's buffers, the HTTP connection);
//   - upd10-heapB/obj: HeapAlloc after the 10 rounds minus the same
//     baseline;
//   - growth: upd10-heapB/obj over fill-heapB/obj.
//
// The response bodies are memory-mapped files built before the baseline
// (getBodies' fileSink): they are not in the Go heap, so no figure counts
// them; the sorted keys the checks compare with are built with them, before
// the baseline too. HeapAlloc does not count what the runtime keeps outside
// the heap: the records of the weak pointers the intern pools (of
// ours-interned) hold are in MemStats.OtherSys. The pools are process-wide
// and keep their tables (entries whose values were collected included)
// after an informer stops, in the baseline of later iterations: for
// ours-interned's figure free of an earlier run's tables, run one size per
// process with -test.benchtime 1x (-test.bench
// 'BenchmarkScaleHeapAfterUpdates/100k/'). ns/op is the whole iteration,
// collections included.
func BenchmarkScaleHeapAfterUpdates(b *testing.B) {
	maxPods := 0
	if v := os.Getenv(heapMaxEnv); v != "" {
		var err error
		if maxPods, err = strconv.Atoi(v); err != nil || maxPods <= 0 {
			b.Fatalf("%s=%q: want a positive number of pods", heapMaxEnv, v)
		}
	}
	for _, n := range testpods.ScaleSizes() {
		b.Run(sizeName(n), func(b *testing.B) {
			if maxPods > 0 && n > maxPods {
				b.Skipf("%s=%d", heapMaxEnv, maxPods)
			}
			defer dropBodies(b, n)
			bd := getBodies(b, n)
			for _, sd := range orderedSides() {
				b.Run(sd.name, func(b *testing.B) { benchHeapAfterUpdates(b, bd, sd) })
			}
		})
	}
}

func benchHeapAfterUpdates(b *testing.B, bd *bodies, sd side) {
	checkWatchListFeature(b, paths[1])
	var fill, updated int64
	for b.Loop() {
		f, u, err := heapAfterUpdates(bd, sd)
		if err != nil {
			b.Fatal(err)
		}
		fill += f
		updated += u
	}
	objs := float64(b.N) * float64(bd.n)
	b.ReportMetric(float64(fill)/objs, "fill-heapB/obj")
	b.ReportMetric(float64(updated)/objs, "upd10-heapB/obj")
	b.ReportMetric(float64(updated)/float64(fill), "growth")
}

// heapAfterUpdates runs one iteration of BenchmarkScaleHeapAfterUpdates and
// returns the growth of the live heap after the sync and after the updates.
// The server is its own, so that no stream of an earlier iteration can take
// a body sent on srv.updates.
func heapAfterUpdates(bd *bodies, sd side) (fill, updated int64, err error) {
	p := paths[1] // sync-watchlist: what a v0.37 reflector does by default
	srv := newServer(bd)
	defer srv.close()
	cs, err := srv.clientset()
	if err != nil {
		return 0, 0, err
	}
	c := eventcount.New(bd.n)
	base := procstat.LiveHeap()
	inf, err := sd.build(cs, p.client(cs), c)
	if err != nil {
		return 0, 0, err
	}
	r := start(inf)
	defer r.Stop()
	if err := waitSynced(inf, c); err != nil {
		return 0, 0, err
	}
	if err := checkSynced(srv, p, inf, bd); err != nil {
		return 0, 0, err
	}
	fill = procstat.LiveHeap() - base
	for round := range heapRounds {
		c.ExpectUpdates(bd.m)
		srv.updates <- bd.updates[round%len(bd.updates)]
		if err := waitUpdates(c); err != nil {
			return 0, 0, fmt.Errorf("round %d: %w", round, err)
		}
	}
	updated = procstat.LiveHeap() - base
	if err := checkSynced(srv, p, inf, bd); err != nil {
		return 0, 0, fmt.Errorf("after the updates: %w", err)
	}
	if got, want := c.Updates(), int64(heapRounds*bd.m); got != want {
		return 0, 0, fmt.Errorf("handler saw %d updates, want %d", got, want)
	}
	if fill <= 0 {
		return 0, 0, errors.New("the live heap did not grow with the sync")
	}
	return fill, updated, nil
}
