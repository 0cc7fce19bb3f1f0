package generators

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"k8s.io/gengo/v2/types"
)

// An --intern-kinds entry is group/Kind or group/*, with "core" for the
// legacy group; anything else is refused, naming the entry.
func TestParseInternKind(t *testing.T) {
	for _, tc := range []struct{ entry, group, kind string }{
		{"core/Pod", "", "Pod"},
		{"apps/*", "apps", "*"},
		{"apps/Deployment", "apps", "Deployment"},
		{"shop.example.dev/Widget", "shop.example.dev", "Widget"},
	} {
		group, kind, err := parseInternKind(tc.entry)
		if err != nil || group != tc.group || kind != tc.kind {
			t.Errorf("parseInternKind(%q) = %q, %q, %v; want %q, %q", tc.entry, group, kind, err, tc.group, tc.kind)
		}
	}
	for _, entry := range []string{"Pod", "/Pod", "apps/", "a/b/c", "", "/", "core/Pod/"} {
		group, kind, err := parseInternKind(entry)
		if err == nil {
			t.Errorf("parseInternKind(%q) = %q, %q; want an error", entry, group, kind)
			continue
		}
		if !strings.Contains(err.Error(), "--intern-kinds") || !strings.Contains(err.Error(), `"`+entry+`"`) {
			t.Errorf("parseInternKind(%q): error %q names neither the flag nor the entry", entry, err)
		}
	}
}

// --intern-kinds needs --with-interning, and Validate refuses a malformed
// entry before anything is read.
func TestArgsInternKinds(t *testing.T) {
	base := Args{OutputDir: t.TempDir(), OutputPkg: "example.dev/gen", VersionedClientSetPackage: clientsetP, Inputs: []string{toysInput}}
	for _, tc := range []struct {
		change func(*Args)
		want   string // empty: valid
	}{
		{func(a *Args) { a.InternKinds = []string{"core/Pod"} }, "--intern-kinds needs --with-interning"},
		{func(a *Args) { a.WithInterning = true; a.InternKinds = []string{"core/Pod", "Pod"} }, `"Pod" is not group/Kind`},
		{func(a *Args) { a.WithInterning = true; a.InternKinds = []string{"apps/"} }, `"apps/" is not group/Kind`},
		{func(a *Args) { a.WithInterning = true; a.InternKinds = []string{"core/Pod", "toys.example.dev/*"} }, ""},
		{func(a *Args) { a.WithInterning = true }, ""},
	} {
		a := base
		tc.change(&a)
		err := a.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Validate() with --with-interning=%v --intern-kinds=%v = %v, want nil", a.WithInterning, a.InternKinds, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("Validate() with --with-interning=%v --intern-kinds=%v = %v, want an error containing %q", a.WithInterning, a.InternKinds, err, tc.want)
		}
	}
}

// internModel is a small model: the core group (Pod and ConfigMap with
// listers, Binding without), apps (Deployment and ReplicaSet) and
// shop.example.dev (Widget with a lister, Gadget without), as BuildModel
// lays them out.
func internModel() *Model {
	m := &Model{}
	group := func(pkgName, name string, kinds map[string]bool) {
		g := &Group{PackageName: pkgName, Name: name, GoName: strings.ToUpper(pkgName[:1]) + pkgName[1:]}
		pkg := "example.dev/apis/" + pkgName + "/v1"
		v := &Version{Group: g, Name: "v1", Package: pkg}
		for _, k := range slices.Sorted(maps.Keys(kinds)) {
			typ := &types.Type{Name: types.Name{Package: pkg, Name: k}, Kind: types.Struct}
			v.Kinds = append(v.Kinds, &Kind{Version: v, Type: typ, Namespaced: true, Lister: kinds[k], Informer: kinds[k]})
		}
		g.Versions = []*Version{v}
		m.Groups = append(m.Groups, g)
	}
	group("apps", "apps", map[string]bool{"Deployment": true, "ReplicaSet": true})
	group("core", "", map[string]bool{"Pod": true, "ConfigMap": true, "Binding": false})
	group("shop", "shop.example.dev", map[string]bool{"Widget": true, "Gadget": false})
	return m
}

