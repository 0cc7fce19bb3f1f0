package generators

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"unicode"

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
	// Intern says whether the kind gets interning functions
	// (--with-interning, limited by --intern-kinds).
	Intern  bool
	Indexes []*Index
	// SelectableFields are the kind's +kubebuilder:selectablefield
	// markers, in source order: the fields the API server accepts field
	// selectors on, which get generated selector functions.
	SelectableFields []*SelectableField
}

// Index is one checked +index marker of a kind.
type Index struct {
	Marker markers.Marker
	Spec   indexfunc.Spec
	// Params are the lookup methods' parameters, one per path of a
	// composite key.
	Params []Param
}

// Param is one parameter of an index's lookups.
type Param struct {
	// Name is the parameter's name: from the marker's param argument, else
	// derived from the source (the last field of a path, a label key's name,
	// an owner kind, a function's name).
	Name string
	// Type is the parameter's Go type: the leaf's type of a field path (see
	// resolve.Path.Type). It is nil for the other sources, whose values are
	// strings.
	Type *types.Type
	// Leaf is the kind of a field path's leaf, which says how the lookups
	// encode the parameter; empty for the other sources, whose values are
	// the index values as they are.
	Leaf resolve.LeafKind
}

// BuildModel reads the input packages of c. It reports every marker error,
// each with its file:line, joined in one error.
// lintRules are the tag-checking rules of --lint-rules.
func BuildModel(c *generator.Context, lintRules ...string) (*Model, error) {
	b := newModelBuilder(c)
	if len(lintRules) > 0 {
		b.identify = append(b.identify, apidefinitions.WithLintRules(lintRules...))
	}
	return b.build()
}

func newModelBuilder(c *generator.Context) *modelBuilder {
	return &modelBuilder{
		c: c, groups: map[string]*Group{}, versions: map[string]*Version{},
		scan: func(p *types.Package) (markers.Package, error) { return markers.Scan(p.Dir) },
		load: c.LoadPackages,
	}
}

