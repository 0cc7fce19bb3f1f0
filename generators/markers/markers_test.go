package markers

import (
	"errors"
	"fmt"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

var here = token.Position{Filename: "types.go", Line: 7, Column: 4}

func TestParseAcceptsEveryForm(t *testing.T) {
	field := func(value string) fieldpath.IndexSpec {
		key, err := fieldpath.Parse(value)
		if err != nil {
			t.Fatalf("fieldpath.Parse(%q): %v", value, err)
		}
		return fieldpath.IndexSpec{Field: key}
	}
	for _, tc := range []struct {
		line         string
		packageLevel bool
		want         Marker
	}{
		{"+index(name: byColor, field: spec.color)", false, Marker{Name: "byColor", Source: FromField, Value: "spec.color", Spec: field("spec.color")}},
		{`+index(name: byImage, field: "spec.containers[*].image")`, false, Marker{Name: "byImage", Source: FromField, Value: "spec.containers[*].image", Spec: field("spec.containers[*].image")}},
		{`+index(name: byPhaseNode, field: "status.phase,spec.nodeName")`, false, Marker{Name: "byPhaseNode", Source: FromField, Value: "status.phase,spec.nodeName", Spec: field("status.phase,spec.nodeName")}},
		{"+index(name: byTeam, label: team)", false, Marker{Name: "byTeam", Source: FromLabel, Value: "team", Spec: fieldpath.IndexSpec{Label: "team"}}},
		{`+index(name: byOwnerTeam, annotation: "example.dev/owner-team")`, false, Marker{Name: "byOwnerTeam", Source: FromAnnotation, Value: "example.dev/owner-team", Spec: fieldpath.IndexSpec{Annotation: "example.dev/owner-team"}}},
		{"+index(name: byShop, owner: Shop)", false, Marker{Name: "byShop", Source: FromOwner, Value: "Shop", Spec: fieldpath.IndexSpec{Owner: schema.GroupKind{Kind: "Shop"}, OwnerUnqualified: true}}},
		{`+index(name: byReplicaSet, owner: "apps/ReplicaSet")`, false, Marker{Name: "byReplicaSet", Source: FromOwner, Value: "apps/ReplicaSet", Spec: fieldpath.IndexSpec{Owner: schema.GroupKind{Group: "apps", Kind: "ReplicaSet"}}}},
		{`+index(name: byZone, func: "example.dev/shop/indexing.ZoneOf")`, false, Marker{Name: "byZone", Source: FromFunc, Value: "example.dev/shop/indexing.ZoneOf"}},
		{`+index(for: "k8s.io/api/core/v1.Pod", name: byNode, field: spec.nodeName)`, true, Marker{For: "k8s.io/api/core/v1.Pod", Name: "byNode", Source: FromField, Value: "spec.nodeName", Spec: field("spec.nodeName")}},
		{`+index(name: byZone, func: "example.dev/shop/indexing.ZoneOf", param: zone)`, false, Marker{Name: "byZone", Source: FromFunc, Value: "example.dev/shop/indexing.ZoneOf", Param: "zone"}},
		{`+index(name: byPhaseNode, field: "status.phase,spec.nodeName", param: "phase, node")`, false, Marker{Name: "byPhaseNode", Source: FromField, Value: "status.phase,spec.nodeName", Param: "phase, node", Spec: field("status.phase,spec.nodeName")}},
	} {
		got, err := Parse(here, tc.line, tc.packageLevel)
		if err != nil {
			t.Errorf("Parse(%s): %v", tc.line, err)
			continue
		}
		tc.want.Pos, tc.want.Text = here, tc.line
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Parse(%s) = %+v, want %+v", tc.line, got, tc.want)
		}
	}
}

