package generators

import (
	"cmp"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/generators/markers"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
	"github.com/informer-gen-plus/informer-gen-plus/templates"
)

// FieldIndexPkg is the import path of the controller-runtime helpers the
// generated controller-runtime packages call. It is a module of its own, so
// that only the users who generate for controller-runtime depend on it.
const FieldIndexPkg = "github.com/informer-gen-plus/informer-gen-plus/controllerruntime/fieldindex"

// Packages of controller-runtime the generated code names.
const (
	crClientPkg    = "sigs.k8s.io/controller-runtime/pkg/client"
	crHandlerPkg   = "sigs.k8s.io/controller-runtime/pkg/handler"
	contextPackage = "context"
)

// controllerRuntimeTargets lays out one package per group version,
// <controller-runtime>/<group>/<version>, for the kinds with a lister and at
// least one index: a file per kind (Setup<Kind>Indexes, List helpers, event
// mappers) and setup.go (SetupIndexes).
func controllerRuntimeTargets(m *Model, l layout) []generator.Target {
	indexed := func(k *Kind) bool { return k.Lister && len(k.Indexes) > 0 }
	return perKindTargets(m, l, l.controllerRuntime, indexed, templates.ControllerRuntimeIndexes,
		func(k *Kind) func(*generator.Context) generator.Args {
			return func(c *generator.Context) generator.Args { return controllerRuntimeArgs(c, l, k) }
		},
		func(pkg string, v *Version, kinds []*Kind) []generator.Generator {
			return []generator.Generator{newFileGenerator(pkg, "setup.go", templates.ControllerRuntimeSetup, controllerRuntimeSetupArgs(pkg, v, kinds))}
		})
}

// crIndexData is what the controller-runtime template needs of one index.
type crIndexData struct {
	Method, Doc, Const          string
	Notes                       []string
	Plural, Singular, Private   string
	Type, List                  string
	Params, Value               string
	Namespaced                  bool
	Context, Reader, ListOption string
	MapFunc, MapByName          string
	What, Whose                 string
}

// controllerRuntimeArgs are the controller-runtime template's arguments for
// k: its lookups encode their parameters exactly as the lister's do.
func controllerRuntimeArgs(c *generator.Context, l layout, k *Kind) generator.Args {
	t := k.Type
	raw := c.Namers["raw"]
	listers := versionPkg(l.listers, k.Version)
	public, private := c.Namers["public"].Name(t), c.Namers["private"].Name(t)
	plural := c.Namers["publicPlural"].Name(t)
	pkg := versionPkg(l.controllerRuntime, k.Version)
	var indexes, mappers []crIndexData
	for _, ix := range k.Indexes {
		method := markers.MethodName(ix.Marker.Name)
		params := lookupParams(ix.Params, packageAlias(raw, t.Name.Package))
		params = avoidNames(params, "ctx", "c", "opts", "list", "err")
		d := crIndexData{
			Method:     method,
			Doc:        describeIndex(ix),
			Const:      raw.Name(types.Ref(listers, public+method+"Index")),
			Notes:      omittedNotes(ix, "List"+plural+method, params),
			Plural:     plural,
			Singular:   public,
			Private:    private,
			Type:       raw.Name(t),
			List:       raw.Name(types.Ref(t.Name.Package, t.Name.Name+"List")),
			Params:     paramList(raw, params),
			Namespaced: k.Namespaced,
			Context:    raw.Name(types.Ref(contextPackage, "Context")),
			Reader:     raw.Name(types.Ref(crClientPkg, "Reader")),
			ListOption: raw.Name(types.Ref(crClientPkg, "ListOption")),
		}
		d.Value, _, _ = lookupKey(raw, params)
		indexes = append(indexes, d)
		switch {
		case ix.Spec.Source == markers.FromOwner:
			d.What = article(ix.Spec.Key) + " (" + cmp.Or(ix.Spec.Group, fieldpath.CoreGroup) + ")"
			d.Whose = "the " + plural + " it controls"
		case ix.Marker.Ref != "":
			d.What = article(ix.Marker.Ref)
			d.Whose = "the " + plural + " of its namespace indexed " + describeIndex(ix) + " under its name"
		}
		if d.What != "" {
			d.MapFunc = raw.Name(types.Ref(crHandlerPkg, "MapFunc"))
			d.MapByName = raw.Name(types.Ref(FieldIndexPkg, "MapByName"))
			mappers = append(mappers, d)
		}
	}
	return generator.Args{
		"type":         t,
		"private":      private,
		"indexes":      indexes,
		"mappers":      mappers,
		"setupCall":    pkg + ".Setup" + public + "Indexes",
		"kindDesc":     types.Ref(FieldIndexPkg, "Kind"),
		"missingIndex": types.Ref(FieldIndexPkg, "MissingIndexError"),
		"context":      types.Ref(contextPackage, "Context"),
		"fieldIndexer": types.Ref(crClientPkg, "FieldIndexer"),
		"indexers":     types.Ref(listers, public+"Indexers"),
	}
}

// avoidNames suffixes the parameters named like one of the generated
// function's own identifiers.
func avoidNames(params []Param, taken ...string) []Param {
	for i := range params {
		for _, name := range taken {
			if params[i].Name == name {
				params[i].Name += "Value"
			}
		}
	}
	return params
}

// controllerRuntimeSetupArgs are the arguments of setup.go: the Setup
// function of each kind of the package.
func controllerRuntimeSetupArgs(pkg string, v *Version, kinds []*Kind) func(*generator.Context) generator.Args {
	return func(c *generator.Context) generator.Args {
		var setups, names []string
		for _, k := range kinds {
			name := c.Namers["public"].Name(k.Type)
			setups = append(setups, "Setup"+name+"Indexes")
			names = append(names, name)
		}
		return generator.Args{
			"setups":       setups,
			"kinds":        joinWords(names),
			"pkgName":      v.Group.PackageName + v.Name,
			"context":      types.Ref(contextPackage, "Context"),
			"fieldIndexer": types.Ref(crClientPkg, "FieldIndexer"),
		}
	}
}

// joinWords joins words as prose: "A", "A and B", "A, B and C".
func joinWords(words []string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// withControllerRuntime adds the controller-runtime tree at pkg to p. When
// pkg is not below p's base package, the base moves up to the path both
// share, the directories moving up with it (as for --listers-package): the
// trees must be laid out as their import paths are.
func (p plan) withControllerRuntime(pkg string) (plan, error) {
	pkg = path.Clean(pkg)
	base := commonPath(p.basePkg, pkg)
	if base == "" || base == "." {
		return plan{}, fmt.Errorf("--controller-runtime-output-pkg %s shares no leading path with the output package %s: cannot tell which directory it is", pkg, p.basePkg)
	}
	up := strings.Count(strings.TrimPrefix(p.basePkg, base), "/")
	owned := make([]string, 0, len(p.owned)+1)
	for _, o := range p.owned {
		owned = append(owned, path.Join(p.basePkg, o))
	}
	for range up {
		p.baseDir = filepath.Dir(p.baseDir)
	}
	p.basePkg = base
	p.owned = p.owned[:0]
	for _, o := range append(owned, pkg) {
		p.owned = append(p.owned, p.rel(o))
	}
	p.controllerRuntime = pkg
	return p, nil
}

// article puts "a" or "an" before a kind: "a ConfigMap", "an Ingress".
func article(kind string) string {
	if kind != "" && strings.ContainsRune("AEIOU", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}
