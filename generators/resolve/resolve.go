// Package resolve checks +index field paths against Go API types and
// describes, step by step, how generated code reads them: which Go fields to
// follow, where a nil pointer ends the path, where a slice fans out, and what
// kind of value the leaf is.
package resolve

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// LeafKind is the kind of value at the end of a path.
type LeafKind string

// The leaf kinds an index can use.
const (
	String LeafKind = "string"
	Bool   LeafKind = "bool"
	Int    LeafKind = "int"
	Uint   LeafKind = "uint"
)

// Step is one field access of a resolved path.
type Step struct {
	// GoName is the Go name of the field (for an embedded struct, its type
	// name).
	GoName string
	// JSONName is the field's name in JSON; empty for an inlined embedded
	// struct, which adds no path segment.
	JSONName string
	// Pointer is set when the field is a pointer: a nil pointer gives no
	// value.
	Pointer bool
	// Each is set when the path fans out over the field, a slice; then
	// ElemPointer says whether its elements are pointers (nil ones give no
	// value).
	Each        bool
	ElemPointer bool
	// OmitZero is set when encoding/json omits the field's zero value (an
	// omitempty or omitzero string, bool or integer leaf): then the zero
	// value gives no value, as the field is absent from the object's JSON.
	OmitZero bool
}

// Path is a field path resolved against a type.
type Path struct {
	Steps []Step
	// Leaf is the kind of the final value.
	Leaf LeafKind
	// Type is the Go type of the final value without its pointer, if any:
	// the field's named type when it has one (an enum such as PodPhase), else
	// the builtin type (string, bool, int32, ...). For a list, it is the
	// element's type.
	Type *types.Type
}

// Resolve resolves p against t, which must be a struct type (or a pointer to
// one). The error says what is wrong, and for an unknown field the closest
// valid path.
func Resolve(t *types.Type, p fieldpath.Path) (Path, error) {
	cur := derefNamed(t)
	var out Path
	var members []member
	var leafType *types.Type // the type of the last field (or element), pointers removed
	for i, seg := range p {
		done := p[:i].String()
		if cur.Kind != types.Struct {
			return Path{}, fmt.Errorf("%s is %s, not a struct: it has no field %q", describePath(done), describeType(cur), seg.Name)
		}
		byName := fields(cur)
		f, ok := byName[seg.Name]
		if !ok {
			return Path{}, unknownField(byName, done, seg.Name)
		}
		out.Steps = append(out.Steps, f.steps...)
		members = append(members, f.tags...)
		last := &out.Steps[len(out.Steps)-1]
		field := derefNamed(f.typ)
		leafType = derefPointers(f.typ)
		here := p[:i+1].String()
		if seg.Each {
			if field.Kind != types.Slice && field.Kind != types.Array {
				return Path{}, fmt.Errorf("%s is %s, not a list: [*] needs a list", here[:len(here)-3], describeType(field))
			}
			last.Each = true
			elem := field.Elem
			if derefAlias(elem).Kind == types.Pointer {
				last.ElemPointer = true
				elem = derefAlias(elem).Elem
			}
			field = derefNamed(elem)
			leafType = derefPointers(elem)
		}
		cur = field
	}
	leaf, ok := leafKind(cur)
	if !ok {
		full := p.String()
		hint := ""
		switch cur.Kind {
		case types.Slice, types.Array:
			hint = fmt.Sprintf("; write %s[*] to index every element", full)
		case types.Struct:
			hint = "; name one of its fields"
		}
		return Path{}, fmt.Errorf("%s is %s: an index value must be a string, bool or integer (or a pointer to one)%s", full, describeType(cur), hint)
	}
	out.Leaf = leaf
	out.Type = leafType
	if err := omitted(&out, members, p); err != nil {
		return Path{}, err
	}
	if leafType.Kind != types.Builtin && (leafType.Kind != types.Alias || derefAlias(leafType).Kind != types.Builtin) {
		// A named pointer type, or a chain of them: the value's own type is
		// the builtin at its end.
		out.Type = cur
	}
	return out, nil
}

// omitted applies encoding/json's omitempty and omitzero to a resolved path,
// whose index values are defined on the object's JSON form: a leaf (not a
// pointer, not under [*]) that JSON omits when it is zero gets OmitZero. A
// pointer, even with those options, is omitted only when nil, which already
// gives no value; omitempty keeps a struct, and an empty list under [*]
// gives no value anyway. An omitzero struct on the path is omitted when it is
// zero, which needs no test of its own when the rest of the path gives no
// value for a zero struct (it passes a pointer or a list, or ends at an
// omitted zero leaf); otherwise the path is refused, as it is when an
// omitzero leaf has an IsZero method, which encoding/json would call.
func omitted(out *Path, members []member, p fieldpath.Path) error {
	n := len(out.Steps) - 1
	last := &out.Steps[n]
	opts := jsonOptions(members[n].tag)
	if !last.Pointer && !last.Each && (opts["omitempty"] || opts["omitzero"]) {
		if opts["omitzero"] && hasIsZero(members[n].typ) {
			return fmt.Errorf("%s is omitzero and its type has an IsZero method: an index cannot tell when encoding/json omits it", p.String())
		}
		last.OmitZero = true
	}
	for i := len(out.Steps) - 2; i >= 0; i-- {
		s := out.Steps[i]
		if s.Pointer || s.Each || s.JSONName == "" || !jsonOptions(members[i].tag)["omitzero"] {
			continue
		}
		if !zeroGivesNoValue(out.Steps[i+1:]) {
			return fmt.Errorf("%s passes %s, an omitzero struct: a zero %s is omitted from the JSON, which the index cannot tell from its fields; make it a pointer or give the leaf omitempty", p.String(), s.GoName, s.GoName)
		}
	}
	return nil
}

