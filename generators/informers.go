package generators

import (
	"path"

	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/templates"
)

// RuntimeInformersPkg is the import path of the runtime's shared informer
// factory.
const RuntimeInformersPkg = "github.com/informer-gen-plus/informer-gen-plus/runtime/informers"

// RuntimeDiscoveryPkg is the import path of the runtime's discovery gating,
// whose states the generated factories report.
const RuntimeDiscoveryPkg = "github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"

// informerTargets lays out the informers as informer-gen does, below the
// factory's package: factory.go and generic.go, internalinterfaces/, one
// package per group and one per group version.
func informerTargets(m *Model, l layout) []generator.Target {
	var targets []generator.Target
	var groups []*Group
	for _, g := range m.Groups {
		var versions []*Version
		for _, v := range g.Versions {
			kinds := kindsWhere(v, func(k *Kind) bool { return k.Informer })
			if len(kinds) == 0 {
				continue
			}
			versions = append(versions, v)
			pkg := versionPkg(l.informers, v)
			gens := []generator.Generator{newFileGenerator(pkg, "interface.go", templates.Version, versionArgs(l, v, kinds))}
			for _, k := range kinds {
				gens = append(gens, newFileGenerator(pkg, fileName(k), templates.Informer, informerArgs(l, k)))
			}
			targets = append(targets, l.target(v.Name, pkg, gens...))
		}
		if len(versions) == 0 {
			continue
		}
		groups = append(groups, g)
		pkg := path.Join(l.informers, g.PackageName)
		targets = append(targets, l.target(g.PackageName, pkg,
			newFileGenerator(pkg, "interface.go", templates.Group, groupArgs(l, g, versions))))
	}
	if len(groups) > 0 {
		pkg := l.internalInterfaces()
		targets = append(targets, l.target("internalinterfaces", pkg,
			newFileGenerator(pkg, "factory_interfaces.go", templates.FactoryInterfaces, l.common)))
		targets = append(targets, l.target(path.Base(l.informers), l.informers,
			newFileGenerator(l.informers, "factory.go", templates.Factory, factoryArgs(l, groups)),
			newFileGenerator(l.informers, "generic.go", templates.Generic, genericArgs(l, groups))))
	}
	return targets
}

// internalInterfaces is the package of the interfaces the informers share
// with the factory.
func (l layout) internalInterfaces() string { return path.Join(l.informers, "internalinterfaces") }

// common are the arguments every informer template uses.
func (l layout) common(*generator.Context) generator.Args {
	ii := l.internalInterfaces()
	return generator.Args{
		"clientset":             types.Ref(l.clientset, "Interface"),
		"sharedInformerFactory": types.Ref(ii, "SharedInformerFactory"),
		"newInformerFunc":       types.Ref(ii, "NewInformerFunc"),
		"tweakFunc":             types.Ref(ii, "TweakListOptionsFunc"),
		"informerOptions":       types.Ref(ii, "InformerOptions"),
		"runtimeTweakFunc":      types.Ref(RuntimeInformersPkg, "TweakListOptionsFunc"),
		"runtimeOptions":        types.Ref(RuntimeInformersPkg, "InformerOptions"),
		"sharedIndexInformer":   types.Ref(ClientGoCachePkg, "SharedIndexInformer"),
		"informerName":          types.Ref(ClientGoCachePkg, "InformerName"),
		"runtimeObject":         types.Ref("k8s.io/apimachinery/pkg/runtime", "Object"),
		"duration":              types.Ref("time", "Duration"),
	}
}

// with returns the common arguments and more.
func (l layout) with(c *generator.Context, more generator.Args) generator.Args {
	return l.common(c).WithArgs(more)
}

// groupVersionGoName is the clientset's accessor of a group version
// ("ShopV1").
func groupVersionGoName(v *Version) string { return v.Group.GoName + namer.IC(v.Name) }

