package generators

import (
	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/templates"
)

// RuntimeControllerPkg is the import path of the runtime's reconcile loop.
const RuntimeControllerPkg = "github.com/informer-gen-plus/informer-gen-plus/runtime/controller"

// controllerTargets lays out one controller package per group version,
// controllers/<group>/<version>, with a constructor per kind that has an
// informer.
func controllerTargets(m *Model, l layout) []generator.Target {
	var targets []generator.Target
	for _, g := range m.Groups {
		for _, v := range g.Versions {
			kinds := kindsWhere(v, func(k *Kind) bool { return k.Informer })
			if len(kinds) == 0 {
				continue
			}
			parts := []string{"controllers", g.PackageName, v.Name}
			pkg := l.pkg(parts...)
			var gens []generator.Generator
			for _, k := range kinds {
				gens = append(gens, newFileGenerator(pkg, fileName(k), templates.Controller, controllerArgs(l, k)))
			}
			targets = append(targets, l.target(v.Name, parts, gens...))
		}
	}
	return targets
}

func controllerArgs(l layout, k *Kind) func(*generator.Context) generator.Args {
	return func(c *generator.Context) generator.Args {
		v := k.Version
		return generator.Args{
			"type":          k.Type,
			"kind":          k.Type.Name.Name,
			"namespaced":    k.Namespaced,
			"name":          c.Namers["allLowercasePlural"].Name(k.Type) + "." + groupDisplayName(v.Group),
			"accessor":      factoryAccessor(c, k),
			"groupVersion":  types.Ref(v.Package, "SchemeGroupVersion"),
			"factory":       types.Ref(l.pkg(informersPath()...), "SharedInformerFactory"),
			"reconciler":    types.Ref(RuntimeControllerPkg, "Reconciler"),
			"options":       types.Ref(RuntimeControllerPkg, "Options"),
			"predicate":     types.Ref(RuntimeControllerPkg, "Predicate"),
			"controller":    types.Ref(RuntimeControllerPkg, "Controller"),
			"newController": types.Ref(RuntimeControllerPkg, "New"),
			"primary":       types.Ref(RuntimeControllerPkg, "Primary"),
			"watch":         types.Ref(RuntimeControllerPkg, "Watch"),
			"watchOwned":    types.Ref(RuntimeControllerPkg, "WatchOwned"),
		}
	}
}
