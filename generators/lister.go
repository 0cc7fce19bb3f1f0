package generators

import (
	"strings"

	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/generators/indexfunc"
	"github.com/informer-gen-plus/informer-gen-plus/generators/markers"
	"github.com/informer-gen-plus/informer-gen-plus/templates"
)

// RuntimeCachePkg is the import path of the runtime every generated file
// builds on.
const RuntimeCachePkg = "github.com/informer-gen-plus/informer-gen-plus/runtime/cache"

// listersPath returns the path, below the output directory, of the lister
// package of a group version: listers/<group>/<version>.
func listersPath(v *Version) []string {
	return versionPath("listers", v)
}

// listerTargets lays out one lister package per group version.
func listerTargets(m *Model, l layout) []generator.Target {
	return perKindTargets(m, l, "listers", func(k *Kind) bool { return k.Lister }, templates.Lister,
		func(k *Kind) func(*generator.Context) generator.Args {
			return func(c *generator.Context) generator.Args { return listerArgs(c, k) }
		})
}

// fileName is the name of a kind's file in lister and informer packages.
func fileName(k *Kind) string { return strings.ToLower(k.Type.Name.Name) + ".go" }

// indexData is what the lister template needs of one index.
type indexData struct {
	Name, Const, Method, Func, Doc  string
	Params, Value, Body, Key        string
	Type, Plural, Singular, Private string
	Namespaced                      bool
}

// listerArgs are the lister template's arguments for k.
func listerArgs(c *generator.Context, k *Kind) generator.Args {
	t := k.Type
	raw := c.Namers["raw"]
	public, private := c.Namers["public"].Name(t), c.Namers["private"].Name(t)
	var all, funcs, labels []indexData
	for _, ix := range k.Indexes {
		d := indexData{
			Name:       ix.Marker.Name,
			Const:      public + markers.MethodName(ix.Marker.Name) + "Index",
			Method:     markers.MethodName(ix.Marker.Name),
			Func:       public + markers.MethodName(ix.Marker.Name),
			Doc:        describeIndex(ix),
			Params:     strings.Join(ix.Params, ", ") + " string",
			Value:      ix.Params[0],
			Key:        ix.Spec.Key,
			Type:       raw.Name(t),
			Plural:     c.Namers["publicPlural"].Name(t),
			Singular:   public,
			Private:    private,
			Namespaced: k.Namespaced,
		}
		if len(ix.Params) > 1 {
			d.Value = raw.Name(types.Ref(indexfunc.FieldPathPkg, "JoinValues")) + "(" + strings.Join(ix.Params, ", ") + ")"
		}
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
		"indexer":         types.Ref(RuntimeCachePkg, "Indexer"),
		"indexers":        types.Ref(RuntimeCachePkg, "Indexers"),
		"lister":          types.Ref(RuntimeCachePkg, "Lister"),
		"namespaceLister": types.Ref(RuntimeCachePkg, "NamespaceLister"),
		"newLister":       types.Ref(RuntimeCachePkg, "NewLister"),
		"resource":        types.Ref(t.Name.Package, "Resource"),
	}
}

// indexBody writes an index function's statements, importing what they use.
func indexBody(raw namer.Namer, ix *Index) string {
	spec := ix.Spec
	var im indexfunc.Imports
	switch spec.Source {
	case markers.FromField:
		im.FieldPath = packageAlias(raw, indexfunc.FieldPathPkg)
	case markers.FromOwner:
		im.Meta = packageAlias(raw, indexfunc.MetaPkg)
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

// describeIndex says what an index indexes by, for doc comments.
func describeIndex(ix *Index) string {
	switch ix.Spec.Source {
	case markers.FromLabel:
		return "by the value of their label " + ix.Spec.Key
	case markers.FromAnnotation:
		return "by the value of their annotation " + ix.Spec.Key
	case markers.FromOwner:
		return "by the name of their controlling " + ix.Spec.Key
	case markers.FromFunc:
		return "by " + ix.Spec.Func
	}
	return "by " + ix.Marker.Value
}
