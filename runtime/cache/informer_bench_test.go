//go:build unix

package cache_test

// Benchmarks of the whole informer pipeline, ours (cache.SharedIndexInformer)
// next to client-go's (tools/cache.NewSharedIndexInformer, in client-go
// v0.37's default configuration: RealFIFO with atomic replace and batched
// pops), on the same scripted list and watch in the same run:
//
//   - BenchmarkInformerSync: from Run until the informer has synced and one
//     handler has received (and its registration reports) all 100,000 adds.
//   - BenchmarkInformerUpdates: 200,000 MODIFIED watch events pushed as fast
//     as the watcher accepts them, until the handler has seen them all.
//   - BenchmarkInformerMemory: the heap a synced informer keeps, with and
//     without a transform that drops managedFields.
//
// Both informers carry the indexes of the store benchmarks (bench_test.go)
// and list through client-go's own reflector, which opts out of watch-list
// streaming because the ListerWatcher's client says it does not support it.
// Each iteration of Sync and Memory is one full sync, and each iteration of
// Updates is 200,000 events, so b.N stays small whatever -benchtime says.
// The file builds on unix only: it reads the process's CPU time with
// getrusage.
//
// See docs/benchmarks.md for the command, the results and their reading.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/eventcount"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/procstat"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/runner"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// timedProfile starts a CPU profile of one timed section when the
// environment variable BENCH_CPUPROFILE names a directory, written to
// <dir>/<benchmark name>.prof (the last timed section of the benchmark); it
// returns the function that stops it. docs/benchmarks.md's breakdowns come
// from such profiles.
func timedProfile(b *testing.B) func() {
	dir := os.Getenv("BENCH_CPUPROFILE")
	if dir == "" {
		return func() {}
	}
	name := filepath.Join(dir, strings.ReplaceAll(b.Name(), "/", "_")+".prof")
	out, err := os.Create(name)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := out.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// updateEvents is the number of watch events one iteration of
// BenchmarkInformerUpdates pushes: two rounds over the 100,000 pods.
const updateEvents = 200_000

// listRV is the resourceVersion of the scripted list: above every pod's,
// below every update's.
const listRV = "50000000"

// noWatchList is the client handed to both ListerWatchers unless the script
// streams a watch-list: it says it does not support watch-list streaming, so
// both reflectors list, then watch.
type noWatchList struct{}

func (noWatchList) IsWatchListSemanticsUnSupported() bool { return true }

// script is what the server says to one informer run: list returns the
// response to LIST, and the only WATCH gets watcher, which the benchmark
// drives. With watchList set, the clients say they support watch-list
// streaming, and a WATCH asking for initial events gets, through watcher, an
// ADDED event for every item of the list and then the bookmark that ends the
// initial events, as a server streams them.
type script struct {
	list      func() *corev1.PodList
	watcher   *watch.FakeWatcher
	lists     atomic.Int32
	watches   atomic.Int32
	watchList bool
}

// client is the client the ListerWatchers ask whether watch-list streaming is
// supported: nil (supported, client-go's default) or noWatchList.
func (s *script) client() any {
	if s.watchList {
		return nil
	}
	return noWatchList{}
}

func newScript(list func() *corev1.PodList) *script {
	return &script{list: list, watcher: watch.NewFakeWithChanSize(int(watch.DefaultChanSize), false)}
}

func (s *script) listPods(context.Context, metav1.ListOptions) (*corev1.PodList, error) {
	s.lists.Add(1)
	return s.list(), nil
}

func (s *script) watchPods(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	if s.watches.Add(1) > 1 {
		return nil, errors.New("benchmark script: one watch per run")
	}
	if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		if !s.watchList {
			return nil, errors.New("benchmark script: a watch-list request to a script that lists")
		}
		list := s.list()
		go func() {
			for i := range list.Items {
				s.watcher.Add(&list.Items[i])
			}
			s.watcher.Action(watch.Bookmark, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
				ResourceVersion: list.ResourceVersion,
				Annotations:     map[string]string{metav1.InitialEventsAnnotationKey: "true"},
			}})
		}()
	}
	return s.watcher, nil
}

