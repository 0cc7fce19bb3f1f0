// Package scalebench measures how the cost of an informer's initial sync and
// of its watch updates grows with the number of objects, for this project's
// cache.SharedIndexInformer and client-go's tools/cache informer side by side,
// with the protobuf decode inside the timed sections.
//
// Its benchmarks serve prebuilt protobuf bodies of 10,000, 100,000 and (when
// SCALE_BENCH_500K=1) 500,000 generated pods (internal/testing/testpods), kept in
// memory-mapped files outside the Go heap, from an httptest.Server (HTTP/1.1,
// no compression), and point a real clientset at it with the content type
// application/vnd.kubernetes.protobuf, so that both informers go through
// client-go's REST client and reflector, each built as its generated
// informers build it: client-go's decodes every response with the client's
// decoder; this project's (cache.NewClientListWatch) decodes LIST responses
// and watch streams itself, on several goroutines. Two sync paths are
// measured, each made explicit per sub-benchmark:
//
//   - sync-list: a LIST answered with a protobuf PodList, then a WATCH. The
//     ListerWatchers are built over a client that says it does not support
//     watch-list streaming (IsWatchListSemanticsUnSupported), so both
//     reflectors list.
//   - sync-watchlist: one WATCH with sendInitialEvents=true, answered with
//     an ADDED event per pod and a BOOKMARK carrying the
//     k8s.io/initial-events-end annotation: what a client-go v0.37 reflector
//     does by default (feature WatchListClient) over a real clientset.
//
// Reported per pod: the sync's wall time and CPU time (getrusage), the
// allocations, and the heap the synced informer keeps; the floor
// sub-benchmarks decode the same bodies with no informer. The updates
// sub-benchmarks stream MODIFIED events through the open watch of a synced
// informer and time their delivery to the handler.
//
// BenchmarkScaleHeapAfterUpdates reads, per cached pod and for each side
// (ours, ours-interned, clientgo), the live heap (after a full collection,
// the memory-mapped bodies not in it) a watch-list-synced informer keeps,
// then again after 10 rounds of MODIFIED events through its watch, each
// round replacing every pod (the first 100,000 at 500k) by a freshly decoded
// copy; SCALE_BENCH_HEAP_MAX=10000 limits it to 10k.
//
// Run with: go test -run '^$' -bench . ./test/scalebench/
// (hack/bench-scale.sh runs it in several processes and summarises).
package scalebench
