package generators

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/generators/indexfunc"
	"github.com/informer-gen-plus/informer-gen-plus/generators/resolve"
	"github.com/informer-gen-plus/informer-gen-plus/templates"
)

// fieldsPkg and metaPkg are apimachinery's field selectors and the package
// of ListOptions.
const (
	fieldsPkg = "k8s.io/apimachinery/pkg/fields"
	metaPkg   = "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// fieldSelectorGenerators returns the <kind>_fieldselectors.go files of
// the kinds of a lister package that have selectable fields.
func fieldSelectorGenerators(pkg string, kinds []*Kind) []generator.Generator {
	var gens []generator.Generator
	for _, k := range kinds {
		if len(k.SelectableFields) == 0 {
			continue
		}
		gens = append(gens, newFileGenerator(pkg, fieldSelectorsFileName(k), templates.FieldSelectors,
			func(c *generator.Context) generator.Args { return fieldSelectorArgs(c, k) }))
	}
	return gens
}

// fieldSelectorsFileName is the name of a kind's field selector file. The
// underscore keeps it apart from the file of any kind.
func fieldSelectorsFileName(k *Kind) string {
	return strings.ToLower(k.Type.Name.Name) + "_fieldselectors.go"
}

// selectorData is what the field selector template needs of one selectable
// field.
type selectorData struct {
	// Const, Selector and With name the key constant and the two functions.
	Const, Selector, With string
	// Key is the field selector key, Plural the kind's plural.
	Key, Plural string
	// Name is the parameter's name, Params the parameter list, Value the
	// expression of the field selector's value.
	Name, Params, Value string
	// Notes are further sentences of the selector's doc comment.
	Notes []string
	// SelectorType, OneTerm and ListOptions are the apimachinery names the
	// functions use, as the file imports them.
	SelectorType, OneTerm, ListOptions string
}

// fieldSelectorArgs are the field selector template's arguments for k.
func fieldSelectorArgs(c *generator.Context, k *Kind) generator.Args {
	t := k.Type
	raw := c.Namers["raw"]
	public, plural := c.Namers["public"].Name(t), c.Namers["publicPlural"].Name(t)
	im := indexfunc.Imports{FieldPath: packageAlias(raw, indexfunc.FieldPathPkg)}
	selectorType := raw.Name(types.Ref(fieldsPkg, "Selector"))
	oneTerm := raw.Name(types.Ref(fieldsPkg, "OneTermEqualSelector"))
	listOptions := raw.Name(types.Ref(metaPkg, "ListOptions"))
	// Names the bodies use, which a parameter must not shadow.
	taken := []string{packageAlias(raw, fieldsPkg), packageAlias(raw, metaPkg), im.FieldPath, "options", "selector"}
	var fields []selectorData
	for _, sf := range k.SelectableFields {
		p := sf.Param
		if p.Type != nil && p.Type.Name.Package != "" {
			taken = append(taken, packageAlias(raw, p.Type.Name.Package))
		}
		if slices.Contains(taken, p.Name) {
			p.Name += "Value"
		}
		field := upperCamel(sf.Param.Name)
		d := selectorData{
			Const:        public + field + "Field",
			Selector:     public + field + "Selector",
			With:         plural + "With" + field,
			Key:          sf.Key,
			Plural:       plural,
			Name:         p.Name,
			Params:       paramList(raw, []Param{p}),
			Value:        selectorValue(raw, p, im),
			SelectorType: selectorType,
			OneTerm:      oneTerm,
			ListOptions:  listOptions,
		}
		d.Notes = absentNotes(sf.Path, sf.Key, func(arg string) string { return d.Selector + "(" + arg + ")" }, "selects", plural)
		fields = append(fields, d)
	}
	return generator.Args{"kind": public, "fields": fields}
}

// selectorValue is the expression of a field selector's value for the
// parameter p: the parameter formatted as the API server formats the field
// (and as the index of the field formats it, indexfunc.Format), a string as
// it is.
func selectorValue(raw namer.Namer, p Param, im indexfunc.Imports) string {
	if p.Leaf == resolve.String {
		if p.Type == nil || p.Type.Kind == types.Builtin {
			return p.Name
		}
		return "string(" + p.Name + ")"
	}
	return indexfunc.Format(p.Leaf, p.Name, im)
}

// absentNotes says how the API server compares a selectable field at path
// (with field selector key key) that an object's JSON lacks, for the doc
// comments of its selector (verb "selects") and of the lookups of its index
// (verb "finds"): as "", so that a zero integer or bool that json omits is
// selected by no value, and the empty string also selects the objects
// without the field. call writes the function's call with one argument.
func absentNotes(path resolve.Path, key string, call func(arg string) string, verb, plural string) []string {
	leaf := path.Steps[len(path.Steps)-1]
	viaPointer := slices.ContainsFunc(path.Steps, func(s resolve.Step) bool { return s.Pointer })
	var notes []string
	if leaf.OmitZero && path.Leaf != resolve.String {
		zero := map[resolve.LeafKind]string{resolve.Bool: "false", resolve.Int: "0", resolve.Uint: "0"}[path.Leaf]
		notes = append(notes, fmt.Sprintf("A %s %s is omitted from the object's JSON, which the API server compares as \"\": %s %s nothing.",
			map[resolve.LeafKind]string{resolve.Bool: "false", resolve.Int: "zero", resolve.Uint: "zero"}[path.Leaf], key, call(zero), verb))
	}
	if viaPointer {
		if path.Leaf == resolve.String {
			notes = append(notes, fmt.Sprintf("A nil pointer on the path omits %s from the object's JSON, which the API server compares as \"\": %s also %s the %s without it.",
				key, call(`""`), verb, plural))
		} else {
			notes = append(notes, fmt.Sprintf("A nil pointer on the path omits %s from the object's JSON, which the API server compares as \"\": the %s without it match no value.",
				key, plural))
		}
	}
	return notes
}
