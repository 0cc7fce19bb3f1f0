//go:build unix

package cache_test

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"syscall"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"

	genlisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/eventcount"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/procstat"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
)

// internBuilders are the informers BenchmarkInformerUpdatesInterned runs,
// in this order.
var internBuilders = []namedBuilder{
	{"ours", buildOurs},
	{"ours-interned", buildOursInterned},
	{"clientgo", buildClientGo},
}

// buildOursInterned is buildOurs with the generated InternPodUpdate set as
// the informer's intern function (SetTypedIntern), as a factory generated
// with --with-interning sets it.
func buildOursInterned(s *script, c *eventcount.Counter, dropManagedFields bool) informer {
	return buildOursWithIndexes(s, c, dropManagedFields, false, funcIndexes, genlisters.InternPodUpdate)
}

// internRounds is the number of rounds over the fixture's 100,000 pods one
// iteration of BenchmarkInformerUpdatesInterned streams: 400,000 events, so
// that a timed section allocates (7.6 GB, the decoded events) more than
// twice what the live heap holds and runs two or three collection cycles,
// which shares out their cost as a longer run would, rather than one cycle
// or none depending on where the side's heap goal falls (with 100,000
// events, a side whose live heap was large enough ran none). One iteration
// takes 9 to 10 s on an idle 2-core machine, a process of -test.benchtime 2x
// about 200 s and 8.5 GB resident.
const internRounds = 4

// maxEncodedPod bounds the protobuf encoding of one event's pod in
// BenchmarkInformerUpdatesInterned (about 3.2 KB; see testpods.TestPodSize).
const maxEncodedPod = 8 << 10

// encodedEvents are the protobuf encodings of one iteration's pods, one after
// the other in an anonymous memory mapping outside the Go heap, so that
// they neither count in the heap the collector paces itself by nor are
// scanned (as a server's or a connection's buffers would not be).
type encodedEvents struct {
	mem  []byte
	ends []int // ends[i] is where the i-th encoding ends in mem
}

// newEncodedEvents maps room for n encodings of at most maxEncodedPod bytes.
func newEncodedEvents(n int) (*encodedEvents, error) {
	mem, err := syscall.Mmap(-1, 0, n*maxEncodedPod, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, err
	}
	return &encodedEvents{mem: mem[:0], ends: make([]int, 0, n)}, nil
}

func (e *encodedEvents) reset() {
	e.mem = e.mem[:0]
	e.ends = e.ends[:0]
}

// add appends the encoding of obj.
func (e *encodedEvents) add(enc k8sruntime.Encoder, obj k8sruntime.Object) error {
	data, err := k8sruntime.Encode(enc, obj)
	if err != nil {
		return err
	}
	if len(e.mem)+len(data) > cap(e.mem) {
		return fmt.Errorf("encoded events: %d bytes do not fit after %d of %d", len(data), len(e.mem), cap(e.mem))
	}
	e.mem = append(e.mem, data...)
	e.ends = append(e.ends, len(e.mem))
	return nil
}

func (e *encodedEvents) len() int { return len(e.ends) }

// at returns the i-th encoding.
func (e *encodedEvents) at(i int) []byte {
	start := 0
	if i > 0 {
		start = e.ends[i-1]
	}
	return e.mem[start:e.ends[i]]
}

func (e *encodedEvents) release() error {
	err := syscall.Munmap(e.mem[:cap(e.mem)])
	e.mem, e.ends = nil, nil
	return err
}

// gcTotal returns the runtime's estimate of the CPU time its collector has
// used so far, idle mark workers included, in seconds.
func gcTotal() float64 {
	m := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(m)
	if m[0].Value.Kind() != metrics.KindFloat64 {
		return 0
	}
	return m[0].Value.Float64()
}

// decodedPodList returns a LIST response of pods, each item decoded from its
// own protobuf encoding: a fresh object owning every string and slice, as
// after a real LIST, and shared with nothing else (interning changes the
// items in place; the fixture's pods must not be).
func decodedPodList(pods []pod) (*corev1.PodList, error) {
	decoded, err := testpods.RoundTrip(pods)
	if err != nil {
		return nil, err
	}
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: listRV}, Items: make([]corev1.Pod, len(decoded))}
	for i, p := range decoded {
		list.Items[i] = *p
	}
	return list, nil
}

