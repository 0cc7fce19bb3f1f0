// Package indexfunc writes the Go body of a generated index function in
// append form, func(obj *T, dst []string) []string, from a checked +index
// marker: the body appends the object's values to dst and returns the
// extended slice. The code it writes is plain Go: no reflection, no error,
// and no allocation beyond growing dst and the values that have to be built
// (composite keys, integers, a user function's result).
package indexfunc

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/informer-gen-plus/informer-gen-plus/generators/markers"
	"github.com/informer-gen-plus/informer-gen-plus/generators/resolve"
)

// FieldPathPkg is the import path of the package generated index code calls
// for value formatting and composite keys.
const FieldPathPkg = "github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"

// CachePkg is the import path of the runtime package whose ControllerOf
// owner indexes call: the one definition of "controlled by a K" that the
// runtime's controllers (WatchOwned) use too.
const CachePkg = "github.com/informer-gen-plus/informer-gen-plus/runtime/cache"

// SchemaPkg is the import path of apimachinery's runtime/schema, whose
// GroupKind names an owner index's kind.
const SchemaPkg = "k8s.io/apimachinery/pkg/runtime/schema"

// Spec is what an index function computes.
type Spec struct {
	Source markers.SourceKind
	// Paths are the resolved paths of a field index, one per part of a
	// composite key.
	Paths []resolve.Path
	// Key is the label or annotation key, or the owner kind.
	Key string
	// Group is the API group of an owner index's kind ("" for the core
	// group).
	Group string
	// Func is the qualified Go name of the user's function, as the caller's
	// import tracker renders it (for example "indexing.ZoneOf").
	Func string
}

// Imports names the package aliases a body refers to; the caller's import
// tracker supplies them.
type Imports struct {
	FieldPath string // alias of FieldPathPkg
	Cache     string // alias of CachePkg
	Schema    string // alias of SchemaPkg
}

// Body returns the statements of the index function, whose parameters are
// called obj and dst. They append to dst, never read or keep what dst held
// before, and return the extended slice.
func Body(s Spec, im Imports) string {
	switch s.Source {
	case markers.FromLabel:
		return mapLookup("obj.Labels", s.Key)
	case markers.FromAnnotation:
		return mapLookup("obj.Annotations", s.Key)
	case markers.FromOwner:
		return fmt.Sprintf("if name, ok := %s.ControllerOf(obj, %s.GroupKind{Group: %s, Kind: %s}); ok {\n\treturn append(dst, name)\n}\nreturn dst\n",
			im.Cache, im.Schema, strconv.Quote(s.Group), strconv.Quote(s.Key))
	case markers.FromFunc:
		return fmt.Sprintf("return append(dst, %s(obj)...)\n", s.Func)
	case markers.FromSelectableField:
		return selectableBody(s.Paths[0], im)
	}
	if len(s.Paths) == 1 {
		if expr, ok := simpleValue(s.Paths[0], im); ok {
			return "return append(dst, " + expr + ")\n"
		}
		var b strings.Builder
		writePath(&b, s.Paths[0], "obj", im)
		b.WriteString("return dst\n")
		return b.String()
	}
	return compositeBody(s.Paths, im)
}

// compositeBody appends the values of every part of a composite key to dst,
// one part after the other, noting where each part after the first starts,
// and has fieldpath.AppendCombined replace them with the key's values (what
// Combine gives for the parts).
func compositeBody(paths []resolve.Path, im Imports) string {
	var b strings.Builder
	b.WriteString("start := len(dst)\n")
	var ends []string
	for i, p := range paths {
		if i > 0 {
			end := fmt.Sprintf("part%d", i+1)
			fmt.Fprintf(&b, "%s := len(dst)\n", end)
			ends = append(ends, end)
		}
		if expr, ok := simpleValue(p, im); ok {
			fmt.Fprintf(&b, "dst = append(dst, %s)\n", expr)
			continue
		}
		writePath(&b, p, "obj", im)
	}
	fmt.Fprintf(&b, "return %s.AppendCombined(dst, start, %s)\n", im.FieldPath, strings.Join(ends, ", "))
	return b.String()
}

func mapLookup(field, key string) string {
	return fmt.Sprintf("if v, ok := %s[%s]; ok {\n\treturn append(dst, v)\n}\nreturn dst\n", field, strconv.Quote(key))
}

