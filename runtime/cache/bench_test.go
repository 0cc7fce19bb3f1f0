package cache_test

// Side-by-side benchmarks of this package's Indexer and client-go's
// Indexer (tools/cache.NewIndexer, the store informers use) on the same
// 100,000 pods from internal/testing/testpods. Every benchmark has a client-go twin
// in the same run: BenchmarkX/.../ours and BenchmarkX/.../clientgo.
//
// Both stores carry the same three indexes: "namespace", "node" (the pod's
// spec.nodeName) and "app" (the value of label app). Ours declares the last
// one with AddLabelIndex, so that Select can narrow selectors with it;
// client-go's is an IndexFunc returning the label's value.
//
// See docs/benchmarks.md for the command, the results and their reading.

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	corev1listers "k8s.io/client-go/listers/core/v1"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

const (
	nsIndex   = clientcache.NamespaceIndex // "namespace", the name client-go's listers look for
	nodeIndex = "node"
	appIndex  = "app"
)

type pod = *corev1.Pod

var allIndexes = []string{nsIndex, nodeIndex, appIndex}

// newOurs returns our store with all three indexes. The namespace index is
// redundant for ours (the store groups objects by namespace) but is kept so
// that both stores do the same work.
func newOurs() *cache.Indexer[pod] { return newOursWith(allIndexes...) }

// newOursWith returns our store with the named indexes only.
func newOursWith(names ...string) *cache.Indexer[pod] {
	s, err := cache.NewIndexer(oursIndexers(names...))
	if err != nil {
		panic(err)
	}
	if slices.Contains(names, appIndex) {
		if err := s.AddLabelIndex(appIndex, "app"); err != nil {
			panic(err)
		}
	}
	return s
}

// oursIndexers returns our index functions for the named indexes; the app
// index is a label index (AddLabelIndex), not a function, and is left out.
func oursIndexers(names ...string) cache.Indexers[pod] {
	indexers := cache.Indexers[pod]{}
	for _, name := range names {
		switch name {
		case nsIndex:
			indexers[nsIndex] = func(p pod) []string { return []string{p.Namespace} }
		case nodeIndex:
			indexers[nodeIndex] = func(p pod) []string { return []string{p.Spec.NodeName} }
		}
	}
	return indexers
}

// newOursAppend is newOurs with the index functions in append form
// (cache.AppendIndexFunc), which the store calls with a slice it reuses.
func newOursAppend() *cache.Indexer[pod] {
	s := newOursWith()
	if err := addAppendIndexes(s.AsIndexer()); err != nil {
		panic(err)
	}
	return s
}

// addAppendIndexes adds the three indexes to indexer, a store or informer
// of ours without them: the namespace and node indexes in append form, the
// app label index.
func addAppendIndexes(indexer clientcache.Indexer) error {
	return cache.AddAppendIndexes(indexer, oursAppendIndexers(), map[string]string{appIndex: "app"})
}

// addGeneratedIndexes adds to indexer, a store or informer of ours without
// indexes, those of a generated informer (newOursGenerated).
func addGeneratedIndexes(indexer clientcache.Indexer) error {
	node := cache.AppendIndexers[pod]{nodeIndex: oursAppendIndexers()[nodeIndex]}
	return cache.AddAppendIndexes(indexer, node, map[string]string{appIndex: "app"})
}

// newOursGenerated returns our store with the indexes a generated informer
// has: the namespace index built in (the store answers cache.NamespaceIndex
// from its namespaces, without an index of its own), the node index in
// append form (what a +index marker generates) and the app label index.
func newOursGenerated() *cache.Indexer[pod] {
	s := newOursWith()
	if err := addGeneratedIndexes(s.AsIndexer()); err != nil {
		panic(err)
	}
	return s
}

