package explore

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// indexForm is the form of an --index value, for error messages.
const indexForm = `NAME: SOURCE: VALUE, where SOURCE: VALUE is an +index marker's source argument (field, label, annotation or owner), such as "byImage: field: spec.template.spec.containers[*].image"`

// Index is an index declared by an --index flag: its name and what it
// indexes objects by.
type Index struct {
	Name string
	Spec fieldpath.IndexSpec
}

// String returns the index in the form ParseIndex reads.
func (ix Index) String() string { return ix.Name + ": " + ix.Spec.String() }

// ParseIndex reads an --index value, "NAME: SOURCE: VALUE": NAME is a Go
// identifier, and "SOURCE: VALUE" is what fieldpath.ParseIndexSpec reads
// (the source arguments of an +index marker, the value bare or quoted as a
// Go string):
//
//	byImage: field: spec.template.spec.containers[*].image
//	byPhaseNode: field: "status.phase, spec.nodeName"
//	byApp: label: app
//	byTeam: annotation: example.dev/team
//	byReplicaSet: owner: apps/ReplicaSet
//
// The owner is group/Kind ("core/ConfigMap" for the core group): at run
// time there is no input package to find a bare kind's group in. Any other
// value is an error that says which form is accepted, and for a bare path
// ("byImage: spec.x") or a source written with "=" ("byImage: field=spec.x")
// which value was probably meant.
func ParseIndex(s string) (Index, error) {
	name, spec, ok := strings.Cut(s, ":")
	name, spec = strings.TrimSpace(name), strings.TrimSpace(spec)
	if !ok || name == "" {
		return Index{}, fmt.Errorf("--index %q: want %s", s, indexForm)
	}
	if !token.IsIdentifier(name) {
		return Index{}, fmt.Errorf("--index %q: the index name %q is not a Go identifier; want %s", s, name, indexForm)
	}
	if !strings.Contains(spec, ":") {
		return Index{}, fmt.Errorf("--index %q: %q names no source; want %s%s", s, spec, indexForm, suggestIndex(name, spec))
	}
	parsed, err := fieldpath.ParseIndexSpec(spec)
	if err != nil {
		return Index{}, fmt.Errorf("--index %q: %w", s, err)
	}
	if parsed.OwnerUnqualified {
		kind := parsed.Owner.Kind
		return Index{}, fmt.Errorf("--index %q: owner %q names no API group; write group/Kind, such as \"apps/%s\" (\"%s/%s\" for the core group)",
			s, kind, kind, fieldpath.CoreGroup, kind)
	}
	return Index{Name: name, Spec: parsed}, nil
}

// suggestIndex returns ", such as ..." with the --index value probably
// meant by a spec without a colon: "field=spec.x" or a bare path; "" when
// there is no likely one.
func suggestIndex(name, spec string) string {
	if source, value, ok := strings.Cut(spec, "="); ok {
		if _, err := fieldpath.NewIndexSpec(fieldpath.IndexSource(strings.TrimSpace(source)), strings.TrimSpace(value)); err == nil {
			return fmt.Sprintf("; did you mean %q?", name+": "+strings.TrimSpace(source)+": "+strings.TrimSpace(value))
		}
	}
	if _, err := fieldpath.Parse(spec); err == nil {
		return fmt.Sprintf("; did you mean %q?", name+": field: "+spec)
	}
	return ""
}