// informer is one informer, built and not started.
type informer struct {
	run    func(context.Context) // Run; returns once every goroutine it started has
	synced func() bool           // the informer's and the handler registration's HasSynced
}

// builder builds an informer over s with the three indexes and c as its one
// handler; dropManagedFields sets a transform that clears managedFields.
type builder func(s *script, c *eventcount.Counter, dropManagedFields bool) informer

func buildOurs(s *script, c *eventcount.Counter, dropManagedFields bool) informer {
	return buildOursWith(s, c, dropManagedFields, false)
}

// buildOursAppend is buildOurs with the index functions in append form
// (cache.AppendIndexFunc).
func buildOursAppend(s *script, c *eventcount.Counter, dropManagedFields bool) informer {
	return buildOursWithIndexes(s, c, dropManagedFields, false, appendIndexes, nil)
}

// buildOursGenerated is buildOurs with the indexes of a generated informer
// (newOursGenerated): the namespace index built in, the node index in
// append form, the app label index.
func buildOursGenerated(s *script, c *eventcount.Counter, dropManagedFields bool) informer {
	return buildOursWithIndexes(s, c, dropManagedFields, false, generatedIndexes, nil)
}

// buildOursUntyped is buildOurs with client-go's untyped handler type (the
// one buildClientGo registers, type assertion included) instead of a typed
// one: the path of code written for client-go's informers.
func buildOursUntyped(s *script, c *eventcount.Counter, dropManagedFields bool) informer {
	return buildOursWith(s, c, dropManagedFields, true)
}

func buildOursWith(s *script, c *eventcount.Counter, dropManagedFields, untyped bool) informer {
	return buildOursWithIndexes(s, c, dropManagedFields, untyped, funcIndexes, nil)
}

// indexForm says how an informer of ours declares the three indexes.
type indexForm int

const (
	funcIndexes      indexForm = iota // []string index functions, and the app label index
	appendIndexes                     // append-form index functions, and the app label index
	generatedIndexes                  // as a generated informer: see newOursGenerated
)

// buildOursWithIndexes builds ours with the indexes of form, and intern,
// when not nil, as its intern function.
func buildOursWithIndexes(s *script, c *eventcount.Counter, dropManagedFields, untyped bool, form indexForm, intern cache.InternFunc[pod]) informer {
	lw := cache.NewListWatch[pod](s.listPods, s.watchPods, s.client())
	var opts cache.SharedIndexInformerOptions[pod]
	if form == funcIndexes {
		opts.Indexers = oursIndexers(allIndexes...)
	}
	inf, err := cache.NewSharedIndexInformer(lw, opts)
	if err != nil {
		panic(err)
	}
	switch form {
	case funcIndexes:
		err = inf.TypedStore().AddLabelIndex(appIndex, "app")
	case appendIndexes:
		err = addAppendIndexes(inf.GetIndexer())
	case generatedIndexes:
		err = addGeneratedIndexes(inf.GetIndexer())
	}
	if err != nil {
		panic(err)
	}
	if dropManagedFields {
		if err := inf.SetTypedTransform(cache.DropManagedFields[pod]); err != nil {
			panic(err)
		}
	}
	if err := inf.SetTypedIntern(intern); err != nil {
		panic(err)
	}
	var reg clientcache.ResourceEventHandlerRegistration
	if untyped {
		reg, err = inf.AddEventHandler(eventcount.Handler[pod](c))
	} else {
		reg, err = inf.AddTypedEventHandler(eventcount.TypedHandler[pod](c))
	}
	if err != nil {
		panic(err)
	}
	return informer{
		run:    inf.RunWithContext,
		synced: func() bool { return inf.HasSynced() && reg.HasSynced() },
	}
}

