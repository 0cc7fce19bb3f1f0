//go:build unix

// The scale test reads the process's CPU time with getrusage: unix only.

package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/watch"
	clientgoinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	clientcache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	kubepods "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions/core/v1"
	kubelisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/indexcheck"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/procstat"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
)

// Settings of TestScaleInformerSyncTimeAndHeap, read from the environment.
const (
	// scaleObjectsEnv sets how many pods the test creates (default
	// scaleDefaultObjects).
	scaleObjectsEnv     = "SCALE_OBJECTS"
	scaleDefaultObjects = 10_000
	// scaleRoundsEnv sets how many times each side syncs (default
	// scaleDefaultRounds, or 1 under the race detector, whose figures
	// mean nothing); the report gives the medians.
	scaleRoundsEnv     = "SCALE_ROUNDS"
	scaleDefaultRounds = 3
	// scaleJSONEnv, when "1", makes the informers (and the stream read
	// alone) talk JSON instead of protobuf.
	scaleJSONEnv = "SCALE_JSON"
)

const (
	// scalePodsPerNamespace is how many pods each of the test's namespaces
	// holds (the last one may hold fewer).
	scalePodsPerNamespace = 1_000
	// scaleNodes is the number of node names the pods are spread over:
	// each node runs 10 pods of each namespace, 100 of 10,000.
	scaleNodes = 100
	// scaleWriters is the number of goroutines that create the pods.
	scaleWriters = 12
	// scaleRunLabel marks the pods of one run of the test; the informers
	// and the test's LISTs select on it, so that pods of other tests (in
	// namespaces that stay Terminating) are not counted.
	scaleRunLabel = "e2e-scale-run"
	// scaleSyncTimeout bounds one informer's sync.
	scaleSyncTimeout = 5 * time.Minute
)