// Every malformed marker is an error that starts with file:line, quotes the
// marker and says what is wrong.
func TestParseRejectsMalformedMarkers(t *testing.T) {
	for _, tc := range []struct {
		line         string
		packageLevel bool
		wantMsg      string
	}{
		{"+index(name: byColor, field: spec.color", false, "cannot parse"},
		{"+index(name: byColor, feild: spec.color)", false, `unknown argument "feild"`},
		{"+index(byColor)", false, "arguments must be named"},
		{"+index(name: byColor, name: byTeam, field: x)", false, `argument "name" is given twice`},
		{"+index(name: byColor, field: 3)", false, `argument "field" must be an identifier or a string`},
		{`+index(name: byColor, field: "")`, false, `argument "field" is empty`},
		{"+index(field: spec.color)", false, "has no name argument"},
		{"+index(name: ByColor, field: spec.color)", false, `name "ByColor" must be a Go identifier starting with a lower-case letter`},
		{`+index(name: "by-color", field: spec.color)`, false, `name "by-color" must be a Go identifier`},
		{"+index(name: byColor)", false, "has no source; give exactly one of field, label, annotation, owner, func, selectableField"},
		{"+index(name: byColor, field: spec.color, label: team)", false, "has both field and label"},
		{"+index(name: byNode, field: spec.nodeName)", true, `on a package comment needs for`},
		{`+index(for: "k8s.io/api/core/v1.Pod", name: byNode, field: spec.nodeName)`, false, "for is only allowed on a package comment"},
		{`+index(for: Pod, name: byNode, field: spec.nodeName)`, true, `for "Pod" must be a fully qualified type`},
		{`+index(name: byZone, func: ZoneOf)`, false, `func "ZoneOf" must be a fully qualified function`},
		{"+index(name: byColor, field: spec.color)=x", false, "takes no value"},
		{`+index(name: byOwner, owner: "apps/v1/ReplicaSet")`, false, `owner "apps/v1/ReplicaSet" must be Kind or group/Kind`},
		{`+index(name: byOwner, owner: replicaSet)`, false, `"replicaSet" is not a kind`},
		{`+index(name: byColor, field: "spec..color")`, false, "spec..color"},
		{`+index(name: byTeam, label: "team name")`, false, `label "team name" is not a label key`},
		{`+index(name: byTeam, label: "Example.dev/team")`, false, `label "Example.dev/team" is not a label key`},
		{`+index(name: byTeam, label: "example.dev/-team")`, false, `label "example.dev/-team" is not a label key`},
		{`+index(name: byOwnerTeam, annotation: "example.dev/owner team")`, false, `annotation "example.dev/owner team" is not an annotation key`},
		{`+index(name: byOwnerTeam, annotation: "a/b/c")`, false, `annotation "a/b/c" is not an annotation key`},
		{`+index(name: byZone, func: "a.b/c.ZoneOf", param: Zone)`, false, `param "Zone" must be a Go identifier starting with a lower-case letter`},
		{`+index(name: byZone, func: "a.b/c.ZoneOf", param: "zone-name")`, false, `param "zone-name" must be a Go identifier`},
		{`+index(name: byZone, func: "a.b/c.ZoneOf", param: range)`, false, `param "range" is a Go keyword`},
		{`+index(name: byZone, func: "a.b/c.ZoneOf", param: string)`, false, `param "string" is a predeclared Go identifier`},
		{`+index(name: byZone, func: "a.b/c.ZoneOf", param: yield)`, false, `param "yield" is a name the generated lookups use`},
		{`+index(name: byZone, func: "a.b/c.ZoneOf", param: "zone, region")`, false, "param names 2 parameters, but a func index is looked up by one value"},
		{`+index(name: byPair, field: "spec.a,spec.b", param: "a, a")`, false, "param names a twice"},
		{`+index(name: byPair, field: "spec.a,spec.b", param: "a,")`, false, `param "" must be a Go identifier`},
	} {
		_, err := Parse(here, tc.line, tc.packageLevel)
		var merr *Error
		if !errors.As(err, &merr) {
			t.Errorf("Parse(%s) = %v, want a marker error", tc.line, err)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "types.go:7: "+tc.line+": ") || !strings.Contains(msg, tc.wantMsg) {
			t.Errorf("Parse(%s) error = %q, want it to start with the position and marker and contain %q", tc.line, msg, tc.wantMsg)
		}
	}
}

// Parse knows exactly the arguments of Args, and every argument's examples
// parse, on a package comment for those only allowed there.
func TestArgsAreTheGrammar(t *testing.T) {
	for _, a := range Args {
		if a.Summary == "" || a.Doc == "" || a.Syntax == "" || len(a.Examples) == 0 {
			t.Errorf("argument %s is not fully documented: %+v", a.Name, a)
		}
		for _, ex := range a.Examples {
			m, err := Parse(here, ex, a.PackageOnly)
			if err != nil {
				t.Errorf("example of %s: %v", a.Name, err)
				continue
			}
			if !strings.Contains(ex, a.Name+":") {
				t.Errorf("example %s of %s does not use it", ex, a.Name)
			}
			if a.Source && string(m.Source) != a.Name {
				t.Errorf("example %s: source %s, want %s", ex, m.Source, a.Name)
			}
		}
	}
	_, err := Parse(here, "+index(name: byColor, colour: spec.color)", false)
	if err == nil || !strings.Contains(err.Error(), "the arguments are name, param, ref, for and one of field, label, annotation, owner, func, selectableField") {
		t.Errorf("unknown argument: %v", err)
	}
}

func TestParamNames(t *testing.T) {
	for in, want := range map[string][]string{
		"":              nil,
		"zone":          {"zone"},
		"phase, node":   {"phase", "node"},
		" phase ,node ": {"phase", "node"},
	} {
		if got := ParamNames(in); !slices.Equal(got, want) {
			t.Errorf("ParamNames(%q) = %q, want %q", in, got, want)
		}
	}
}