func buildClientGo(s *script, c *eventcount.Counter, dropManagedFields bool) informer {
	lw := clientcache.ToListWatcherWithWatchListSemantics(&clientcache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (k8sruntime.Object, error) {
			return s.listPods(ctx, opts)
		},
		WatchFuncWithContext: s.watchPods,
	}, s.client())
	inf := clientcache.NewSharedIndexInformer(lw, &corev1.Pod{}, 0, clientGoIndexers(allIndexes...))
	if dropManagedFields {
		err := inf.SetTransform(func(obj any) (any, error) {
			if m, ok := obj.(metav1.Object); ok {
				m.SetManagedFields(nil)
			}
			return obj, nil
		})
		if err != nil {
			panic(err)
		}
	}
	reg, err := inf.AddEventHandler(eventcount.Handler[pod](c))
	if err != nil {
		panic(err)
	}
	return informer{
		run:    inf.RunWithContext,
		synced: func() bool { return inf.HasSynced() && reg.HasSynced() },
	}
}

// namedBuilder is a builder and the name of its sub-benchmarks.
type namedBuilder struct {
	name  string
	build builder
}

var builders = []namedBuilder{
	{"ours", buildOurs},
	{"ours-untyped", buildOursUntyped},
	{"clientgo", buildClientGo},
}

// start runs inf until the returned Running is stopped.
func start(inf informer) *runner.Running { return runner.Start(inf.run) }

// waitSynced waits until the handler has received every add of the initial
// list and both HasSynced report true.
func waitSynced(inf informer, c *eventcount.Counter) {
	<-c.AddsDone()
	for !inf.synced() {
		time.Sleep(10 * time.Microsecond)
	}
}

var (
	podListOnce sync.Once
	podList     *corev1.PodList
)

// getPodList returns the scripted LIST response: the fixture's pods, built
// once. Both reflectors copy every item (meta.ExtractListWithAlloc), so the
// list is never changed.
func getPodList(b *testing.B) *corev1.PodList {
	f := getFixture(b)
	podListOnce.Do(func() {
		podList = &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: listRV}}
		podList.Items = make([]corev1.Pod, len(f.pods))
		for i, p := range f.pods {
			podList.Items[i] = *p
		}
	})
	return podList
}

// BenchmarkInformerSync measures an informer's initial sync of 100,000 pods:
// one iteration is Run until the informer's HasSynced, the registration's
// HasSynced and the handler's 100,000th add. Reported per pod: ns/obj (wall
// time), cpu-ns/obj (CPU time of the whole process, from getrusage),
// allocs/obj, allocB/obj (bytes allocated); gcs/op counts the collections
// that ran during the timed sections. Every timed section starts after a full
// collection.
func BenchmarkInformerSync(b *testing.B) { benchmarkSync(b, false) }

// BenchmarkInformerSyncWatchList is BenchmarkInformerSync on the path
// client-go takes against servers that stream watch-lists (Kubernetes 1.34
// and later): one WATCH with sendInitialEvents, whose ADDED events client-go's
// reflector collects in a store of its own before it hands the queue the
// whole list. The streamed objects are the list's items themselves (no copy:
// a real stream decodes fresh ones), the same for both informers.
func BenchmarkInformerSyncWatchList(b *testing.B) { benchmarkSync(b, true) }

// warmSync runs, once per process, one untimed sync of client-go's informer:
// the first sync of a process takes up to twice as long, whichever informer
// runs it, while the process's heap grows to its working size (fresh pages
// from the kernel).
var warmSync sync.Once

func benchmarkSync(b *testing.B, watchList bool) {
	for _, bl := range builders {
		b.Run(bl.name, func(b *testing.B) {
			list := getPodList(b)
			n := len(list.Items)
			warmSync.Do(func() {
				c := eventcount.New(n)
				inf := buildClientGo(newScript(func() *corev1.PodList { return list }), c, false)
				r := start(inf)
				waitSynced(inf, c)
				r.Stop()
			})
			var sum procstat.Totals
			for b.Loop() {
				b.StopTimer()
				c := eventcount.New(n)
				s := newScript(func() *corev1.PodList { return list })
				s.watchList = watchList
				inf := bl.build(s, c, false)
				runtime.GC()
				var before, after procstat.Sample
				before.MustRead(b)
				stopProfile := timedProfile(b)
				b.StartTimer()
				r := start(inf)
				waitSynced(inf, c)
				if lists, watches := s.lists.Load(), s.watches.Load(); watchList && (lists != 0 || watches != 1) {
					b.Fatalf("%d lists and %d watches, want the one watch-list stream", lists, watches)
				} else if !watchList && lists != 1 {
					b.Fatalf("%d lists, want one", lists)
				}
				b.StopTimer()
				stopProfile()
				after.MustRead(b)
				sum.Add(&before, &after)
				r.Stop()
				b.StartTimer()
			}
			objs := float64(b.N) * float64(n)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/objs, "ns/obj")
			b.ReportMetric(float64(sum.CPU.Nanoseconds())/objs, "cpu-ns/obj")
			b.ReportMetric(float64(sum.Mallocs)/objs, "allocs/obj")
			b.ReportMetric(float64(sum.Bytes)/objs, "allocB/obj")
			b.ReportMetric(float64(sum.GCs)/float64(b.N), "gcs/op")
		})
	}
}

