package generated_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/jsonpath"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	shoplisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/listers/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/indexcheck"
)

// serverFieldSet is the field set the API server matches a Widget against
// for a field selector on its selectable fields, computed as
// apiextensions-apiserver's custom resource strategy does: each JSONPath is
// evaluated (missing keys allowed) on the object's JSON form as the
// unstructured package decodes it (integers as int64), and the value is
// fmt.Sprint of the result, or "" when there is none or it is null.
func serverFieldSet(t *testing.T, w *shopv1.Widget, jsonPaths ...string) fields.Set {
	t.Helper()
	data, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := utiljson.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	set := fields.Set{"metadata.name": w.Name, "metadata.namespace": w.Namespace}
	for _, path := range jsonPaths {
		parser := jsonpath.New("selectableField")
		parser.AllowMissingKeys(true)
		if err := parser.Parse("{" + path + "}"); err != nil {
			t.Fatal(err)
		}
		results, err := parser.FindResults(obj)
		if err != nil {
			t.Fatal(err)
		}
		var value any
		if len(results) > 0 && len(results[0]) > 0 {
			value = results[0][0].Interface()
		}
		set[path[1:]] = ""
		if value != nil {
			set[path[1:]] = fmt.Sprint(value)
		}
	}
	return set
}

// The selectableField indexes of Widget find, for every value, exactly the
// Widgets the generated field selector of that value matches on the API
// server's field set: values that need escaping, the empty string, zero
// (omitted from the JSON, so matched by no value), negative and large
// integers.
func TestSelectableFieldIndexesAgreeWithTheSelectors(t *testing.T) {
	colors := []string{"red", "", "a,b=c", `back\slash`, "!=", " "}
	sizes := []int32{0, 1, -3, 1 << 30, -1 << 31}
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, shoplisters.WidgetIndexers())
	var all []*shopv1.Widget
	for i, color := range colors {
		for j, size := range sizes {
			w := &shopv1.Widget{
				ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprintf("w-%d-%d", i, j)},
				Spec:       shopv1.WidgetSpec{Color: color, Size: size},
			}
			all = append(all, w)
			if err := indexer.Add(w); err != nil {
				t.Fatal(err)
			}
		}
	}
	lister := shoplisters.NewWidgetLister(indexer)
	matching := func(s fields.Selector) []string {
		var out []*shopv1.Widget
		for _, w := range all {
			if s.Matches(serverFieldSet(t, w, "."+shoplisters.WidgetColorField, "."+shoplisters.WidgetSizeField)) {
				out = append(out, w)
			}
		}
		return indexcheck.Keys(out)
	}
	for _, color := range append(colors, "blue") {
		selector := shoplisters.WidgetColorSelector(color)
		// What a client sends is what the server parses.
		parsed, err := fields.ParseSelector(selector.String())
		if err != nil {
			t.Fatalf("WidgetColorSelector(%q) = %q does not parse: %v", color, selector, err)
		}
		want := matching(parsed)
		got, err := lister.Widgets("ns").ByColorField(color)
		if err != nil {
			t.Fatal(err)
		}
		if keys := indexcheck.Keys(got); !slices.Equal(keys, want) || len(want) != map[bool]int{true: 0, false: len(sizes)}[color == "blue"] {
			t.Errorf("ByColorField(%q) = %v; selector %q matches %v", color, keys, selector, want)
		}
	}
	for _, size := range append(sizes, 7) {
		selector := shoplisters.WidgetSizeSelector(size)
		parsed, err := fields.ParseSelector(selector.String())
		if err != nil {
			t.Fatalf("WidgetSizeSelector(%d) = %q does not parse: %v", size, selector, err)
		}
		want := matching(parsed)
		got, err := lister.BySizeField(size)
		if err != nil {
			t.Fatal(err)
		}
		if keys := indexcheck.Keys(got); !slices.Equal(keys, want) {
			t.Errorf("BySizeField(%d) = %v; selector %q matches %v", size, keys, selector, want)
		}
		if (size == 0 || size == 7) != (len(want) == 0) {
			t.Errorf("selector %q matches %v: want nothing exactly for 0 (omitted from the JSON) and 7 (no such size)", selector, want)
		}
	}
}

// The generated list option tweaks set the selector, or add it to one the
// options have: the server then selects the objects matching both.
func TestSelectableFieldTweaksCombine(t *testing.T) {
	var options metav1.ListOptions
	shoplisters.WidgetsWithColor("a,b")(&options)
	if want := shoplisters.WidgetColorSelector("a,b").String(); options.FieldSelector != want {
		t.Errorf("FieldSelector = %q, want %q", options.FieldSelector, want)
	}
	options = metav1.ListOptions{FieldSelector: "metadata.name=w1"}
	shoplisters.WidgetsWithSize(3)(&options)
	shoplisters.WidgetsWithColor("red")(&options)
	parsed, err := fields.ParseSelector(options.FieldSelector)
	if err != nil {
		t.Fatalf("FieldSelector %q does not parse: %v", options.FieldSelector, err)
	}
	for _, tc := range []struct {
		name, color, size string
		want              bool
	}{
		{"w1", "red", "3", true},
		{"w2", "red", "3", false},
		{"w1", "blue", "3", false},
		{"w1", "red", "4", false},
	} {
		f := fields.Set{"metadata.name": tc.name, shoplisters.WidgetColorField: tc.color, shoplisters.WidgetSizeField: tc.size}
		if got := parsed.Matches(f); got != tc.want {
			t.Errorf("%q matches %v: %v, want %v", options.FieldSelector, f, got, tc.want)
		}
	}
}
