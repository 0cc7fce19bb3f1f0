package indexing_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/dynamic/fake"
	clientcache "k8s.io/client-go/tools/cache"

	fleetv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/fleet/v1"
	fleetv2beta1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/fleet/v2beta1"
	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	shopv1alpha1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1alpha1"
	kubecorelisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	fleetlistersv1 "github.com/informer-gen-plus/informer-gen-plus/examples/generated/listers/fleet/v1"
	fleetlistersv2beta1 "github.com/informer-gen-plus/informer-gen-plus/examples/generated/listers/fleet/v2beta1"
	shoplistersv1 "github.com/informer-gen-plus/informer-gen-plus/examples/generated/listers/shop/v1"
	shoplistersv1alpha1 "github.com/informer-gen-plus/informer-gen-plus/examples/generated/listers/shop/v1alpha1"
	"github.com/informer-gen-plus/informer-gen-plus/generators/markers"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// diffKind is a kind with generated index functions: where its markers are,
// its generated index functions, and a new empty object of it.
type diffKind struct {
	dir, typ string // the marked type typ in ../apis/dir, or a type For names
	indexers clientcache.Indexers
	newObj   func() runtime.Object
}

var diffKinds = []diffKind{
	{"shop/v1", "Widget", shoplistersv1.WidgetIndexers(), func() runtime.Object { return &shopv1.Widget{} }},
	{"shop/v1", "Shop", shoplistersv1.ShopIndexers(), func() runtime.Object { return &shopv1.Shop{} }},
	{"shop/v1alpha1", "Widget", shoplistersv1alpha1.WidgetIndexers(), func() runtime.Object { return &shopv1alpha1.Widget{} }},
	{"shop/v1alpha1", "Shop", shoplistersv1alpha1.ShopIndexers(), func() runtime.Object { return &shopv1alpha1.Shop{} }},
	{"fleet/v1", "Vehicle", fleetlistersv1.VehicleIndexers(), func() runtime.Object { return &fleetv1.Vehicle{} }},
	{"fleet/v1", "Depot", fleetlistersv1.DepotIndexers(), func() runtime.Object { return &fleetv1.Depot{} }},
	{"fleet/v2beta1", "Vehicle", fleetlistersv2beta1.VehicleIndexers(), func() runtime.Object { return &fleetv2beta1.Vehicle{} }},
	{"fleet/v2beta1", "Depot", fleetlistersv2beta1.DepotIndexers(), func() runtime.Object { return &fleetv2beta1.Depot{} }},
	{"kubeindexes", "k8s.io/api/core/v1.Pod", kubecorelisters.PodIndexers(), func() runtime.Object { return &corev1.Pod{} }},
}

// TestTypedAndDynamicIndexesAgree checks, for every field index marker of
// the example kinds, that the generated, typed index function gives the
// values that the definition (fieldpath.Key.Values on the object's JSON
// form, encoding/json's) and the dynamic informer's index compiled from the
// same marker give, on random objects full of empty strings, zero numbers,
// false bools, nil pointers and pointers to zero values, nil, empty and
// filled lists, and list elements with empty fields. Apart from the JSON
// form of the API server (json.Marshal, then decoded as the unstructured
// package decodes it), it also checks the form
// runtime.DefaultUnstructuredConverter gives.
func TestTypedAndDynamicIndexesAgree(t *testing.T) {
	perKind := 2000
	if testing.Short() {
		perKind = 300
	}
	rng := rand.New(rand.NewPCG(1, 2))
	factory := dynamicinformer.NewDynamicSharedInformerFactory(fake.NewSimpleDynamicClient(runtime.NewScheme()), 0)
	scanned := map[string]markers.Package{}
	checked, indexes := 0, 0
	for ki, k := range diffKinds {
		pkg, ok := scanned[k.dir]
		if !ok {
			var err error
			if pkg, err = markers.Scan("../apis/" + k.dir); err != nil {
				t.Fatal(err)
			}
			scanned[k.dir] = pkg
		}
		var fields []markers.Marker
		for _, m := range append(slices.Clone(pkg.Types[k.typ]), pkg.Package...) {
			if m.Source == markers.FromField && (m.For == "" || m.For == k.typ) {
				fields = append(fields, m)
			}
		}
		if len(fields) == 0 {
			t.Errorf("%s %s has no field index marker", k.dir, k.typ)
			continue
		}
		// The dynamic index of each marker, compiled from its spec.
		informer := factory.Resource(schema.GroupVersionResource{Group: "diff.example.dev", Version: "v1", Resource: fmt.Sprintf("kind%d", ki)})
		var paths []fieldpath.Path
		for _, m := range fields {
			if k.indexers[m.Name] == nil {
				t.Fatalf("%s %s: no generated index function for %s", k.dir, k.typ, m.Text)
			}
			if err := informer.AddIndexSpec(m.Name, m.Spec); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, m.Spec.Field...)
		}
		dynamic := informer.Informer().GetIndexer().GetIndexers()
		indexes += len(fields)
		for range perKind {
			obj := k.newObj()
			fill(rng, reflect.ValueOf(obj).Elem(), paths)
			data, err := json.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			var jsonForm map[string]any
			if err := utiljson.Unmarshal(data, &jsonForm); err != nil {
				t.Fatal(err)
			}
			converted, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range fields {
				typed := values(t, k.indexers[m.Name], obj)
				want := m.Spec.Field.Values(jsonForm)
				dyn := values(t, dynamic[m.Name], &unstructured.Unstructured{Object: jsonForm})
				conv := m.Spec.Field.Values(converted)
				if !slices.Equal(typed, want) || !slices.Equal(dyn, want) || !slices.Equal(conv, want) {
					t.Errorf("%s %s %s disagree:\n typed index function: %q\n Key.Values on JSON:   %q\n dynamic index:        %q\n Key.Values converted: %q\n object: %s",
						k.dir, k.typ, m.Text, typed, want, dyn, conv, data)
				}
			}
			checked++
		}
	}
	t.Logf("%d objects of %d kinds checked on %d field indexes", checked, len(diffKinds), indexes)
}

// values calls an index function and returns its values without
// duplicates, first occurrence first, nil for none.
func values(t *testing.T, fn clientcache.IndexFunc, obj any) []string {
	t.Helper()
	got, err := fn(obj)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, v := range got {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// fill sets, at random, the fields of v that lie on paths (JSON names, any
// embedded inline struct followed), leaving the others zero.
func fill(rng *rand.Rand, v reflect.Value, paths []fieldpath.Path) {
	switch v.Kind() {
	case reflect.Pointer:
		if rng.IntN(3) == 0 {
			return // nil
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(rng, v.Elem(), paths)
	case reflect.Slice:
		switch rng.IntN(4) {
		case 0:
			return // nil
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			return
		}
		n := 1 + rng.IntN(3)
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fill(rng, v.Index(i), paths)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" && f.Anonymous {
				fill(rng, v.Field(i), paths) // inlined
				continue
			}
			var rest []fieldpath.Path
			for _, p := range paths {
				if len(p) > 0 && p[0].Name == name {
					rest = append(rest, p[1:])
				}
			}
			if len(rest) > 0 {
				fill(rng, v.Field(i), rest)
			}
		}
	case reflect.String:
		v.SetString([]string{"", "", "a", "b", "x y"}[rng.IntN(5)])
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt([]int64{0, 0, 1, -1, 42}[rng.IntN(5)])
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint([]uint64{0, 0, 1, 42}[rng.IntN(4)])
	}
}
