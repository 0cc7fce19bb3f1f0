package generators

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/generators/markers"
)

// Packages whose types the interning transforms treat specially.
const (
	// InternPkg is the runtime package the generated transforms call.
	InternPkg   = "github.com/informer-gen-plus/informer-gen-plus/runtime/intern"
	resourcePkg = "k8s.io/apimachinery/pkg/api/resource"
	coreV1Pkg   = "k8s.io/api/core/v1"
)

// fieldPolicy is what a transform does with one struct field, before its Go
// type is looked at.
type fieldPolicy int

const (
	// byType: the field is handled as its Go type says.
	byType fieldPolicy = iota
	// unique: the field is unique to each object and left as decoded; a
	// struct holding it is walked, not shared.
	unique
	// optedOut: +intern=false; handled as unique.
	optedOut
	// varies: the field is handled as its type says, but differs between
	// otherwise equal parts of different objects often enough that a
	// struct holding it is walked rather than shared whole.
	varies
)

// uniqueFields are the fields, by type, that are unique to each object
// beyond those the name rules of fieldPolicyOf find: the identity of an
// object's own metadata. (The name and UID of an owner reference, by
// contrast, repeat across the objects it owns.)
var uniqueFields = map[string]bool{
	metaPkg + ".ObjectMeta.Name":            true,
	metaPkg + ".ObjectMeta.UID":             true,
	metaPkg + ".ObjectMeta.ResourceVersion": true,
	metaPkg + ".ObjectMeta.SelfLink":        true,
}

// varyingFields are the fields, by type, whose value differs between the
// objects that share everything else: every pod mounts its service-account
// token volume under a name of its own, so volumes, volume mounts and the
// containers holding them are walked, and their names interned one by one.
var varyingFields = map[string]bool{
	coreV1Pkg + ".Volume.Name":            true,
	coreV1Pkg + ".VolumeMount.Name":       true,
	coreV1Pkg + ".VolumeMountStatus.Name": true,
}

// repeatingFields are the fields, by type, that the name rules would leave
// alone but that repeat across objects: the host address of a container
// port is the same in every replica (and usually empty).
var repeatingFields = map[string]bool{
	coreV1Pkg + ".ContainerPort.HostIP": true,
}

// fieldPolicyOf decides what to do with field m of struct owner from its
// +intern marker, else from the tables above, else from its name: fields
// named ContainerID or Hostname, or ending in IP or IPs (pod, host and
// cluster addresses), are unique to the object. Timestamps (metav1.Time,
// metav1.MicroTime) are unique too, whatever their name.
func fieldPolicyOf(owner *types.Type, m types.Member) (fieldPolicy, error) {
	on, found, err := markers.ParseIntern(m.CommentLines)
	if err != nil {
		return byType, err
	}
	if found {
		if on {
			return byType, nil
		}
		return optedOut, nil
	}
	if isTimestamp(m.Type) || (m.Type.Kind == types.Pointer && isTimestamp(m.Type.Elem)) {
		return unique, nil
	}
	qualified := owner.Name.Package + "." + owner.Name.Name + "." + m.Name
	switch {
	case uniqueFields[qualified]:
		return unique, nil
	case varyingFields[qualified]:
		return varies, nil
	case repeatingFields[qualified]:
		return byType, nil
	case m.Name == "ContainerID", m.Name == "Hostname",
		strings.HasSuffix(m.Name, "IP"), strings.HasSuffix(m.Name, "IPs"):
		return unique, nil
	}
	return byType, nil
}

// unalias returns the type a named non-struct type (type Phase string)
// stands for.
func unalias(t *types.Type) *types.Type {
	for t.Kind == types.Alias {
		t = t.Underlying
	}
	return t
}

// builtinOf returns the name of the predeclared type t is, or is declared
// as ("string" for type Phase string), or "".
func builtinOf(t *types.Type) string {
	if u := unalias(t); u.Kind == types.Builtin {
		return u.Name.Name
	}
	return ""
}

