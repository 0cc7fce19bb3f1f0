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
			"name":          defaultControllerName(c, k),
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

// defaultControllerName is the name a generated constructor gives a
// controller when Options.Name is empty: the kind's resource, fully
// qualified as kubectl writes it, <resource>.<version>.<group>
// ("widgets.v1.shop.example.dev", "configmaps.v1.core"). Controller names
// must be unique in a process, and the version keeps those of two versions
// of one kind apart.
func defaultControllerName(c *generator.Context, k *Kind) string {
	return c.Namers["allLowercasePlural"].Name(k.Type) + "." + k.Version.Name + "." + groupDisplayName(k.Version.Group)
}
