package generators

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/generators/output"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

const (
	module     = "github.com/informer-gen-plus/informer-gen-plus"
	testdata   = module + "/generators/testdata"
	goldenDir  = "testdata/golden"
	goldenPkg  = testdata + "/golden"
	toysInput  = testdata + "/apis/toys/v1"
	badInput   = testdata + "/apis/bad/v1"
	clientsetP = testdata + "/clientset"
)

func args(dir string, inputs ...string) Args {
	return Args{OutputDir: dir, OutputPkg: goldenPkg, VersionedClientSetPackage: clientsetP, Inputs: inputs}
}

// The output for testdata/apis/toys is the committed golden tree, byte for
// byte, and the golden tree compiles. Run go test -update to accept a change.
func TestGeneratedListersMatchGolden(t *testing.T) {
	files, err := Generate(args(goldenDir, toysInput))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if _, err := files.Write(goldenDir); err != nil {
			t.Fatal(err)
		}
	}
	drift, err := files.Compare(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	if !drift.Empty() {
		t.Fatalf("%v\n(run go test ./generators/ -update after checking the change)", drift)
	}
	want := []string{
		"controllers/toys/v1/box.go",
		"controllers/toys/v1/robot.go",
		"informers/externalversions/factory.go",
		"informers/externalversions/toys/interface.go",
		"informers/externalversions/toys/v1/box.go",
		"informers/externalversions/toys/v1/interface.go",
		"informers/externalversions/toys/v1/robot.go",
		"listers/toys/v1/box.go",
		"listers/toys/v1/robot.go",
	}
	if got := files.Paths(); !slices.Equal(got, want) {
		t.Errorf("generated %v\nwant %v (Gear has no list verb)", got, want)
	}
	for _, rel := range files.Paths() {
		content, _ := files.Content(rel)
		if !bytes.HasPrefix(content, []byte(output.Header+"\n")) {
			t.Errorf("%s does not start with the generated-code header", rel)
		}
	}
	// The listers must compile; the informers need a clientset, which the
	// examples' tests compile and run against instead.
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo}, goldenPkg+"/listers/...")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("golden package %s does not compile: %v", p.PkgPath, e)
		}
	}
}

// Running twice gives byte-identical output.
func TestGenerationIsDeterministic(t *testing.T) {
	a, err := Generate(args(t.TempDir(), toysInput))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(args(t.TempDir(), toysInput))
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range a.Paths() {
		x, _ := a.Content(rel)
		y, ok := b.Content(rel)
		if !ok || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs", rel)
		}
	}
}

// Every marker error of a run is reported with file:line and a reason, and a
// failed run changes nothing in the output directory.
func TestBadMarkersFailTheRunAndWriteNothing(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "listers", "bad", "v1", "thing.go")
	if err := os.MkdirAll(filepath.Dir(keep), 0o755); err != nil {
		t.Fatal(err)
	}
	previous := []byte(output.Header + "\n\npackage v1\n")
	if err := os.WriteFile(keep, previous, 0o644); err != nil {
		t.Fatal(err)
	}
	err := Run(args(dir, badInput))
	if err == nil {
		t.Fatal("Run succeeded on bad markers")
	}
	file := filepath.Join("testdata", "apis", "bad", "v1", "types.go")
	for _, want := range []string{
		file + `:12: +index(name: byColour, field: spec.colour): field spec.colour: spec has no field "colour"; did you mean spec.color?`,
		file + `:13: +index(name: bySpec, field: spec): field spec: spec is a struct (ThingSpec)`,
		file + `:14: +index(name: byTags, field: spec.tags): field spec.tags: spec.tags is a list`,
		file + `:16: +index(name: byColor, label: color): index byColor of Thing is declared twice (first at `,
		file + `:17: +index(name: byMissing, func: "` + badInput + `.Missing"): function ` + badInput + `.Missing not found`,
		file + `:18: +index(name: byWrong, func: "` + badInput + `.Wrong"): function ` + badInput + `.Wrong must have the signature func(*` + badInput + `.Thing) []string`,
		file + `:40: +index(name: byName, field: metadata.name): type Loose has +index markers but no informer is generated for it`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not report\n  %s\ngot:\n%v", want, err)
		}
	}
	got, readErr := os.ReadFile(keep)
	if readErr != nil || !bytes.Equal(got, previous) {
		t.Errorf("a failed run changed %s: %q, %v", keep, got, readErr)
	}
}

// Package-level markers name a type that must exist and have an informer,
// and their fields are checked against it.
func TestBadPackageLevelMarkers(t *testing.T) {
	err := Run(args(t.TempDir(), testdata+"/apis/badfor"))
	if err == nil {
		t.Fatal("Run succeeded on bad package-level markers")
	}
	file := filepath.Join("testdata", "apis", "badfor", "doc.go")
	for _, want := range []string{
		file + `:3: +index(for: "k8s.io/api/core/v1.Podd", name: byNode, field: spec.nodeName): type Podd not found in package k8s.io/api/core/v1`,
		file + `:4: +index(for: "k8s.io/api/core/v1.Pod", name: byNode, field: spec.nodeNam): field spec.nodeNam: spec has no field "nodeNam"; did you mean spec.nodeName?`,
		file + `:5: +index(for: "k8s.io/api/core/v1.PodSpec", name: byNode, field: nodeName): type k8s.io/api/core/v1.PodSpec has no +genclient with the list and watch verbs`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not report\n  %s\ngot:\n%v", want, err)
		}
	}
}

// --verify-only writes nothing, and fails naming each missing, differing and
// stale file; after a real run it passes.
func TestVerifyOnly(t *testing.T) {
	dir := t.TempDir()
	verify := args(dir, toysInput)
	verify.VerifyOnly = true
	err := Run(verify)
	if err == nil || !strings.Contains(err.Error(), "missing: listers/toys/v1/robot.go") {
		t.Fatalf("verify of an empty tree = %v, want the missing files named", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("--verify-only wrote %d entries", len(entries))
	}
	if err := Run(args(dir, toysInput)); err != nil {
		t.Fatal(err)
	}
	if err := Run(verify); err != nil {
		t.Fatalf("verify after a run: %v", err)
	}
	robot := filepath.Join(dir, "listers", "toys", "v1", "robot.go")
	if err := os.WriteFile(robot, []byte("// edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Run(verify); err == nil || !strings.Contains(err.Error(), "differs: listers/toys/v1/robot.go") {
		t.Fatalf("verify of an edited file = %v", err)
	}
}

// Plurals come from gengo's plural namer, with --plural-exceptions on top.
func TestPlurals(t *testing.T) {
	for _, tc := range []struct {
		kind, want string
		exceptions []string
	}{
		{"Policy", "Policies", nil},
		{"Endpoints", "Endpoints", nil},
		{"Status", "Statuses", nil},
		{"Leaf", "Leaves", nil},
		{"Leaf", "Leafs", []string{"Leaf:Leafs"}},
	} {
		plurals, err := Args{PluralExceptions: tc.exceptions}.pluralExceptions()
		if err != nil {
			t.Fatal(err)
		}
		got := NameSystems(plurals)["publicPlural"].Name(&types.Type{Name: types.Name{Name: tc.kind}, Kind: types.Struct})
		if got != tc.want {
			t.Errorf("plural of %s (exceptions %v) = %s, want %s", tc.kind, tc.exceptions, got, tc.want)
		}
	}
	if _, err := (Args{PluralExceptions: []string{"Leaf"}}).pluralExceptions(); err == nil {
		t.Error("a malformed plural exception was accepted")
	}
}