// interned returns the kinds of m with Intern set, as group/Kind.
func interned(m *Model) []string {
	var out []string
	for _, g := range m.Groups {
		for _, v := range g.Versions {
			for _, k := range v.Kinds {
				if k.Intern {
					name := g.Name
					if name == "" {
						name = "core"
					}
					out = append(out, name+"/"+k.Type.Name.Name)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// selectInterned sets Intern on exactly the kinds with a lister the
// entries select (all of them without entries), never on a kind without a
// lister, and fails, naming each entry, when an entry selects nothing.
func TestSelectInterned(t *testing.T) {
	all := []string{"apps/Deployment", "apps/ReplicaSet", "core/ConfigMap", "core/Pod", "shop.example.dev/Widget"}
	for _, tc := range []struct {
		entries []string
		want    []string
	}{
		{nil, all},
		{[]string{}, all},
		{[]string{"core/Pod"}, []string{"core/Pod"}},
		{[]string{"apps/*"}, []string{"apps/Deployment", "apps/ReplicaSet"}},
		{[]string{"core/*"}, []string{"core/ConfigMap", "core/Pod"}},
		{[]string{"shop.example.dev/*"}, []string{"shop.example.dev/Widget"}},
		{[]string{"shop.example.dev/Widget", "core/Pod"}, []string{"core/Pod", "shop.example.dev/Widget"}},
		{[]string{"apps/*", "apps/Deployment"}, []string{"apps/Deployment", "apps/ReplicaSet"}},
		{[]string{"core/*", "apps/*", "shop.example.dev/*"}, all},
	} {
		m := internModel()
		if err := selectInterned(m, tc.entries); err != nil {
			t.Errorf("selectInterned(%q) = %v", tc.entries, err)
			continue
		}
		if got := interned(m); !slices.Equal(got, tc.want) {
			t.Errorf("selectInterned(%q) interns %q, want %q", tc.entries, got, tc.want)
		}
	}

	// A second selection over the same model replaces the first.
	m := internModel()
	if err := selectInterned(m, nil); err != nil {
		t.Fatal(err)
	}
	if err := selectInterned(m, []string{"apps/ReplicaSet"}); err != nil {
		t.Fatal(err)
	}
	if got := interned(m); !slices.Equal(got, []string{"apps/ReplicaSet"}) {
		t.Errorf("after selecting all then apps/ReplicaSet, interned %q", got)
	}

	for _, tc := range []struct {
		entries []string
		bad     []string // the entries the error names
	}{
		{[]string{"core/Binding"}, []string{"core/Binding"}},                       // no lister
		{[]string{"shop.example.dev/Gadget"}, []string{"shop.example.dev/Gadget"}}, // no lister
		{[]string{"apps/Pod"}, []string{"apps/Pod"}},                               // another group's kind
		{[]string{"core/Pod", "batch/*", "apps/Nope"}, []string{"batch/*", "apps/Nope"}},
		{[]string{"example.dev/*"}, []string{"example.dev/*"}}, // not a suffix match
	} {
		m := internModel()
		err := selectInterned(m, tc.entries)
		if err == nil {
			t.Errorf("selectInterned(%q) = nil, want an error naming %q", tc.entries, tc.bad)
			continue
		}
		for _, e := range tc.bad {
			if !strings.Contains(err.Error(), "--intern-kinds: "+e+" selects no kind") {
				t.Errorf("selectInterned(%q) = %v, want it to name %s", tc.entries, err, e)
			}
		}
		for _, e := range tc.entries {
			if !slices.Contains(tc.bad, e) && strings.Contains(err.Error(), e+" selects") {
				t.Errorf("selectInterned(%q) = %v, naming %s, which selects a kind", tc.entries, err, e)
			}
		}
	}

	// A malformed entry is an error, even if Validate was skipped.
	if err := selectInterned(internModel(), []string{"Pod"}); err == nil || !strings.Contains(err.Error(), `"Pod" is not group/Kind`) {
		t.Errorf(`selectInterned(["Pod"]) = %v, want the parse error`, err)
	}
}

// internFiles returns the interning files among the generated paths.
func internFiles(paths []string) []string {
	var out []string
	for _, p := range paths {
		if isInternFile(p) {
			out = append(out, p)
		}
	}
	return out
}

// A run over the toys with --intern-kinds limited to one kind writes the
// interning files of that kind only: with Robot (an informer), robot's
// file, the package's shared file with InternTransform over Robot alone,
// and the factory's Intern over Robot alone, which the factory sets; with
// Crate (a lister, no informer), crate's file and the package's, and no
// interning in the factory, which then must not refer to an Intern. (An
// entry naming a kind without a lister, such as Gear, fails the run:
// TestSelectInterned covers it without another run of the generator.)
func TestInternKindsLimitTheRun(t *testing.T) {
	run := func(kinds ...string) (map[string]string, error) {
		a := args(filepath.Join(t.TempDir(), "gen"), toysInput)
		a.OutputPkg = internGoldenPkg
		a.WithInterning = true
		a.InternKinds = kinds
		files, err := Generate(a)
		if err != nil {
			return nil, err
		}
		out := map[string]string{}
		for _, p := range files.Paths() {
			b, _ := files.Content(p)
			out[p] = string(b)
		}
		return out, nil
	}
	paths := func(files map[string]string) []string { return slices.Sorted(maps.Keys(files)) }

	robot, err := run("toys.example.dev/Robot")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"informers/externalversions/intern_generated.go", "listers/toys/v1/intern_generated.go", "listers/toys/v1/robot_intern.go"}
	if got := internFiles(paths(robot)); !slices.Equal(got, want) {
		t.Errorf("with --intern-kinds=toys.example.dev/Robot, interning files %v, want %v", got, want)
	}
	factoryIntern := robot["informers/externalversions/intern_generated.go"]
	if n := strings.Count(factoryIntern, "\tcase "); n != 1 || !strings.Contains(factoryIntern, ".InternRobotUpdate(o, prev)") {
		t.Errorf("the factory's Intern has %d cases, want Robot's alone:\n%s", n, factoryIntern)
	}
	shared := robot["listers/toys/v1/intern_generated.go"]
	if !strings.Contains(shared, "\t\tInternRobot(o)\n") || strings.Count(shared, "\tcase ") != 1 {
		t.Errorf("InternTransform does not cover Robot alone:\n%s", shared)
	}
	if factory := robot["informers/externalversions/factory.go"]; !strings.Contains(factory, "WithIntern(Intern)") || !strings.Contains(factory, "func WithoutInterning()") {
		t.Error("the factory does not set its Intern with --intern-kinds=toys.example.dev/Robot")
	}

	crate, err := run("toys.example.dev/Crate")
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"listers/toys/v1/crate_intern.go", "listers/toys/v1/intern_generated.go"}
	if got := internFiles(paths(crate)); !slices.Equal(got, want) {
		t.Errorf("with --intern-kinds=toys.example.dev/Crate, interning files %v, want %v", got, want)
	}
	if factory := crate["informers/externalversions/factory.go"]; strings.Contains(factory, "Intern") {
		t.Error("the factory interns with --intern-kinds naming a kind without an informer")
	}
}