// The generated pod informer (examples/generated/kube, with the built-in
// indexes of examples/apis/kubeindexes: byNode, byReplicaSet, byPhaseNode)
// and client-go's pod informer with the same three indexes, computed by the
// same index functions, each sync the same pods, created through the API,
// from the same kube-apiserver. Each side is measured in turn, several
// times, alternating which goes first: the wall time from Run until the
// informer and its one handler report synced, the CPU time the test process
// (the client) spent meanwhile, and the heap the synced informer keeps. The
// medians are logged next to those of a watch-list stream of the same pods
// read alone, the request the reflectors make (the log shows the requests
// of every sync). The test asserts what the caches hold, never the figures.
//
// client-go's informer also has the namespace index its informer factory
// adds to every informer (cache.NamespaceIndex): a client-go program needs
// it for namespace-scoped lookups, which the generated informer's store
// answers without one.
//
// SCALE_OBJECTS (default 10000) sets the number of pods, SCALE_ROUNDS
// (default 3; 1 under the race detector) the syncs of each side, and
// SCALE_JSON=1 the informers' wire format (JSON instead of protobuf).
// docs/benchmarks.md reports a run without -race.
func TestScaleInformerSyncTimeAndHeap(t *testing.T) {
	n := scaleEnvInt(t, scaleObjectsEnv, scaleDefaultObjects)
	rounds := scaleEnvInt(t, scaleRoundsEnv, scaleDefaultRounds)
	if os.Getenv(scaleRoundsEnv) == "" && scaleRace() {
		rounds = 1
	}
	c := newClients(t)
	ctx := t.Context()

	namespaces := make([]string, (n+scalePodsPerNamespace-1)/scalePodsPerNamespace)
	for i := range namespaces {
		namespaces[i] = cluster.NewNamespace(t)
	}
	run := namespaces[0] // unique to this run
	selector := labels.SelectorFromSet(labels.Set{scaleRunLabel: run}).String()

	writer := rest.CopyConfig(c.config)
	writer.QPS = -1 // the writers are limited by the server only
	created := time.Now()
	scaleCreatePods(ctx, t, kubernetes.NewForConfigOrDie(writer), scalePods(n, namespaces, run))
	createTime := time.Since(created)

	// The informers' client, which counts the requests each sync makes.
	// client-go's clientset asks for protobuf unless told otherwise.
	reader := rest.CopyConfig(c.config)
	wire := "protobuf"
	if os.Getenv(scaleJSONEnv) == "1" {
		wire = "JSON"
		reader.ContentType = "application/json"
	}
	var requests scaleRequests
	reader.Wrap(requests.wrap)
	client := kubernetes.NewForConfigOrDie(reader)

	want, wireBytes := scaleListAll(ctx, t, c.kube.CoreV1().Pods(""), selector, n)
	sides := []scaleSide{
		{name: "ours", build: func() scaleInformer { return scaleOurs(client, selector) }},
		{name: "client-go", build: func() scaleInformer { return scaleClientGo(client, selector) }},
	}
	samples := map[string][]scaleSample{}
	var streams []scaleSample
	for r := range rounds {
		order := []scaleSide{sides[0], sides[1]}
		if r%2 == 1 {
			order = []scaleSide{sides[1], sides[0]}
		}
		for _, side := range order {
			s := scaleMeasure(ctx, t, side, &requests, want)
			t.Logf("round %d  %-9s  sync %6.3f s  client CPU %6.3f s  heap %6.1f MB  %6d B/obj  (%s)",
				r+1, side.name, s.sync.Seconds(), s.cpu.Seconds(), float64(s.heap)/(1<<20), s.heap/int64(n), s.requests)
			samples[side.name] = append(samples[side.name], s)
		}
		s := scaleMeasureWatchList(ctx, t, client.CoreV1().Pods(""), selector, n)
		t.Logf("round %d  %-9s  read %6.3f s  client CPU %6.3f s  heap %6.1f MB  %6d B/obj  (the objects alone)",
			r+1, "stream", s.sync.Seconds(), s.cpu.Seconds(), float64(s.heap)/(1<<20), s.heap/int64(n))
		streams = append(streams, s)
	}

	ours, theirs, stream := scaleMedian(samples["ours"]), scaleMedian(samples["client-go"]), scaleMedian(streams)
	perObj := func(b int64) float64 { return float64(b) / float64(n) }
	t.Logf("%d pods in %d namespaces, %.0f B each in protobuf, created in %.1f s by %d writers; informers over %s; medians of %d rounds:",
		n, len(namespaces), float64(wireBytes)/float64(n), createTime.Seconds(), scaleWriters, wire, rounds)
	t.Logf("%-36s %10s %10s %6s", "", "ours", "client-go", "ratio")
	row := func(what, unit string, ours, theirs float64, format string) {
		t.Logf("%-36s "+format+" %s "+format+" %s %6.2f", what, ours, unit, theirs, unit, ours/theirs)
	}
	row("sync, Run to synced (wall)", "s", ours.sync.Seconds(), theirs.sync.Seconds(), "%8.3f")
	row("client CPU during the sync", "s", ours.cpu.Seconds(), theirs.cpu.Seconds(), "%8.3f")
	row("heap of the synced informer, /obj", "B", perObj(ours.heap), perObj(theirs.heap), "%8.0f")
	row("  beyond the objects, /obj", "B", perObj(ours.heap-stream.heap), perObj(theirs.heap-stream.heap), "%8.0f")
	t.Logf("the watch-list stream alone, decoded: %.3f s wall, %.3f s client CPU; its objects %.0f B/obj",
		stream.sync.Seconds(), stream.cpu.Seconds(), perObj(stream.heap))
}