// checkNamespaceIndex fails b unless the client-go view of a store filled
// with pods answers the namespace index, for the first pod's namespace, with
// as many objects as pods has in it: the store's own index, or the built-in
// one of newOursGenerated.
func checkNamespaceIndex(b *testing.B, indexer clientcache.Indexer, pods []pod) {
	b.Helper()
	namespace, n := pods[0].Namespace, 0
	for _, p := range pods {
		if p.Namespace == namespace {
			n++
		}
	}
	objs, err := indexer.ByIndex(nsIndex, namespace)
	if err != nil || len(objs) != n {
		b.Fatalf("ByIndex(%q, %q): %d objects, %v; want %d", nsIndex, namespace, len(objs), err, n)
	}
}

// oursAppendIndexers returns the namespace and node index functions in
// append form.
func oursAppendIndexers() cache.AppendIndexers[pod] {
	return cache.AppendIndexers[pod]{
		nsIndex:   func(p pod, dst []string) []string { return append(dst, p.Namespace) },
		nodeIndex: func(p pod, dst []string) []string { return append(dst, p.Spec.NodeName) },
	}
}

// newClientGo returns client-go's store with all three indexes: the store a
// shared informer builds, with the indexes a user would declare.
func newClientGo() clientcache.Indexer { return newClientGoWith(allIndexes...) }

// newClientGoWith returns client-go's store with the named indexes only.
func newClientGoWith(names ...string) clientcache.Indexer {
	return clientcache.NewIndexer(clientcache.DeletionHandlingMetaNamespaceKeyFunc, clientGoIndexers(names...))
}

// clientGoIndexers returns client-go's index functions for the named indexes.
func clientGoIndexers(names ...string) clientcache.Indexers {
	indexers := clientcache.Indexers{}
	for _, name := range names {
		switch name {
		case nsIndex:
			indexers[nsIndex] = clientcache.MetaNamespaceIndexFunc
		case nodeIndex:
			indexers[nodeIndex] = func(obj any) ([]string, error) {
				return []string{obj.(pod).Spec.NodeName}, nil
			}
		case appIndex:
			indexers[appIndex] = func(obj any) ([]string, error) {
				if v, ok := obj.(pod).Labels["app"]; ok {
					return []string{v}, nil
				}
				return nil, nil
			}
		}
	}
	return indexers
}

// fixture is the data every benchmark shares, built once per process
// (getFixture). BenchmarkLookupScale builds fixtures of other sizes
// (newFixture), which have no podsAny and no versions.
type fixture struct {
	pods    []pod
	podsAny []any
	// versions are two sets of fresh copies of pods, for updates and
	// replaces that always bring a pointer the store does not hold yet:
	// versions[0] moves every tenth pod to another node, versions[1] puts
	// it back.
	versions    [2][]pod
	versionsAny [2][]any

	// Read-only stores holding pods, for the lookup benchmarks.
	ours     *cache.Indexer[pod]
	clientgo clientcache.Indexer

	nodes      []string // every node runs 100 pods, one per namespace
	namespaces []string // every namespace holds 1,000 pods
	// sharedApps[i] is an app of 100 pods, 10 in each of 10 namespaces,
	// among them sharedNS[i].
	sharedApps []string
	sharedNS   []string
}

var (
	fixtureOnce sync.Once
	fix         *fixture
	sink        int
)

const moveEvery = 10 // one update in moveEvery changes spec.nodeName

func getFixture(b *testing.B) *fixture {
	b.Helper()
	fixtureOnce.Do(func() {
		fix = buildFixture()
		// Finish the collections the build started, so that they do not run
		// during the first benchmark.
		runtime.GC()
	})
	if fix == nil {
		b.Fatal("fixture build failed")
	}
	return fix
}

func buildFixture() *fixture {
	f := generateFixture(testpods.Default)
	f.podsAny = toAny(f.pods)
	nodeNum := map[string]int{}
	for i, node := range f.nodes {
		nodeNum[node] = i
	}
	rv := 60_000_000
	for v := range f.versions {
		f.versions[v] = make([]pod, len(f.pods))
		for i, p := range f.pods {
			node := p.Spec.NodeName // versions[1]: back to the original node
			if v == 0 && i%moveEvery == 0 {
				node = f.nodes[(nodeNum[node]+1)%len(f.nodes)]
			}
			rv++
			f.versions[v][i] = testpods.Updated(p, rv, node)
		}
		f.versionsAny[v] = toAny(f.versions[v])
	}
	f.fillStores()
	f.check()
	return f
}

