package generators

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/generators/markers"
)

// internGoldenDir holds the interning files generated for
// testdata/apis/toys with --with-interning, at their place below the
// output directory. They form a package of their own (they refer to the
// toys types and to runtime/intern only), which must compile.
const (
	internGoldenDir = "testdata/interngolden"
	internGoldenPkg = testdata + "/interngolden"
)

// isInternFile reports whether rel is an interning file.
func isInternFile(rel string) bool {
	base := path.Base(rel)
	return strings.HasSuffix(base, "_intern.go") || base == internSharedFile
}

// The interning files of testdata/apis/toys are the golden files, and they
// compile. Run go test -update to accept a change.
func TestInterningOutputMatchesGolden(t *testing.T) {
	a := args(filepath.Join(t.TempDir(), "gen"), toysInput)
	a.OutputPkg = internGoldenPkg
	a.WithInterning = true
	files, err := Generate(a)
	if err != nil {
		t.Fatal(err)
	}
	got := matchGoldenSubset(t, files, internGoldenDir, func(p string) (string, bool) { return p, isInternFile(p) })
	want := []string{"informers/externalversions/intern_generated.go", "listers/toys/v1/box_intern.go", "listers/toys/v1/crate_intern.go", "listers/toys/v1/intern_generated.go",
		"listers/toys/v1/robot_intern.go", "listers/toys/v1/sensor_intern.go"}
	if !slices.Equal(got, want) {
		t.Errorf("generated %v, want %v", got, want)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo}, internGoldenPkg+"/...")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("golden package %s does not compile: %v", p.PkgPath, e)
		}
	}
}

// Without --with-interning, no interning file is generated: the output is
// what it was before the flag existed.
func TestInterningIsOptIn(t *testing.T) {
	files, err := Generate(args(t.TempDir(), toysInput))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range files.Paths() {
		if isInternFile(p) {
			t.Errorf("generated %s without --with-interning", p)
		}
	}
}

// The field policy follows the markers, then the tables of fields unique to
// an object, then the names.
func TestInterningFieldPolicy(t *testing.T) {
	a := args(filepath.Join(t.TempDir(), "gen"), toysInput)
	a.OutputPkg = internGoldenPkg
	a.WithInterning = true
	files, err := Generate(a)
	if err != nil {
		t.Fatal(err)
	}
	robot, _ := files.Content("listers/toys/v1/robot_intern.go")
	shared, _ := files.Content("listers/toys/v1/intern_generated.go")
	for _, want := range []string{
		"// Serial: left as decoded (+intern=false).", // opted out
		"p.SupplierIP = intern.String(p.SupplierIP)",  // opted in, despite its name
		"r.Parts = intern.Clip(r.Parts)",              // a part holds a field left alone: walked
	} {
		if !strings.Contains(string(robot)+string(shared), want) {
			t.Errorf("robot_intern.go lacks %q", want)
		}
	}
	for _, want := range []string{
		"// Name, SelfLink, UID, ResourceVersion, CreationTimestamp,", // the object's identity and timestamps
		"o.Labels = stringMaps.Share(o.Labels, intern.StringMap, intern.StringEntry)",
		"func InternTransform(obj any) (any, error) {",
	} {
		if !strings.Contains(string(shared), want) {
			t.Errorf("intern_generated.go lacks %q", want)
		}
	}
}

// A bad +intern marker on a field the transforms reach fails the run,
// naming the field.
func TestInterningBadMarker(t *testing.T) {
	part := &types.Type{
		Name: types.Name{Package: "example.dev/shop/v1", Name: "Part"},
		Kind: types.Struct,
		Members: []types.Member{
			{Name: "Serial", Type: types.String, CommentLines: []string{"+intern=maybe"}},
		},
	}
	widget := &types.Type{
		Name:    types.Name{Package: "example.dev/shop/v1", Name: "Widget"},
		Kind:    types.Struct,
		Members: []types.Member{{Name: "Parts", Type: &types.Type{Kind: types.Slice, Elem: part}}},
	}
	_, err := internGenerators("example.dev/gen/listers/shop/v1", []*Kind{{Type: widget, Lister: true}})
	if err == nil || !strings.Contains(err.Error(), "field Serial of example.dev/shop/v1.Part: +intern=maybe") {
		t.Errorf("err = %v, want one naming the field and the marker", err)
	}
}

// The reference documents the +intern marker from its definitions, with
// the walker the generator writes for the example.
func TestMarkerDocsShowTheInternMarker(t *testing.T) {
	out, err := MarkerDocs()
	if err != nil {
		t.Fatal(err)
	}
	docs := string(out)
	for _, v := range markers.InternValues {
		if !strings.Contains(docs, "| `"+markers.InternMarker+"="+v.Value+"` | ") {
			t.Errorf("the reference lacks the row of %s=%s", markers.InternMarker, v.Value)
		}
	}
	for _, want := range []string{
		"\n## Field marker `+intern`\n",
		"func internPart(p *shopv1.Part) {\n\t// VendorIP: unique to the object.\n\t// Serial: left as decoded (+intern=false).\n",
		"\tp.SupplierIP = intern.String(p.SupplierIP)\n",
	} {
		if !strings.Contains(docs, want) {
			t.Errorf("the reference lacks %q", want)
		}
	}
}
