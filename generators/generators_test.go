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
	return Args{OutputDir: dir, OutputPkg: goldenPkg, VersionedClientSetPackage: clientsetP, WithControllers: true, Inputs: inputs}
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
		"informers/externalversions/generic.go",
		"informers/externalversions/internalinterfaces/factory_interfaces.go",
		"informers/externalversions/toys/interface.go",
		"informers/externalversions/toys/v1/box.go",
		"informers/externalversions/toys/v1/interface.go",
		"informers/externalversions/toys/v1/robot.go",
		"listers/toys/v1/box.go",
		"listers/toys/v1/crate.go",
		"listers/toys/v1/expansion_generated.go",
		"listers/toys/v1/robot.go",
		"listers/toys/v1/robot_fieldselectors.go",
		"listers/toys/v1/sensor.go",
		"listers/toys/v1/sensor_fieldselectors.go",
	}
	if got := files.Paths(); !slices.Equal(got, want) {
		t.Errorf("generated %v\nwant %v (Crate and Sensor cannot watch: no informer; Gear cannot list: nothing; Robot and Sensor have selectable fields)", got, want)
	}
	for _, rel := range files.Paths() {
		content, _ := files.Content(rel)
		if !bytes.HasPrefix(content, []byte(output.Header+"\n")) {
			t.Errorf("%s does not start with the generated-code header", rel)
		}
	}
	// The whole tree compiles, with the hand-written robot_expansion.go,
	// against the stand-in clientset of testdata/clientset.
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo}, goldenPkg+"/...")
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
		file + `:19: +index(name: byColorTag, field: "spec.color,spec.tags[*]", param: color): param names 1 parameter, but field spec.color,spec.tags[*] has 2 paths: give one name per path`,
		file + `:20: +index(name: byRefPair, field: "spec.color,spec.tags[*]", ref: ConfigMap): ref needs an index with one string value source`,
		file + `:21: +index(name: byRefLower, field: spec.color, ref: configMap): ref "configMap" must be a kind, such as ConfigMap`,
		file + `:43: +index(name: byName, field: metadata.name): type Loose has +index markers but no lister is generated for it`,
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
		file + `:5: +index(for: "k8s.io/api/core/v1.PodSpec", name: byNode, field: nodeName): type k8s.io/api/core/v1.PodSpec has no +genclient with the list verb`,
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

// generated returns the paths Generate writes for a, below OutputRoot, and
// that root.
func generated(t *testing.T, a Args) (*output.Files, string) {
	t.Helper()
	files, err := Generate(a)
	if err != nil {
		t.Fatal(err)
	}
	root, err := a.OutputRoot()
	if err != nil {
		t.Fatal(err)
	}
	return files, root
}

