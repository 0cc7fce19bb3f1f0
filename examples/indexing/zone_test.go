package indexing_test

import (
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/indexing"
)

func TestZoneOf(t *testing.T) {
	labelled := func(zone string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: "w", Labels: map[string]string{shopv1.ZoneLabel: zone}}
	}
	for _, tc := range []struct {
		name string
		w    *shopv1.Widget
		want []string
	}{
		{name: "nil widget", w: nil, want: nil},
		{name: "no placement, no label", w: &shopv1.Widget{}, want: nil},
		{name: "no placement, empty label", w: &shopv1.Widget{ObjectMeta: labelled("")}, want: nil},
		{name: "no placement, label", w: &shopv1.Widget{ObjectMeta: labelled("eu-west-1a")}, want: []string{"eu-west-1a"}},
		{
			name: "placement wins over label",
			w: &shopv1.Widget{
				ObjectMeta: labelled("eu-west-1a"),
				Spec:       shopv1.WidgetSpec{Placement: &shopv1.Placement{Zone: "us-east-1b"}},
			},
			want: []string{"us-east-1b"},
		},
		{
			name: "alternates in order, deduplicated, empties dropped",
			w: &shopv1.Widget{Spec: shopv1.WidgetSpec{Placement: &shopv1.Placement{
				Zone:           "a",
				AlternateZones: []string{"b", "", "a", "c", "b"},
			}}},
			want: []string{"a", "b", "c"},
		},
		{
			name: "empty primary zone, alternates only",
			w: &shopv1.Widget{Spec: shopv1.WidgetSpec{Placement: &shopv1.Placement{
				AlternateZones: []string{"c"},
			}}},
			want: []string{"c"},
		},
		{
			name: "empty placement, label is not consulted",
			w:    &shopv1.Widget{ObjectMeta: labelled("x"), Spec: shopv1.WidgetSpec{Placement: &shopv1.Placement{}}},
			want: nil,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before *shopv1.Widget
			if tc.w != nil {
				before = tc.w.DeepCopy()
			}
			got := indexing.ZoneOf(tc.w)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("ZoneOf() = %q, want %q", got, tc.want)
			}
			if tc.w != nil && !equality.Semantic.DeepEqual(before, tc.w) {
				t.Fatalf("ZoneOf mutated its argument")
			}
		})
	}
}

// TestZoneOfDoesNotAlias checks that the result does not share memory with
// the Widget: an indexer may keep it after the Widget is replaced.
func TestZoneOfDoesNotAlias(t *testing.T) {
	w := &shopv1.Widget{Spec: shopv1.WidgetSpec{Placement: &shopv1.Placement{
		Zone: "a", AlternateZones: []string{"b"},
	}}}
	got := indexing.ZoneOf(w)
	got[1] = "mutated"
	if w.Spec.Placement.AlternateZones[0] != "b" {
		t.Fatalf("ZoneOf result aliases the Widget's AlternateZones")
	}
}

// The signature the +index(func: ...) marker requires: func(*T) []string.
var _ func(*shopv1.Widget) []string = indexing.ZoneOf
