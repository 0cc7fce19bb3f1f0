// Package markers finds and parses the +index comment markers of Go API
// packages, with the file and line of each, so that every later error can
// point at the marker that caused it.
//
// Markers use gengo's codetags syntax and are parsed with
// k8s.io/gengo/v2/codetags:
//
//	+index(name: byColor, field: spec.color)
//	+index(name: byImage, field: "spec.containers[*].image")
//	+index(name: byTeam, label: team)
//	+index(name: byShop, owner: Shop)
//	+index(for: "k8s.io/api/core/v1.Pod", name: byReplicaSet, owner: "apps/ReplicaSet")
//	+index(for: "k8s.io/api/core/v1.Pod", name: byNode, field: spec.nodeName)
//	+index(name: byZone, func: "example.dev/shop/indexing.ZoneOf", param: zone)
//	+index(name: byColorField, selectableField: spec.color)
//
// On a type's doc comment a marker declares an index of that type; on a
// package's doc comment it must name the type with for. Args defines every
// argument, for the parser and for the documentation alike. This package
// checks the marker's own shape (arguments, names, exactly one source,
// parameter names) and reads the value of a field, label, annotation or
// owner source with fieldpath.NewIndexSpec, the grammar the run-time indexes
// share (field path syntax, label and annotation keys, the form of an
// owner); whether a field path or function exists, the API group of an
// owner kind the marker does not qualify, whether a selectableField is one
// of the type's +kubebuilder:selectablefield markers (which Scan reads too,
// see SelectableField), and whether param names one parameter per path, are
// checked against the types later.
package markers

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"k8s.io/gengo/v2/codetags"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// Prefix is what starts a marker line, after the comment slashes.
const Prefix = "+index"

// SourceKind says where an index takes its values from.
type SourceKind string

// The sources an index can take its values from: exactly one per marker.
// All but FromFunc and FromSelectableField are the sources of a run-time
// index declaration (fieldpath.IndexSource), which the marker's value is
// checked as. FromSelectableField indexes a selectable field of a custom
// resource as the API server's field selectors compare it.
const (
	FromField           = SourceKind(fieldpath.IndexByField)
	FromLabel           = SourceKind(fieldpath.IndexByLabel)
	FromAnnotation      = SourceKind(fieldpath.IndexByAnnotation)
	FromOwner           = SourceKind(fieldpath.IndexByOwner)
	FromFunc            = SourceKind("func")
	FromSelectableField = SourceKind("selectableField")
)

// Marker is one parsed +index marker.
type Marker struct {
	// Pos is where the marker's comment line is.
	Pos token.Position
	// Text is the marker as written, from the "+".
	Text string
	// For is the fully qualified type ("k8s.io/api/core/v1.Pod") of a
	// package-level marker; empty on a type's marker.
	For string
	// Name is the index name, a Go identifier starting with a lower-case
	// letter ("byColor"); the lookup method is its exported form ("ByColor").
	Name string
	// Source says which source argument the marker has, and Value is that
	// argument's value: a field path, a label or annotation key, an owner
	// kind as fieldpath.ParseOwner reads it ("Shop", "apps/ReplicaSet"), or
	// a fully qualified function ("example.dev/pkg.Func"), or the path of a
	// selectable field (".spec.color" or "spec.color").
	Source SourceKind
	Value  string
	// Spec is the index declaration the source argument makes, as
	// fieldpath.NewIndexSpec reads it (the grammar the run-time indexes of
	// the dynamic and metadata informers share); zero for a func or
	// selectableField source, which exist only at generation time.
	Spec fieldpath.IndexSpec
	// Selectable is the path a selectableField source names, as
	// ParseSelectablePath reads it; nil for the other sources.
	Selectable fieldpath.Path
	// Param is the value of the optional param argument: the names of the
	// lookups' parameters, comma-separated (see ParamNames); empty when the
	// names come from the source.
	Param string
	// Ref is the value of the optional ref argument: the kind of the objects
	// whose names the index's values are ("ConfigMap", "core/ConfigMap"); it
	// asks for an event mapper from such an object to the objects that name
	// it. Empty when the marker has none.
	Ref string
}

// Error is a problem with one marker. Its message starts with the marker's
// file:line and quotes the marker, so that a user (or an editor) can go
// straight to it.
type Error struct {
	Pos    token.Position
	Marker string
	Msg    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d: %s: %s", DisplayPath(e.Pos.Filename), e.Pos.Line, e.Marker, e.Msg)
}

// DisplayPath returns path relative to the working directory when it is
// below it, as the go command prints file names, and unchanged otherwise.
func DisplayPath(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return path
	}
	return rel
}

