//go:build !race

// The race detector makes allocation counts meaningless: `go test -race`
// leaves this file out.

package v1

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	runtimecache "github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// updateWidget returns a Widget with a value in every index of Widget whose
// values are field values, label and annotation values or the name of an
// owner, none of which indexing needs to build: no composite key (the phase
// is empty) and no integer outside 0..99. With full set, it also has a
// phase and a placement, which give the composite index and the zone index
// values built anew by every update.
func updateWidget(full bool) *shopv1.Widget {
	nickname := "nick"
	controller := true
	w := &shopv1.Widget{ObjectMeta: metav1.ObjectMeta{
		Namespace:   "ns",
		Name:        "w",
		Labels:      map[string]string{"team": "blue"},
		Annotations: map[string]string{"shop.example.dev/owner-team": "ops"},
		OwnerReferences: []metav1.OwnerReference{{
			APIVersion: "shop.example.dev/v1", Kind: "Shop", Name: "corner", UID: "u1", Controller: &controller,
		}},
	}}
	w.Spec.Color = "red"
	w.Spec.Size = 7
	w.Spec.SKU = "sku-1"
	w.Spec.Nickname = &nickname
	w.Spec.ConfigRef = "cfg"
	w.Spec.Containers = []shopv1.WidgetContainer{{Name: "a", Image: "img:a"}, {Name: "b", Image: "img:b"}}
	if full {
		w.Status.Phase = shopv1.WidgetReady
		w.Spec.Placement = &shopv1.Placement{Zone: "z1", AlternateZones: []string{"z2"}}
	}
	return w
}

// newUpdateStore returns a typed store with every index of Widget, holding
// a few other Widgets and the first of versions, and a function that
// updates the store with the next version.
func newUpdateStore(t testing.TB, full bool) (*runtimecache.Indexer[*shopv1.Widget], func()) {
	t.Helper()
	store, err := runtimecache.NewIndexer(runtimecache.Indexers[*shopv1.Widget]{})
	if err != nil {
		t.Fatal(err)
	}
	if err := AddWidgetIndexes(store.AsIndexer()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"x", "y"} {
		other := updateWidget(full)
		other.Name = name
		store.Add(other)
	}
	versions := [2]*shopv1.Widget{updateWidget(full), updateWidget(full)}
	store.Add(versions[0])
	i := 0
	return store, func() {
		i++
		store.Update(versions[i%2])
	}
}

// A store update of a Widget that keeps its values allocates nothing
// through the generated indexes, as the typed store's own append-form
// indexes do, when no value has to be built (see updateWidget).
func TestWidgetUpdateAllocatesNothing(t *testing.T) {
	store, update := newUpdateStore(t, false)
	for index, value := range map[string]string{
		WidgetByColorIndex: "red", WidgetByImageIndex: "img:b", WidgetByShopIndex: "corner",
		WidgetByTeamIndex: "blue", WidgetByOwnerTeamIndex: "ops", WidgetBySizeIndex: "7",
		WidgetByNicknameIndex: "nick", WidgetBySizeFieldIndex: "7",
	} {
		if got, err := store.ByIndex(index, value); err != nil || len(got) != 3 {
			t.Fatalf("ByIndex(%q, %q) = %d Widgets, %v; want 3", index, value, len(got), err)
		}
	}
	if allocs := testing.AllocsPerRun(100, update); allocs != 0 {
		t.Errorf("an update that keeps the values allocates %v times, want 0", allocs)
	}
}

// BenchmarkWidgetUpdate measures a store update of a Widget that keeps its
// values, through every generated index of Widget: without values to build
// (plain) and with the composite and zone values rebuilt (full).
func BenchmarkWidgetUpdate(b *testing.B) {
	for _, tc := range []struct {
		name string
		full bool
	}{{"plain", false}, {"full", true}} {
		b.Run(tc.name, func(b *testing.B) {
			_, update := newUpdateStore(b, tc.full)
			b.ReportAllocs()
			for b.Loop() {
				update()
			}
		})
	}
}
