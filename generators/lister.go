package generators

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/generators/indexfunc"
	"github.com/informer-gen-plus/informer-gen-plus/generators/markers"
	"github.com/informer-gen-plus/informer-gen-plus/generators/resolve"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
	"github.com/informer-gen-plus/informer-gen-plus/templates"
)

// RuntimeCachePkg is the import path of the runtime every generated lister
// builds on.
const RuntimeCachePkg = "github.com/informer-gen-plus/informer-gen-plus/runtime/cache"

// ClientGoCachePkg is client-go's tools/cache, whose interfaces the
// generated code implements and accepts.
const ClientGoCachePkg = "k8s.io/client-go/tools/cache"

// listerTargets lays out one lister package per group version: a file per
// kind, expansion_generated.go, and the field selector file of each kind with
// selectable fields.
func listerTargets(m *Model, l layout) []generator.Target {
	return perKindTargets(m, l, l.listers, func(k *Kind) bool { return k.Lister }, templates.Lister,
		func(k *Kind) func(*generator.Context) generator.Args {
			return func(c *generator.Context) generator.Args { return listerArgs(c, k) }
		},
		func(pkg string, _ *Version, kinds []*Kind) []generator.Generator {
			return append([]generator.Generator{newFileGenerator(pkg, "expansion_generated.go", templates.Expansion, expansionArgs(l.dir(pkg), kinds))},
				fieldSelectorGenerators(pkg, kinds)...)
		})
}

// expansionArgs are the arguments of expansion_generated.go: the kinds
// whose expansion interfaces it declares. As lister-gen, it leaves out the
// kinds with a hand-written <kind>_expansion.go in the package's directory,
// which declares them instead (and may add methods to the lister).
func expansionArgs(dir string, kinds []*Kind) func(*generator.Context) generator.Args {
	return func(*generator.Context) generator.Args {
		var declared []*Kind
		for _, k := range kinds {
			if !hasExpansionFile(dir, k) {
				declared = append(declared, k)
			}
		}
		return generator.Args{"kinds": declared}
	}
}

// hasExpansionFile reports whether dir holds the hand-written expansion file
// of k, <kind in lower case>_expansion.go.
func hasExpansionFile(dir string, k *Kind) bool {
	_, err := os.Stat(filepath.Join(dir, strings.ToLower(k.Type.Name.Name)+"_expansion.go"))
	return err == nil
}

// indexData is what the lister template needs of one index.
type indexData struct {
	Name, Const, Method, Func, Doc string
	// Notes are further sentences of the lookups' doc comments, one a line.
	Notes                           []string
	Body, Key                       string
	Type, Plural, Singular, Private string
	Namespaced                      bool
	// Params is the lookups' parameter list, Value the index value the
	// slice lookup passes to ByIndex (an expression of the parameters).
	Params, Value string
	// EachKey declares what the iterator lookup needs to compute its index
	// value, EachValue, without allocating (statements; may be empty).
	EachKey, EachValue string
	// Seq is iter.Seq, as the file imports it.
	Seq string
}