// Errorf returns an Error about m.
func (m Marker) Errorf(format string, args ...any) *Error {
	return &Error{Pos: m.Pos, Marker: m.Text, Msg: fmt.Sprintf(format, args...)}
}

// Parse parses one marker line (the comment text after "//", trimmed) found at
// pos. packageLevel says whether it is on a package doc comment, where for is
// required; on a type's doc comment for is an error. The arguments are those
// of Args, each checked as its definition says.
func Parse(pos token.Position, line string, packageLevel bool) (Marker, error) {
	text := strings.TrimSpace(line)
	m := Marker{Pos: pos, Text: text}
	tag, err := codetags.Parse(strings.TrimPrefix(text, "+"))
	if err != nil {
		return m, m.Errorf("cannot parse: %v", err)
	}
	if tag.Name != strings.TrimPrefix(Prefix, "+") {
		return m, m.Errorf("not an %s marker", Prefix)
	}
	if tag.ValueType != codetags.ValueTypeNone {
		return m, m.Errorf("takes no value after =; put everything in the arguments")
	}
	seen := map[string]bool{}
	for _, arg := range tag.Args {
		if arg.Name == "" {
			return m, m.Errorf("arguments must be named (name: value), got %q", arg.Value)
		}
		if seen[arg.Name] {
			return m, m.Errorf("argument %q is given twice", arg.Name)
		}
		seen[arg.Name] = true
		def, ok := argNamed(arg.Name)
		if !ok {
			return m, m.Errorf("unknown argument %q; the arguments are %s and one of %s",
				arg.Name, argNames(func(a Arg) bool { return !a.Source }), sourceList())
		}
		if arg.Type != codetags.ArgTypeString {
			return m, m.Errorf("argument %q must be an identifier or a string, got %s %s", arg.Name, arg.Type, arg.Value)
		}
		if strings.TrimSpace(arg.Value) == "" {
			return m, m.Errorf("argument %q is empty", arg.Name)
		}
		if def.Source && m.Source != "" {
			return m, m.Errorf("has both %s and %s; an index takes its values from exactly one of %s", m.Source, def.Name, sourceList())
		}
		def.set(&m, arg.Value)
	}
	for _, def := range Args {
		switch {
		case def.Required && !seen[def.Name]:
			return m, m.Errorf("has no %s argument", def.Name)
		case def.PackageOnly && packageLevel && !seen[def.Name]:
			return m, m.Errorf("on a package comment needs %s, the type the index is for: %s", def.Name, def.Syntax)
		case def.PackageOnly && !packageLevel && seen[def.Name]:
			return m, m.Errorf("%s is only allowed on a package comment; this marker is on a type, which it indexes", def.Name)
		}
	}
	if m.Source == "" {
		return m, m.Errorf("has no source; give exactly one of %s", sourceList())
	}
	for _, arg := range tag.Args {
		if def, _ := argNamed(arg.Name); def.check != nil {
			if err := def.check(arg.Value); err != nil {
				return m, m.Errorf("%v", err)
			}
		}
	}
	switch m.Source {
	case FromFunc:
	case FromSelectableField:
		path, err := ParseSelectablePath(m.Value, false)
		if err != nil {
			return m, m.Errorf("%v", err)
		}
		m.Selectable = path
	default:
		spec, err := fieldpath.NewIndexSpec(fieldpath.IndexSource(m.Source), m.Value)
		if err != nil {
			return m, m.Errorf("%v", err)
		}
		m.Spec = spec
	}
	if names := ParamNames(m.Param); len(names) > 1 && m.Source != FromField {
		return m, m.Errorf("param names %d parameters, but a %s index is looked up by one value", len(names), m.Source)
	}
	return m, nil
}

// sourceList lists the names of the source arguments.
func sourceList() string {
	return argNames(func(a Arg) bool { return a.Source })
}

// isIndexName reports whether s is a Go identifier that starts with a
// lower-case ASCII letter.
func isIndexName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// SplitQualified splits "import/path.Name" into its package path and name.
func SplitQualified(s string) (pkg, name string, ok bool) {
	i := strings.LastIndex(s, ".")
	slash := strings.LastIndex(s, "/")
	if i <= 0 || i < slash || i == len(s)-1 {
		return "", "", false
	}
	pkg, name = s[:i], s[i+1:]
	if !token.IsIdentifier(name) {
		return "", "", false
	}
	return pkg, name, true
}

// MethodName returns the exported form of an index name: "byColor" gives
// "ByColor".
func MethodName(indexName string) string {
	return strings.ToUpper(indexName[:1]) + indexName[1:]
}
