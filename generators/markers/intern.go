package markers

import (
	"fmt"
	"strings"
)

// InternMarker is the field marker that overrides, for one struct field,
// what the transforms of --with-interning decide from the field's name and
// Go type: on the field's doc comment, +intern=false leaves the field as
// decoded, +intern=true treats it as a value that repeats across objects.
const InternMarker = "+intern"

// InternValue is one value of the +intern field marker. ParseIntern reads
// the marker with these definitions and informer-gen-plus --docs prints
// them: the grammar and its documentation are the same data.
type InternValue struct {
	// Value is written after the equals sign.
	Value string
	// On is what the value means: whether the field is interned and shared.
	On bool
	// Doc is the description, Markdown.
	Doc string
}

// InternValues are the values of the +intern field marker.
var InternValues = []InternValue{
	{
		Value: "false",
		Doc: "Leaves the field as decoded: the field is unique to each object (an address, a generated name, a token), " +
			"so interning it would only add a table entry. A struct holding such a field, directly or below, is walked " +
			"field by field rather than shared whole.",
	},
	{
		Value: "true",
		On:    true,
		Doc: "Treats the field as a value that repeats across objects even though its name says otherwise " +
			"(a field named like an IP address, a container ID or a host name, which the generator leaves alone by default): " +
			"a string is interned, and a struct holding it can be shared whole.",
	},
}

// ParseIntern reads the +intern marker of a struct field's doc comment
// lines. found is false when the field has none; on says what the marker's
// value means. A marker with another value, or given twice with different
// values, is an error.
func ParseIntern(lines []string) (on, found bool, err error) {
	for _, line := range lines {
		text := strings.TrimSpace(line)
		rest, ok := strings.CutPrefix(text, InternMarker)
		if !ok || (rest != "" && rest[0] != '=' && rest[0] != ' ' && rest[0] != '\t') {
			continue // another marker, such as +internal
		}
		value, ok := strings.CutPrefix(strings.TrimSpace(rest), "=")
		if !ok {
			return false, false, fmt.Errorf("%s: write %s=true or %s=false", text, InternMarker, InternMarker)
		}
		v, ok := internValue(strings.TrimSpace(value))
		if !ok {
			return false, false, fmt.Errorf("%s: the value must be %s", text, internValueNames())
		}
		if found && v.On != on {
			return false, false, fmt.Errorf("%s: the field has both %s=true and %s=false", text, InternMarker, InternMarker)
		}
		on, found = v.On, true
	}
	return on, found, nil
}

func internValue(s string) (InternValue, bool) {
	for _, v := range InternValues {
		if v.Value == s {
			return v, true
		}
	}
	return InternValue{}, false
}

func internValueNames() string {
	names := make([]string, len(InternValues))
	for i, v := range InternValues {
		names[i] = v.Value
	}
	return strings.Join(names, " or ")
}