// zeroGivesNoValue reports whether steps, read from a zero struct, give no
// value: they pass a pointer (nil) or a list (empty), or end at a leaf
// omitted when zero.
func zeroGivesNoValue(steps []Step) bool {
	for _, s := range steps {
		if s.Pointer || s.Each || s.OmitZero {
			return true
		}
	}
	return false
}

func hasIsZero(t *types.Type) bool {
	for t != nil {
		if _, ok := t.Methods["IsZero"]; ok {
			return true
		}
		if t.Kind != types.Alias {
			return false
		}
		t = t.Underlying
	}
	return false
}

// jsonOptions returns the options of a json tag (after the name).
func jsonOptions(tag string) map[string]bool {
	_, opts, _ := strings.Cut(tag, ",")
	out := map[string]bool{}
	for o := range strings.SplitSeq(opts, ",") {
		out[o] = true
	}
	return out
}

// member is the json tag and Go type of the field a step reads.
type member struct {
	tag string
	typ *types.Type
}

// field is a field reachable from a struct: the steps to it and its type.
type field struct {
	steps []Step
	tags  []member // the member of each step
	typ   *types.Type
	depth int // how many inlined structs lie between the struct and it
}

// fields maps the JSON names of a struct's fields, including those promoted
// from inlined embedded structs (shallower fields win, as in encoding/json),
// to the steps that reach them.
func fields(t *types.Type) map[string]field {
	out := map[string]field{}
	var walk func(t *types.Type, prefix []Step, tags []member, depth int)
	walk = func(t *types.Type, prefix []Step, tags []member, depth int) {
		for _, m := range t.Members {
			name, inline, skip := jsonName(m)
			if skip {
				continue
			}
			mt := derefAlias(m.Type)
			step := Step{GoName: m.Name, JSONName: name, Pointer: mt.Kind == types.Pointer}
			chain := append(slices.Clone(prefix), step)
			chainTags := append(slices.Clone(tags), member{tag: reflect.StructTag(m.Tags).Get("json"), typ: m.Type})
			if inline || (m.Embedded && name == "") {
				if inner := derefNamed(m.Type); inner.Kind == types.Struct {
					chain[len(chain)-1].JSONName = ""
					walk(inner, chain, chainTags, depth+1)
					continue
				}
				name = m.Name
				chain[len(chain)-1].JSONName = name
			}
			if f, seen := out[name]; !seen || depth < f.depth {
				out[name] = field{steps: chain, tags: chainTags, typ: m.Type, depth: depth}
			}
		}
	}
	walk(t, nil, nil, 0)
	return out
}

// jsonName returns the JSON name of a member, whether it is inlined, and
// whether encoding/json skips it.
func jsonName(m types.Member) (name string, inline, skip bool) {
	tag, ok := reflect.StructTag(m.Tags).Lookup("json")
	if !ok {
		if m.Embedded {
			return "", true, false
		}
		return m.Name, false, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "-" && opts == "" {
		return "", false, true
	}
	inline = slices.Contains(strings.Split(opts, ","), "inline")
	if name == "" && !inline {
		if m.Embedded {
			return "", true, false
		}
		name = m.Name
	}
	return name, inline, false
}

// derefAlias follows named non-struct types to their underlying type.
func derefAlias(t *types.Type) *types.Type {
	for t.Kind == types.Alias {
		t = t.Underlying
	}
	return t
}

// derefPointers follows pointers, keeping named types.
func derefPointers(t *types.Type) *types.Type {
	for t.Kind == types.Pointer {
		t = t.Elem
	}
	return t
}

// derefNamed follows aliases and pointers.
func derefNamed(t *types.Type) *types.Type {
	for {
		switch t.Kind {
		case types.Alias:
			t = t.Underlying
		case types.Pointer:
			t = t.Elem
		default:
			return t
		}
	}
}

func leafKind(t *types.Type) (LeafKind, bool) {
	if t.Kind != types.Builtin {
		return "", false
	}
	switch t.Name.Name {
	case "string":
		return String, true
	case "bool":
		return Bool, true
	case "int", "int8", "int16", "int32", "int64", "rune":
		return Int, true
	case "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "byte":
		return Uint, true
	}
	return "", false
}

func describePath(p string) string {
	if p == "" {
		return "the object"
	}
	return p
}

func describeType(t *types.Type) string {
	switch t.Kind {
	case types.Map:
		return "a map"
	case types.Slice, types.Array:
		return "a list"
	case types.Struct:
		return "a struct (" + t.Name.Name + ")"
	case types.Builtin:
		return "a " + t.Name.Name
	}
	return strings.ToLower(string(t.Kind))
}

// unknownField reports a missing field with the closest of the valid ones.
func unknownField(valid map[string]field, done, name string) error {
	names := slices.Sorted(maps.Keys(valid))
	msg := fmt.Sprintf("%s has no field %q", describePath(done), name)
	if best := closest(name, names); best != "" {
		suggestion := best
		if done != "" {
			suggestion = done + "." + best
		}
		msg += fmt.Sprintf("; did you mean %s?", suggestion)
	}
	return fmt.Errorf("%s", msg)
}

// closest returns the candidate nearest to name: an exact case-insensitive
// match first, else the smallest edit distance below max(3, len(name)/2+1).
func closest(name string, candidates []string) string {
	best, bestDist := "", max(3, len(name)/2+1)
	for _, c := range candidates {
		if strings.EqualFold(c, name) {
			return c
		}
		if d := editDistance(strings.ToLower(name), strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
