package generators

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/informer-gen-plus/informer-gen-plus/generators/markers"
)

// docs/markers.md is what informer-gen-plus --docs prints (hack/update-codegen.sh
// writes it, make verify checks it).
func TestMarkerDocsAreUpToDate(t *testing.T) {
	got, err := MarkerDocs()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../docs/markers.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("docs/markers.md is not what informer-gen-plus --docs prints: run hack/update-codegen.sh")
	}
}

// The reference has a section per argument the parser accepts, and each
// example's code is what the generator writes for the marker: the lookups,
// with the parameter the marker's source gives, and the index function.
func TestMarkerDocsShowTheGeneratedCode(t *testing.T) {
	out, err := MarkerDocs()
	if err != nil {
		t.Fatal(err)
	}
	docs := string(out)
	for _, a := range markers.Args {
		if !strings.Contains(docs, "\n## "+a.Name+"\n") {
			t.Errorf("no section for argument %s", a.Name)
		}
		for _, example := range a.Examples {
			if !strings.Contains(docs, "// "+example+"\n") {
				t.Errorf("example %s of %s is missing", example, a.Name)
			}
		}
	}
	for _, want := range []string{
		"func (s *widgetLister) BySize(size int32) ([]*shopv1.Widget, error) {\n\treturn s.Lister.ByIndex(WidgetBySizeIndex, fieldpath.FormatInt(size))\n}",
		"\t\tkey := fieldpath.AppendInt(buf[:0], size)\n",
		"func WidgetBySize(obj *shopv1.Widget, dst []string) []string {\n\treturn append(dst, fieldpath.FormatInt(obj.Spec.Size))\n}",
		"ByPhaseColor(phase shopv1.WidgetPhase, color string) ([]*shopv1.Widget, error)",
		"ByTeam(team string) ([]*shopv1.Widget, error)",
		"WidgetByTeamIndex: \"example.dev/team\",",
		"ByOwnerTeam(ownerTeam string) ([]*shopv1.Widget, error)",
		"ByReplicaSet(replicaSet string) ([]*shopv1.Widget, error)",
		"runtimecache.ControllerOf(obj, schema.GroupKind{Group: \"shop.example.dev\", Kind: \"Shop\"})",
		"ByRegion(region string) ([]*shopv1.Widget, error)",
		"\treturn append(dst, indexing.RegionOf(obj)...)\n",
		"ByRoute(from, to string) ([]*shopv1.Widget, error)",
		"EachByNode(nodeName string) iter.Seq[*corev1.Pod]",
		"func WidgetByNicknameField(obj *shopv1.Widget, dst []string) []string {\n\tif obj.Spec.Nickname == nil {\n\t\treturn append(dst, \"\")\n\t}\n",
		"\n## Selectable fields\n",
		"// +kubebuilder:selectablefield:JSONPath=.spec.size\n// +kubebuilder:selectablefield:JSONPath=.spec.nickname\ntype Widget struct{ ... }",
		"generates, in `listers/shop/v1/widget_fieldselectors.go`:",
		"func WidgetSizeSelector(size int32) fields.Selector {\n\treturn fields.OneTermEqualSelector(WidgetSizeField, fieldpath.FormatInt(size))\n}",
		"func WidgetsWithColor(color string) func(*metav1.ListOptions) {",
	} {
		if !strings.Contains(docs, want) {
			t.Errorf("the reference does not show\n%s", want)
		}
	}
}