// The three layouts: informer-gen-plus's own, informer-gen's flags as
// kube_codegen.sh passes them (informers in <out>/informers, listers in
// <out>/listers), and lister-gen's (listers only).
func TestLayouts(t *testing.T) {
	const pkg = "example.dev/gen"
	out := t.TempDir()
	for _, tc := range []struct {
		name string
		args Args
		root string // OutputRoot, relative to out
		want []string
		// informerImports is the lister package the Robot informer imports.
		informerImports string
	}{{
		name: "own",
		args: Args{OutputDir: out, OutputPkg: pkg},
		root: ".",
		want: []string{
			"informers/externalversions/factory.go",
			"informers/externalversions/generic.go",
			"informers/externalversions/internalinterfaces/factory_interfaces.go",
			"informers/externalversions/toys/interface.go",
			"informers/externalversions/toys/v1/box.go",
			"informers/externalversions/toys/v1/interface.go",
			"informers/externalversions/toys/v1/robot.go",
			"listers/toys/v1/box.go",
			"listers/toys/v1/crate.go",
			"listers/toys/v1/expansion_generated.go",
			"listers/toys/v1/robot.go",
			"listers/toys/v1/robot_fieldselectors.go",
			"listers/toys/v1/sensor.go",
			"listers/toys/v1/sensor_fieldselectors.go",
		},
		informerImports: pkg + "/listers/toys/v1",
	}, {
		name: "informer-gen",
		args: Args{OutputDir: filepath.Join(out, "informers"), OutputPkg: pkg + "/informers", ListersPackage: pkg + "/listers", WithControllers: true},
		root: ".",
		want: []string{
			"controllers/toys/v1/box.go",
			"controllers/toys/v1/robot.go",
			"informers/externalversions/factory.go",
			"informers/externalversions/generic.go",
			"informers/externalversions/internalinterfaces/factory_interfaces.go",
			"informers/externalversions/toys/interface.go",
			"informers/externalversions/toys/v1/box.go",
			"informers/externalversions/toys/v1/interface.go",
			"informers/externalversions/toys/v1/robot.go",
			"listers/toys/v1/box.go",
			"listers/toys/v1/crate.go",
			"listers/toys/v1/expansion_generated.go",
			"listers/toys/v1/robot.go",
			"listers/toys/v1/robot_fieldselectors.go",
			"listers/toys/v1/sensor.go",
			"listers/toys/v1/sensor_fieldselectors.go",
		},
		informerImports: pkg + "/listers/toys/v1",
	}, {
		name: "informer-gen single directory, listers elsewhere",
		args: Args{OutputDir: filepath.Join(out, "client", "informers"), OutputPkg: pkg + "/client/informers", ListersPackage: pkg + "/listers", SingleDirectory: true},
		root: ".",
		want: []string{
			"client/informers/factory.go",
			"client/informers/generic.go",
			"client/informers/internalinterfaces/factory_interfaces.go",
			"client/informers/toys/interface.go",
			"client/informers/toys/v1/box.go",
			"client/informers/toys/v1/interface.go",
			"client/informers/toys/v1/robot.go",
			"listers/toys/v1/box.go",
			"listers/toys/v1/crate.go",
			"listers/toys/v1/expansion_generated.go",
			"listers/toys/v1/robot.go",
			"listers/toys/v1/robot_fieldselectors.go",
			"listers/toys/v1/sensor.go",
			"listers/toys/v1/sensor_fieldselectors.go",
		},
		informerImports: pkg + "/listers/toys/v1",
	}, {
		name: "lister-gen",
		args: Args{OutputDir: filepath.Join(out, "listers"), OutputPkg: pkg + "/listers"},
		root: "listers",
		want: []string{
			"toys/v1/box.go",
			"toys/v1/crate.go",
			"toys/v1/expansion_generated.go",
			"toys/v1/robot.go",
			"toys/v1/robot_fieldselectors.go",
			"toys/v1/sensor.go",
			"toys/v1/sensor_fieldselectors.go",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			a := tc.args
			a.Inputs = []string{toysInput}
			if a.ListersPackage != "" || tc.name == "own" {
				a.VersionedClientSetPackage = clientsetP
			}
			files, root := generated(t, a)
			if want := filepath.Join(out, tc.root); root != want {
				t.Errorf("output root = %s, want %s", root, want)
			}
			if got := files.Paths(); !slices.Equal(got, tc.want) {
				t.Errorf("generated\n  %v\nwant\n  %v", got, tc.want)
			}
			if tc.informerImports == "" {
				return
			}
			for _, rel := range files.Paths() {
				if strings.HasSuffix(rel, "toys/v1/robot.go") && !strings.HasPrefix(rel, "listers/") && !strings.HasPrefix(rel, "controllers/") {
					content, _ := files.Content(rel)
					if !bytes.Contains(content, []byte(`"`+tc.informerImports+`"`)) {
						t.Errorf("%s does not import the listers from %s:\n%s", rel, tc.informerImports, content)
					}
				}
			}
		})
	}
}

