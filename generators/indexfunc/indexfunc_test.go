package indexfunc

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"
	"k8s.io/gengo/v2/parser"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/generators/markers"
	"github.com/informer-gen-plus/informer-gen-plus/generators/output"
	"github.com/informer-gen-plus/informer-gen-plus/generators/resolve"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const (
	fixturePkg = "github.com/informer-gen-plus/informer-gen-plus/generators/resolve/testdata/api"
	goldenPkg  = "github.com/informer-gen-plus/informer-gen-plus/generators/indexfunc/testdata/golden"
	goldenFile = "testdata/golden/indexfuncs.go"
)

var imports = Imports{FieldPath: "fieldpath", Cache: "cache", Schema: "schema"}

// The golden file holds one generated function per kind of path and source;
// the test checks it is what Body writes and that it compiles.
func TestBodiesMatchGoldenAndCompile(t *testing.T) {
	widget := loadType(t, fixturePkg, "Widget")
	var src bytes.Buffer
	fmt.Fprintf(&src, "%s\n\n// Package golden holds generated index functions, checked by indexfunc's tests.\npackage golden\n\n", output.Header)
	fmt.Fprintf(&src, "import (\n\tapi %q\n\tcorev1 %q\n\tcache %q\n\tschema %q\n\tfieldpath %q\n\t\"strings\"\n)\n\n", fixturePkg, "k8s.io/api/core/v1", CachePkg, SchemaPkg, FieldPathPkg)
	for _, tc := range []struct{ name, key string }{
		{"Color", "spec.color"},
		{"Size", "spec.size"},
		{"Count", "spec.count"},
		{"Enabled", "spec.enabled"},
		{"Nickname", "spec.nickname"},
		{"Zone", "spec.zone"},
		{"Phase", "status.phase"},
		{"Tags", "spec.tags[*]"},
		{"Image", "spec.containers[*].image"},
		{"SidecarImage", "spec.sidecars[*].image"},
		{"PortName", "spec.containers[*].ports[*].name"},
		{"PhaseColor", "status.phase,spec.color"},
		{"ColorImage", "spec.color,spec.containers[*].image"},
		// Leaves that encoding/json omits when zero give no value then.
		{"Rank", "spec.rank"},
		{"Label", "spec.label"},
		{"Active", "spec.active"},
		{"ImageTag", "spec.containers[*].tag"},
		{"BoxCode", "spec.box.code"},
		{"ColorRank", "spec.color,spec.rank"},
	} {
		key := fieldpath.MustParse(tc.key)
		var paths []resolve.Path
		for _, p := range key {
			r, err := resolve.Resolve(widget, p)
			if err != nil {
				t.Fatalf("%s: %v", tc.key, err)
			}
			paths = append(paths, r)
		}
		body := Body(Spec{Source: markers.FromField, Paths: paths}, imports)
		fmt.Fprintf(&src, "// WidgetBy%s indexes by %s.\nfunc WidgetBy%s(obj *api.Widget, dst []string) []string {\n%s}\n\n", tc.name, tc.key, tc.name, body)
	}
	for _, tc := range []struct {
		name string
		spec Spec
	}{
		{"App", Spec{Source: markers.FromLabel, Key: "app"}},
		{"Owner", Spec{Source: markers.FromAnnotation, Key: "example.dev/owner"}},
		{"ReplicaSet", Spec{Source: markers.FromOwner, Group: "apps", Key: "ReplicaSet"}},
		{"Node", Spec{Source: markers.FromOwner, Key: "Node"}},
		{"Zone", Spec{Source: markers.FromFunc, Func: "zoneOf"}},
	} {
		fmt.Fprintf(&src, "// PodBy%s indexes pods.\nfunc PodBy%s(obj *corev1.Pod, dst []string) []string {\n%s}\n\n", tc.name, tc.name, Body(tc.spec, imports))
	}
	src.WriteString("func zoneOf(p *corev1.Pod) []string { return []string{strings.ToLower(p.Spec.NodeName)} }\n")
	got, err := output.FormatGo("indexfuncs.go", src.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(goldenFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("generated bodies differ from %s (run go test -update after checking the change):\n%s", goldenFile, got)
	}
	typeCheck(t, goldenPkg)
}

func loadType(t *testing.T, pkg, name string) *types.Type {
	t.Helper()
	p := parser.New()
	if err := p.LoadPackages(pkg); err != nil {
		t.Fatal(err)
	}
	u, err := p.NewUniverse()
	if err != nil {
		t.Fatal(err)
	}
	return u.Type(types.Name{Package: pkg, Name: name})
}

// typeCheck fails the test when the package does not compile.
func typeCheck(t *testing.T, pkg string) {
	t.Helper()
	dir, _ := filepath.Abs(".")
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo, Dir: dir}, pkg)
	if err != nil {
		t.Fatal(err)
	}
	packages.PrintErrors(pkgs)
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("%s does not compile: %v", pkg, e)
		}
	}
}