// BenchmarkInformerUpdatesInterned is BenchmarkInformerUpdates with the
// decode of every event included, for this project's informer without
// interning (ours), with the generated InternPodUpdate as its intern
// function (ours-interned, SetTypedIntern: an update takes the cached
// version's equal parts instead of its own), and client-go's (clientgo), in
// that order in one run, on the fixture's 100,000 pods. Each side gets its
// own LIST of them, each item decoded from its own protobuf encoding
// (testpods.RoundTrip), so that the cached objects are laid out as after a
// real LIST and interning changes nothing another side reads; the list is
// dropped once the informer has synced. A synced informer (set up untimed,
// then given one untimed iteration, as in BenchmarkInformerUpdates) receives
// per iteration 400,000 MODIFIED events: internRounds (4) rounds over the
// 100,000 pods, each event testpods.Updated of its pod with a higher
// resourceVersion than any before it, one in ten moving its pod to the next
// node (even rounds) and back (odd rounds). The events are encoded untimed
// with client-go's protobuf serializer (envelope included), into memory
// outside the Go heap (encodedEvents). In the timed section one goroutine
// decodes each encoding into a fresh pod (testpods.Decode: client-go's
// protobuf serializer, every string its own allocation) and pushes it with
// the watcher's Modify as fast as the watcher accepts it (its channel holds
// watch.DefaultChanSize events); the iteration ends when the handler has
// seen all 400,000 updates. The decode, on one goroutine and the same for
// every side, is in every figure and may bound the rate.
//
// Reported: events/s (wall time), cpu-ns/event (CPU time of the whole
// process, decode included), sys-ns/event (its kernel part), faults/event
// (minor page faults), gc-ns/event (the collector's CPU, as procstat
// estimates it: assists, dedicated workers, pauses), gc-total-ns/event (the
// same with the idle mark workers, which run on otherwise idle cores but
// count in cpu-ns/event: runtime/metrics' /cpu/classes/gc/total),
// allocs/event and B/event (the decode's allocations included), gcs/op.
// Each timed section starts after a full collection. The runtime adds a
// cycle's CPU to the gc figures when the cycle ends: a cycle still running
// when a timed section ends counts in cpu-ns/event only in part and in the
// gc figures not at all. The heap also holds the fixture of every benchmark
// of the package (100,000 generated pods and two filled stores), which
// every collection marks.
func BenchmarkInformerUpdatesInterned(b *testing.B) {
	for _, bl := range internBuilders {
		b.Run(bl.name, func(b *testing.B) {
			f := getFixture(b)
			ser, err := testpods.Protobuf()
			if err != nil {
				b.Fatal(err)
			}
			enc := scheme.Codecs.EncoderForVersion(ser, corev1.SchemeGroupVersion)
			pods := f.pods
			nEvents := internRounds * len(pods)
			list, err := decodedPodList(pods)
			if err != nil {
				b.Fatal(err)
			}
			nextNode := map[string]string{}
			for i, node := range f.nodes {
				nextNode[node] = f.nodes[(i+1)%len(f.nodes)]
			}
			events, err := newEncodedEvents(nEvents)
			if err != nil {
				b.Fatal(err)
			}
			defer func() {
				if err := events.release(); err != nil {
					b.Error(err)
				}
			}()

			c := eventcount.New(len(list.Items))
			s := newScript(func() *corev1.PodList { return list })
			inf := bl.build(s, c, false)
			r := start(inf)
			defer r.Stop()
			waitSynced(inf, c)
			// The informer holds copies of the items (the reflector's), which
			// share their parts; the list would keep, on the interned side,
			// the parts interning replaced. Nothing lists again: the script
			// answers one watch only, and the updates would not arrive.
			list = nil

			rv := 60_000_000
			// next encodes the events of one iteration.
			next := func() {
				events.reset()
				for round := range internRounds {
					for i, p := range pods {
						node := ""
						if i%moveEvery == 0 && round%2 == 0 {
							node = nextNode[p.Spec.NodeName]
						} else if i%moveEvery == 0 {
							node = p.Spec.NodeName
						}
						rv++
						if err := events.add(enc, testpods.Updated(p, rv, node)); err != nil {
							b.Fatal(err)
						}
					}
				}
				c.ExpectUpdates(events.len())
			}
			// deliver decodes and pushes the events and waits until the
			// handler has seen them all.
			deliver := func() {
				pushed := make(chan error, 1)
				go func() {
					for i := range events.len() {
						p, err := testpods.Decode(ser, events.at(i))
						if err != nil {
							pushed <- fmt.Errorf("decoding event %d: %w", i, err)
							return
						}
						s.watcher.Modify(p)
					}
					pushed <- nil
				}()
				var err error
				select {
				case <-c.UpdatesDone():
					err = <-pushed
				case err = <-pushed:
					if err == nil {
						<-c.UpdatesDone()
					}
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			next()
			deliver()

			var sum procstat.Totals
			var gcAll float64
			for b.Loop() {
				b.StopTimer()
				next()
				runtime.GC()
				var before, after procstat.Sample
				before.MustRead(b)
				gcBefore := gcTotal()
				stopProfile := timedProfile(b)
				b.StartTimer()
				deliver()
				b.StopTimer()
				stopProfile()
				after.MustRead(b)
				gcAll += gcTotal() - gcBefore
				sum.Add(&before, &after)
				b.StartTimer()
			}
			total := float64(b.N) * float64(nEvents)
			b.ReportMetric(total/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(sum.CPU.Nanoseconds())/total, "cpu-ns/event")
			b.ReportMetric(float64(sum.Sys.Nanoseconds())/total, "sys-ns/event")
			b.ReportMetric(float64(sum.Faults)/total, "faults/event")
			b.ReportMetric(float64(sum.GC.Nanoseconds())/total, "gc-ns/event")
			b.ReportMetric(gcAll*1e9/total, "gc-total-ns/event")
			b.ReportMetric(float64(sum.Mallocs)/total, "allocs/event")
			b.ReportMetric(float64(sum.Bytes)/total, "B/event")
			b.ReportMetric(float64(sum.GCs)/float64(b.N), "gcs/op")
		})
	}
}