func informerArgs(l layout, k *Kind) func(*generator.Context) generator.Args {
	return func(c *generator.Context) generator.Args {
		t := k.Type
		v := k.Version
		listers := versionPkg(l.listers, v)
		name := c.Namers["public"].Name(t)
		return l.with(c, generator.Args{
			"type":           t,
			"namespaced":     k.Namespaced,
			"hasLister":      k.Lister,
			"groupVersion":   groupVersionGoName(v),
			"group":          v.Group.Name,
			"version":        v.Name,
			"resource":       c.Namers["allLowercasePlural"].Name(t),
			"gvr":            types.Ref("k8s.io/apimachinery/pkg/runtime/schema", "GroupVersionResource"),
			"newInformer":    types.Ref(RuntimeInformersPkg, "NewClientInformer"),
			"handleError":    types.Ref("k8s.io/apimachinery/pkg/util/runtime", "HandleError"),
			"indexers":       types.Ref(ClientGoCachePkg, "Indexers"),
			"typedInformer":  types.Ref(ClientGoCachePkg, "TypedSharedIndexInformer"),
			"newTyped":       types.Ref(ClientGoCachePkg, "NewTypedSharedIndexInformer"),
			"typedToIndexer": types.Ref(ClientGoCachePkg, "TypedIndexersToIndexers"),
			"handlerFuncs":   types.Ref(ClientGoCachePkg, "TypedResourceEventHandlerFuncs"),
			"detailedFuncs":  types.Ref(ClientGoCachePkg, "TypedResourceEventHandlerDetailedFuncs"),
			"filtering":      types.Ref(ClientGoCachePkg, "TypedFilteringResourceEventHandler"),
			"typedIndexers":  types.Ref(ClientGoCachePkg, "TypedIndexers"),
			"deletedObject":  types.Ref(ClientGoCachePkg, "DeletedObject"),
			"lister":         types.Ref(listers, name+"Lister"),
			"newLister":      types.Ref(listers, "New"+name+"Lister"),
			"addIndexes":     types.Ref(listers, "Add"+name+"Indexes"),
		})
	}
}

// factoryAccessor is the chain of calls from a SharedInformerFactory to the
// informer accessor of k: "Shop().V1().Widgets()".
func factoryAccessor(c *generator.Context, k *Kind) string {
	v := k.Version
	return v.Group.GoName + "()." + namer.IC(v.Name) + "()." + c.Namers["publicPlural"].Name(k.Type) + "()"
}

// kindData is what the version template needs of one kind.
type kindData struct {
	Plural, Singular, Private string
	Namespaced                bool
}

func versionArgs(l layout, v *Version, kinds []*Kind) func(*generator.Context) generator.Args {
	return func(c *generator.Context) generator.Args {
		var ks []kindData
		for _, k := range kinds {
			ks = append(ks, kindData{
				Plural:     c.Namers["publicPlural"].Name(k.Type),
				Singular:   c.Namers["public"].Name(k.Type),
				Private:    c.Namers["private"].Name(k.Type),
				Namespaced: k.Namespaced,
			})
		}
		return l.with(c, generator.Args{"groupVersion": groupDisplayName(v.Group) + "/" + v.Name, "kinds": ks})
	}
}

// packageData is what the group and factory templates need of one package
// they give access to.
type packageData struct {
	Method, Name, Interface, New string
}

func groupArgs(l layout, g *Group, versions []*Version) func(*generator.Context) generator.Args {
	return func(c *generator.Context) generator.Args {
		raw := c.Namers["raw"]
		var vs []packageData
		for _, v := range versions {
			pkg := versionPkg(l.informers, v)
			vs = append(vs, packageData{
				Method:    namer.IC(v.Name),
				Name:      groupDisplayName(g) + "/" + v.Name,
				Interface: raw.Name(types.Ref(pkg, "Interface")),
				New:       raw.Name(types.Ref(pkg, "New")),
			})
		}
		return l.with(c, generator.Args{"group": groupDisplayName(g), "versions": vs})
	}
}

