package generators

import (
	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/templates"
)

// RuntimeControllerPkg is the import path of the runtime's reconcile loop.
const RuntimeControllerPkg = "github.com/informer-gen-plus/informer-gen-plus/runtime/controller"

// controllerTargets lays out one controller package per group version,
// <controllers>/<group>/<version>, with a constructor per kind that has an
// informer.
func controllerTargets(m *Model, l layout) []generator.Target {
	return perKindTargets(m, l, l.controllers, func(k *Kind) bool { return k.Informer }, templates.Controller,
		func(k *Kind) func(*generator.Context) generator.Args { return controllerArgs(l, k) }, nil)
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
			"factory":       types.Ref(l.informers, "SharedInformerFactory"),
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
