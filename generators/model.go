package generators

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"k8s.io/code-generator/cmd/client-gen/generators/util"
	"k8s.io/code-generator/pkg/apidefinitions"
	genutil "k8s.io/code-generator/pkg/util"
	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/generators/indexfunc"
	"github.com/informer-gen-plus/informer-gen-plus/generators/markers"
	"github.com/informer-gen-plus/informer-gen-plus/generators/resolve"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// Model is what one run generates for: the kinds of the input packages (and
// the built-in kinds named by package-level markers) that listers or
// informers are generated for, by group and version, with their checked
// indexes.
type Model struct {
	Groups []*Group // sorted by package name
}

// Group is an API group.
type Group struct {
	// PackageName is the group's package name in the output ("shop").
	PackageName string
	// Name is the API group ("shop.example.dev"; empty for core).
	Name string
	// GoName is the group's name in Go identifiers ("Shop").
	GoName   string
	Versions []*Version // sorted by name
}

// Version is one version of a group, backed by one Go package.
type Version struct {
	Group   *Group
	Name    string // "v1"
	Package string // import path of the types
	Kinds   []*Kind
	// listers and informers say whether the package lets lister-gen and
	// informer-gen generate for it (+k8s:lister-gen, +k8s:informer-gen).
	listers, informers bool
}

// Kind is one resource type.
type Kind struct {
	Version    *Version
	Type       *types.Type
	Namespaced bool
	// Lister and Informer say what to generate for it: a lister for the
	// kinds lister-gen writes one for (+genclient with the list and get
	// verbs, even with +genclient:noVerbs) and for those with an informer;
	// an informer for the kinds informer-gen writes one for (+genclient with
	// the list and watch verbs, without noVerbs); opt-outs honoured.
	Lister, Informer bool
	Indexes          []*Index
}

// Index is one checked +index marker of a kind.
type Index struct {
	Marker markers.Marker
	Spec   indexfunc.Spec
	// Params are the names of the lookup method's string parameters, one per
	// part of a composite key.
	Params []string
}

// BuildModel reads the input packages of c. It reports every marker error,
// each with its file:line, joined in one error.
// lintRules are the tag-checking rules of --lint-rules.
func BuildModel(c *generator.Context, lintRules ...string) (*Model, error) {
	b := &modelBuilder{c: c, groups: map[string]*Group{}, versions: map[string]*Version{}}
	if len(lintRules) > 0 {
		b.identify = append(b.identify, apidefinitions.WithLintRules(lintRules...))
	}
	for _, input := range c.Inputs {
		b.addPackage(c.Universe.Package(input))
	}
	b.resolveOwners()
	if err := errors.Join(b.errs...); err != nil {
		return nil, err
	}
	m := &Model{}
	for _, g := range b.groups {
		slices.SortFunc(g.Versions, func(a, b *Version) int { return strings.Compare(a.Name, b.Name) })
		for _, v := range g.Versions {
			slices.SortFunc(v.Kinds, func(a, b *Kind) int { return strings.Compare(a.Type.Name.Name, b.Type.Name.Name) })
		}
		m.Groups = append(m.Groups, g)
	}
	slices.SortFunc(m.Groups, func(a, b *Group) int { return strings.Compare(a.PackageName, b.PackageName) })
	return m, nil
}

type modelBuilder struct {
	c        *generator.Context
	groups   map[string]*Group   // by package name
	versions map[string]*Version // by types package path
	identify []apidefinitions.Option
	errs     []error
	// unqualifiedOwners are the owner indexes whose marker names the kind
	// without its group, resolved once every input package is read.
	unqualifiedOwners []*Index
}

func (b *modelBuilder) fail(err error) { b.errs = append(b.errs, err) }

