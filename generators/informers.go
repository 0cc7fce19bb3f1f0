package generators

import (
	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/templates"
)

// RuntimeInformersPkg is the import path of the runtime's shared informer
// factory.
const RuntimeInformersPkg = "github.com/informer-gen-plus/informer-gen-plus/runtime/informers"

// informersPath returns the path, below the output directory, of an informer
// package: informers/externalversions, then parts.
func informersPath(parts ...string) []string {
	return append([]string{"informers", "externalversions"}, parts...)
}

// informerTargets lays out informers/externalversions: the factory, one
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
			parts := informersPath(g.PackageName, v.Name)
			pkg := l.pkg(parts...)
			gens := []generator.Generator{newFileGenerator(pkg, "interface.go", templates.Version, versionArgs(l, v, kinds))}
			for _, k := range kinds {
				gens = append(gens, newFileGenerator(pkg, fileName(k), templates.Informer, informerArgs(l, k)))
			}
			targets = append(targets, l.target(v.Name, parts, gens...))
		}
		if len(versions) == 0 {
			continue
		}
		groups = append(groups, g)
		parts := informersPath(g.PackageName)
		targets = append(targets, l.target(g.PackageName, parts,
			newFileGenerator(l.pkg(parts...), "interface.go", templates.Group, groupArgs(l, g, versions))))
	}
	if len(groups) > 0 {
		parts := informersPath()
		targets = append(targets, l.target("externalversions", parts,
			newFileGenerator(l.pkg(parts...), "factory.go", templates.Factory, factoryArgs(l, groups))))
	}
	return targets
}

// common are the arguments every informer template uses.
func (l layout) common() generator.Args {
	return generator.Args{
		"factory":   types.Ref(RuntimeInformersPkg, "Factory"),
		"clientset": types.Ref(l.clientset, "Interface"),
	}
}

// groupVersionGoName is the clientset's accessor of a group version
// ("ShopV1").
func groupVersionGoName(v *Version) string { return v.Group.GoName + namer.IC(v.Name) }

func informerArgs(l layout, k *Kind) func(*generator.Context) generator.Args {
	return func(c *generator.Context) generator.Args {
		t := k.Type
		listers := l.pkg(listersPath(k.Version)...)
		name := c.Namers["public"].Name(t)
		return l.common().WithArgs(generator.Args{
			"type":                   t,
			"namespaced":             k.Namespaced,
			"hasLister":              k.Lister,
			"groupVersion":           groupVersionGoName(k.Version),
			"name":                   c.Namers["allLowercasePlural"].Name(t) + "." + k.Version.Name + "." + groupDisplayName(k.Version.Group),
			"sharedIndexInformer":    types.Ref(RuntimeCachePkg, "SharedIndexInformer"),
			"newSharedIndexInformer": types.Ref(RuntimeCachePkg, "NewSharedIndexInformer"),
			"informerOptions":        types.Ref(RuntimeCachePkg, "SharedIndexInformerOptions"),
			"newListWatch":           types.Ref(RuntimeInformersPkg, "NewListWatch"),
			"informerFor":            types.Ref(RuntimeInformersPkg, "InformerFor"),
			"tweakFunc":              types.Ref(RuntimeInformersPkg, "TweakListOptionsFunc"),
			"lister":                 types.Ref(listers, name+"Lister"),
			"newLister":              types.Ref(listers, "New"+name+"Lister"),
			"addIndexes":             types.Ref(listers, "Add"+name+"Indexes"),
			"duration":               types.Ref("time", "Duration"),
		})
	}
}

// factoryAccessor is the chain of calls from a SharedInformerFactory to the
// informer accessor of k: "Shop().V1().Widgets()".
func factoryAccessor(c *generator.Context, k *Kind) string {
	v := k.Version
	return v.Group.GoName + "()." + namer.IC(v.Name) + "()." + c.Namers["publicPlural"].Name(k.Type) + "()"
}

