package fieldpath

import (
	"errors"
	"fmt"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
)

// This file is the declaration of an index: what an index takes its values
// from, as the source arguments of an +index marker say it. The generator
// reads markers into it and the runtime's dynamic and metadata informers
// read run-time declarations into it, so that both accept the same forms.

// IndexSource is where an index takes its values from: the name of the
// source argument of an +index marker.
type IndexSource string

// The sources an IndexSpec can declare. The generator's func source (a Go
// function named in the marker) is not one of them: it exists only at
// generation time.
const (
	IndexByField      IndexSource = "field"
	IndexByLabel      IndexSource = "label"
	IndexByAnnotation IndexSource = "annotation"
	IndexByOwner      IndexSource = "owner"
)

// CoreGroup is how an owner is written for the core API group, whose name
// is empty: "core/ConfigMap".
const CoreGroup = "core"

// IndexSpec declares what an index indexes objects by. Exactly one source is
// set:
//
//   - Field: the values of a key (see Key.Values), one value per path of a
//     composite key, combined by JoinValues;
//   - Label: the value of the label with this key, when the object has it
//     (an empty value included);
//   - Annotation: the same for an annotation;
//   - Owner: the name of the object's controlling owner when that owner is
//     of this group and kind, in any version of the group (the definition
//     is runtime/cache.ControllerOf). Group "" is the core group.
//
// OwnerUnqualified is set by ParseIndexSpec and NewIndexSpec when an owner is
// written as a bare kind ("Shop"): Owner.Group is then "" and not known. The
// generator looks the kind up in its input packages; at run time there is
// nothing to look it up in, so the runtime refuses such a spec and asks for
// group/Kind. A spec built as a struct literal leaves it false: its
// Owner.Group is what it says.
type IndexSpec struct {
	Field            Key
	Label            string
	Annotation       string
	Owner            schema.GroupKind
	OwnerUnqualified bool
}

// Source returns which source s declares, or "" when it declares none. When
// s declares several (Validate's error), the first of field, label,
// annotation and owner is returned.
func (s IndexSpec) Source() IndexSource {
	switch {
	case len(s.Field) > 0:
		return IndexByField
	case s.Label != "":
		return IndexByLabel
	case s.Annotation != "":
		return IndexByAnnotation
	case s.Owner != (schema.GroupKind{}):
		return IndexByOwner
	}
	return ""
}

// Arity returns the number of values a lookup in the index takes: one per
// path of a field key, one for the other sources.
func (s IndexSpec) Arity() int {
	if len(s.Field) > 0 {
		return len(s.Field)
	}
	return 1
}

// String returns s in the form ParseIndexSpec reads: the source, a colon, a
// space and the value quoted as a Go string (field: "spec.containers[*].image",
// owner: "apps/ReplicaSet", owner: "core/ConfigMap"). For a valid s,
// ParseIndexSpec(s.String()) returns s (with Field in its canonical form).
func (s IndexSpec) String() string {
	var value string
	switch s.Source() {
	case IndexByField:
		value = s.Field.String()
	case IndexByLabel:
		value = s.Label
	case IndexByAnnotation:
		value = s.Annotation
	case IndexByOwner:
		value = s.Owner.Kind
		if !s.OwnerUnqualified {
			group := s.Owner.Group
			if group == "" {
				group = CoreGroup
			}
			value = group + "/" + value
		}
	default:
		return "<no source>"
	}
	return string(s.Source()) + ": " + strconv.Quote(value)
}