// build reads the input packages.
func (b *modelBuilder) build() (*Model, error) {
	c := b.c
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
	c *generator.Context
	// scan returns the markers of an input package; load loads packages
	// into the context's universe. They read the packages' files, except
	// for the example API of the marker documentation, held in memory.
	scan     func(p *types.Package) (markers.Package, error)
	load     func(pkgs ...string) ([]*types.Package, error)
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
	found, err := b.scan(p)
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
	// Selectable fields belong to controller-gen: those of types without a
	// lister are its business only.
	for _, name := range slices.Sorted(maps.Keys(found.SelectableFields)) {
		if k := kinds[name]; k != nil && k.Lister {
			b.addSelectableFields(k, found.SelectableFields[name])
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
	for _, name := range slices.Sorted(maps.Keys(kinds)) {
		b.checkSelectableNames(kinds[name])
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
	pkgs, err := b.load(pkgPath)
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
	ix := &Index{Marker: m, Spec: indexfunc.Spec{Source: m.Source, Key: m.Value}}
	switch m.Source {
	case markers.FromField:
		key := m.Spec.Field // markers.Parse read it
		names := fieldParamNames(key)
		for i, p := range key {
			r, err := resolve.Resolve(k.Type, p)
			if err != nil {
				b.fail(m.Errorf("field %s: %v", p, err))
				return
			}
			ix.Spec.Paths = append(ix.Spec.Paths, r)
			ix.Params = append(ix.Params, Param{Name: names[i], Type: importableLeafType(r), Leaf: r.Leaf})
		}
	case markers.FromLabel, markers.FromAnnotation:
		ix.Params = []Param{{Name: keyParamName(m.Value)}}
	case markers.FromOwner:
		owner := m.Spec.Owner // markers.Parse read it
		ix.Spec.Key, ix.Spec.Group = owner.Kind, owner.Group
		if m.Spec.OwnerUnqualified {
			b.unqualifiedOwners = append(b.unqualifiedOwners, ix)
		}
		ix.Params = []Param{{Name: identParamName(owner.Kind)}}
	case markers.FromFunc:
		fn, err := b.indexFunc(k, m.Value)
		if err != nil {
			b.fail(m.Errorf("%v", err))
			return
		}
		ix.Spec.Func = fn.Name.Package + "." + fn.Name.Name
		ix.Params = []Param{{Name: funcParamName(fn.Name.Name)}}
	case markers.FromSelectableField:
		if !b.addSelectableIndex(k, m, ix) {
			return
		}
	}
	if names := markers.ParamNames(m.Param); names != nil {
		if len(names) != len(ix.Params) {
			b.fail(m.Errorf("param names %s, but field %s has %d paths: give one name per path", count(len(names), "parameter"), m.Value, len(ix.Params)))
			return
		}
		for i, name := range names {
			ix.Params[i].Name = name
		}
	}
	if m.Ref != "" && !namesObjects(ix) {
		b.fail(m.Errorf("ref needs an index with one string value source: a field of one path to a string, a label, an annotation or a func (an owner index maps its owner without ref)"))
		return
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
		if group == fieldpath.CoreGroup {
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
				kind, kind, fieldpath.CoreGroup, kind))
		default:
			qualified := make([]string, len(found))
			for i, g := range found {
				qualified[i] = fmt.Sprintf("%q", cmp.Or(g, fieldpath.CoreGroup)+"/"+kind)
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
	if _, err := b.load(pkgPath); err != nil {
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

// count writes n things: "1 parameter", "2 parameters".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// fieldParamNames names the parameters of a key's paths after their last
// field ("nodeName" for spec.nodeName), in the singular for the elements of
// a list ("tag" for spec.tags[*]), and after their last two fields when the
// last says little on its own ("driverName" for spec.driver.name) or paths
// of the key share a name ("sourceName" and "targetName" for
// spec.source.name and spec.target.name).
func fieldParamNames(key fieldpath.Key) []string {
	short := make([]string, len(key))
	for i, p := range key {
		short[i] = fieldWord(p[len(p)-1])
	}
	var names []string
	for i, p := range key {
		name := lowerCamel(short[i])
		shared := slices.Index(short, short[i]) != i || slices.Index(short[i+1:], short[i]) >= 0
		parent := ""
		if len(p) > 1 {
			parent = fieldWord(p[len(p)-2])
		}
		vague := slices.Contains([]string{"name", "value", "id", "uid", "ref"}, name) &&
			!slices.Contains([]string{"metadata", "spec", "status"}, parent)
		if parent != "" && (shared || vague || markers.CheckParamName(name) != nil) {
			name = lowerCamel(parent) + upperCamel(short[i])
		}
		names = append(names, usableParamName(name, names))
	}
	return names
}

// fieldWord is the name of a path segment, in the singular when the segment
// is a list whose every element is indexed.
func fieldWord(s fieldpath.Segment) string {
	if !s.Each {
		return s.Name
	}
	switch name := s.Name; {
	case strings.HasSuffix(name, "ies") && len(name) > 3:
		return strings.TrimSuffix(name, "ies") + "y"
	case strings.HasSuffix(name, "sses"), strings.HasSuffix(name, "xes"), strings.HasSuffix(name, "ches"), strings.HasSuffix(name, "shes"):
		return strings.TrimSuffix(name, "es")
	case strings.HasSuffix(name, "s") && !strings.HasSuffix(name, "ss") && !strings.HasSuffix(name, "us") && len(name) > 1:
		return strings.TrimSuffix(name, "s")
	default:
		return name
	}
}

// keyParamName names the parameter of a label or annotation index after the
// name part of the key: "team" for team, "ownerTeam" for
// example.dev/owner-team.
func keyParamName(key string) string {
	return usableParamName(lowerCamel(key[strings.LastIndex(key, "/")+1:]), nil)
}

// identParamName names a parameter after a Go identifier (an owner kind):
// "replicaSet" for ReplicaSet, "httpRoute" for HTTPRoute.
func identParamName(name string) string {
	return usableParamName(lowerCamel(name), nil)
}

// funcParamName names the parameter of a func index after the function,
// without an "Of" suffix or a "By" or "Get" prefix: "zone" for ZoneOf.
func funcParamName(name string) string {
	trimmed := strings.TrimSuffix(name, "Of")
	for _, prefix := range []string{"By", "Get"} {
		if rest, ok := strings.CutPrefix(trimmed, prefix); ok && rest != "" && unicode.IsUpper(rune(rest[0])) {
			trimmed = rest
		}
	}
	if trimmed == "" {
		trimmed = name
	}
	return identParamName(trimmed)
}

// usableParamName returns name when it can name a parameter and is not
// taken, else name with a "Value" suffix, else value, value1, ...
func usableParamName(name string, taken []string) string {
	for _, candidate := range []string{name, name + "Value"} {
		if name != "" && markers.CheckParamName(candidate) == nil && !slices.Contains(taken, candidate) {
			return candidate
		}
	}
	name = "value"
	for i := 1; slices.Contains(taken, name); i++ {
		name = fmt.Sprintf("value%d", i)
	}
	return name
}

// lowerCamel turns a name made of words separated by '-', '_' or '.' (a
// JSON field, a label key's name) or a Go identifier into a lowerCamelCase
// identifier; a leading acronym is lowered whole ("HTTPRoute" gives
// "httpRoute", "SKU" gives "sku").
func lowerCamel(s string) string {
	upper := upperCamel(s)
	n := 0
	for n < len(upper) && upper[n] >= 'A' && upper[n] <= 'Z' {
		n++
	}
	if n > 1 && n < len(upper) && unicode.IsLower(rune(upper[n])) {
		n-- // the last capital starts the next word
	}
	return strings.ToLower(upper[:n]) + upper[n:]
}

// upperCamel joins the words of s, separated by '-', '_' or '.', each with an
// upper-case first letter, or all in upper case for the initialisms Go
// names write so ("uid" gives "UID").
func upperCamel(s string) string {
	var b strings.Builder
	for word := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if slices.Contains(initialisms, strings.ToUpper(word)) {
			b.WriteString(strings.ToUpper(word))
			continue
		}
		b.WriteString(strings.ToUpper(word[:1]) + word[1:])
	}
	return b.String()
}

// initialisms are written in upper case in Go names.
var initialisms = []string{"API", "CIDR", "CPU", "DNS", "HTTP", "HTTPS", "ID", "IP", "JSON", "TCP", "TLS", "UDP", "UID", "URI", "URL", "UUID"}

// importableLeafType returns the type a lookup's parameter for the leaf of r
// has: the leaf's named type when generated code can import it, else its
// builtin type.
func importableLeafType(r resolve.Path) *types.Type {
	t := r.Type
	if t.Kind == types.Builtin {
		if t.Name.Name == "byte" {
			// gengo reads both uint8 and int8 as byte: int holds either.
			return types.Int
		}
		return t
	}
	exported := t.Name.Name != "" && unicode.IsUpper(rune(t.Name.Name[0]))
	internal := slices.Contains(strings.Split(t.Name.Package, "/"), "internal")
	if exported && !internal && t.Name.Package != "" {
		return t
	}
	for t.Kind == types.Alias {
		t = t.Underlying
	}
	return t
}

// namesObjects reports whether ix's values can be names of objects, as a
// ref argument says they are: one string parameter, of a source other than
// owner (which maps its owner anyway).
func namesObjects(ix *Index) bool {
	if ix.Spec.Source == markers.FromOwner || len(ix.Params) != 1 {
		return false
	}
	leaf := ix.Params[0].Leaf
	return leaf == "" || leaf == resolve.String
}
