//go:build unix

package scalebench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/client-go/kubernetes/scheme"
	restclientwatch "k8s.io/client-go/rest/watch"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/eventcount"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/procstat"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
)

// maxUpdateEvents bounds the number of MODIFIED events of one iteration of
// an updates sub-benchmark: one per pod, up to 100,000.
const maxUpdateEvents = 100_000

// orderedSides returns the sides in the order they run: ours first, unless
// SCALE_BENCH_CLIENTGO_FIRST=1 (hack/bench-scale.sh alternates the order
// between processes).
func orderedSides() []side {
	s := slices.Clone(sides)
	if os.Getenv("SCALE_BENCH_CLIENTGO_FIRST") == "1" {
		slices.Reverse(s)
	}
	return s
}

var (
	bodiesMu    sync.Mutex
	bodiesCache = map[int]*bodies{}
)

// getBodies returns the bodies of n pods, built once per process (until
// dropBodies), kept in memory-mapped files (fileSink).
func getBodies(b *testing.B, n int) *bodies {
	b.Helper()
	bodiesMu.Lock()
	defer bodiesMu.Unlock()
	if bd, ok := bodiesCache[n]; ok {
		return bd
	}
	sk := &fileSink{}
	bd, err := buildBodies(testpods.Scaled(n), min(n, maxUpdateEvents), sk)
	if err != nil {
		b.Fatal(errors.Join(err, sk.release()))
	}
	bd.release = sk.release
	if bd.n != n {
		b.Fatalf("generated %d pods, want %d", bd.n, n)
	}
	bodiesCache[n] = bd
	return bd
}

// dropBodies releases the bodies of n pods, so that the next size does not
// carry them. Every server using them must be closed.
func dropBodies(b *testing.B, n int) {
	bodiesMu.Lock()
	defer bodiesMu.Unlock()
	bd, ok := bodiesCache[n]
	if !ok {
		return
	}
	delete(bodiesCache, n)
	if err := bd.release(); err != nil {
		b.Error(err)
	}
	runtime.GC()
}

// BenchmarkScale measures, at each size, for both sync paths (see the package
// documentation):
//
//   - <size>/<path>/floor: a bare decode of the path's body with the
//     decoder client-go's REST client uses, no HTTP, no informer: the whole
//     PodList for sync-list; every framed watch event and its object, as
//     client-go's watch decoder does, for sync-watchlist.
//   - <size>/<path>/ours and /clientgo: one iteration is Run of a new
//     informer (built untimed, after a full collection) until the
//     informer's HasSynced, the handler registration's HasSynced and the
//     handler's n-th add.
//   - <size>/updates/ours and /clientgo: on an informer synced by watch-list
//     (untimed), one iteration streams min(n, 100,000) prebuilt MODIFIED events
//     through the open watch and ends when the handler has seen them all.
//
// Reported per pod (per event for updates): ns/obj (wall), cpu-ns/obj (CPU
// time of the whole process: server, client, informer, runtime; getrusage),
// sys-ns/obj (its kernel part), faults/obj (minor page faults), gc-ns/obj
// (the runtime's estimate of the CPU its collector used: assists, dedicated
// workers, pauses; not the idle workers), allocs/obj and allocB/obj (Mallocs
// and TotalAlloc deltas), heapB/obj (the
// live heap after the sync and a full collection, minus before it: what the
// synced informer, or the decoded objects, keep), gcs/op (collections during
// the timed sections). Each sync checks that the server got exactly the
// requests of its path and that the informer holds exactly the served pods,
// and fails the benchmark otherwise.
func BenchmarkScale(b *testing.B) {
	for _, n := range testpods.ScaleSizes() {
		b.Run(sizeName(n), func(b *testing.B) {
			defer dropBodies(b, n)
			bd := getBodies(b, n)
			for _, p := range paths {
				b.Run(p.name, func(b *testing.B) {
					b.Run("floor", func(b *testing.B) { benchDecode(b, bd, p) })
					for _, sd := range orderedSides() {
						b.Run(sd.name, func(b *testing.B) { benchSync(b, bd, p, sd) })
					}
				})
			}
			b.Run("updates", func(b *testing.B) {
				for _, sd := range orderedSides() {
					b.Run(sd.name, func(b *testing.B) { benchUpdates(b, bd, sd) })
				}
			})
		})
	}
}

// checkWatchListFeature fails b unless client-go's WatchListClient feature is
// on, without which no reflector streams.
func checkWatchListFeature(b *testing.B, p path) {
	if p.want.watchLists > 0 && !clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient) {
		b.Fatalf("%s needs client-go's feature WatchListClient (on by default in v0.37); the environment turned it off", p.name)
	}
}