// scaleEnvInt returns the positive integer in environment variable name, or
// def when it is unset.
func scaleEnvInt(t *testing.T, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil || v <= 0 {
		t.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return v
}

// scaleRace reports whether the test binary was built with the race
// detector.
func scaleRace() bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// scalePods returns n pods from testpods, made acceptable to the API server
// for a create: each generated namespace mapped to one of namespaces, the
// fields the server sets (uid, resourceVersion, creationTimestamp,
// managedFields, status) cleared, memory limits raised to the requests where
// the generator drew them lower, and label scaleRunLabel set to run.
func scalePods(n int, namespaces []string, run string) []*corev1.Pod {
	pods := testpods.Generate(testpods.Config{
		Namespaces:       len(namespaces),
		PodsPerNamespace: scalePodsPerNamespace,
		Nodes:            scaleNodes,
		Seed:             1,
	})[:n]
	to := map[string]string{}
	for i, ns := range namespaces {
		to[testpods.NamespaceName(i)] = ns
	}
	for _, p := range pods {
		p.Namespace = to[p.Namespace]
		p.UID, p.ResourceVersion, p.CreationTimestamp = "", "", metav1.Time{}
		p.ManagedFields = nil
		p.Status = corev1.PodStatus{}
		p.Labels[scaleRunLabel] = run
		for i := range p.Spec.Containers {
			res := &p.Spec.Containers[i].Resources
			if req, ok := res.Requests[corev1.ResourceMemory]; ok {
				if lim, ok := res.Limits[corev1.ResourceMemory]; ok && lim.Cmp(req) < 0 {
					res.Limits[corev1.ResourceMemory] = req
				}
			}
		}
	}
	return pods
}

// scaleCreatePods creates pods with scaleWriters concurrent writers and fails
// the test on the first error.
func scaleCreatePods(ctx context.Context, t *testing.T, client kubernetes.Interface, pods []*corev1.Pod) {
	t.Helper()
	scaleCreate(ctx, t, len(pods), func(ctx context.Context, i int) error {
		p := pods[i]
		if _, err := client.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("creating pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		return nil
	})
}

// scaleCreate calls create for 0 to n-1 on scaleWriters concurrent writers,
// and fails the test on the first error, after which no more are created.
func scaleCreate(ctx context.Context, t *testing.T, n int, create func(ctx context.Context, i int) error) {
	t.Helper()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range scaleWriters {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				if err := create(ctx, i); err != nil {
					cancel(err)
				}
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		t.Fatal(err)
	}
}

// scaleListed is what the test keeps of a listed pod.
type scaleListed struct{ resourceVersion, uid string }

// scaleExpected is what the caches must hold: the LIST's pods by key
// (namespace/name), and index lookups with the LIST's answers.
type scaleExpected struct {
	pods    map[string]scaleListed
	lookups []scaleLookup
}

// scaleListAll lists the test's pods, checks there are n, and returns what
// the caches must hold and the pods' total protobuf size.
func scaleListAll(ctx context.Context, t *testing.T, api interface {
	List(context.Context, metav1.ListOptions) (*corev1.PodList, error)
}, selector string, n int) (scaleExpected, int) {
	t.Helper()
	list, err := api.List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != n {
		t.Fatalf("LIST returned %d pods, want %d", len(list.Items), n)
	}
	want := scaleExpected{pods: make(map[string]scaleListed, n)}
	size := 0
	for i := range list.Items {
		p := &list.Items[i]
		want.pods[p.Namespace+"/"+p.Name] = scaleListed{p.ResourceVersion, string(p.UID)}
		size += p.Size()
	}
	want.lookups = scaleLookupTargets(list.Items)
	return want, size
}

// scaleWatchList reads the pods matching selector in every namespace as the
// reflectors' first watch-list request does: a watch that sends the
// current objects as ADDED events, then a bookmark that marks their end.
// It returns the objects, each decoded from its own event.
func scaleWatchList(ctx context.Context, api interface {
	Watch(context.Context, metav1.ListOptions) (watch.Interface, error)
}, selector string) ([]*corev1.Pod, error) {
	w, err := api.Watch(ctx, metav1.ListOptions{
		LabelSelector:        selector,
		AllowWatchBookmarks:  true,
		SendInitialEvents:    ptr.To(true),
		ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
	})
	if err != nil {
		return nil, err
	}
	defer w.Stop()
	var pods []*corev1.Pod
	for ev := range w.ResultChan() {
		switch ev.Type {
		case watch.Added:
			pods = append(pods, ev.Object.(*corev1.Pod))
		case watch.Bookmark:
			if ev.Object.(*corev1.Pod).Annotations[metav1.InitialEventsAnnotationKey] == "true" {
				return pods, nil
			}
		case watch.Error:
			return nil, apierrors.FromObject(ev.Object)
		default:
			return nil, fmt.Errorf("watch-list: unexpected %s event before the end of the initial events", ev.Type)
		}
	}
	return nil, errors.New("watch-list: the watch ended before the initial events did")
}

// scaleMeasureWatchList times one scaleWatchList and measures the heap its
// objects keep (the slice holding them not counted): what any informer's
// cache holds before its own structures.
func scaleMeasureWatchList(ctx context.Context, t *testing.T, api interface {
	Watch(context.Context, metav1.ListOptions) (watch.Interface, error)
}, selector string, n int) scaleSample {
	t.Helper()
	before := scaleHeap()
	cpu := scaleCPU()
	start := time.Now()
	pods, err := scaleWatchList(ctx, api, selector)
	elapsed, cpu := time.Since(start), scaleCPU()-cpu
	if err != nil {
		t.Fatal(err)
	}
	heap := scaleHeap() - before - int64(cap(pods))*8
	if len(pods) != n {
		t.Fatalf("watch-list sent %d pods, want %d", len(pods), n)
	}
	runtime.KeepAlive(pods)
	return scaleSample{sync: elapsed, cpu: cpu, heap: heap}
}

// scaleHeap collects garbage and returns the bytes of live heap objects.
func scaleHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// scaleCPU returns the CPU time (user and system) the process has used.
func scaleCPU() time.Duration {
	cpu, err := procstat.CPU()
	if err != nil {
		panic(err)
	}
	return cpu
}

// scaleSide is one of the compared informers.
type scaleSide struct {
	name  string
	build func() scaleInformer
}

// scaleInformer is one built, not yet started pod informer with one
// counting handler, seen through what the test measures and checks.
type scaleInformer struct {
	run    func(context.Context) // returns once the informer has stopped
	synced func() bool           // the informer's and its handler's HasSynced
	adds   *atomic.Int64         // adds the handler received
	// pods returns the cached pods by key (namespace/name).
	pods func() map[string]*corev1.Pod
	// lookup returns the keys of the pods of namespace ns (every namespace
	// when empty) that index name holds under values (joined as the
	// index's function joins them).
	lookup func(ns, name string, values ...string) []string
}

// scaleOurs builds the generated pod informer of examples/generated/kube,
// which carries every index of examples/apis/kubeindexes for pods.
func scaleOurs(client kubernetes.Interface, selector string) scaleInformer {
	inf := kubepods.NewTypedFilteredPodInformer(client, "", 0, nil, func(o *metav1.ListOptions) { o.LabelSelector = selector })
	lister := kubelisters.NewPodLister(inf.GetIndexer())
	adds := new(atomic.Int64)
	reg, err := inf.AddTypedEventHandler(kubepods.PodHandlerFuncs{
		AddFunc: func(*corev1.Pod) { adds.Add(1) },
	})
	if err != nil {
		panic(err)
	}
	return scaleInformer{
		run:    inf.RunWithContext,
		synced: func() bool { return inf.HasSynced() && reg.HasSynced() },
		adds:   adds,
		pods: func() map[string]*corev1.Pod {
			all, _ := lister.List(labels.Everything())
			return scaleByKey(all)
		},
		lookup: func(ns, name string, values ...string) []string {
			var got []*corev1.Pod
			switch {
			case name == kubelisters.PodByNodeIndex && ns == "":
				got, _ = lister.ByNode(values[0])
			case name == kubelisters.PodByNodeIndex:
				got, _ = lister.Pods(ns).ByNode(values[0])
			case name == kubelisters.PodByReplicaSetIndex && ns == "":
				got, _ = lister.ByReplicaSet(values[0])
			case name == kubelisters.PodByReplicaSetIndex:
				got, _ = lister.Pods(ns).ByReplicaSet(values[0])
			case name == kubelisters.PodByPhaseNodeIndex && ns == "":
				got, _ = lister.ByPhaseNode(corev1.PodPhase(values[0]), values[1])
			case name == kubelisters.PodByPhaseNodeIndex:
				got, _ = lister.Pods(ns).ByPhaseNode(corev1.PodPhase(values[0]), values[1])
			default:
				panic("no index " + name)
			}
			return indexcheck.Keys(got)
		},
	}
}

// scaleClientGo builds client-go's pod informer (informers/core/v1) with
// the namespace index its factory adds and the three indexes of the
// generated informer, computed by the same generated index functions.
func scaleClientGo(client kubernetes.Interface, selector string) scaleInformer {
	indexers := kubelisters.PodIndexers()
	indexers[clientcache.NamespaceIndex] = clientcache.MetaNamespaceIndexFunc
	inf := clientgoinformers.NewFilteredPodInformer(client, "", 0, indexers, func(o *metav1.ListOptions) { o.LabelSelector = selector })
	adds := new(atomic.Int64)
	reg, err := inf.AddEventHandler(clientcache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, _ bool) {
			if obj.(*corev1.Pod) != nil {
				adds.Add(1)
			}
		},
	})
	if err != nil {
		panic(err)
	}
	return scaleInformer{
		run:    inf.RunWithContext,
		synced: func() bool { return inf.HasSynced() && reg.HasSynced() },
		adds:   adds,
		pods: func() map[string]*corev1.Pod {
			all := inf.GetStore().List()
			pods := make([]*corev1.Pod, len(all))
			for i, o := range all {
				pods[i] = o.(*corev1.Pod)
			}
			return scaleByKey(pods)
		},
		lookup: func(ns, name string, values ...string) []string {
			value := values[0]
			if name == kubelisters.PodByPhaseNodeIndex {
				value = kubelisters.PodByPhaseNode(&corev1.Pod{
					Spec:   corev1.PodSpec{NodeName: values[1]},
					Status: corev1.PodStatus{Phase: corev1.PodPhase(values[0])},
				}, nil)[0]
			}
			objs, err := inf.GetIndexer().ByIndex(name, value)
			if err != nil {
				panic(err)
			}
			var got []*corev1.Pod
			for _, o := range objs {
				if p := o.(*corev1.Pod); ns == "" || p.Namespace == ns {
					got = append(got, p)
				}
			}
			return indexcheck.Keys(got)
		},
	}
}

