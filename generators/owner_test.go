package generators

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An owner marker that names only the kind takes the API group of the input
// package defining that kind; a qualified one takes the group it names (core
// for the core group). The generated index functions compare both the kind
// and the group, through the runtime's one definition, cache.ControllerOf.
func TestOwnerIndexesCompareTheOwnersGroupAndKind(t *testing.T) {
	for file, want := range map[string][]string{
		"listers/toys/v1/robot.go": {
			`runtimecache.ControllerOf(obj, schema.GroupKind{Group: "toys.example.dev", Kind: "Box"})`,
			"indexed by the name of their controlling Box (toys.example.dev)",
		},
		"listers/toys/v1/box.go": {
			`runtimecache.ControllerOf(obj, schema.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"})`,
			`runtimecache.ControllerOf(obj, schema.GroupKind{Group: "", Kind: "Node"})`,
			"indexed by the name of their controlling Node (core)",
		},
	} {
		content, err := os.ReadFile(filepath.Join(goldenDir, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !bytes.Contains(content, []byte(w)) {
				t.Errorf("%s does not contain %s", file, w)
			}
		}
		if bytes.Contains(content, []byte("GetControllerOf")) {
			t.Errorf("%s reads owner references itself instead of calling cache.ControllerOf", file)
		}
	}
}

// An owner kind whose group the input packages do not settle, and an owner
// argument of the wrong form, fail the run with file:line and the qualified
// form to write instead.
func TestOwnerMarkersWhoseGroupIsUnknownOrAmbiguousFailTheRun(t *testing.T) {
	err := Run(args(t.TempDir(), testdata+"/apis/ownera/v1", testdata+"/apis/ownerb/v1"))
	if err == nil {
		t.Fatal("Run succeeded on owner markers without a group")
	}
	file := filepath.Join("testdata", "apis", "ownera", "v1", "types.go")
	for _, want := range []string{
		file + `:8: +index(name: byWidget, owner: Widget): owner kind Widget is a kind of several groups of the input packages; name the group: owner: "a.example.dev/Widget" or "b.example.dev/Widget"`,
		file + `:9: +index(name: bySprocket, owner: Sprocket): owner kind Sprocket is not a kind of the input packages, so its API group is unknown; name the group: owner: "<group>/Sprocket" ("core/Sprocket" for the core group)`,
		file + `:12: +index(name: byVersioned, owner: "a.example.dev/v1/Widget"): owner "a.example.dev/v1/Widget" must be Kind or group/Kind`,
		file + `:13: +index(name: byCoreNode, owner: "/Node"): owner "/Node" has an empty group; the core group is written core, such as "core/Node"`,
		file + `:14: +index(name: bySpec, owner: GadgetSpec): owner kind GadgetSpec is not a kind of the input packages`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not report\n  %s\ngot:\n%v", want, err)
		}
	}
	for _, line := range []string{":10:", ":11:"} {
		if strings.Contains(err.Error(), file+line) {
			t.Errorf("a resolvable owner marker (line %s) is reported:\n%v", line, err)
		}
	}
}

// The default name of a generated controller, used when Options.Name is
// empty, includes the version: controller names are unique in a process, and
// two versions of a kind can each have a controller.
func TestDefaultControllerNamesIncludeTheVersion(t *testing.T) {
	for file, want := range map[string]string{
		"controllers/toys/v1/robot.go": `opts.Name = "robots.v1.toys.example.dev"`,
		"controllers/toys/v1/box.go":   `opts.Name = "boxes.v1.toys.example.dev"`,
	} {
		content, err := os.ReadFile(filepath.Join(goldenDir, file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(content, []byte(want)) {
			t.Errorf("%s does not default the name with %s", file, want)
		}
	}
}