// addPackage adds the kinds of an input package and the kinds its
// package-level markers declare indexes for.
func (b *modelBuilder) addPackage(p *types.Package) {
	found, err := markers.Scan(p.Dir)
	if err != nil {
		b.fail(err)
	}
	kinds := map[string]*Kind{}
	if v := b.version(p); v != nil {
		for _, name := range slices.Sorted(maps.Keys(p.Types)) {
			if k := b.kind(v, p, p.Types[name]); k != nil {
				kinds[name] = k
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(found.Types)) {
		ms := found.Types[name]
		k := kinds[name]
		if k == nil || !k.Lister {
			b.fail(ms[0].Errorf("type %s has +index markers but no lister is generated for it (it needs +genclient with the list verb, and no opt-out)", name))
			continue
		}
		for _, m := range ms {
			b.addIndex(k, m)
		}
	}
	for _, m := range found.Package {
		if k := b.declaredKind(m); k != nil {
			b.addIndex(k, m)
		}
	}
}

// version returns the version of a types package that listers or
// informers are generated for, creating its group; nil when the package opts
// out of both.
func (b *modelBuilder) version(p *types.Package) *Version {
	if v, ok := b.versions[p.Path]; ok {
		return v
	}
	listers, err := apidefinitions.Identify(p, apidefinitions.Lister, b.identify...)
	if err != nil {
		b.fail(fmt.Errorf("package %s: %w", p.Path, err))
		return nil
	}
	informers, err := apidefinitions.Identify(p, apidefinitions.Informer, b.identify...)
	if err != nil {
		b.fail(fmt.Errorf("package %s: %w", p.Path, err))
		return nil
	}
	if !listers.ShouldGenerate() && !informers.ShouldGenerate() {
		b.versions[p.Path] = nil
		return nil
	}
	parts := strings.Split(p.Path, "/")
	if len(parts) < 2 {
		b.fail(fmt.Errorf("package %s: the path must end in group/version", p.Path))
		return nil
	}
	groupPkg, versionName := parts[len(parts)-2], parts[len(parts)-1]
	groupName := groupPkg
	if override, ok, err := apidefinitions.GroupNameForPackage(p.Comments); err != nil {
		b.fail(fmt.Errorf("package %s: %w", p.Path, err))
	} else if ok {
		groupName = override
	}
	if groupName == "" || groupName == "core" {
		groupPkg = "core"
	}
	g := b.groups[groupPkg]
	if g == nil {
		g = &Group{PackageName: groupPkg, Name: groupName, GoName: namer.IC(strings.Split(cmp.Or(groupName, "core"), ".")[0])}
		b.groups[groupPkg] = g
	}
	if goName, err := genutil.ExtractCommentTagsWithoutArguments("+", []string{"groupGoName"}, p.Comments); err == nil && goName["groupGoName"] != nil {
		g.GoName = namer.IC(goName["groupGoName"][0])
	}
	v := &Version{Group: g, Name: versionName, Package: path.Clean(p.Path),
		listers: listers.ShouldGenerate(), informers: informers.ShouldGenerate()}
	g.Versions = append(g.Versions, v)
	b.versions[p.Path] = v
	return v
}

// kind returns the kind for t when a lister or an informer is generated for
// it.
func (b *modelBuilder) kind(v *Version, p *types.Package, t *types.Type) *Kind {
	lines := append(slices.Clone(t.SecondClosestCommentLines), t.CommentLines...)
	tags, err := util.ParseClientGenTags(lines)
	if err != nil {
		b.fail(fmt.Errorf("type %s.%s: %w", p.Path, t.Name.Name, err))
		return nil
	}
	// As lister-gen and informer-gen, which differ on +genclient:noVerbs.
	if !tags.GenerateClient || !tags.HasVerb("list") {
		return nil
	}
	k := &Kind{Version: v, Type: t, Namespaced: !tags.NonNamespaced}
	k.Informer = v.informers && !tags.NoVerbs && tags.HasVerb("watch")
	// An informer's Lister needs a lister even when the client cannot get.
	k.Lister = v.listers && (tags.HasVerb("get") || k.Informer)
	if enabled, ok := typeSwitch(lines, "+k8s:lister-gen"); ok {
		k.Lister = k.Lister && enabled
	}
	if enabled, ok := typeSwitch(lines, "+k8s:informer-gen"); ok {
		k.Informer = k.Informer && enabled
	}
	if !k.Lister && !k.Informer {
		return nil
	}
	v.Kinds = append(v.Kinds, k)
	return k
}

// typeSwitch reads a "+tag=true|false" line.
func typeSwitch(lines []string, tag string) (enabled, ok bool) {
	for _, l := range lines {
		if v, found := strings.CutPrefix(strings.TrimSpace(l), tag+"="); found {
			return strings.TrimSpace(v) != "false", true
		}
	}
	return false, false
}

// declaredKind finds the kind a package-level marker names, loading its
// package.
func (b *modelBuilder) declaredKind(m markers.Marker) *Kind {
	pkgPath, name, _ := markers.SplitQualified(m.For)
	pkgs, err := b.c.LoadPackages(pkgPath)
	if err != nil || len(pkgs) == 0 {
		b.fail(m.Errorf("cannot load package %s: %v", pkgPath, err))
		return nil
	}
	p := b.c.Universe.Package(pkgPath)
	t := p.Types[name]
	if t == nil {
		b.fail(m.Errorf("type %s not found in package %s", name, pkgPath))
		return nil
	}
	v := b.version(p)
	if v == nil {
		b.fail(m.Errorf("package %s is not a group/version package listers can be generated for", pkgPath))
		return nil
	}
	k := b.knownKind(v, t)
	if k == nil {
		k = b.kind(v, p, t)
	}
	if k == nil || !k.Lister {
		b.fail(m.Errorf("type %s has no +genclient with the list verb, or opts out of listers", m.For))
		return nil
	}
	return k
}

// knownKind returns the kind of t in v, if it was added already.
func (b *modelBuilder) knownKind(v *Version, t *types.Type) *Kind {
	for _, k := range v.Kinds {
		if k.Type == t {
			return k
		}
	}
	return nil
}

// addIndex checks a marker against its kind and adds the index.
func (b *modelBuilder) addIndex(k *Kind, m markers.Marker) {
	for _, other := range k.Indexes {
		if other.Marker.Name == m.Name {
			b.fail(m.Errorf("index %s of %s is declared twice (first at %s:%d)", m.Name, k.Type.Name.Name, markers.DisplayPath(other.Marker.Pos.Filename), other.Marker.Pos.Line))
			return
		}
	}
	ix := &Index{Marker: m, Spec: indexfunc.Spec{Source: m.Source, Key: m.Value}, Params: []string{"value"}}
	switch m.Source {
	case markers.FromField:
		key, err := fieldpath.Parse(m.Value)
		if err != nil {
			b.fail(m.Errorf("%v", err))
			return
		}
		ix.Params = nil
		for _, p := range key {
			r, err := resolve.Resolve(k.Type, p)
			if err != nil {
				b.fail(m.Errorf("field %s: %v", p, err))
				return
			}
			ix.Spec.Paths = append(ix.Spec.Paths, r)
			ix.Params = append(ix.Params, paramName(p, ix.Params))
		}
	case markers.FromOwner:
		owner, err := markers.ParseOwner(m.Value)
		if err != nil { // markers.Parse checked it
			b.fail(m.Errorf("%v", err))
			return
		}
		ix.Spec.Key, ix.Spec.Group = owner.Kind, owner.Group
		if !owner.Qualified {
			b.unqualifiedOwners = append(b.unqualifiedOwners, ix)
		}
	case markers.FromFunc:
		fn, err := b.indexFunc(k, m.Value)
		if err != nil {
			b.fail(m.Errorf("%v", err))
			return
		}
		ix.Spec.Func = fn.Name.Package + "." + fn.Name.Name
	}
	k.Indexes = append(k.Indexes, ix)
}

// resolveOwners sets the group of the owner indexes whose marker names only
// the kind: the group of the one input package group/version that defines
// a kind of that name (a type embedding metav1.TypeMeta). A kind that no
// input package defines, or that input packages of several groups define,
// is an error that asks for the qualified form, group/Kind.
func (b *modelBuilder) resolveOwners() {
	if len(b.unqualifiedOwners) == 0 {
		return
	}
	groups := map[string][]string{} // kind -> the groups defining it, sorted
	for _, input := range b.c.Inputs {
		p := b.c.Universe.Package(input)
		v := b.versions[p.Path]
		if v == nil {
			continue
		}
		group := v.Group.Name
		if group == markers.CoreGroup {
			group = ""
		}
		for name, t := range p.Types {
			if isKind(t) && !slices.Contains(groups[name], group) {
				groups[name] = append(groups[name], group)
				slices.Sort(groups[name])
			}
		}
	}
	for _, ix := range b.unqualifiedOwners {
		kind := ix.Spec.Key
		switch found := groups[kind]; len(found) {
		case 1:
			ix.Spec.Group = found[0]
		case 0:
			b.fail(ix.Marker.Errorf("owner kind %s is not a kind of the input packages, so its API group is unknown; "+
				"name the group: owner: \"<group>/%s\" (\"%s/%s\" for the core group), such as owner: \"apps/ReplicaSet\"",
				kind, kind, markers.CoreGroup, kind))
		default:
			qualified := make([]string, len(found))
			for i, g := range found {
				qualified[i] = fmt.Sprintf("%q", cmp.Or(g, markers.CoreGroup)+"/"+kind)
			}
			b.fail(ix.Marker.Errorf("owner kind %s is a kind of several groups of the input packages; name the group: owner: %s",
				kind, strings.Join(qualified, " or ")))
		}
	}
}

// isKind reports whether t is an API object type: a struct that embeds
// metav1.TypeMeta.
func isKind(t *types.Type) bool {
	if t.Kind != types.Struct {
		return false
	}
	for _, m := range t.Members {
		if m.Embedded && m.Type.Name == (types.Name{Package: "k8s.io/apimachinery/pkg/apis/meta/v1", Name: "TypeMeta"}) {
			return true
		}
	}
	return false
}

// indexFunc finds a user index function and checks it is func(*T) []string.
func (b *modelBuilder) indexFunc(k *Kind, qualified string) (*types.Type, error) {
	pkgPath, name, _ := markers.SplitQualified(qualified)
	if _, err := b.c.LoadPackages(pkgPath); err != nil {
		return nil, fmt.Errorf("cannot load package %s: %v", pkgPath, err)
	}
	fn := b.c.Universe.Package(pkgPath).Functions[name]
	if fn == nil {
		return nil, fmt.Errorf("function %s not found", qualified)
	}
	sig := fn.Underlying.Signature
	want := fmt.Sprintf("func(*%s.%s) []string", k.Type.Name.Package, k.Type.Name.Name)
	if sig == nil || sig.Receiver != nil || sig.Variadic || len(sig.Parameters) != 1 || len(sig.Results) != 1 ||
		sig.Parameters[0].Type.Kind != types.Pointer || sig.Parameters[0].Type.Elem != k.Type ||
		sig.Results[0].Type.Kind != types.Slice || sig.Results[0].Type.Elem.Name.Name != "string" {
		return nil, fmt.Errorf("function %s must have the signature %s", qualified, want)
	}
	return fn, nil
}

// paramName names a lookup parameter after the last field of its path,
// avoiding Go keywords and names already taken.
func paramName(p fieldpath.Path, taken []string) string {
	name := strings.ReplaceAll(p[len(p)-1].Name, "-", "_")
	name = strings.ToLower(name[:1]) + name[1:]
	if !isIdentifier(name) || slices.Contains(taken, name) {
		name = fmt.Sprintf("value%d", len(taken))
	}
	return name
}

func isIdentifier(s string) bool {
	switch s {
	case "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func", "go", "goto",
		"if", "import", "interface", "map", "package", "range", "return", "select", "struct", "switch", "type", "var",
		"obj", "s", "l", "ns", "indexer":
		return false
	}
	return true
}