func benchSync(b *testing.B, bd *bodies, p path, sd side) {
	checkWatchListFeature(b, p)
	srv, cs := serve(b, bd)
	var sum procstat.Totals
	for b.Loop() {
		b.StopTimer()
		srv.reset()
		c := eventcount.New(bd.n)
		inf, err := sd.build(cs, p.client(cs), c)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var before, after procstat.Sample
		before.MustRead(b)
		b.StartTimer()
		r := start(inf)
		err = waitSynced(inf, c)
		b.StopTimer()
		if err != nil {
			r.Stop()
			b.Fatal(err)
		}
		after.MustRead(b)
		sum.Add(&before, &after)
		sum.AddHeap(&before)
		err = checkSynced(srv, p, inf, bd)
		r.Stop()
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	report(b, &sum, float64(b.N)*float64(bd.n), "obj")
}

func benchUpdates(b *testing.B, bd *bodies, sd side) {
	p := paths[1] // sync-watchlist: what a v0.37 reflector does by default
	checkWatchListFeature(b, p)
	srv, cs := serve(b, bd)
	inf, c := runSynced(b, srv, cs, bd, p, sd)
	var sum procstat.Totals
	set := 0
	for b.Loop() {
		b.StopTimer()
		body := bd.updates[set%len(bd.updates)]
		set++
		c.ExpectUpdates(bd.m)
		runtime.GC()
		var before, after procstat.Sample
		before.MustRead(b)
		b.StartTimer()
		srv.updates <- body
		err := waitUpdates(c)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		after.MustRead(b)
		sum.Add(&before, &after)
		b.StartTimer()
	}
	b.StopTimer()
	if got := srv.requests(); got != p.want {
		b.Fatalf("after the updates the server got %v, want %v", got, p.want)
	}
	if keys := inf.keys(); len(keys) != bd.n {
		b.Fatalf("after the updates the informer holds %d pods, want %d", len(keys), bd.n)
	}
	total := float64(b.N) * float64(bd.m)
	b.ReportMetric(total/b.Elapsed().Seconds(), "events/s")
	report(b, &sum, total, "event")
}

// report reports the sums per unit ("obj" or "event").
func report(b *testing.B, sum *procstat.Totals, units float64, unit string) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/units, "ns/"+unit)
	b.ReportMetric(float64(sum.CPU.Nanoseconds())/units, "cpu-ns/"+unit)
	b.ReportMetric(float64(sum.Sys.Nanoseconds())/units, "sys-ns/"+unit)
	b.ReportMetric(float64(sum.GC.Nanoseconds())/units, "gc-ns/"+unit)
	b.ReportMetric(float64(sum.Faults)/units, "faults/"+unit)
	b.ReportMetric(float64(sum.Mallocs)/units, "allocs/"+unit)
	b.ReportMetric(float64(sum.Bytes)/units, "allocB/"+unit)
	if unit == "obj" {
		b.ReportMetric(float64(sum.Heap)/units, "heapB/"+unit)
	}
	b.ReportMetric(float64(sum.GCs)/float64(b.N), "gcs/op")
}

// decoders are what client-go's REST client decodes a protobuf response
// with: obj a whole body (LIST) or a watch event's object, and the framing
// and serializer of watch streams.
type decoders struct {
	obj    k8sruntime.Decoder
	stream *k8sruntime.StreamSerializerInfo
}

func newDecoders() (*decoders, error) {
	info, err := protobufSerializer()
	if err != nil {
		return nil, err
	}
	return &decoders{
		obj:    scheme.Codecs.WithoutConversion().DecoderToVersion(info.Serializer, corev1.SchemeGroupVersion),
		stream: info.StreamSerializer,
	}, nil
}

// decodeList decodes a LIST body.
func (d *decoders) decodeList(body []byte) (*corev1.PodList, error) {
	list := &corev1.PodList{}
	if _, _, err := d.obj.Decode(body, nil, list); err != nil {
		return nil, err
	}
	return list, nil
}

// decodeWatchList decodes the initial events of a watch-list body as
// client-go's watch decoder does, up to the bookmark, and returns the pods.
func (d *decoders) decodeWatchList(body []byte, n int) ([]pod, error) {
	dec := restclientwatch.NewDecoder(
		streaming.NewDecoder(d.stream.Framer.NewFrameReader(io.NopCloser(bytes.NewReader(body))), d.stream.Serializer),
		d.obj)
	pods := make([]pod, 0, n)
	for {
		t, obj, err := dec.Decode()
		if err != nil {
			return nil, err
		}
		p, ok := obj.(pod)
		if !ok {
			return nil, fmt.Errorf("watch event object is a %T", obj)
		}
		switch t {
		case watch.Added:
			pods = append(pods, p)
		case watch.Bookmark:
			if p.Annotations[metav1.InitialEventsAnnotationKey] != "true" {
				return nil, errors.New("bookmark without the initial-events-end annotation")
			}
			return pods, nil
		default:
			return nil, fmt.Errorf("unexpected watch event %s", t)
		}
	}
}

func benchDecode(b *testing.B, bd *bodies, p path) {
	d, err := newDecoders()
	if err != nil {
		b.Fatal(err)
	}
	var sum procstat.Totals
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		var before, after procstat.Sample
		before.MustRead(b)
		var kept any
		var got int
		b.StartTimer()
		if p.want.watchLists > 0 {
			var pods []pod
			pods, err = d.decodeWatchList(bd.initial, bd.n)
			kept, got = pods, len(pods)
		} else {
			var list *corev1.PodList
			list, err = d.decodeList(bd.list)
			if list != nil {
				kept, got = list, len(list.Items)
			}
		}
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if got != bd.n {
			b.Fatalf("decoded %d pods, want %d", got, bd.n)
		}
		after.MustRead(b)
		sum.Add(&before, &after)
		sum.AddHeap(&before)
		runtime.KeepAlive(kept)
		b.StartTimer()
	}
	report(b, &sum, float64(b.N)*float64(bd.n), "obj")
}