// An owner argument is read by fieldpath.ParseOwner, the form the run-time
// indexes take too, with its messages.
func TestParseReadsOwners(t *testing.T) {
	for _, tc := range []struct {
		value       string
		want        schema.GroupKind
		unqualified bool
		wantErr     string
	}{
		{value: "Shop", want: schema.GroupKind{Kind: "Shop"}, unqualified: true},
		{value: "apps/ReplicaSet", want: schema.GroupKind{Group: "apps", Kind: "ReplicaSet"}},
		{value: "shop.example.dev/Widget", want: schema.GroupKind{Group: "shop.example.dev", Kind: "Widget"}},
		{value: "core/Node", want: schema.GroupKind{Kind: "Node"}},
		{value: "/Node", wantErr: `the core group is written core, such as "core/Node"`},
		{value: "v1/Node", wantErr: `names a version, not a group; write group/Kind ("core/Node" for the core group)`},
		{value: "apps/v1/ReplicaSet", wantErr: "must be Kind or group/Kind"},
		{value: "Apps/ReplicaSet", wantErr: `"Apps" is not an API group name`},
		{value: "apps/", wantErr: `"" is not a kind`},
		{value: "apps/replicaSet", wantErr: `"replicaSet" is not a kind`},
		{value: "Replica-Set", wantErr: `"Replica-Set" is not a kind`},
	} {
		line := fmt.Sprintf("+index(name: byOwner, owner: %q)", tc.value)
		m, err := Parse(here, line, false)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("Parse(%s): %v", line, err)
		case tc.wantErr == "" && (m.Spec.Owner != tc.want || m.Spec.OwnerUnqualified != tc.unqualified):
			t.Errorf("Parse(%s) = owner %+v (unqualified %v), want %+v (unqualified %v)", line, m.Spec.Owner, m.Spec.OwnerUnqualified, tc.want, tc.unqualified)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("Parse(%s) = %+v, %v; want an error containing %q", line, m.Spec, err, tc.wantErr)
		}
	}
}

func TestScanFindsMarkersWithPositions(t *testing.T) {
	dir := filepath.Join("testdata", "scan")
	pkg, err := Scan(dir)
	if err == nil {
		t.Fatal("Scan: no error for the Broken type's markers")
	}
	file := filepath.Join(dir, "types.go")
	for _, want := range []string{
		file + ":26: +index(name: ByColor, field: spec.color): name \"ByColor\"",
		file + ":27: +index(name: byColor, field: spec.color, label: team): has both field and label",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Scan error %q does not report %q", err, want)
		}
	}
	check := func(what string, got []Marker, wantLines []int, wantNames []string) {
		t.Helper()
		if len(got) != len(wantNames) {
			t.Fatalf("%s: %d markers, want %d: %+v", what, len(got), len(wantNames), got)
		}
		for i, m := range got {
			if m.Name != wantNames[i] || m.Pos.Line != wantLines[i] || m.Pos.Filename != file {
				t.Errorf("%s[%d] = %s at %s, want %s at %s:%d", what, i, m.Name, m.Pos, wantNames[i], file, wantLines[i])
			}
		}
	}
	check("package", pkg.Package, []int{3}, []string{"byNode"})
	check("Widget", pkg.Types["Widget"], []int{9, 10}, []string{"byColor", "byImage"})
	check("Gadget", pkg.Types["Gadget"], []int{17}, []string{"byTeam"})
	check("Tagged", pkg.Types["Tagged"], []int{30}, []string{"byShape"})
	if ms := pkg.Types["Plain"]; len(ms) != 0 {
		t.Errorf("Plain has markers %+v", ms)
	}
}

func TestSplitQualifiedAndMethodName(t *testing.T) {
	for in, want := range map[string][2]string{
		"k8s.io/api/core/v1.Pod":           {"k8s.io/api/core/v1", "Pod"},
		"example.dev/shop/indexing.ZoneOf": {"example.dev/shop/indexing", "ZoneOf"},
		"fmt.Sprint":                       {"fmt", "Sprint"},
	} {
		pkg, name, ok := SplitQualified(in)
		if !ok || pkg != want[0] || name != want[1] {
			t.Errorf("SplitQualified(%q) = %q, %q, %v", in, pkg, name, ok)
		}
	}
	for _, bad := range []string{"Pod", "k8s.io/api/core/v1", "k8s.io/api/core/v1.", "a.b/c"} {
		if _, _, ok := SplitQualified(bad); ok {
			t.Errorf("SplitQualified(%q) accepted", bad)
		}
	}
	if got := MethodName("byColor"); got != "ByColor" {
		t.Errorf("MethodName(byColor) = %q", got)
	}
}