// newFixture returns a fixture of the pods of cfg, its stores filled and
// checked, without podsAny and versions.
func newFixture(cfg testpods.Config) *fixture {
	f := generateFixture(cfg)
	f.fillStores()
	f.check()
	return f
}

// generateFixture returns a fixture holding the pods of cfg and the names of
// its nodes, namespaces and shared apps, its stores not built yet.
func generateFixture(cfg testpods.Config) *fixture {
	f := &fixture{pods: testpods.Generate(cfg)}
	for i := range cfg.Nodes {
		f.nodes = append(f.nodes, testpods.NodeName(i))
	}
	for i := range cfg.Namespaces {
		f.namespaces = append(f.namespaces, testpods.NamespaceName(i))
		for k := range testpods.SharedPerNamespace {
			f.sharedApps = append(f.sharedApps, testpods.SharedApp(i, k))
			f.sharedNS = append(f.sharedNS, testpods.NamespaceName(i))
		}
	}
	return f
}

// fillStores builds the fixture's read-only stores, both filled with its
// pods in their order.
func (f *fixture) fillStores() {
	f.ours = newOurs()
	f.clientgo = newClientGo()
	for _, p := range f.pods {
		f.ours.Add(p)
		if err := f.clientgo.Add(p); err != nil {
			panic(err)
		}
	}
}

func toAny(pods []pod) []any {
	out := make([]any, len(pods))
	for i, p := range pods {
		out[i] = p
	}
	return out
}

// check verifies the layout the benchmarks rely on, and that both stores
// answer the benchmarked queries alike, at every size BenchmarkLookupScale
// lays out (testpods.Scaled) as at the shared fixture's.
func (f *fixture) check() {
	same := func(what string, ours []pod, theirs []any, want int) {
		a := names(ours)
		var b []string
		for _, o := range theirs {
			p := o.(pod)
			b = append(b, p.Namespace+"/"+p.Name)
		}
		slices.Sort(b)
		if !slices.Equal(a, b) || len(a) != want {
			panic(fmt.Sprintf("%s: ours %d objects, client-go %d, want %d", what, len(a), len(b), want))
		}
	}
	node, ns, app := f.nodes[7], f.namespaces[42%len(f.namespaces)], testpods.GlobalApps[1]
	// The node's pods, and those of them in ns, counted from the pods. When
	// every namespace spreads its pods over all the nodes alike (its pods a
	// multiple of the nodes: up to 100,000 pods), each node runs exactly
	// len(pods)/len(nodes) pods, as many from every namespace (1 at 100,000
	// pods, 10 at 10,000). With more nodes than a namespace has pods (5,000
	// at 500,000 pods), a namespace's pods run on some of the nodes only, one
	// on each, and a node's count is len(pods)/len(nodes) on average only.
	onNode, onNodeInNS := 0, 0
	for _, p := range f.pods {
		if p.Spec.NodeName == node {
			onNode++
			if p.Namespace == ns {
				onNodeInNS++
			}
		}
	}
	if perNS := len(f.pods) / len(f.namespaces); perNS%len(f.nodes) == 0 &&
		(onNode != len(f.pods)/len(f.nodes) || onNodeInNS != perNS/len(f.nodes)) {
		panic(fmt.Sprintf("node %s runs %d pods, %d of them in %s; want %d and %d",
			node, onNode, onNodeInNS, ns, len(f.pods)/len(f.nodes), perNS/len(f.nodes)))
	}
	ours, _ := f.ours.ByIndex(nodeIndex, node)
	theirs, _ := f.clientgo.ByIndex(nodeIndex, node)
	same("ByIndex(node)", ours, theirs, onNode)
	ours, _ = f.ours.ByIndexInNamespace(nodeIndex, ns, node)
	same("ByIndexInNamespace(node)", ours, filterNS(theirs, ns), onNodeInNS)
	ours, _ = f.ours.ByIndexInNamespace(appIndex, ns, app)
	theirs, _ = f.clientgo.ByIndex(appIndex, app)
	same("ByIndexInNamespace(app)", ours, filterNS(theirs, ns), testpods.GlobalReplicas)
	if want := testpods.GlobalReplicas * len(f.namespaces); len(theirs) != want {
		panic(fmt.Sprintf("global app %s has %d pods, want %d", app, len(theirs), want))
	}
	sel := labels.SelectorFromSet(labels.Set{"app": f.sharedApps[5]})
	ours = f.ours.Select("", sel)
	theirs = nil
	_ = clientcache.ListAll(f.clientgo, sel, func(o any) { theirs = append(theirs, o) })
	same("Select", ours, theirs, 100)
	ours = f.ours.Select(f.sharedNS[5], sel)
	theirs = nil
	_ = clientcache.ListAllByNamespace(f.clientgo, f.sharedNS[5], sel, func(o any) { theirs = append(theirs, o) })
	same("Select in namespace", ours, theirs, 10)
}