func isStringKind(t *types.Type) bool { return builtinOf(t) == "string" }

func isBoolKind(t *types.Type) bool { return builtinOf(t) == "bool" }

func isIntKind(t *types.Type) bool {
	switch builtinOf(t) {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "byte", "rune":
		return true
	}
	return false
}

// isPlain reports whether t is the predeclared type name itself.
func isPlain(t *types.Type, name string) bool {
	return t.Kind == types.Builtin && t.Name.Name == name
}

func isQuantity(t *types.Type) bool {
	return t.Name.Package == resourcePkg && t.Name.Name == "Quantity"
}

// isFieldsV1 reports whether t is metav1.FieldsV1. Its one field, Raw, is
// deprecated, and apimachinery's fieldsv1string build replaces it with an
// unexported handle, so generated code reads it through GetRawBytes, which
// is nil exactly when Raw is nil in the default build, and when the handle is
// unset in that one.
func isFieldsV1(t *types.Type) bool {
	return t.Name.Package == metaPkg && t.Name.Name == "FieldsV1"
}

func isTimestamp(t *types.Type) bool {
	return t.Name.Package == metaPkg && (t.Name.Name == "Time" || t.Name.Name == "MicroTime")
}

// isWalkable reports whether t is a named struct whose fields generated
// code can read and write: not a quantity or a timestamp, nameable, and
// without unexported fields.
func isWalkable(t *types.Type) bool {
	if t.Kind != types.Struct || !isNameable(t) || isQuantity(t) || isTimestamp(t) {
		return false
	}
	for _, m := range t.Members {
		if !isExported(m.Name) {
			return false
		}
	}
	return true
}

func isExported(name string) bool {
	return name != "" && unicode.IsUpper(rune(name[0]))
}

// isNameable reports whether generated code can name t: a predeclared
// type, or an exported type of a package outside any internal directory.
func isNameable(t *types.Type) bool {
	if t.Kind == types.Builtin {
		return true
	}
	return isExported(t.Name.Name) && t.Name.Package != "" &&
		!slices.Contains(strings.Split(t.Name.Package, "/"), "internal")
}

// parseInternKind parses an entry of --intern-kinds: group/Kind, with the
// API group's name ("apps", "shop.example.dev"; "core" for the legacy group)
// and a kind or "*" for every kind of the group.
func parseInternKind(entry string) (group, kind string, err error) {
	group, kind, ok := strings.Cut(entry, "/")
	if !ok || group == "" || kind == "" || strings.Contains(kind, "/") {
		return "", "", fmt.Errorf("--intern-kinds: %q is not group/Kind (core/Pod, apps/Deployment, apps/*)", entry)
	}
	if group == "core" {
		group = ""
	}
	return group, kind, nil
}

// selectInterned sets Intern on the kinds with a lister that entries
// (--intern-kinds) select, or on all of them when entries is empty. An entry
// that selects no such kind is an error: a misspelt group or kind would
// otherwise turn interning off without a word.
func selectInterned(m *Model, entries []string) error {
	type selector struct{ group, kind string }
	selectors := make([]selector, len(entries))
	for i, e := range entries {
		group, kind, err := parseInternKind(e)
		if err != nil {
			return err
		}
		selectors[i] = selector{group, kind}
	}
	used := make([]bool, len(entries))
	for _, g := range m.Groups {
		for _, v := range g.Versions {
			for _, k := range kindsWhere(v, func(k *Kind) bool { return k.Lister }) {
				k.Intern = len(entries) == 0
				for i, s := range selectors {
					if s.group == g.Name && (s.kind == "*" || s.kind == k.Type.Name.Name) {
						k.Intern, used[i] = true, true
					}
				}
			}
		}
	}
	var errs []error
	for i, e := range entries {
		if !used[i] {
			errs = append(errs, fmt.Errorf("--intern-kinds: %s selects no kind with a lister in the input packages", e))
		}
	}
	return errors.Join(errs...)
}