// scaleByKey returns pods by key (namespace/name).
func scaleByKey(pods []*corev1.Pod) map[string]*corev1.Pod {
	m := make(map[string]*corev1.Pod, len(pods))
	for _, p := range pods {
		m[p.Namespace+"/"+p.Name] = p
	}
	return m
}

// scaleLookup is one index lookup the test compares: the pods of namespace
// ns (every namespace when empty) under values in index name, and the keys
// a filter over the LIST gives.
type scaleLookup struct {
	ns, name string
	values   []string
	want     []string
}

func (l scaleLookup) String() string {
	where := "all namespaces"
	if l.ns != "" {
		where = l.ns
	}
	return fmt.Sprintf("%s%q in %s", l.name, l.values, where)
}

// scaleLookupTargets returns lookups by node, by replica set and by phase
// and node, cluster-wide and in one namespace, for the values of the first
// of the listed pods, with the answers filtered from the list.
func scaleLookupTargets(listed []corev1.Pod) []scaleLookup {
	first := &listed[0]
	rs := metav1.GetControllerOfNoCopy(first).Name
	node, phase := first.Spec.NodeName, string(first.Status.Phase)
	var lookups []scaleLookup
	for _, ns := range []string{"", first.Namespace} {
		lookups = append(lookups,
			scaleLookup{ns: ns, name: kubelisters.PodByNodeIndex, values: []string{node}},
			scaleLookup{ns: ns, name: kubelisters.PodByReplicaSetIndex, values: []string{rs}},
			scaleLookup{ns: ns, name: kubelisters.PodByPhaseNodeIndex, values: []string{phase, node}},
		)
	}
	for i := range lookups {
		l := &lookups[i]
		var match []*corev1.Pod
		for j := range listed {
			p := &listed[j]
			if l.ns != "" && p.Namespace != l.ns {
				continue
			}
			ref := metav1.GetControllerOfNoCopy(p)
			switch l.name {
			case kubelisters.PodByNodeIndex:
				if p.Spec.NodeName == node {
					match = append(match, p)
				}
			case kubelisters.PodByReplicaSetIndex:
				if ref != nil && ref.Kind == "ReplicaSet" && strings.HasPrefix(ref.APIVersion, "apps/") && ref.Name == rs {
					match = append(match, p)
				}
			case kubelisters.PodByPhaseNodeIndex:
				if string(p.Status.Phase) == phase && p.Spec.NodeName == node {
					match = append(match, p)
				}
			}
		}
		l.want = indexcheck.Keys(match)
	}
	return lookups
}