// ParseIndexSpec parses a declaration of the form "source: value", where
// source is field, label, annotation or owner and value is what the +index
// marker argument of that name takes, bare or quoted as a Go string:
//
//	field: spec.nodeName
//	field: "spec.containers[*].image"
//	field: status.phase, spec.nodeName
//	label: app.kubernetes.io/name
//	annotation: "example.dev/team"
//	owner: apps/ReplicaSet
//	owner: "core/ConfigMap"
//
// Spaces around the source and the value are ignored. The value is checked
// as NewIndexSpec checks it.
func ParseIndexSpec(spec string) (IndexSpec, error) {
	source, value, ok := strings.Cut(spec, ":")
	if !ok {
		return IndexSpec{}, fmt.Errorf("index spec %q: want \"source: value\", such as field: \"spec.nodeName\"; the sources are %s", spec, sourceNames)
	}
	source, value = strings.TrimSpace(source), strings.TrimSpace(value)
	if strings.HasPrefix(value, `"`) || strings.HasPrefix(value, "`") {
		unquoted, err := strconv.Unquote(value)
		if err != nil {
			return IndexSpec{}, fmt.Errorf("index spec %q: the value %s is not a valid quoted string", spec, value)
		}
		value = unquoted
	}
	s, err := NewIndexSpec(IndexSource(source), value)
	if err != nil {
		return IndexSpec{}, fmt.Errorf("index spec %q: %w", spec, err)
	}
	return s, nil
}

// NewIndexSpec returns the spec of an index whose source argument is source
// and whose value is value, as an +index marker gives them (the generator
// calls it with a marker's source and value). It checks the value:
//
//   - field: a key (Parse; the error is a *SyntaxError);
//   - label: a label key (a qualified name: an optional DNS subdomain prefix
//     and a slash, then a name of at most 63 characters);
//   - annotation: an annotation key (the same form, in any case);
//   - owner: a kind ("Shop") or a group and a kind ("apps/ReplicaSet",
//     "core/ConfigMap"), as ParseOwner reads it.
func NewIndexSpec(source IndexSource, value string) (IndexSpec, error) {
	if strings.TrimSpace(value) == "" {
		return IndexSpec{}, fmt.Errorf("%s is empty", source)
	}
	switch source {
	case IndexByField:
		key, err := Parse(value)
		if err != nil {
			return IndexSpec{}, err
		}
		return IndexSpec{Field: key}, nil
	case IndexByLabel:
		if err := checkLabelKey(value); err != nil {
			return IndexSpec{}, err
		}
		return IndexSpec{Label: value}, nil
	case IndexByAnnotation:
		if err := checkAnnotationKey(value); err != nil {
			return IndexSpec{}, err
		}
		return IndexSpec{Annotation: value}, nil
	case IndexByOwner:
		owner, qualified, err := ParseOwner(value)
		if err != nil {
			return IndexSpec{}, err
		}
		return IndexSpec{Owner: owner, OwnerUnqualified: !qualified}, nil
	}
	return IndexSpec{}, fmt.Errorf("unknown source %q; the sources are %s", source, sourceNames)
}

// sourceNames lists the sources for error messages.
const sourceNames = "field, label, annotation and owner"

// ParseOwner parses the value of an owner argument: a kind ("Shop"), or a
// group and a kind ("apps/ReplicaSet"; "core/Node" for the core group, whose
// name is empty). It takes no version: owner references of every version of
// the group match. qualified says whether the value names the group; when it
// does not, owner.Group is "".
func ParseOwner(value string) (owner schema.GroupKind, qualified bool, err error) {
	group, kind, qualified := strings.Cut(value, "/")
	if !qualified {
		kind, group = value, ""
	}
	example := "\"apps/ReplicaSet\""
	switch {
	case strings.Contains(kind, "/"):
		return schema.GroupKind{}, false, fmt.Errorf("owner %q must be Kind or group/Kind, such as %s: owner references of every version of the group match", value, example)
	case qualified && group == "":
		return schema.GroupKind{}, false, fmt.Errorf("owner %q has an empty group; the core group is written %s, such as \"%s/%s\"", value, CoreGroup, CoreGroup, kind)
	case qualified && versionRE.MatchString(group):
		return schema.GroupKind{}, false, fmt.Errorf("owner %q names a version, not a group; write group/Kind (\"%s/%s\" for the core group): owner references of every version of the group match", value, CoreGroup, kind)
	case qualified && len(validation.IsDNS1123Subdomain(group)) > 0:
		return schema.GroupKind{}, false, fmt.Errorf("owner %q: %q is not an API group name (a DNS subdomain, such as apps or example.dev)", value, group)
	case !isKind(kind):
		return schema.GroupKind{}, false, fmt.Errorf("owner %q: %q is not a kind (a Go identifier starting with an upper-case letter, such as ReplicaSet)", value, kind)
	}
	if group == CoreGroup {
		group = ""
	}
	return schema.GroupKind{Group: group, Kind: kind}, qualified, nil
}