// BenchmarkInformerUpdates measures the delivery of watch updates. A synced
// informer (set up untimed, and given one untimed iteration's events, as
// the first burst after a sync grows what an informer keeps for later
// ones) receives, per iteration, 200,000 MODIFIED events:
// two rounds over the 100,000 cached pods, each event a fresh copy of its pod
// with a higher resourceVersion than any before it; one event in ten
// changes spec.nodeName (the first round moves the pod to the next node, the
// second moves it back). The events are built untimed; a goroutine pushes them
// into the watcher as fast as it accepts them (its channel holds
// watch.DefaultChanSize events), and the iteration ends when the handler has
// seen all 200,000 updates. Reported: events/s (wall time), cpu-ns/event (CPU
// time of the whole process, the pushing goroutine included), allocs/event
// and B/event (bytes allocated), gcs/op as in BenchmarkInformerSync. Besides
// the informers of every benchmark, ours-append runs ours with its index
// functions in append form (cache.AppendIndexFunc), and ours-generated with
// the indexes of a generated informer (buildOursGenerated).
func BenchmarkInformerUpdates(b *testing.B) {
	for _, bl := range append(slices.Clone(builders), namedBuilder{"ours-append", buildOursAppend}, namedBuilder{"ours-generated", buildOursGenerated}) {
		b.Run(bl.name, func(b *testing.B) {
			f := getFixture(b)
			list := getPodList(b)
			nextNode := map[string]string{}
			for i, node := range f.nodes {
				nextNode[node] = f.nodes[(i+1)%len(f.nodes)]
			}
			c := eventcount.New(len(list.Items))
			s := newScript(func() *corev1.PodList { return list })
			inf := bl.build(s, c, false)
			r := start(inf)
			defer r.Stop()
			waitSynced(inf, c)

			rv := 60_000_000
			events := make([]pod, 0, updateEvents)
			// next builds the events of one iteration.
			next := func() {
				clear(events)
				events = events[:0]
				for round := range updateEvents / len(f.pods) {
					for i, p := range f.pods {
						node := ""
						if i%moveEvery == 0 && round%2 == 0 {
							node = nextNode[p.Spec.NodeName]
						} else if i%moveEvery == 0 {
							node = p.Spec.NodeName
						}
						rv++
						events = append(events, testpods.Updated(p, rv, node))
					}
				}
				c.ExpectUpdates(len(events))
			}
			// deliver pushes the events and waits until the handler has
			// seen them all.
			deliver := func() {
				pushed := make(chan struct{})
				go func() {
					defer close(pushed)
					for _, e := range events {
						s.watcher.Modify(e)
					}
				}()
				<-c.UpdatesDone()
				<-pushed
			}
			// One untimed iteration first: client-go's first burst of
			// updates after the sync takes about twice as long as its
			// later ones, and a later burst is what the benchmark
			// measures.
			next()
			deliver()

			var sum procstat.Totals
			for b.Loop() {
				b.StopTimer()
				next()
				runtime.GC()
				var before, after procstat.Sample
				before.MustRead(b)
				stopProfile := timedProfile(b)
				b.StartTimer()
				deliver()
				b.StopTimer()
				stopProfile()
				after.MustRead(b)
				sum.Add(&before, &after)
				b.StartTimer()
			}
			total := float64(b.N) * updateEvents
			b.ReportMetric(total/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(sum.CPU.Nanoseconds())/total, "cpu-ns/event")
			b.ReportMetric(float64(sum.Mallocs)/total, "allocs/event")
			b.ReportMetric(float64(sum.Bytes)/total, "B/event")
			b.ReportMetric(float64(sum.GCs)/float64(b.N), "gcs/op")
		})
	}
}