// scaleSample is one measurement. For an informer: the wall time from Run
// until synced, the process's CPU time meanwhile, the heap the synced
// informer keeps, and the requests it made. For a watch-list read: its
// wall and CPU time, and the heap of its objects.
type scaleSample struct {
	sync, cpu time.Duration
	heap      int64
	requests  scaleRequestCount
}

// scaleMeasure builds side's informer, runs it until synced, measures it,
// checks its cache and index lookups against want, and stops it. requests
// counts the requests of the informers' client.
func scaleMeasure(ctx context.Context, t *testing.T, side scaleSide, requests *scaleRequests, want scaleExpected) scaleSample {
	t.Helper()
	before := scaleHeap()
	inf := side.build()
	ctx, cancel := context.WithCancel(ctx)
	stopped := make(chan struct{})
	t.Cleanup(func() { cancel(); <-stopped }) // if the test fails before the end
	sent := requests.snapshot()
	cpu := scaleCPU()
	start := time.Now()
	go func() {
		defer close(stopped)
		inf.run(ctx)
	}()
	for !inf.synced() {
		if time.Since(start) > scaleSyncTimeout {
			t.Fatalf("%s: not synced after %v (%d adds handled)", side.name, scaleSyncTimeout, inf.adds.Load())
		}
		time.Sleep(time.Millisecond)
	}
	s := scaleSample{sync: time.Since(start), cpu: scaleCPU() - cpu}
	s.requests = requests.snapshot().minus(sent)
	s.heap = scaleHeap() - before

	if got, n := inf.adds.Load(), len(want.pods); got != int64(n) {
		t.Errorf("%s: handler received %d adds, want %d", side.name, got, n)
	}
	cached := inf.pods()
	if len(cached) != len(want.pods) {
		t.Errorf("%s: cache holds %d pods, the LIST %d", side.name, len(cached), len(want.pods))
	}
	for key, l := range want.pods {
		if c, ok := cached[key]; !ok {
			t.Errorf("%s: %s missing from the cache", side.name, key)
		} else if c.ResourceVersion != l.resourceVersion || string(c.UID) != l.uid {
			t.Errorf("%s: %s has resourceVersion %s and uid %s in the cache, %s and %s in the LIST",
				side.name, key, c.ResourceVersion, c.UID, l.resourceVersion, l.uid)
		}
	}
	for _, l := range want.lookups {
		if got := inf.lookup(l.ns, l.name, l.values...); !slices.Equal(got, l.want) {
			t.Errorf("%s: %v = %d pods %v, the LIST has %d %v", side.name, l, len(got), got, len(l.want), l.want)
		}
	}
	cancel()
	<-stopped
	runtime.KeepAlive(inf)
	return s
}