// Flags that cannot work are refused with a reason.
func TestArgsErrors(t *testing.T) {
	base := Args{OutputDir: t.TempDir(), OutputPkg: "example.dev/gen", VersionedClientSetPackage: clientsetP, Inputs: []string{toysInput}}
	for _, tc := range []struct {
		change func(*Args)
		want   string
	}{
		{func(a *Args) { a.InternalClientSetPackage = "example.dev/internal" }, "--internal-clientset-package is not supported"},
		{func(a *Args) { a.ListersPackage = "other.dev/listers" }, "shares no leading path with --output-pkg"},
		{func(a *Args) { a.VersionedClientSetPackage = ""; a.WithControllers = true }, "--with-controllers needs --versioned-clientset-package"},
		{func(a *Args) { a.LintRules = []string{"no-such-rule"} }, "no-such-rule"},
		{func(a *Args) { a.PluralExceptions = []string{"Leaf"} }, "is not Kind:Plural"},
		{func(a *Args) { a.OutputPkg = "" }, "--output-pkg must be specified"},
	} {
		a := base
		tc.change(&a)
		if err := a.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate() = %v, want an error containing %q", err, tc.want)
		}
	}
	if err := base.Validate(); err != nil {
		t.Errorf("Validate() of good args = %v", err)
	}
}

// Controllers are generated only on request; without the request, those of
// an earlier run are stale.
func TestControllersAreOptIn(t *testing.T) {
	dir := t.TempDir()
	if err := Run(args(dir, toysInput)); err != nil {
		t.Fatal(err)
	}
	controller := filepath.Join(dir, "controllers", "toys", "v1", "robot.go")
	if _, err := os.Stat(controller); err != nil {
		t.Fatalf("with WithControllers: %v", err)
	}
	without := args(dir, toysInput)
	without.WithControllers = false
	if err := Run(without); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(controller); !os.IsNotExist(err) {
		t.Fatalf("without WithControllers, the earlier controller is still there: %v", err)
	}
}

