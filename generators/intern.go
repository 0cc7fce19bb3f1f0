package generators

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/templates"
)

// The interning transforms (--with-interning) go to the lister packages:
// every kind with a lister has one there, the built-in kinds that a
// package-level marker names included, and the lister package is the one
// package per group version that every user of the cache imports already.
// Each kind gets <kind>_intern.go, with Intern<Kind>, Intern<Kind>Update
// and the walkers, encoders, equality functions and pools only they use;
// intern_generated.go holds those that several kinds of the package use,
// and InternTransform. The informer factory's package gets an
// intern_generated.go too, with Intern for the kinds of all its informers,
// which the factory sets on them (unless WithoutInterning). --intern-kinds
// limits all of it to some kinds.
//
// Every lister package stands alone: a type reached from the kinds of two
// lister packages (a PodSpec, from core/v1 Pods and apps/v1 Deployments) has
// its walker, encoder and pool in both. Calling one package's from the other
// would tie the output of one run to that of another (generator runs may
// cover different input packages and write into one tree, and a run that
// regenerates one package must not break what another calls), and would
// export walkers from lister packages. The cost is generated lines, and
// pools that share within a package's kinds only.

// internSharedFile is the file of the declarations several kinds use.
const internSharedFile = "intern_generated.go"

// internFileName is the name of a kind's interning file. The underscore
// keeps it apart from the file of any kind.
func internFileName(k *Kind) string { return strings.ToLower(k.Type.Name.Name) + "_intern.go" }

// withInterning adds the interning files to the lister targets of the
// model's group versions, and to the informer factory's target when there
// is one. It plans them first, so that a bad +intern marker fails the run
// before anything is written.
func withInterning(m *Model, l layout, targets []generator.Target) error {
	var errs []error
	for _, g := range m.Groups {
		for _, v := range g.Versions {
			kinds := kindsWhere(v, func(k *Kind) bool { return k.Lister && k.Intern })
			if len(kinds) == 0 {
				continue
			}
			pkg := versionPkg(l.listers, v)
			gens, err := internGenerators(pkg, kinds)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			addGenerators(targets, pkg, gens...)
		}
	}
	if err := errors.Join(errs...); err != nil || l.informers == "" {
		return err
	}
	var kinds []*Kind
	for _, g := range m.Groups {
		for _, v := range g.Versions {
			kinds = append(kinds, kindsWhere(v, func(k *Kind) bool { return k.Informer && k.Intern })...)
		}
	}
	if len(kinds) == 0 {
		return nil
	}
	gen := newFileGenerator(l.informers, internSharedFile, templates.Intern, func(c *generator.Context) generator.Args {
		return generator.Args{"funcs": []string{factoryInternFunc(c.Namers["raw"], l, kinds)}}
	})
	addGenerators(targets, l.informers, gen)
	return nil
}

// addGenerators adds gens to the target of package pkg.
func addGenerators(targets []generator.Target, pkg string, gens ...generator.Generator) {
	for _, t := range targets {
		st, ok := t.(*generator.SimpleTarget)
		if !ok || st.PkgPath != pkg {
			continue
		}
		before := st.GeneratorsFunc
		st.GeneratorsFunc = func(c *generator.Context) []generator.Generator {
			return append(before(c), gens...)
		}
	}
}

// factoryInternFunc is the Intern of the informer factory's package: the
// Intern<Kind>Update of the lister package of each kind with an informer,
// which the factory sets on its informers.
func factoryInternFunc(raw namer.Namer, l layout, kinds []*Kind) string {
	var b strings.Builder
	writeComment(&b, "", fmt.Sprintf("Intern interns and shares, in place, the parts of an object of "+
		"the kinds of this factory's informers (%s) that repeat across objects, with the Intern<Kind>Update "+
		"function of the kind's lister package: old, the version of the object the informer holds "+
		"(nil when it holds none), gives obj its equal parts without their being looked up. "+
		"It leaves objects of other types alone. The factory's informers call it on every object "+
		"they list or receive from a watch, after the factory's transform (see runtime/cache's InternFunc), "+
		"unless the factory has the option WithoutInterning. The objects of their caches then share "+
		"their repeated strings and parts, and must not be modified: copy one (DeepCopy) before "+
		"changing it, as informer caches require anyway.", joinWords(kindNames(kinds))))
	b.WriteString("func Intern(obj, old any) {\n\tswitch o := obj.(type) {\n")
	// The lister packages are named first, as in the informers' files, so
	// that they get the short import names and the API packages the longer.
	interns := make([]string, len(kinds))
	for i, k := range kinds {
		interns[i] = raw.Name(types.Ref(versionPkg(l.listers, k.Version), "Intern"+k.Type.Name.Name+"Update"))
	}
	for i, k := range kinds {
		typ := raw.Name(k.Type)
		fmt.Fprintf(&b, "\tcase *%s:\n\t\tprev, _ := old.(*%s)\n\t\t%s(o, prev)\n", typ, typ, interns[i])
	}
	b.WriteString("\t}\n}")
	return b.String()
}