// scaleMedian returns the median wall time, CPU time and heap of samples
// (the upper median for an even count), each taken independently.
func scaleMedian(samples []scaleSample) scaleSample {
	syncs := make([]time.Duration, len(samples))
	cpus := make([]time.Duration, len(samples))
	heaps := make([]int64, len(samples))
	for i, s := range samples {
		syncs[i], cpus[i], heaps[i] = s.sync, s.cpu, s.heap
	}
	slices.Sort(syncs)
	slices.Sort(cpus)
	slices.Sort(heaps)
	m := len(samples) / 2
	return scaleSample{sync: syncs[m], cpu: cpus[m], heap: heaps[m]}
}

// scaleRequests counts the pod LIST and WATCH requests made through a
// client, watches asking for initial events (watch-list streaming) apart.
type scaleRequests struct {
	lists, watches, watchLists atomic.Int64
}

// scaleRequestCount is a snapshot of scaleRequests.
type scaleRequestCount struct{ lists, watches, watchLists int64 }

func (c scaleRequestCount) minus(o scaleRequestCount) scaleRequestCount {
	return scaleRequestCount{c.lists - o.lists, c.watches - o.watches, c.watchLists - o.watchLists}
}

func (c scaleRequestCount) String() string {
	return fmt.Sprintf("%d LIST pages, %d WATCH, %d watch-list", c.lists, c.watches, c.watchLists)
}

func (r *scaleRequests) snapshot() scaleRequestCount {
	return scaleRequestCount{r.lists.Load(), r.watches.Load(), r.watchLists.Load()}
}

// wrap is a rest.Config WrapTransport that counts the requests.
func (r *scaleRequests) wrap(rt http.RoundTripper) http.RoundTripper {
	return scaleRoundTripper(func(req *http.Request) (*http.Response, error) {
		if req.Method == http.MethodGet {
			q := req.URL.Query()
			switch {
			case q.Get("watch") == "true" && q.Get("sendInitialEvents") == "true":
				r.watchLists.Add(1)
			case q.Get("watch") == "true":
				r.watches.Add(1)
			default:
				r.lists.Add(1)
			}
		}
		return rt.RoundTrip(req)
	})
}

// scaleRoundTripper adapts a function to http.RoundTripper.
type scaleRoundTripper func(*http.Request) (*http.Response, error)

func (f scaleRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