// As lister-gen: a hand-written <kind>_expansion.go in a lister package
// declares that kind's expansion interfaces instead of
// expansion_generated.go, and no run overwrites or removes it, nor any other
// file without the generated-code header; --verify-only does not call them
// stale.
func TestExpansionFilesAreRespected(t *testing.T) {
	dir := t.TempDir()
	listers := filepath.Join(dir, "listers", "toys", "v1")
	handWritten := map[string][]byte{
		filepath.Join(listers, "robot_expansion.go"): []byte("package v1\n\ntype RobotListerExpansion interface{}\n\ntype RobotNamespaceListerExpansion interface{}\n"),
		filepath.Join(listers, "box.go.orig"):        []byte("a backup\n"),
		filepath.Join(dir, "informers", "README.md"): []byte("notes\n"),
		// A user's Go file among the generated ones, without the header.
		filepath.Join(dir, "informers", "externalversions", "extra.go"): []byte("package externalversions\n"),
	}
	for path, content := range handWritten {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 { // the first run writes, the second finds the files in place
		if err := Run(args(dir, toysInput)); err != nil {
			t.Fatal(err)
		}
	}
	expansions, err := os.ReadFile(filepath.Join(listers, "expansion_generated.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"RobotListerExpansion", "RobotNamespaceListerExpansion"} {
		if bytes.Contains(expansions, []byte(name)) {
			t.Errorf("expansion_generated.go declares %s, which robot_expansion.go declares", name)
		}
	}
	for _, name := range []string{"BoxListerExpansion", "CrateListerExpansion", "CrateNamespaceListerExpansion"} {
		if !bytes.Contains(expansions, []byte("type "+name+" interface{}")) {
			t.Errorf("expansion_generated.go does not declare %s:\n%s", name, expansions)
		}
	}
	for path, content := range handWritten {
		if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, content) {
			t.Errorf("%s was changed or removed: %q, %v", path, got, err)
		}
	}
	verify := args(dir, toysInput)
	verify.VerifyOnly = true
	if err := Run(verify); err != nil {
		t.Errorf("--verify-only with hand-written files: %v", err)
	}

	// Without the hand-written file, expansion_generated.go declares both.
	if err := os.Remove(filepath.Join(listers, "robot_expansion.go")); err != nil {
		t.Fatal(err)
	}
	if err := Run(verify); err == nil || !strings.Contains(err.Error(), "differs: listers/toys/v1/expansion_generated.go") {
		t.Errorf("--verify-only after removing robot_expansion.go = %v, want expansion_generated.go to differ", err)
	}
	if err := Run(args(dir, toysInput)); err != nil {
		t.Fatal(err)
	}
	expansions, _ = os.ReadFile(filepath.Join(listers, "expansion_generated.go"))
	if !bytes.Contains(expansions, []byte("type RobotNamespaceListerExpansion interface{}")) {
		t.Errorf("expansion_generated.go without robot_expansion.go:\n%s", expansions)
	}
}

// The summary of a run counts the kinds and indexes of the model and what
// happened to each file: all written by a first run, all unchanged by a
// second, and removed when a kind is no longer generated.
func TestRunSummary(t *testing.T) {
	dir := t.TempDir()
	first, err := RunWithSummary(args(dir, toysInput))
	if err != nil {
		t.Fatal(err)
	}
	// Box, Crate, Robot and Sensor (Gear cannot list: no lister), with the
	// 41 +index markers of testdata/apis/toys/v1; Robot and Sensor have
	// field selector files.
	const kinds, indexes, files = 4, 41, 16
	if first.Kinds != kinds || first.Indexes != indexes || len(first.Written) != files || len(first.Unchanged) != 0 || len(first.Removed) != 0 {
		t.Errorf("first run: %d kinds, %d indexes, %d written, %d unchanged, %d removed; want %d, %d, %d, 0, 0",
			first.Kinds, first.Indexes, len(first.Written), len(first.Unchanged), len(first.Removed), kinds, indexes, files)
	}
	if want := "informer-gen-plus: 4 kinds, 41 indexes: 16 files written, 0 unchanged, 0 removed ("; !strings.HasPrefix(first.String(), want) {
		t.Errorf("summary line %q, want it to start with %q", first, want)
	}
	if !strings.Contains(first.Actions(), "  written   listers/toys/v1/robot.go\n") {
		t.Errorf("actions do not list robot.go as written:\n%s", first.Actions())
	}

	second, err := RunWithSummary(args(dir, toysInput))
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Written) != 0 || len(second.Unchanged) != files || len(second.Removed) != 0 {
		t.Errorf("second run: %s, want all unchanged", second)
	}
	if want := ": 0 files written, 16 unchanged, 0 removed ("; !strings.Contains(second.String(), want) {
		t.Errorf("second summary %q", second)
	}

	// The lister a kind got before its +genclient marker was deleted: it
	// carries the header and is no longer generated.
	robot, err := os.ReadFile(filepath.Join(dir, "listers", "toys", "v1", "robot.go"))
	if err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(dir, "listers", "toys", "v1", "gadget.go")
	if err := os.WriteFile(gone, robot, 0o644); err != nil {
		t.Fatal(err)
	}
	third, err := RunWithSummary(args(dir, toysInput))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(third.Removed, []string{"listers/toys/v1/gadget.go"}) || len(third.Written) != 0 || len(third.Unchanged) != files {
		t.Errorf("run after a kind went away: %s, removed %v", third, third.Removed)
	}
	if !strings.Contains(third.String(), ": 0 files written, 16 unchanged, 1 removed (") {
		t.Errorf("summary line %q", third)
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("%s was not removed: %v", gone, err)
	}
}

