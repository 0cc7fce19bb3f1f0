package resolve

import (
	"reflect"
	"strings"
	"testing"

	"k8s.io/gengo/v2/parser"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

const fixturePkg = "github.com/informer-gen-plus/informer-gen-plus/generators/resolve/testdata/api"

func widgetType(t *testing.T) *types.Type {
	t.Helper()
	p := parser.New()
	if err := p.LoadPackages(fixturePkg); err != nil {
		t.Fatal(err)
	}
	u, err := p.NewUniverse()
	if err != nil {
		t.Fatal(err)
	}
	return u.Type(types.Name{Package: fixturePkg, Name: "Widget"})
}

func mustResolve(t *testing.T, w *types.Type, path string) (Path, error) {
	t.Helper()
	key, err := fieldpath.Parse(path)
	if err != nil {
		t.Fatalf("Parse(%q): %v", path, err)
	}
	return Resolve(w, key[0])
}

func TestResolveFollowsJSONNamesEmbeddingAndPointers(t *testing.T) {
	w := widgetType(t)
	for _, tc := range []struct {
		path string
		want Path
	}{
		{"spec.color", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Color", JSONName: "color"}}, Leaf: String}},
		{"name", Path{Steps: []Step{{GoName: "Meta"}, {GoName: "Name", JSONName: "name"}}, Leaf: String}},
		{"spec.zone", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Extra", Pointer: true}, {GoName: "Zone", JSONName: "zone"}}, Leaf: String}},
		{"spec.size", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Size", JSONName: "size"}}, Leaf: Int}},
		{"spec.count", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Count", JSONName: "count"}}, Leaf: Uint}},
		{"spec.enabled", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Enabled", JSONName: "enabled"}}, Leaf: Bool}},
		{"spec.nickname", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Nickname", JSONName: "nickname", Pointer: true}}, Leaf: String}},
		{"spec.Untagged", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Untagged", JSONName: "Untagged"}}, Leaf: String}},
		{"status.phase", Path{Steps: []Step{{GoName: "Status", JSONName: "status", Pointer: true}, {GoName: "Phase", JSONName: "phase"}}, Leaf: String}},
		{"spec.tags[*]", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Tags", JSONName: "tags", Each: true}}, Leaf: String}},
		{"spec.containers[*].image", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Containers", JSONName: "containers", Each: true}, {GoName: "Image", JSONName: "image"}}, Leaf: String}},
		{"spec.sidecars[*].image", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Sidecars", JSONName: "sidecars", Each: true, ElemPointer: true}, {GoName: "Image", JSONName: "image"}}, Leaf: String}},
		{"spec.containers[*].ports[*].name", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Containers", JSONName: "containers", Each: true}, {GoName: "Ports", JSONName: "ports", Each: true}, {GoName: "Name", JSONName: "name"}}, Leaf: String}},
		// encoding/json omits these leaves when they are zero.
		{"spec.rank", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Rank", JSONName: "rank", OmitZero: true}}, Leaf: Int}},
		{"spec.label", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Label", JSONName: "label", OmitZero: true}}, Leaf: String}},
		{"spec.active", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Active", JSONName: "active", OmitZero: true}}, Leaf: Bool}},
		{"spec.containers[*].tag", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Containers", JSONName: "containers", Each: true}, {GoName: "Tag", JSONName: "tag", OmitZero: true}}, Leaf: String}},
		// A pointer is omitted only when nil, and omitempty keeps a struct.
		{"spec.serial", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Serial", JSONName: "serial", Pointer: true}}, Leaf: String}},
		{"spec.bag.name", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Bag", JSONName: "bag"}, {GoName: "Name", JSONName: "name"}}, Leaf: String}},
		// A zero omitzero struct gives no value when its omitted leaf does not.
		{"spec.box.code", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Box", JSONName: "box"}, {GoName: "Code", JSONName: "code", OmitZero: true}}, Leaf: String}},
		{"spec.box.items[*]", Path{Steps: []Step{{GoName: "Spec", JSONName: "spec"}, {GoName: "Box", JSONName: "box"}, {GoName: "Items", JSONName: "items", Each: true}}, Leaf: String}},
	} {
		got, err := mustResolve(t, w, tc.path)
		if err != nil {
			t.Errorf("Resolve(%s): %v", tc.path, err)
			continue
		}
		got.Type = nil // TestResolveReportsTheLeafsGoType checks it
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Resolve(%s) =\n%+v\nwant\n%+v", tc.path, got, tc.want)
		}
	}
}

// The leaf's Go type is the field's type without its pointer: a named type
// (an enum) when the field has one, the builtin otherwise, and the element
// type for a list.
func TestResolveReportsTheLeafsGoType(t *testing.T) {
	w := widgetType(t)
	for path, want := range map[string]types.Name{
		"spec.color":             {Name: "string"},
		"spec.size":              {Name: "int32"},
		"spec.count":             {Name: "uint16"},
		"spec.enabled":           {Name: "bool"},
		"spec.nickname":          {Name: "string"},
		"spec.priority":          {Package: fixturePkg, Name: "Priority"},
		"status.phase":           {Package: fixturePkg, Name: "Phase"},
		"spec.tags[*]":           {Name: "string"},
		"spec.phases[*]":         {Package: fixturePkg, Name: "Phase"},
		"spec.zone":              {Name: "string"},
		"name":                   {Name: "string"},
		"spec.Untagged":          {Name: "string"},
		"spec.sidecars[*].image": {Name: "string"},
	} {
		got, err := mustResolve(t, w, path)
		if err != nil {
			t.Errorf("Resolve(%s): %v", path, err)
			continue
		}
		if got.Type == nil || got.Type.Name != want {
			t.Errorf("Resolve(%s).Type = %v, want %v", path, got.Type, want)
		}
	}
}

func TestResolveRejectsBadPathsWithAHint(t *testing.T) {
	w := widgetType(t)
	for path, want := range map[string]string{
		"spec.colour":            `spec has no field "colour"; did you mean spec.color?`,
		"spec.nodename":          `spec has no field "nodename"`,
		"spec.Color":             `did you mean spec.color?`,
		"sepc.color":             `the object has no field "sepc"; did you mean spec?`,
		"spec":                   "spec is a struct (WidgetSpec): an index value must be a string, bool or integer (or a pointer to one); name one of its fields",
		"spec.labels":            "spec.labels is a map",
		"spec.tags":              "write spec.tags[*] to index every element",
		"spec.containers":        "write spec.containers[*] to index every element",
		"spec.color[*]":          "spec.color is a string, not a list",
		"spec.color.x":           `spec.color is a string, not a struct: it has no field "x"`,
		"spec.Ignored":           `spec has no field "Ignored"`,
		"spec.containers[*].img": `spec.containers[*] has no field "img"; did you mean spec.containers[*].image?`,
		"spec.box.name":          "spec.box.name passes Box, an omitzero struct",
		"spec.box.stamp":         "spec.box.stamp is omitzero and its type has an IsZero method",
	} {
		_, err := mustResolve(t, w, path)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Resolve(%s) error = %v, want it to contain %q", path, err, want)
		}
	}
}