// versionRE matches Kubernetes API version names (v1, v1beta2, v2alpha1).
var versionRE = regexp.MustCompile(`^v[0-9]+((alpha|beta)[0-9]+)?$`)

// isKind reports whether s is a Go identifier starting with an upper-case
// letter, the form of a kind.
func isKind(s string) bool {
	return token.IsIdentifier(s) && unicode.IsUpper(rune(s[0]))
}

// Validate reports what is wrong with s: no source or more than one, a Field
// key that Parse would not produce, a label or annotation key that is not
// one, an owner whose kind or group is not one, or OwnerUnqualified with a
// group or without an owner. It accepts every spec NewIndexSpec returns.
func (s IndexSpec) Validate() error {
	var set []string
	if len(s.Field) > 0 {
		set = append(set, string(IndexByField))
	}
	if s.Label != "" {
		set = append(set, string(IndexByLabel))
	}
	if s.Annotation != "" {
		set = append(set, string(IndexByAnnotation))
	}
	if s.Owner != (schema.GroupKind{}) {
		set = append(set, string(IndexByOwner))
	}
	switch {
	case len(set) == 0:
		return fmt.Errorf("index spec declares no source; set one of %s", sourceNames)
	case len(set) > 1:
		return fmt.Errorf("index spec declares %s; an index takes its values from exactly one source", strings.Join(set, " and "))
	case s.OwnerUnqualified && (s.Owner.Kind == "" || s.Owner.Group != ""):
		return errors.New("index spec: OwnerUnqualified needs an owner kind and no group")
	}
	switch s.Source() {
	case IndexByField:
		return checkKey(s.Field)
	case IndexByLabel:
		return checkLabelKey(s.Label)
	case IndexByAnnotation:
		return checkAnnotationKey(s.Annotation)
	}
	if s.OwnerUnqualified {
		if !isKind(s.Owner.Kind) {
			return fmt.Errorf("owner %q is not a kind (a Go identifier starting with an upper-case letter, such as ReplicaSet)", s.Owner.Kind)
		}
		return nil
	}
	group := s.Owner.Group
	if group == "" {
		group = CoreGroup
	}
	_, _, err := ParseOwner(group + "/" + s.Owner.Kind)
	return err
}

// checkKey reports whether k is a key Parse could have produced: valid
// names, at least one segment per path, no duplicate path.
func checkKey(k Key) error {
	for _, p := range k {
		if len(p) == 0 {
			return errors.New("field key has an empty path")
		}
	}
	parsed, err := Parse(k.String())
	if err != nil {
		return err
	}
	same := len(parsed) == len(k)
	for i := 0; same && i < len(k); i++ {
		same = slices.Equal(parsed[i], k[i])
	}
	if !same {
		return fmt.Errorf("field key %q: a field name holds a separator (\".\", \",\" or \"[*]\"); use the segments of Parse's result", k.String())
	}
	return nil
}

// checkLabelKey reports whether key is a valid label key.
func checkLabelKey(key string) error {
	if errs := validation.IsQualifiedName(key); len(errs) > 0 {
		return fmt.Errorf("label %q is not a label key: %s", key, strings.Join(errs, "; "))
	}
	return nil
}

// checkAnnotationKey reports whether key is a valid annotation key: a
// qualified name in any case, as apimachinery's annotation validation
// checks it.
func checkAnnotationKey(key string) error {
	if errs := validation.IsQualifiedName(strings.ToLower(key)); len(errs) > 0 {
		return fmt.Errorf("annotation %q is not an annotation key: %s", key, strings.Join(errs, "; "))
	}
	return nil
}