func names(pods []pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Namespace+"/"+p.Name)
	}
	slices.Sort(out)
	return out
}

func filterNS(objs []any, ns string) []any {
	var out []any
	for _, o := range objs {
		if o.(pod).Namespace == ns {
			out = append(out, o)
		}
	}
	return out
}

// perObject reports the time, allocations and allocated bytes per object of a
// benchmark whose every iteration handles n objects. before is read before
// the loop.
func perObject(b *testing.B, n int, before *runtime.MemStats) {
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	objs := float64(b.N) * float64(n)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/objs, "ns/obj")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/objs, "allocs/obj")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/objs, "allocB/obj")
}

// BenchmarkStore measures writes: filling an empty store, updating a full
// one, replacing the full content, and the heap the store keeps per object.
func BenchmarkStore(b *testing.B) {
	b.Run("Add", func(b *testing.B) {
		b.Run("ours", func(b *testing.B) {
			f := getFixture(b)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ResetTimer()
			for b.Loop() {
				s := newOurs()
				for _, p := range f.pods {
					s.Add(p)
				}
			}
			perObject(b, len(f.pods), &ms)
		})
		b.Run("clientgo", func(b *testing.B) {
			f := getFixture(b)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ResetTimer()
			for b.Loop() {
				s := newClientGo()
				for _, p := range f.pods {
					_ = s.Add(p)
				}
			}
			perObject(b, len(f.pods), &ms)
		})
	})

	// Update: one Update call per iteration, each with a fresh pointer; one
	// in ten changes spec.nodeName (and so the node index). ours-append
	// has the index functions in append form; ours-generated the indexes of
	// a generated informer (newOursGenerated).
	b.Run("Update", func(b *testing.B) {
		for _, v := range []struct {
			name string
			new  func() *cache.Indexer[pod]
		}{{"ours", newOurs}, {"ours-append", newOursAppend}, {"ours-generated", newOursGenerated}} {
			b.Run(v.name, func(b *testing.B) {
				f := getFixture(b)
				s := v.new()
				for _, p := range f.pods {
					s.Add(p)
				}
				checkNamespaceIndex(b, s.AsIndexer(), f.pods)
				n := len(f.pods)
				i := 0
				for b.Loop() {
					s.Update(f.versions[(i/n)%2][i%n])
					i++
				}
			})
		}
		b.Run("clientgo", func(b *testing.B) {
			f := getFixture(b)
			s := newClientGo()
			for _, p := range f.pods {
				_ = s.Add(p)
			}
			n := len(f.pods)
			i := 0
			for b.Loop() {
				_ = s.Update(f.versions[(i/n)%2][i%n])
				i++
			}
		})
	})

	// Replace: a relist of all 100,000 pods into a full store.
	b.Run("Replace", func(b *testing.B) {
		b.Run("ours", func(b *testing.B) {
			f := getFixture(b)
			s := newOurs()
			s.Replace(f.pods)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			i := 0
			b.ResetTimer()
			for b.Loop() {
				s.Replace(f.versions[i%2])
				i++
			}
			perObject(b, len(f.pods), &ms)
		})
		b.Run("clientgo", func(b *testing.B) {
			f := getFixture(b)
			s := newClientGo()
			_ = s.Replace(f.podsAny, "1")
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			i := 0
			b.ResetTimer()
			for b.Loop() {
				_ = s.Replace(f.versionsAny[i%2], "2")
				i++
			}
			perObject(b, len(f.pods), &ms)
		})
	})

	// Memory: the heap a filled store keeps beyond the objects themselves.
	b.Run("Memory", func(b *testing.B) {
		b.Run("ours", func(b *testing.B) { measureMemory(b, fillOurs(allIndexes...)) })
		b.Run("ours-generated", func(b *testing.B) { measureMemory(b, fill(newOursGenerated)) })
		b.Run("clientgo", func(b *testing.B) { measureMemory(b, fillClientGo(allIndexes...)) })
	})
}