// kindData is what the version and factory templates need of one kind.
type kindData struct {
	Plural, Singular, Private string
}

func versionArgs(l layout, v *Version, kinds []*Kind) func(*generator.Context) generator.Args {
	return func(c *generator.Context) generator.Args {
		var ks []kindData
		for _, k := range kinds {
			ks = append(ks, kindData{
				Plural:   c.Namers["publicPlural"].Name(k.Type),
				Singular: c.Namers["public"].Name(k.Type),
				Private:  c.Namers["private"].Name(k.Type),
			})
		}
		return l.common().WithArgs(generator.Args{"groupVersion": groupDisplayName(v.Group) + "/" + v.Name, "kinds": ks})
	}
}

// packageData is what the group and factory templates need of one package
// they give access to.
type packageData struct {
	Method, Name, GoName, Interface, New string
}

func groupArgs(l layout, g *Group, versions []*Version) func(*generator.Context) generator.Args {
	return func(c *generator.Context) generator.Args {
		raw := c.Namers["raw"]
		var vs []packageData
		for _, v := range versions {
			pkg := l.pkg(informersPath(g.PackageName, v.Name)...)
			vs = append(vs, packageData{
				Method:    namer.IC(v.Name),
				Name:      groupDisplayName(g) + "/" + v.Name,
				Interface: raw.Name(types.Ref(pkg, "Interface")),
				New:       raw.Name(types.Ref(pkg, "New")),
			})
		}
		return l.common().WithArgs(generator.Args{"group": groupDisplayName(g), "versions": vs})
	}
}

// resourceData is one case of ForResource.
type resourceData struct {
	GroupVersion, Resource, Accessor string
}

func factoryArgs(l layout, groups []*Group) func(*generator.Context) generator.Args {
	return func(c *generator.Context) generator.Args {
		raw := c.Namers["raw"]
		var gs []packageData
		var resources []resourceData
		for _, g := range groups {
			pkg := l.pkg(informersPath(g.PackageName)...)
			gs = append(gs, packageData{
				GoName:    g.GoName,
				Name:      groupDisplayName(g),
				Interface: raw.Name(types.Ref(pkg, "Interface")),
				New:       raw.Name(types.Ref(pkg, "New")),
			})
			for _, v := range g.Versions {
				for _, k := range kindsWhere(v, func(k *Kind) bool { return k.Informer }) {
					resources = append(resources, resourceData{
						GroupVersion: raw.Name(types.Ref(v.Package, "SchemeGroupVersion")),
						Resource:     c.Namers["allLowercasePlural"].Name(k.Type),
						Accessor:     factoryAccessor(c, k),
					})
				}
			}
		}
		return l.common().WithArgs(generator.Args{
			"groups":                 gs,
			"resources":              resources,
			"context":                types.Ref("context", "Context"),
			"reflectType":            types.Ref("reflect", "Type"),
			"syncResult":             types.Ref("k8s.io/client-go/tools/cache", "SyncResult"),
			"gvr":                    types.Ref("k8s.io/apimachinery/pkg/runtime/schema", "GroupVersionResource"),
			"duration":               types.Ref("time", "Duration"),
			"errorf":                 types.Ref("fmt", "Errorf"),
			"option":                 types.Ref(RuntimeInformersPkg, "Option"),
			"withNamespace":          types.Ref(RuntimeInformersPkg, "WithNamespace"),
			"withTweakListOptions":   types.Ref(RuntimeInformersPkg, "WithTweakListOptions"),
			"withTransform":          types.Ref(RuntimeInformersPkg, "WithTransform"),
			"withCustomResyncConfig": types.Ref(RuntimeInformersPkg, "WithCustomResyncConfig"),
			"newFactory":             types.Ref(RuntimeInformersPkg, "NewFactory"),
			"informer":               types.Ref(RuntimeInformersPkg, "Informer"),
		})
	}
}