// BenchmarkInformerMemory measures the heap a synced informer keeps. One
// iteration: full collection, read HeapAlloc, Run until synced and every add
// delivered, full collection, read HeapAlloc again.
//
// Its LIST returns, on every call, items that own their managedFields (a
// fresh deep copy of them) and share everything else with the fixture's pods;
// the reflector then copies every item into a new corev1.Pod
// (meta.ExtractListWithAlloc). So what a cached object holds on its own, as
// far as the heap growth can see, is that Pod struct and its managedFields:
// the rest of a pod (ten times more) is not counted, and the figures below
// are the same as with fully decoded objects, except heapB/obj. Reported per
// pod:
//
//   - heapB/obj: the growth of the live heap;
//   - objB/obj: the part of it that is the objects: the bytes allocated to
//     build 100,000 such objects (a Pod struct and, unless the transform
//     drops them, the managedFields), which is what they keep;
//   - overB/obj: heapB/obj minus objB/obj, what the informer keeps beyond its
//     objects: store, indexes, queue and handler buffers.
//
// ours-generated has the indexes of a generated informer
// (buildOursGenerated). The -dropmf variants set a transform that clears
// managedFields: ours cache.DropManagedFields, client-go an equivalent
// TransformFunc. ns/op is mostly the two collections and means nothing.
func BenchmarkInformerMemory(b *testing.B) {
	for _, dropMF := range []bool{false, true} {
		for _, bl := range append(slices.Clone(builders), namedBuilder{"ours-generated", buildOursGenerated}) {
			if bl.name == "ours-untyped" {
				continue // the handler type does not change what is kept
			}
			name := bl.name
			if dropMF {
				name += "-dropmf"
			}
			b.Run(name, func(b *testing.B) {
				f := getFixture(b)
				own := objectBytes(f.pods, dropMF)
				var grown uint64
				for b.Loop() {
					c := eventcount.New(len(f.pods))
					inf := bl.build(newScript(func() *corev1.PodList { return ownManagedFields(f.pods) }), c, dropMF)
					var before, after runtime.MemStats
					runtime.GC()
					runtime.ReadMemStats(&before)
					r := start(inf)
					waitSynced(inf, c)
					runtime.GC()
					runtime.ReadMemStats(&after)
					grown += after.HeapAlloc - before.HeapAlloc
					r.Stop()
				}
				perObj := float64(grown) / (float64(b.N) * float64(len(f.pods)))
				b.ReportMetric(perObj, "heapB/obj")
				b.ReportMetric(own, "objB/obj")
				b.ReportMetric(perObj-own, "overB/obj")
			})
		}
	}
}

// ownManagedFields returns a LIST response of the pods, each item with a
// fresh deep copy of its managedFields.
func ownManagedFields(pods []pod) *corev1.PodList {
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: listRV}}
	list.Items = make([]corev1.Pod, len(pods))
	for i, p := range pods {
		list.Items[i] = *p
		list.Items[i].ManagedFields = copyManagedFields(p.ManagedFields)
	}
	return list
}

func copyManagedFields(in []metav1.ManagedFieldsEntry) []metav1.ManagedFieldsEntry {
	out := make([]metav1.ManagedFieldsEntry, len(in))
	for i := range in {
		in[i].DeepCopyInto(&out[i])
	}
	return out
}

// objectBytes returns the bytes, per pod, allocated to build what a cached
// object of BenchmarkInformerMemory owns: a new Pod struct and, unless
// dropMF, a deep copy of its managedFields. Nothing else allocates meanwhile
// and nothing built is temporary, so this is what the objects keep.
func objectBytes(pods []pod, dropMF bool) float64 {
	objs := make([]pod, len(pods))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i, p := range pods {
		c := new(corev1.Pod)
		*c = *p
		c.ManagedFields = nil
		if !dropMF {
			c.ManagedFields = copyManagedFields(p.ManagedFields)
		}
		objs[i] = c
	}
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(objs)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(pods))
}