// listerArgs are the lister template's arguments for k.
func listerArgs(c *generator.Context, k *Kind) generator.Args {
	t := k.Type
	raw := c.Namers["raw"]
	// client-go's cache is imported as cache, the runtime's as runtimecache.
	raw.Name(types.Ref(ClientGoCachePkg, "Indexer"))
	public, private := c.Namers["public"].Name(t), c.Namers["private"].Name(t)
	var all, funcs, labels []indexData
	for _, ix := range k.Indexes {
		d := indexData{
			Name:   ix.Marker.Name,
			Const:  public + markers.MethodName(ix.Marker.Name) + "Index",
			Method: markers.MethodName(ix.Marker.Name),
			Func:   public + markers.MethodName(ix.Marker.Name),
			Doc:    describeIndex(ix),
			Key:    ix.Spec.Key,

			Type:       raw.Name(t),
			Plural:     c.Namers["publicPlural"].Name(t),
			Singular:   public,
			Private:    private,
			Namespaced: k.Namespaced,
			Seq:        raw.Name(types.Ref("iter", "Seq")),
		}
		params := lookupParams(ix.Params, packageAlias(raw, t.Name.Package))
		d.Params = paramList(raw, params)
		d.Value, d.EachKey, d.EachValue = lookupKey(raw, params)
		d.Notes = omittedNotes(ix, d.Method, params)
		if ix.Spec.Source == markers.FromLabel {
			labels = append(labels, d)
		} else {
			d.Body = indexBody(raw, ix)
			funcs = append(funcs, d)
		}
		all = append(all, d)
	}
	return generator.Args{
		"type":            t,
		"namespaced":      k.Namespaced,
		"indexes":         all,
		"funcIndexes":     funcs,
		"labelIndexes":    labels,
		"selector":        types.Ref("k8s.io/apimachinery/pkg/labels", "Selector"),
		"indexer":         types.Ref(ClientGoCachePkg, "Indexer"),
		"cacheIndexers":   types.Ref(ClientGoCachePkg, "Indexers"),
		"indexFuncs":      types.Ref(RuntimeCachePkg, "AppendIndexers"),
		"addIndexes":      types.Ref(RuntimeCachePkg, "AddAppendIndexes"),
		"toIndexers":      types.Ref(RuntimeCachePkg, "AppendToIndexers"),
		"lister":          types.Ref(RuntimeCachePkg, "Lister"),
		"namespaceLister": types.Ref(RuntimeCachePkg, "NamespaceLister"),
		"newLister":       types.Ref(RuntimeCachePkg, "NewLister"),
		"resource":        types.Ref(t.Name.Package, "Resource"),
	}
}

// lookupParams returns params with the names that would shadow the package
// of the indexed type, which the iterator lookups name, suffixed.
func lookupParams(params []Param, typesAlias string) []Param {
	out := slices.Clone(params)
	for i := range out {
		if out[i].Name == typesAlias {
			out[i].Name += "Value"
		}
	}
	return out
}

// paramList writes a lookup's parameter list, grouping neighbours of the
// same type as gofmt'ed code does ("phase, color string").
func paramList(raw namer.Namer, params []Param) string {
	var b strings.Builder
	for i, p := range params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.Name)
		typ := paramType(raw, p)
		if i == len(params)-1 || paramType(raw, params[i+1]) != typ {
			b.WriteString(" " + typ)
		}
	}
	return b.String()
}

func paramType(raw namer.Namer, p Param) string {
	if p.Type == nil {
		return "string"
	}
	return raw.Name(p.Type)
}

// Sizes of the buffers the iterator lookups encode their index value into
// on their stack: the longest integer (-9223372036854775808), and a
// composite key. A longer composite key still works: appending to the
// buffer then allocates.
const (
	intKeyBuffer       = 20
	compositeKeyBuffer = 64
)

// lookupKey writes how the lookups encode their parameters into the index
// value, exactly as the index function encodes the values it indexes (the
// same fieldpath formatting and, for a composite key, the same join): the
// slice lookup's expression, and the iterator lookup's statements and
// expression, which encode integers and composite keys into a buffer on the
// stack instead of allocating a string.
func lookupKey(raw namer.Namer, params []Param) (value, eachKey, eachValue string) {
	if params[0].Leaf == "" { // a label, annotation, owner or func: the value as is
		return params[0].Name, "", params[0].Name
	}
	im := indexfunc.Imports{FieldPath: packageAlias(raw, indexfunc.FieldPathPkg)}
	parts := make([]string, len(params))
	for i, p := range params {
		parts[i] = indexfunc.Format(p.Leaf, p.Name, im)
	}
	if len(params) == 1 {
		if p := params[0]; p.Leaf == resolve.Int || p.Leaf == resolve.Uint {
			return parts[0], fmt.Sprintf("var buf [%d]byte\nkey := %s.AppendInt(buf[:0], %s)\n", intKeyBuffer, im.FieldPath, p.Name), "string(key)"
		}
		return parts[0], "", parts[0]
	}
	joined := strings.Join(parts, ", ")
	return fmt.Sprintf("%s.JoinValues(%s)", im.FieldPath, joined),
		fmt.Sprintf("var buf [%d]byte\nkey := %s.AppendValues(buf[:0], %s)\n", compositeKeyBuffer, im.FieldPath, joined), "string(key)"
}