// BenchmarkMemoryByIndex breaks the heap a store keeps down by index: the
// store without indexes, then with each index alone.
func BenchmarkMemoryByIndex(b *testing.B) {
	for _, indexes := range [][]string{nil, {nsIndex}, {nodeIndex}, {appIndex}} {
		name := "none"
		if len(indexes) > 0 {
			name = indexes[0]
		}
		b.Run(name, func(b *testing.B) {
			b.Run("ours", func(b *testing.B) { measureMemory(b, fillOurs(indexes...)) })
			b.Run("clientgo", func(b *testing.B) { measureMemory(b, fillClientGo(indexes...)) })
		})
	}
}

func fillOurs(indexes ...string) func([]pod) any {
	return fill(func() *cache.Indexer[pod] { return newOursWith(indexes...) })
}

// fill returns a function that fills a store newStore returns with pods.
func fill(newStore func() *cache.Indexer[pod]) func([]pod) any {
	return func(pods []pod) any {
		s := newStore()
		for _, p := range pods {
			s.Add(p)
		}
		return s
	}
}

func fillClientGo(indexes ...string) func([]pod) any {
	return func(pods []pod) any {
		s := newClientGoWith(indexes...)
		for _, p := range pods {
			_ = s.Add(p)
		}
		return s
	}
}

// measureMemory fills a store with the pods, which exist already, and
// reports the growth of the live heap (after a full collection before and
// after the fill) per pod, B/obj, and the allocations per pod made by the
// fill, allocs/obj.
func measureMemory(b *testing.B, fill func([]pod) any) {
	f := getFixture(b)
	var retained, mallocs uint64
	for b.Loop() {
		r, m := fillHeap(f.pods, fill)
		retained += r
		mallocs += m
	}
	objs := float64(b.N) * float64(len(f.pods))
	b.ReportMetric(float64(retained)/objs, "B/obj")
	b.ReportMetric(float64(mallocs)/objs, "allocs/obj")
}

// fillHeap fills a store with pods, which exist already, and returns the
// growth of the live heap (after a full collection before and after the
// fill) and the number of allocations the fill made.
func fillHeap(pods []pod, fill func([]pod) any) (retained, mallocs uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := fill(pods)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(s)
	return after.HeapAlloc - before.HeapAlloc, after.Mallocs - before.Mallocs
}

// lookups runs lookup once per iteration, the i-th time with i, and sinks
// the matches it counts, so that the compiler keeps the work.
func lookups(b *testing.B, lookup func(i int) int) {
	n := 0
	for i := 0; b.Loop(); i++ {
		n += lookup(i)
	}
	sink += n
}

// present counts the objects of list, reading each match once.
func present(list []pod) int {
	n := 0
	for _, p := range list {
		if p != nil {
			n++
		}
	}
	return n
}

// presentAny is present for client-go's untyped results, with the type
// assertion its users must make.
func presentAny(list []any) int {
	n := 0
	for _, o := range list {
		if o.(pod) != nil {
			n++
		}
	}
	return n
}