func factoryArgs(l layout, groups []*Group) func(*generator.Context) generator.Args {
	return func(c *generator.Context) generator.Args {
		raw := c.Namers["raw"]
		var gs []packageData
		for _, g := range groups {
			pkg := path.Join(l.informers, g.PackageName)
			gs = append(gs, packageData{
				Method:    g.GoName,
				Name:      groupDisplayName(g),
				Interface: raw.Name(types.Ref(pkg, "Interface")),
				New:       raw.Name(types.Ref(pkg, "New")),
			})
		}
		interning := false
		for _, g := range groups {
			for _, v := range g.Versions {
				interning = interning || len(kindsWhere(v, func(k *Kind) bool { return k.Informer && k.Intern })) > 0
			}
		}
		return l.with(c, generator.Args{
			"groups":                 gs,
			"interning":              interning,
			"withIntern":             types.Ref(RuntimeInformersPkg, "WithIntern"),
			"context":                types.Ref("context", "Context"),
			"reflectType":            types.Ref("reflect", "Type"),
			"syncResult":             types.Ref(ClientGoCachePkg, "SyncResult"),
			"gvr":                    types.Ref("k8s.io/apimachinery/pkg/runtime/schema", "GroupVersionResource"),
			"metaObject":             types.Ref("k8s.io/apimachinery/pkg/apis/meta/v1", "Object"),
			"transformFunc":          types.Ref(ClientGoCachePkg, "TransformFunc"),
			"factory":                types.Ref(RuntimeInformersPkg, "Factory"),
			"option":                 types.Ref(RuntimeInformersPkg, "Option"),
			"newFactory":             types.Ref(RuntimeInformersPkg, "NewFactory"),
			"withNamespace":          types.Ref(RuntimeInformersPkg, "WithNamespace"),
			"withTweakListOptions":   types.Ref(RuntimeInformersPkg, "WithTweakListOptions"),
			"withTransform":          types.Ref(RuntimeInformersPkg, "WithTransform"),
			"withCustomResyncConfig": types.Ref(RuntimeInformersPkg, "WithCustomResyncConfig"),
			"withInformerName":       types.Ref(RuntimeInformersPkg, "WithInformerName"),
			"withDiscovery":          types.Ref(RuntimeInformersPkg, "WithDiscovery"),
			"withShardScope":         types.Ref(RuntimeInformersPkg, "WithShardScope"),
			"shardScope":             types.Ref(RuntimeCachePkg, "ShardScope"),
			"discoveryClient":        types.Ref("k8s.io/client-go/discovery", "DiscoveryInterfaceWithContext"),
			"discoveryMode":          types.Ref(RuntimeDiscoveryPkg, "Mode"),
			"discoveryStatus":        types.Ref(RuntimeDiscoveryPkg, "Status"),
		})
	}
}

// resourceData is one case of ForResource.
type resourceData struct {
	GroupVersion, Resource, Accessor string
}

// versionResources are the cases of ForResource of one group version.
type versionResources struct {
	Group, Version string
	Resources      []resourceData
}

func genericArgs(l layout, groups []*Group) func(*generator.Context) generator.Args {
	return func(c *generator.Context) generator.Args {
		raw := c.Namers["raw"]
		var versions []versionResources
		for _, g := range groups {
			for _, v := range g.Versions {
				vr := versionResources{Group: groupDisplayName(g), Version: v.Name}
				for _, k := range kindsWhere(v, func(k *Kind) bool { return k.Informer }) {
					vr.Resources = append(vr.Resources, resourceData{
						GroupVersion: raw.Name(types.Ref(v.Package, "SchemeGroupVersion")),
						Resource:     c.Namers["allLowercasePlural"].Name(k.Type),
						Accessor:     factoryAccessor(c, k),
					})
				}
				if len(vr.Resources) > 0 {
					versions = append(versions, vr)
				}
			}
		}
		return l.with(c, generator.Args{
			"versions":      versions,
			"gvr":           types.Ref("k8s.io/apimachinery/pkg/runtime/schema", "GroupVersionResource"),
			"groupResource": types.Ref("k8s.io/apimachinery/pkg/runtime/schema", "GroupResource"),
			"genericLister": types.Ref(ClientGoCachePkg, "GenericLister"),
			"newGeneric":    types.Ref(ClientGoCachePkg, "NewGenericLister"),
			"errorf":        types.Ref("fmt", "Errorf"),
		})
	}
}
