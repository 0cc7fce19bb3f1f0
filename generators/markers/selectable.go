package markers

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// SelectablePrefix starts controller-gen's selectable field marker, which
// declares a field of a custom resource that the API server accepts field
// selectors on; controller-gen writes it to the CRD version's
// selectableFields:
//
//	+kubebuilder:selectablefield:JSONPath=.spec.color
const SelectablePrefix = "+kubebuilder:selectablefield"

// MaxSelectableFields is how many selectable fields the API server accepts
// per version of a CustomResourceDefinition.
const MaxSelectableFields = 8

// SelectableField is one +kubebuilder:selectablefield marker of a type.
type SelectableField struct {
	// Pos is where the marker's comment line is.
	Pos token.Position
	// Text is the marker as written, from the "+".
	Text string
	// JSONPath is the value of the JSONPath argument, as written
	// (".spec.color").
	JSONPath string
	// Path is the field it names, a path of at least one segment without
	// [*]. Its String() form ("spec.color") is the field selector's key.
	Path fieldpath.Path
}

// Errorf returns an Error about f.
func (f SelectableField) Errorf(format string, args ...any) *Error {
	return &Error{Pos: f.Pos, Marker: f.Text, Msg: fmt.Sprintf(format, args...)}
}

// isSelectableLine reports whether line is a selectable field marker.
func isSelectableLine(line string) bool {
	rest, ok := strings.CutPrefix(line, SelectablePrefix)
	return ok && (rest == "" || rest[0] == ':' || rest[0] == '=')
}

// ParseSelectableField parses one +kubebuilder:selectablefield marker line
// (the comment text after "//", trimmed) found at pos. It takes the marker
// syntax controller-gen reads, JSONPath=<value> with the value bare, in
// double quotes or in backquotes, and checks the value with
// ParseSelectablePath.
func ParseSelectableField(pos token.Position, line string) (SelectableField, error) {
	text := strings.TrimSpace(line)
	f := SelectableField{Pos: pos, Text: text}
	args, ok := strings.CutPrefix(text, SelectablePrefix+":")
	if !ok {
		return f, f.Errorf("has no JSONPath argument: write %s:JSONPath=.spec.field", SelectablePrefix)
	}
	name, value, ok := strings.Cut(args, "=")
	if !ok || name != "JSONPath" {
		return f, f.Errorf("takes exactly one argument, JSONPath: write %s:JSONPath=.spec.field", SelectablePrefix)
	}
	value = strings.TrimSpace(value)
	switch {
	case strings.HasPrefix(value, `"`):
		unquoted, err := strconv.Unquote(value)
		if err != nil {
			return f, f.Errorf("JSONPath %s is not a valid Go string", value)
		}
		value = unquoted
	case strings.HasPrefix(value, "`"):
		if len(value) < 2 || !strings.HasSuffix(value, "`") {
			return f, f.Errorf("JSONPath %s has no closing backquote", value)
		}
		value = value[1 : len(value)-1]
	}
	path, err := ParseSelectablePath(value, true)
	if err != nil {
		return f, f.Errorf("%v", err)
	}
	f.JSONPath, f.Path = value, path
	return f, nil
}

// ParseSelectablePath parses the path of a selectable field: a JSONPath
// that is a simple dotted path, ".spec.color", whose field names follow
// fieldpath's grammar, without [*] or brackets, and outside metadata (the
// API server refuses selectable fields in metadata). needDot says whether
// the leading dot is required, as in the JSONPath of the
// +kubebuilder:selectablefield marker; the selectableField argument of
// +index may leave it out.
func ParseSelectablePath(value string, needDot bool) (fieldpath.Path, error) {
	hint := "a simple dotted path into the type, such as .spec.color"
	rest, dotted := strings.CutPrefix(value, ".")
	if needDot && !dotted {
		return nil, fmt.Errorf("JSONPath %q must start with a dot: %s", value, hint)
	}
	if strings.ContainsAny(rest, "[]*,' ") {
		return nil, fmt.Errorf("JSONPath %q must be %s (no brackets, [*] or quotes: a selectable field has one value)", value, hint)
	}
	key, err := fieldpath.Parse(rest)
	if err != nil {
		return nil, fmt.Errorf("JSONPath %q must be %s: %v", value, hint, err)
	}
	path := key[0]
	if path[0].Name == "metadata" {
		return nil, fmt.Errorf("JSONPath %q points into metadata, which the API server does not allow for selectable fields (metadata.name and metadata.namespace are always selectable)", value)
	}
	return path, nil
}