// byNodeVariants are the lookups of the 100 pods of a node, every node in
// turn: ours as a slice (ByIndex) and visited (IndexedObjects), client-go's
// ByIndex. Each returns the number of matches.
var byNodeVariants = []lookupVariant{
	{"ours", func(f *fixture) func(int) int {
		return func(i int) int {
			list, _ := f.ours.ByIndex(nodeIndex, f.nodes[i%len(f.nodes)])
			return present(list)
		}
	}},
	{"ours-visit", func(f *fixture) func(int) int {
		return func(i int) int {
			n := 0
			for p := range f.ours.IndexedObjects(nodeIndex, "", f.nodes[i%len(f.nodes)]) {
				if p != nil {
					n++
				}
			}
			return n
		}
	}},
	{"clientgo", func(f *fixture) func(int) int {
		return func(i int) int {
			list, _ := f.clientgo.ByIndex(nodeIndex, f.nodes[i%len(f.nodes)])
			return presentAny(list)
		}
	}},
}

// BenchmarkByIndex looks up the 100 pods of a node (all 1,000 nodes in turn).
// Every form visits each match once without reading the object, so that the
// numbers are the store's cost alone (byNodeVariants).
func BenchmarkByIndex(b *testing.B) {
	b.Run("node", func(b *testing.B) { runLookups(b, byNodeVariants, lookups) })
}

// An inNamespaceQuery is a namespace and an indexed value.
type inNamespaceQuery struct{ ns, value string }

// An inNamespaceCase is a lookup of the pods of one namespace indexed under
// a value that has matches in every namespace.
type inNamespaceCase struct {
	name  string
	index string
	// has reports whether p is indexed under value.
	has     func(p pod, value string) bool
	queries func(f *fixture) []inNamespaceQuery
}

// inNamespaceCases are the lookups of BenchmarkByIndexInNamespace: a node
// in one namespace, a global app in one namespace.
var inNamespaceCases = []inNamespaceCase{
	{"node", nodeIndex, func(p pod, v string) bool { return p.Spec.NodeName == v }, func(f *fixture) []inNamespaceQuery {
		var qs []inNamespaceQuery
		for i, node := range f.nodes {
			qs = append(qs, inNamespaceQuery{f.namespaces[i%len(f.namespaces)], node})
		}
		return qs
	}},
	{"app", appIndex, func(p pod, v string) bool { return p.Labels["app"] == v }, func(f *fixture) []inNamespaceQuery {
		var qs []inNamespaceQuery
		for i, ns := range f.namespaces {
			qs = append(qs, inNamespaceQuery{ns, testpods.GlobalApps[i%len(testpods.GlobalApps)]})
		}
		return qs
	}},
}

// variants returns the forms of the lookup, each over every query in turn:
// ours as a slice and visited, client-go's two patterns. Every form returns
// (or visits) the typed matches.
func (c inNamespaceCase) variants() []lookupVariant {
	// form makes a variant of lookup over every query in turn.
	form := func(name string, lookup func(f *fixture, q inNamespaceQuery) int) lookupVariant {
		return lookupVariant{name, func(f *fixture) func(int) int {
			qs := c.queries(f)
			return func(i int) int { return lookup(f, qs[i%len(qs)]) }
		}}
	}
	return []lookupVariant{
		form("ours", func(f *fixture, q inNamespaceQuery) int {
			list, _ := f.ours.ByIndexInNamespace(c.index, q.ns, q.value)
			return present(list)
		}),
		form("ours-visit", func(f *fixture, q inNamespaceQuery) int {
			n := 0
			for p := range f.ours.IndexedObjects(c.index, q.ns, q.value) {
				if p != nil {
					n++
				}
			}
			return n
		}),
		// client-go's forms filter inline, as its users do, into the
		// typed slice they need.
		form("clientgo-byvalue", func(f *fixture, q inNamespaceQuery) int {
			list, _ := f.clientgo.ByIndex(c.index, q.value)
			var out []pod
			for _, o := range list {
				if p := o.(pod); p.Namespace == q.ns {
					out = append(out, p)
				}
			}
			return present(out)
		}),
		form("clientgo-bynamespace", func(f *fixture, q inNamespaceQuery) int {
			list, _ := f.clientgo.ByIndex(nsIndex, q.ns)
			var out []pod
			for _, o := range list {
				if p := o.(pod); c.has(p, q.value) {
					out = append(out, p)
				}
			}
			return present(out)
		}),
	}
}

