package markers

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// The JSONPath of a selectable field is read as controller-gen reads it
// (bare, quoted or backquoted) and must be a simple dotted path outside
// metadata; every problem is an error at the marker's position.
func TestParseSelectableField(t *testing.T) {
	for line, want := range map[string]string{
		"+kubebuilder:selectablefield:JSONPath=.spec.color":             "spec.color",
		`+kubebuilder:selectablefield:JSONPath=".spec.size"`:            "spec.size",
		"+kubebuilder:selectablefield:JSONPath=`.status.ready`":         "status.ready",
		"+kubebuilder:selectablefield:JSONPath=.spec.placement.zone-id": "spec.placement.zone-id",
	} {
		f, err := ParseSelectableField(here, line)
		if err != nil {
			t.Errorf("ParseSelectableField(%s): %v", line, err)
			continue
		}
		if got := f.Path.String(); got != want || f.Pos != here || f.Text != line {
			t.Errorf("ParseSelectableField(%s) = %s at %s (%q), want %s", line, got, f.Pos, f.Text, want)
		}
	}
	for line, want := range map[string]string{
		"+kubebuilder:selectablefield":                                 "has no JSONPath argument",
		"+kubebuilder:selectablefield:jsonPath=.spec.color":            "takes exactly one argument, JSONPath",
		"+kubebuilder:selectablefield:JSONPath":                        "takes exactly one argument, JSONPath",
		"+kubebuilder:selectablefield:JSONPath=spec.color":             `JSONPath "spec.color" must start with a dot`,
		"+kubebuilder:selectablefield:JSONPath=.":                      `JSONPath "." must be a simple dotted path`,
		"+kubebuilder:selectablefield:JSONPath=.spec..color":           `JSONPath ".spec..color" must be a simple dotted path`,
		"+kubebuilder:selectablefield:JSONPath=.spec.tags[*]":          "no brackets, [*] or quotes",
		"+kubebuilder:selectablefield:JSONPath=.spec.tags[0]":          "no brackets, [*] or quotes",
		`+kubebuilder:selectablefield:JSONPath=".spec['a.b']"`:         "no brackets, [*] or quotes",
		"+kubebuilder:selectablefield:JSONPath=.spec.a,.spec.b":        "no brackets, [*] or quotes",
		"+kubebuilder:selectablefield:JSONPath=.metadata.name":         "points into metadata",
		`+kubebuilder:selectablefield:JSONPath=".spec.color`:           "is not a valid Go string",
		"+kubebuilder:selectablefield:JSONPath=`.spec.color":           "has no closing backquote",
		"+kubebuilder:selectablefield:JSONPath=.spec.1color":           "invalid character",
		"+kubebuilder:selectablefield:JSONPath=.spec.color=red":        "unexpected character",
		"+kubebuilder:selectablefield:JSONPath=.spec.color,JSONPath=x": "no brackets, [*] or quotes",
	} {
		_, err := ParseSelectableField(here, line)
		var merr *Error
		if !errors.As(err, &merr) {
			t.Errorf("ParseSelectableField(%s) = %v, want a marker error", line, err)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "types.go:7: "+line+": ") || !strings.Contains(msg, want) {
			t.Errorf("ParseSelectableField(%s) error = %q, want the position, the marker and %q", line, msg, want)
		}
	}
}

// The selectableField source of +index takes the path of a selectable
// field, with or without its leading dot, under the same rules.
func TestParseSelectableFieldSource(t *testing.T) {
	for line, want := range map[string]string{
		"+index(name: byColorField, selectableField: spec.color)":                 "spec.color",
		`+index(name: bySizeField, selectableField: ".spec.size")`:                "spec.size",
		`+index(name: bySizeField, selectableField: ".spec.size", param: amount)`: "spec.size",
	} {
		m, err := Parse(here, line, false)
		if err != nil {
			t.Errorf("Parse(%s): %v", line, err)
			continue
		}
		if m.Source != FromSelectableField || m.Selectable.String() != want || m.Spec.Source() != "" {
			t.Errorf("Parse(%s) = source %s, path %s, spec %+v; want selectableField %s and no run-time spec", line, m.Source, m.Selectable, m.Spec, want)
		}
	}
	for line, want := range map[string]string{
		`+index(name: byImageField, selectableField: "spec.containers[*].image")`: "JSONPath \"spec.containers[*].image\" must be a simple dotted path",
		`+index(name: byNameField, selectableField: metadata.name)`:               "points into metadata",
		`+index(name: byColorField, selectableField: "spec..color")`:              "must be a simple dotted path",
		`+index(name: byColorField, selectableField: spec.color, field: spec.x)`:  "has both selectableField and field",
		`+index(name: byColorField, selectableField: spec.color, param: "a, b")`:  "param names 2 parameters, but a selectableField index is looked up by one value",
	} {
		_, err := Parse(here, line, false)
		if err == nil || !strings.HasPrefix(err.Error(), "types.go:7: "+line+": ") || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s) error = %v, want the position, the marker and %q", line, err, want)
		}
	}
}

// Scan reads the selectable field markers of each type, from its doc
// comment and the block above it, with their positions, and reports a bad
// one at its line.
func TestScanFindsSelectableFields(t *testing.T) {
	dir := filepath.Join("testdata", "scan")
	pkg, err := Scan(dir)
	file := filepath.Join(dir, "selectable.go")
	want := file + ":10: +kubebuilder:selectablefield:JSONPath=spec.shape: JSONPath \"spec.shape\" must start with a dot"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Scan error %v does not report %q", err, want)
	}
	check := func(typ string, wantLines []int, wantPaths []string) {
		t.Helper()
		got := pkg.SelectableFields[typ]
		if len(got) != len(wantPaths) {
			t.Fatalf("%s: %d selectable fields, want %d: %+v", typ, len(got), len(wantPaths), got)
		}
		for i, f := range got {
			if f.Path.String() != wantPaths[i] || f.Pos.Line != wantLines[i] || f.Pos.Filename != file {
				t.Errorf("%s[%d] = %s at %s, want %s at %s:%d", typ, i, f.Path, f.Pos, wantPaths[i], file, wantLines[i])
			}
		}
	}
	check("Colored", []int{7, 8, 9}, []string{"spec.color", "spec.size", "status.ready"})
	check("Weighed", []int{14}, []string{"spec.weight"})
	if fs := pkg.SelectableFields["Widget"]; len(fs) != 0 {
		t.Errorf("Widget has selectable fields %+v", fs)
	}
}
