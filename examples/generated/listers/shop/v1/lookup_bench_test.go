package v1

import (
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	runtimecache "github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// benchWidgets are 10,000 Widgets in 10 namespaces and of 10 colors, half
// of them Ready: a color matches 1,000 Widgets, 100 per namespace, and a
// phase and a color 500.
func benchWidgets() []*shopv1.Widget {
	out := make([]*shopv1.Widget, 0, 10_000)
	for i := range 10_000 {
		w := &shopv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: fmt.Sprint("ns", i%10), Name: fmt.Sprint("w", i)}}
		w.Spec.Color = fmt.Sprint("color", (i/10)%10)
		w.Status.Phase = []shopv1.WidgetPhase{shopv1.WidgetReady, shopv1.WidgetPending}[(i/100)%2]
		out = append(out, w)
	}
	return out
}

// BenchmarkLookup compares, on the same 10,000 Widgets, the generated
// lookups over an informer's typed store, the slice form (ByColor) and the
// iterator form (EachByColor) through the WidgetLister interface and on the
// lister's own type (as when the call is inlined), with client-go's
// Indexer.ByIndex over cache.NewIndexer and the type assertion it needs:
// across namespaces, in one namespace (client-go filters the cluster-wide
// answer), and with a composite key. Each loop reads every Widget found.
func BenchmarkLookup(b *testing.B) {
	widgets := benchWidgets()
	store, err := runtimecache.NewIndexer(runtimecache.Indexers[*shopv1.Widget]{})
	if err != nil {
		b.Fatal(err)
	}
	if err := AddWidgetIndexes(store.AsIndexer()); err != nil {
		b.Fatal(err)
	}
	clientgo := cache.NewIndexer(cache.MetaNamespaceKeyFunc, WidgetIndexers())
	for _, w := range widgets {
		store.Add(w)
		if err := clientgo.Add(w); err != nil {
			b.Fatal(err)
		}
	}
	var lister WidgetLister = NewWidgetLister(store.AsIndexer())
	concrete := lister.(*widgetLister)

	sink := 0
	clientgoByIndex := func(b *testing.B, namespace, value string) {
		for b.Loop() {
			objs, err := clientgo.ByIndex(WidgetByColorIndex, value)
			if err != nil {
				b.Fatal(err)
			}
			for _, obj := range objs {
				if w := obj.(*shopv1.Widget); namespace == "" || w.Namespace == namespace {
					sink += len(w.Name)
				}
			}
		}
	}
	b.Run("cluster", func(b *testing.B) {
		b.Run("slice", func(b *testing.B) {
			for b.Loop() {
				ws, _ := lister.ByColor("color3")
				for _, w := range ws {
					sink += len(w.Name)
				}
			}
		})
		b.Run("iterator", func(b *testing.B) {
			for b.Loop() {
				for w := range lister.EachByColor("color3") {
					sink += len(w.Name)
				}
			}
		})
		b.Run("iterator-inlined", func(b *testing.B) {
			for b.Loop() {
				for w := range concrete.EachByColor("color3") {
					sink += len(w.Name)
				}
			}
		})
		b.Run("client-go", func(b *testing.B) { clientgoByIndex(b, "", "color3") })
	})
	b.Run("namespace", func(b *testing.B) {
		b.Run("slice", func(b *testing.B) {
			for b.Loop() {
				ws, _ := lister.Widgets("ns3").ByColor("color3")
				for _, w := range ws {
					sink += len(w.Name)
				}
			}
		})
		b.Run("iterator", func(b *testing.B) {
			for b.Loop() {
				for w := range lister.Widgets("ns3").EachByColor("color3") {
					sink += len(w.Name)
				}
			}
		})
		b.Run("iterator-inlined", func(b *testing.B) {
			ns := concrete.Widgets("ns3").(widgetNamespaceLister)
			for b.Loop() {
				for w := range ns.EachByColor("color3") {
					sink += len(w.Name)
				}
			}
		})
		b.Run("client-go", func(b *testing.B) { clientgoByIndex(b, "ns3", "color3") })
	})
	b.Run("composite", func(b *testing.B) {
		b.Run("slice", func(b *testing.B) {
			for b.Loop() {
				ws, _ := lister.ByPhaseColor(shopv1.WidgetReady, "color3")
				for _, w := range ws {
					sink += len(w.Name)
				}
			}
		})
		b.Run("iterator", func(b *testing.B) {
			for b.Loop() {
				for w := range lister.EachByPhaseColor(shopv1.WidgetReady, "color3") {
					sink += len(w.Name)
				}
			}
		})
		b.Run("iterator-inlined", func(b *testing.B) {
			for b.Loop() {
				for w := range concrete.EachByPhaseColor(shopv1.WidgetReady, "color3") {
					sink += len(w.Name)
				}
			}
		})
		b.Run("client-go", func(b *testing.B) {
			for b.Loop() {
				objs, err := clientgo.ByIndex(WidgetByPhaseColorIndex, fieldpath.JoinValues(string(shopv1.WidgetReady), "color3"))
				if err != nil {
					b.Fatal(err)
				}
				for _, obj := range objs {
					sink += len(obj.(*shopv1.Widget).Name)
				}
			}
		})
	})
	if sink == 0 {
		b.Fatal("the lookups found nothing")
	}
}