// BenchmarkByIndexInNamespace looks up the pods of one namespace indexed under
// a value that has matches in every namespace, the namespace holding 1% of
// them: a node (100 pods, 1 in the namespace) and a global app (1,000 pods,
// 10 in the namespace): inNamespaceCases. Every form returns (or visits) the
// typed matches.
//
// client-go has no namespace-scoped index lookup; its two patterns are
// measured: clientgo-byvalue (ByIndex on the value, then keep the
// namespace's pods) and clientgo-bynamespace (ByIndex on the namespace index,
// then keep the pods with the value).
func BenchmarkByIndexInNamespace(b *testing.B) {
	for _, c := range inNamespaceCases {
		b.Run(c.name, func(b *testing.B) { runLookups(b, c.variants(), lookups) })
	}
}

// oursLister returns the lister generated code builds over the fixture's
// store: over the informer's GetIndexer(), a client-go view of the store.
func oursLister(f *fixture) cache.Lister[pod] {
	return cache.NewLister[pod](f.ours.AsIndexer(), corev1.Resource("pods"))
}

// BenchmarkList lists with the label selector app=X, X one of the 100 shared
// apps (100 pods each, 0.1% of the store), through the listers: ours
// (Lister, and the store's Select under it) and client-go's generated pod
// lister (cache.ListAll; cache.ListAllByNamespace for the namespaced form).
// The namespaced form lists X in one of its namespaces: 10 of the
// namespace's 1,000 pods.
func BenchmarkList(b *testing.B) {
	// run benchmarks one form of the list over every shared app in turn,
	// with app=X as selector and one namespace X is in; setup builds the
	// form (and its lister) once, outside the timed loop.
	type listFunc func(sel labels.Selector, ns string) int
	run := func(b *testing.B, name string, setup func(f *fixture) listFunc) {
		b.Run(name, func(b *testing.B) {
			f := getFixture(b)
			sels := make([]labels.Selector, len(f.sharedApps))
			for i, app := range f.sharedApps {
				sels[i] = labels.SelectorFromSet(labels.Set{"app": app})
			}
			list := setup(f)
			lookups(b, func(i int) int {
				k := i % len(sels)
				return list(sels[k], f.sharedNS[k])
			})
		})
	}
	b.Run("selector", func(b *testing.B) {
		run(b, "ours-select", func(f *fixture) listFunc {
			return func(sel labels.Selector, _ string) int { return len(f.ours.Select("", sel)) }
		})
		run(b, "ours", func(f *fixture) listFunc {
			lister := oursLister(f)
			return func(sel labels.Selector, _ string) int {
				list, _ := lister.List(sel)
				return len(list)
			}
		})
		run(b, "clientgo", func(f *fixture) listFunc {
			lister := corev1listers.NewPodLister(f.clientgo)
			return func(sel labels.Selector, _ string) int {
				list, _ := lister.List(sel)
				return len(list)
			}
		})
	})
	b.Run("selector-in-namespace", func(b *testing.B) {
		run(b, "ours", func(f *fixture) listFunc {
			lister := oursLister(f)
			return func(sel labels.Selector, ns string) int {
				list, _ := lister.Namespace(ns).List(sel)
				return len(list)
			}
		})
		run(b, "clientgo", func(f *fixture) listFunc {
			lister := corev1listers.NewPodLister(f.clientgo)
			return func(sel labels.Selector, ns string) int {
				list, _ := lister.Pods(ns).List(sel)
				return len(list)
			}
		})
	})
}