// --verify-only reports the unified diff of each drifted file: a hand-edited
// line shows as removed, the generated one as added.
func TestVerifyOnlyDiff(t *testing.T) {
	dir := t.TempDir()
	if err := Run(args(dir, toysInput)); err != nil {
		t.Fatal(err)
	}
	robot := filepath.Join(dir, "listers", "toys", "v1", "robot.go")
	content, err := os.ReadFile(robot)
	if err != nil {
		t.Fatal(err)
	}
	const line = "type RobotLister interface {"
	if !bytes.Contains(content, []byte(line)) {
		t.Fatalf("robot.go has no line %q", line)
	}
	edited := bytes.Replace(content, []byte(line), []byte("type RobotLister interface { // edited"), 1)
	if err := os.WriteFile(robot, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	verify := args(dir, toysInput)
	verify.VerifyOnly = true
	s, err := RunWithSummary(verify)
	if err == nil || !strings.Contains(err.Error(), "differs: listers/toys/v1/robot.go") {
		t.Fatalf("verify of an edited file = %v", err)
	}
	for _, want := range []string{
		"--- listers/toys/v1/robot.go (on disk)\n+++ listers/toys/v1/robot.go (generated)\n@@ ",
		"\n-" + line + " // edited\n+" + line + "\n",
	} {
		if !strings.Contains(s.Diff, want) {
			t.Errorf("diff does not contain %q:\n%s", want, s.Diff)
		}
	}
	if want := "informer-gen-plus --verify-only: 4 kinds, 41 indexes: 1 file to write, 15 unchanged, 0 to remove ("; !strings.HasPrefix(s.String(), want) {
		t.Errorf("summary line %q, want it to start with %q", s, want)
	}
	if got, _ := os.ReadFile(robot); !bytes.Equal(got, edited) {
		t.Error("--verify-only changed the edited file")
	}
}

// Every bad selectable field marker, and every selectableField index that
// names no selectable field, is reported with its file:line and a reason;
// the selectable fields of a kind without a lister are not checked.
func TestBadSelectableFields(t *testing.T) {
	dir := t.TempDir()
	err := Run(args(dir, testdata+"/apis/badselectable/v1"))
	if err == nil {
		t.Fatal("Run succeeded on bad selectable fields")
	}
	file := filepath.Join("testdata", "apis", "badselectable", "v1", "types.go")
	for _, want := range []string{
		file + `:12: +kubebuilder:selectablefield:JSONPath=.spec.colour: JSONPath .spec.colour: spec has no field "colour"; did you mean spec.color?`,
		file + `:13: +kubebuilder:selectablefield:JSONPath=.spec: JSONPath .spec: spec is a struct (ThingSpec)`,
		file + `:14: +kubebuilder:selectablefield:JSONPath=.spec.tags: JSONPath .spec.tags: spec.tags is a list: an index value must be a string, bool or integer (or a pointer to one)`,
		file + `:15: +kubebuilder:selectablefield:JSONPath=.spec.labels: JSONPath .spec.labels: spec.labels is a map`,
		file + `:16: +kubebuilder:selectablefield:JSONPath=.spec.parts.name: JSONPath .spec.parts.name: spec.parts is a list, not a struct`,
		file + `:18: +kubebuilder:selectablefield:JSONPath=".spec.color": selectable field spec.color of Thing is declared twice (first at `,
		file + `:19: +kubebuilder:selectablefield:JSONPath=spec.size: JSONPath "spec.size" must start with a dot`,
		file + `:20: +kubebuilder:selectablefield:JSONPath=.metadata.name: JSONPath ".metadata.name" points into metadata`,
		file + `:21: +kubebuilder:selectablefield:JSONPath=.spec.parts[*].name: JSONPath ".spec.parts[*].name" must be a simple dotted path`,
		file + `:22: +index(name: bySize, selectableField: spec.size): selectableField spec.size is not a selectable field of Thing: add +kubebuilder:selectablefield:JSONPath=.spec.size`,
		file + `:62: +kubebuilder:selectablefield:JSONPath=.spec.i: Many has 9 selectable fields; the API server accepts at most 8 per version`,
		file + `:63: +index(name: aField, field: spec.a): index aField would generate ManyAField, which names a field selector declaration of the selectable field spec.a: rename the index`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not report\n  %s\ngot:\n%v", want, err)
		}
	}
	for _, unwanted := range []string{"byColor", "spec.nothing", "[*] to index"} {
		if strings.Contains(err.Error(), unwanted) {
			t.Errorf("error reports %q, which is no error of the input:\n%v", unwanted, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed run wrote %v", entries)
	}
}