// internGenerators plans the interning code of the lister package pkg and
// returns the generators of its files.
func internGenerators(pkg string, kinds []*Kind) ([]generator.Generator, error) {
	g := newInternGen(pkg, kinds)
	roots := map[*Kind][]string{} // Intern<Kind> and Intern<Kind>Update
	for _, k := range kinds {
		plan := &emitter{g: g, raw: newPlanNamer(pkg)}
		roots[k] = []string{plan.walker(k.Type), plan.updater(k.Type)}
	}
	if err := errors.Join(g.errs...); err != nil {
		return nil, err
	}
	// users counts the kinds whose transform reaches each declaration.
	users := map[string][]*Kind{}
	for _, k := range kinds {
		seen := map[string]bool{}
		var visit func(name string)
		visit = func(name string) {
			if seen[name] {
				return
			}
			seen[name] = true
			users[name] = append(users[name], k)
			for _, dep := range g.decls[name].deps {
				visit(dep)
			}
		}
		for _, root := range roots[k] {
			visit(root)
		}
	}
	fileOf := func(name string) string {
		if u := users[name]; len(u) == 1 {
			return internFileName(u[0])
		}
		return internSharedFile
	}
	var gens []generator.Generator
	for _, k := range kinds {
		file := internFileName(k)
		gens = append(gens, newFileGenerator(pkg, file, templates.Intern, internFileArgs(g, file, func(name string) bool { return fileOf(name) == file },
			"The pools of the values "+roots[k][0]+" alone shares, one per type.", nil)))
	}
	gens = append(gens, newFileGenerator(pkg, internSharedFile, templates.Intern, internFileArgs(g, internSharedFile,
		func(name string) bool { return fileOf(name) == internSharedFile },
		"The pools of the values that the transforms of several kinds share, one per type.", kinds)))
	return gens, nil
}

// internFileArgs are the arguments of one interning file: the pools and
// functions among the package's declarations that keep selects, in the
// order they were defined, and, when kinds is not empty, InternTransform
// over them.
func internFileArgs(g *internGen, file string, keep func(string) bool, poolsDoc string, kinds []*Kind) func(*generator.Context) generator.Args {
	return func(c *generator.Context) generator.Args {
		e := &emitter{g: g, raw: c.Namers["raw"]}
		var pools []string
		var funcs [helperDecl + 1][]string
		for _, name := range g.order {
			if !keep(name) {
				continue
			}
			d := g.decls[name]
			if d.kind == poolDecl {
				pools = append(pools, d.code(e))
			} else {
				// Walkers first, in the order the fields of the kinds reach
				// them, then update walkers, key encoders, equality
				// functions and helpers.
				funcs[d.kind] = append(funcs[d.kind], d.code(e))
			}
		}
		slices.Sort(pools)
		all := slices.Concat(funcs[:]...)
		if len(kinds) > 0 {
			all = append([]string{internTransformFunc(e, kinds)}, all...)
		}
		return generator.Args{"pools": pools, "poolsDoc": poolsDoc, "funcs": all}
	}
}

// internTransformFunc is InternTransform: Intern<Kind> for any of kinds, as
// a client-go TransformFunc.
func internTransformFunc(e *emitter, kinds []*Kind) string {
	var b strings.Builder
	writeComment(&b, "", fmt.Sprintf("InternTransform interns and shares, in place, the parts of an object of "+
		"this package's kinds (%s) that repeat across objects, as Intern<Kind> does, and returns it; "+
		"it returns an object of any other type unchanged. It is a client-go cache.TransformFunc, "+
		"for the SetTransform of an informer built by client-go or a client-go factory's WithTransform, "+
		"which call it on every object before it enters the cache "+
		"(a generated factory interns by itself, with Intern<Kind>Update). "+
		"The objects of the cache then share their repeated strings and parts, and must not be modified: "+
		"copy one (DeepCopy) before changing it, as informer caches require anyway.",
		joinWords(kindNames(kinds))))
	b.WriteString("func InternTransform(obj any) (any, error) {\n\tswitch o := obj.(type) {\n")
	for _, k := range kinds {
		fmt.Fprintf(&b, "\tcase *%s:\n\t\tIntern%s(o)\n", e.typ(k.Type), k.Type.Name.Name)
	}
	b.WriteString("\t}\n\treturn obj, nil\n}")
	return b.String()
}

// kindNames returns the Go names of kinds' types, in order.
func kindNames(kinds []*Kind) []string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Type.Name.Name
	}
	return names
}