// indexBody writes an index function's statements, importing what they use.
func indexBody(raw namer.Namer, ix *Index) string {
	spec := ix.Spec
	var im indexfunc.Imports
	switch spec.Source {
	case markers.FromField, markers.FromSelectableField:
		im.FieldPath = packageAlias(raw, indexfunc.FieldPathPkg)
	case markers.FromOwner:
		im.Cache = packageAlias(raw, indexfunc.CachePkg)
		im.Schema = packageAlias(raw, indexfunc.SchemaPkg)
	case markers.FromFunc:
		pkg, name, _ := markers.SplitQualified(spec.Func)
		spec.Func = raw.Name(types.Ref(pkg, name))
	}
	return indexfunc.Body(spec, im)
}

// packageAlias imports pkg and returns the name it is imported as.
func packageAlias(raw namer.Namer, pkg string) string {
	qualified := raw.Name(types.Ref(pkg, "X"))
	return strings.TrimSuffix(qualified, ".X")
}

// omittedNotes says, for each path of a field index whose leaf encoding/json
// omits when zero (omitempty, omitzero), that its zero value gives no value,
// so that the lookup with that argument finds nothing.
func omittedNotes(ix *Index, method string, params []Param) []string {
	if ix.Spec.Source == markers.FromSelectableField {
		call := func(arg string) string { return method + "(" + arg + ")" }
		return absentNotes(ix.Spec.Paths[0], ix.Marker.Selectable.String(), call, "finds", "objects")
	}
	if ix.Spec.Source != markers.FromField {
		return nil
	}
	key := fieldpath.MustParse(ix.Marker.Value)
	var notes []string
	for i, p := range ix.Spec.Paths {
		if !p.Steps[len(p.Steps)-1].OmitZero {
			continue
		}
		zero := map[resolve.LeafKind]string{resolve.String: `""`, resolve.Bool: "false", resolve.Int: "0", resolve.Uint: "0"}[p.Leaf]
		finds := fmt.Sprintf("%s(%s) finds nothing", method, zero)
		if len(params) > 1 {
			finds = fmt.Sprintf("%s finds nothing with %s %s", method, params[i].Name, zero)
		}
		adj := map[resolve.LeafKind]string{resolve.String: "An empty", resolve.Bool: "A false", resolve.Int: "A zero", resolve.Uint: "A zero"}[p.Leaf]
		notes = append(notes, fmt.Sprintf("%s %s is omitted from the object's JSON and gives no value: %s.", adj, key[i], finds))
	}
	return notes
}

// describeIndex says what an index indexes by, for doc comments.
func describeIndex(ix *Index) string {
	switch ix.Spec.Source {
	case markers.FromLabel:
		return "by the value of their label " + ix.Spec.Key
	case markers.FromAnnotation:
		return "by the value of their annotation " + ix.Spec.Key
	case markers.FromOwner:
		return "by the name of their controlling " + ix.Spec.Key + " (" + cmp.Or(ix.Spec.Group, fieldpath.CoreGroup) + ")"
	case markers.FromFunc:
		return "by " + ix.Spec.Func
	case markers.FromSelectableField:
		return "by their selectable field " + ix.Marker.Selectable.String() + ", as the API server's field selectors compare it"
	}
	return "by " + ix.Marker.Value
}
