package e2e

import (
	"context"
	"fmt"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned/typed/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/informers/externalversions"
	shoplisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/listers/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/indexcheck"
)

// selectableWidget is a Widget with only the fields that are selectable
// (spec.color, spec.size); it has no labels, so that any color is valid.
func selectableWidget(name, color string, size int32) *shopv1.Widget {
	return &shopv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       shopv1.WidgetSpec{Color: color, Size: size},
	}
}

// listNames LISTs the Widgets of api with a field selector and returns
// their namespace/name keys, sorted.
func listNames(ctx context.Context, api v1.WidgetInterface, selector string) ([]string, error) {
	list, err := api.List(ctx, metav1.ListOptions{FieldSelector: selector})
	if err != nil {
		return nil, err
	}
	var keys []string
	for i := range list.Items {
		keys = append(keys, list.Items[i].Namespace+"/"+list.Items[i].Name)
	}
	slices.Sort(keys)
	return keys, nil
}

// keysOf returns the sorted namespace/name keys of the Widgets an iterator
// lookup yields.
func keysOf(seq func(func(*shopv1.Widget) bool)) []string {
	var out []*shopv1.Widget
	for w := range seq {
		out = append(out, w)
	}
	return indexcheck.Keys(out)
}

// The generated field selectors of Widget's selectable fields (spec.color,
// spec.size, +kubebuilder:selectablefield) narrow a factory's informers on
// the server: the informer holds exactly the matching Widgets, follows
// Widgets into and out of the selection, and the selector combines with a
// metadata.name selector. On an informer that watches every Widget, the
// selectableField indexes answer what a LIST with the generated selector of
// the same value answers, for strings that field selectors escape, the
// empty string, negative, zero and absent values.
func TestSelectableFieldSelectorsAndIndexes(t *testing.T) {
	c := newClients(t)
	ns := cluster.NewNamespace(t)
	ctx := t.Context()
	api := c.shop.ShopV1().Widgets(ns)
	key := func(name string) string { return ns + "/" + name }

	for _, w := range []*shopv1.Widget{
		selectableWidget("red-1", "red", 1),
		selectableWidget("red-3", "red", 3),
		selectableWidget("blue-3", "blue", 3),
		selectableWidget("blue-0", "blue", 0), // size 0 is omitted from the JSON (omitempty)
		selectableWidget("plain-0", "", 0),
		selectableWidget("odd", `a,b=c\!`, -2), // a value field selectors must escape
	} {
		if _, err := api.Create(ctx, w, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	// A factory narrowed to the red Widgets.
	red := externalversions.NewSharedInformerFactoryWithOptions(c.shop, 0, externalversions.WithNamespace(ns),
		externalversions.WithTweakListOptions(shoplisters.WidgetsWithColor("red")))
	redLister := red.Shop().V1().Widgets().Lister()
	startSynced(t, red)
	holds := func(want ...string) func() string {
		return func() string {
			all, err := redLister.List(labels.Everything())
			if err != nil {
				return err.Error()
			}
			if got := indexcheck.Keys(all); !slices.Equal(got, want) {
				return fmt.Sprintf("the red informer holds %v, want %v", got, want)
			}
			return ""
		}
	}
	eventually(t, "the red informer after sync", holds(key("red-1"), key("red-3")))

	// A Widget turning red enters the watch, one turning green leaves it.
	blue, err := api.Get(ctx, "blue-3", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	blue.Spec.Color = "red"
	if _, err := api.Update(ctx, blue, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	green, err := api.Get(ctx, "red-1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	green.Spec.Color = "green"
	if _, err := api.Update(ctx, green, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.Create(ctx, selectableWidget("red-5", "red", 5), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the red informer after updates", holds(key("blue-3"), key("red-3"), key("red-5")))

	// The generated tweak adds its term to a field selector already set.
	options := metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("metadata.name", "red-3").String()}
	shoplisters.WidgetsWithSize(3)(&options)
	shoplisters.WidgetsWithColor("red")(&options)
	if got, err := listNames(ctx, api, options.FieldSelector); err != nil || !slices.Equal(got, []string{key("red-3")}) {
		t.Errorf("LIST %s = %v, %v; want [%s]", options.FieldSelector, got, err, key("red-3"))
	}

	// An informer of every Widget, whose selectableField indexes agree with
	// the server's field selectors.
	all := externalversions.NewSharedInformerFactoryWithOptions(c.shop, 0, externalversions.WithNamespace(ns))
	widgets := all.Shop().V1().Widgets()
	lister := widgets.Lister()
	startSynced(t, all)
	agree := func() string {
		for _, color := range []string{"red", "blue", "green", "", `a,b=c\!`, "purple"} {
			selector := shoplisters.WidgetColorSelector(color).String()
			want, err := listNames(ctx, api, selector)
			if err != nil {
				return err.Error()
			}
			got, err := lister.ByColorField(color)
			if err != nil {
				return err.Error()
			}
			inNamespace := keysOf(lister.Widgets(ns).EachByColorField(color))
			if keys := indexcheck.Keys(got); !slices.Equal(keys, want) || !slices.Equal(inNamespace, want) {
				return fmt.Sprintf("ByColorField(%q) = %v, namespace EachByColorField = %v; LIST %s = %v", color, keys, inNamespace, selector, want)
			}
		}
		for _, size := range []int32{0, 1, 3, 5, -2, 7} {
			selector := shoplisters.WidgetSizeSelector(size).String()
			want, err := listNames(ctx, api, selector)
			if err != nil {
				return err.Error()
			}
			got, err := lister.Widgets(ns).BySizeField(size)
			if err != nil {
				return err.Error()
			}
			each := keysOf(lister.EachBySizeField(size))
			if keys := indexcheck.Keys(got); !slices.Equal(keys, want) || !slices.Equal(each, want) {
				return fmt.Sprintf("BySizeField(%d) = %v, EachBySizeField = %v; LIST %s = %v", size, keys, each, selector, want)
			}
		}
		// An absent field: the index files it under "", as the server
		// compares it.
		want, err := listNames(ctx, api, shoplisters.WidgetSizeField+"=")
		if err != nil {
			return err.Error()
		}
		absent, err := widgets.Informer().GetIndexer().ByIndex(shoplisters.WidgetBySizeFieldIndex, "")
		if err != nil {
			return err.Error()
		}
		var keys []string
		for _, obj := range absent {
			w := obj.(*shopv1.Widget)
			keys = append(keys, w.Namespace+"/"+w.Name)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, want) {
			return fmt.Sprintf("index %s at \"\" = %v; LIST %s= = %v", shoplisters.WidgetBySizeFieldIndex, keys, shoplisters.WidgetSizeField, want)
		}
		return ""
	}
	eventually(t, "the indexes agree with the server", agree)

	// What the server does, pinned: a zero size is absent from the JSON, so
	// spec.size=0 selects nothing, and "" selects the zero sizes; the empty
	// color is a value.
	for selector, want := range map[string][]string{
		shoplisters.WidgetSizeSelector(0).String():          nil,
		shoplisters.WidgetSizeField + "=":                   {key("blue-0"), key("plain-0")},
		shoplisters.WidgetSizeSelector(-2).String():         {key("odd")},
		shoplisters.WidgetColorSelector("").String():        {key("plain-0")},
		shoplisters.WidgetColorSelector(`a,b=c\!`).String(): {key("odd")},
	} {
		if got, err := listNames(ctx, api, selector); err != nil || !slices.Equal(got, want) {
			t.Errorf("LIST %s = %v, %v; want %v", selector, got, err, want)
		}
	}
}
