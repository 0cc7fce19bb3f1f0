//go:build !race

// The race detector makes sync.Pool drop values on purpose, which the typed
// store's lookups rely on to reuse their buffers: allocation counts are only
// meaningful without it, and `go test -race` leaves this file out.

package v1

import (
	"fmt"
	"iter"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	runtimecache "github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// newStoreLister returns the Widget lister over a typed store holding n
// Widgets in four namespaces, a third of them red, Ready and of size 300.
func newStoreLister(t testing.TB, n int) *widgetLister {
	t.Helper()
	store, err := runtimecache.NewIndexer(runtimecache.Indexers[*shopv1.Widget]{})
	if err != nil {
		t.Fatal(err)
	}
	if err := AddWidgetIndexes(store.AsIndexer()); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		w := &shopv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: fmt.Sprint("ns", i%4), Name: fmt.Sprint("w", i)}}
		w.Spec.Color = []string{"red", "green", "blue"}[i%3]
		w.Spec.Size = int32(300 * (i % 3))
		w.Status.Phase = []shopv1.WidgetPhase{shopv1.WidgetReady, shopv1.WidgetPending, shopv1.WidgetFailed}[i%3]
		store.Add(w)
	}
	return NewWidgetLister(store.AsIndexer()).(*widgetLister)
}

// The iterator lookups of the generated lister, cluster-wide and
// namespaced, with a string, an integer and a composite key, allocate
// nothing once the store's buffers are warm, however many Widgets they
// yield. The calls are made on the lister's own types, as the compiler
// sees them when it can inline the lookup into the loop (the iterator and
// the loop body then live on the caller's stack); through the WidgetLister
// interface, see TestEachByThroughTheInterfaceAllocatesPerLoop.
func TestEachByAllocatesNothing(t *testing.T) {
	l := newStoreLister(t, 600)
	ns := l.Widgets("ns1").(widgetNamespaceLister)
	found := 0
	for _, tc := range []struct {
		name string
		loop func() int
	}{
		{"EachByColor", func() (n int) {
			for range l.EachByColor("red") {
				n++
			}
			return n
		}},
		{"EachBySize", func() (n int) {
			for range l.EachBySize(300) {
				n++
			}
			return n
		}},
		{"EachByPhaseColor", func() (n int) {
			for range l.EachByPhaseColor(shopv1.WidgetReady, "red") {
				n++
			}
			return n
		}},
		{"Widgets(ns1).EachByColor", func() (n int) {
			for range ns.EachByColor("red") {
				n++
			}
			return n
		}},
		{"Widgets(ns1).EachBySize", func() (n int) {
			for range ns.EachBySize(300) {
				n++
			}
			return n
		}},
		{"Widgets(ns1).EachByPhaseColor", func() (n int) {
			for range ns.EachByPhaseColor(shopv1.WidgetReady, "red") {
				n++
			}
			return n
		}},
	} {
		if n := tc.loop(); n == 0 {
			t.Fatalf("%s found nothing", tc.name)
		}
		allocs := testing.AllocsPerRun(100, func() { found += tc.loop() })
		if allocs != 0 {
			t.Errorf("%s allocates %v times per loop, want 0", tc.name, allocs)
		}
	}
}

// Through the WidgetLister interface, as an informer's Lister() returns
// it, the compiler cannot see the iterator the lookup returns: the iterator
// and the loop body's closure go to the heap, three small allocations per
// loop (and a fourth for the namespace lister Widgets returns, as for the
// slice lookups). Their number does not grow with the Widgets the loop
// visits, where a slice lookup allocates a slice of them all.
func TestEachByThroughTheInterfaceAllocatesPerLoop(t *testing.T) {
	var small, large WidgetLister = newStoreLister(t, 12), newStoreLister(t, 6000)
	count := func(seq iter.Seq[*shopv1.Widget]) (n int) {
		for range seq {
			n++
		}
		return n
	}
	for _, tc := range []struct {
		name      string
		loop      func(l WidgetLister) int
		maxAllocs float64
	}{
		{"EachByColor", func(l WidgetLister) int { return count(l.EachByColor("red")) }, 3},
		{"EachBySize", func(l WidgetLister) int { return count(l.EachBySize(300)) }, 3},
		{"EachByPhaseColor", func(l WidgetLister) int { return count(l.EachByPhaseColor(shopv1.WidgetReady, "red")) }, 3},
		{"Widgets(ns1).EachByColor", func(l WidgetLister) int { return count(l.Widgets("ns1").EachByColor("red")) }, 4},
		{"Widgets(ns1).EachByPhaseColor", func(l WidgetLister) int {
			return count(l.Widgets("ns1").EachByPhaseColor(shopv1.WidgetReady, "red"))
		}, 4},
	} {
		var allocs [2]float64
		for i, l := range []WidgetLister{small, large} {
			if tc.loop(l) == 0 {
				t.Fatalf("%s found nothing", tc.name)
			}
			allocs[i] = testing.AllocsPerRun(100, func() { tc.loop(l) })
		}
		if allocs[0] != allocs[1] || allocs[1] > tc.maxAllocs {
			t.Errorf("%s allocates %v times per loop over a few Widgets and %v times over thousands, want the same, at most %v",
				tc.name, allocs[0], allocs[1], tc.maxAllocs)
		}
	}
}