// simpleValue returns the single-value expression of a path that has neither
// pointers nor lists, and whose leaf is not omitted when zero.
func simpleValue(p resolve.Path, im Imports) (string, bool) {
	expr := "obj"
	for _, s := range p.Steps {
		if s.Pointer || s.Each || s.OmitZero {
			return "", false
		}
		expr += "." + s.GoName
	}
	return Format(p.Leaf, expr, im), true
}

// writePath writes statements that append the values of p, read from base,
// to dst: a nil pointer skips, a list loops, and a leaf that encoding/json
// omits when zero (omitempty, omitzero) skips its zero value.
func writePath(b *strings.Builder, p resolve.Path, base string, im Imports) {
	expr := base
	depth := 0
	closers := 0
	for i, s := range p.Steps {
		expr += "." + s.GoName
		last := i == len(p.Steps)-1
		switch {
		case s.Each:
			depth++
			elem := fmt.Sprintf("e%d", depth)
			switch {
			case s.ElemPointer:
				fmt.Fprintf(b, "for _, %s := range %s {\nif %s == nil {\ncontinue\n}\n", elem, expr, elem)
				if last {
					expr = "*" + elem
				} else {
					expr = elem
				}
			case last:
				fmt.Fprintf(b, "for _, %s := range %s {\n", elem, expr)
				expr = elem
			default:
				fmt.Fprintf(b, "for i%d := range %s {\n%s := &%s[i%d]\n", depth, expr, elem, expr, depth)
				expr = elem
			}
			closers++
		case s.Pointer:
			fmt.Fprintf(b, "if %s != nil {\n", expr)
			closers++
			if last {
				expr = "*" + expr
			}
		case s.OmitZero:
			fmt.Fprintf(b, "if %s {\n", nonZero(p.Leaf, expr))
			closers++
		}
	}
	fmt.Fprintf(b, "dst = append(dst, %s)\n", Format(p.Leaf, expr, im))
	b.WriteString(strings.Repeat("}\n", closers))
}

// selectableBody writes the body of the index function of a selectable
// field, which appends exactly one value: the one the API server compares field selectors
// with, which is "" when the object's JSON has no such field (a nil pointer
// on the path, or a leaf that encoding/json omits when zero) and otherwise
// the leaf formatted as Format does. The path has no list (selectable
// fields are single-valued).
func selectableBody(p resolve.Path, im Imports) string {
	var b strings.Builder
	expr := "obj"
	for i, s := range p.Steps {
		expr += "." + s.GoName
		last := i == len(p.Steps)-1
		switch {
		case s.Pointer:
			fmt.Fprintf(&b, "if %s == nil {\nreturn append(dst, \"\")\n}\n", expr)
			if last {
				expr = "*" + expr
			}
		case s.OmitZero && p.Leaf != resolve.String:
			// An omitted empty string is "" either way.
			zero := expr + " == 0"
			if p.Leaf == resolve.Bool {
				zero = "!" + expr
			}
			fmt.Fprintf(&b, "if %s {\nreturn append(dst, \"\")\n}\n", zero)
		}
	}
	fmt.Fprintf(&b, "return append(dst, %s)\n", Format(p.Leaf, expr, im))
	return b.String()
}

// nonZero returns the condition that expr, a leaf of kind leaf, is not its
// zero value.
func nonZero(leaf resolve.LeafKind, expr string) string {
	switch leaf {
	case resolve.Bool:
		return expr
	case resolve.Int, resolve.Uint:
		return expr + " != 0"
	}
	return expr + ` != ""`
}

// Format returns the expression that renders expr, a value of a leaf of kind
// leaf, as an index value, the way the runtime renders the same path on
// unstructured objects. Index functions render field values with it, and
// lookups their arguments, so that a lookup finds what indexing stored.
func Format(leaf resolve.LeafKind, expr string, im Imports) string {
	switch leaf {
	case resolve.Bool:
		return fmt.Sprintf("%s.FormatBool(%s)", im.FieldPath, expr)
	case resolve.Int, resolve.Uint:
		return fmt.Sprintf("%s.FormatInt(%s)", im.FieldPath, expr)
	}
	return fmt.Sprintf("%s.FormatString(%s)", im.FieldPath, expr)
}
