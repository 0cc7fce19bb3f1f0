// Package generators is informer-gen-plus's generator: it reads API type
// packages with gengo, checks their +index markers, and writes listers (with
// typed index lookups), informers and, when asked, controllers through gengo
// targets, one generator per generated file kind. Output is assembled in
// memory and written only when the whole run has succeeded.
package generators

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"k8s.io/code-generator/pkg/apidefinitions"
	"k8s.io/gengo/v2"
	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/parser"
	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/generators/output"
)

// Args are the inputs of a run. Their flag names follow informer-gen's and
// lister-gen's; the layout they select is described by plan.
type Args struct {
	OutputDir                 string   // --output-dir
	OutputPkg                 string   // --output-pkg
	VersionedClientSetPackage string   // --versioned-clientset-package
	InternalClientSetPackage  string   // --internal-clientset-package: rejected
	ListersPackage            string   // --listers-package
	SingleDirectory           bool     // --single-directory
	GoHeaderFile              string   // --go-header-file
	PluralExceptions          []string // --plural-exceptions, Kind:Plural
	LintRules                 []string // --lint-rules
	WithControllers           bool     // --with-controllers
	WithInterning             bool     // --with-interning
	InternKinds               []string // --intern-kinds, group/Kind or group/*
	ControllerRuntimePkg      string   // --controller-runtime-output-pkg
	VerifyOnly                bool     // --verify-only
	Inputs                    []string // input packages
}

// Validate reports the first missing or malformed argument.
func (a Args) Validate() error {
	switch {
	case a.OutputDir == "":
		return errors.New("--output-dir must be specified")
	case a.OutputPkg == "":
		return errors.New("--output-pkg must be specified")
	case a.InternalClientSetPackage != "":
		return errors.New("--internal-clientset-package is not supported: informer-gen-plus generates informers for versioned API packages only, through --versioned-clientset-package")
	case a.VersionedClientSetPackage == "" && a.ListersPackage != "":
		return errors.New("--listers-package needs --versioned-clientset-package (without it, only listers are generated)")
	case a.VersionedClientSetPackage == "" && a.WithControllers:
		return errors.New("--with-controllers needs --versioned-clientset-package (without it, only listers are generated)")
	case len(a.Inputs) == 0:
		return errors.New("at least one input package must be given")
	case len(a.InternKinds) > 0 && !a.WithInterning:
		return errors.New("--intern-kinds needs --with-interning")
	}
	for _, k := range a.InternKinds {
		if _, _, err := parseInternKind(k); err != nil {
			return err
		}
	}
	if err := apidefinitions.ValidateFlags(a.LintRules); err != nil {
		return err
	}
	if _, err := a.pluralExceptions(); err != nil {
		return err
	}
	_, err := a.plan()
	return err
}

func (a Args) pluralExceptions() (map[string]string, error) {
	out := map[string]string{"Endpoints": "Endpoints"}
	for _, e := range a.PluralExceptions {
		if e == "" {
			continue
		}
		kind, plural, ok := strings.Cut(e, ":")
		if !ok || kind == "" || plural == "" {
			return nil, fmt.Errorf("--plural-exceptions: %q is not Kind:Plural", e)
		}
		out[kind] = plural
	}
	return out, nil
}

// plan is where a run writes: the import paths of the generated trees and
// the directory they map to. Every tree is a package path below basePkg,
// written to the same path below baseDir.
type plan struct {
	baseDir, basePkg string
	// listers is the root of the lister packages (<listers>/<group>/<version>).
	listers string
	// informers is the package of the shared informer factory; empty when
	// only listers are generated.
	informers string
	// controllers is the root of the controller packages; empty when they
	// are not generated.
	controllers string
	// controllerRuntime is the root of the controller-runtime packages;
	// empty when they are not generated.
	controllerRuntime string
	// owned are the directories, relative to baseDir, that the run owns:
	// generated files of an earlier run found there and not generated any
	// more are removed. Files without the generated-code header never are.
	owned []string
}

// plan lays out the output. There are three layouts:
//
//   - informer-gen-plus's own (no --listers-package): --output-dir is the
//     root of listers/, informers/externalversions/ and controllers/;
//   - informer-gen's (--listers-package): --output-dir is informer-gen's
//     (externalversions/ below it, or the factory itself with
//     --single-directory), and the listers are written to the package
//     --listers-package names, placed relative to --output-pkg (kube_codegen.sh
//     passes <out>/informers and <pkg>/listers: they go to <out>/listers);
//     controllers go beside the informers, to <output-pkg>/../controllers;
//   - lister-gen's (no --versioned-clientset-package): only listers, in
//     <output-dir>/<group>/<version>.
func (a Args) plan() (plan, error) {
	p, err := a.basePlan()
	if err != nil || a.ControllerRuntimePkg == "" {
		return p, err
	}
	return p.withControllerRuntime(a.ControllerRuntimePkg)
}

// basePlan is the plan of the listers, informers and controllers.
func (a Args) basePlan() (plan, error) {
	pkg := path.Clean(a.OutputPkg)
	dir, err := filepath.Abs(a.OutputDir)
	if err != nil {
		return plan{}, err
	}
	switch {
	case a.VersionedClientSetPackage == "":
		return plan{baseDir: dir, basePkg: pkg, listers: pkg, owned: []string{"."}}, nil
	case a.ListersPackage == "":
		p := plan{baseDir: dir, basePkg: pkg, listers: path.Join(pkg, "listers"), informers: path.Join(pkg, "informers")}
		if !a.SingleDirectory {
			p.informers = path.Join(p.informers, "externalversions")
		}
		if a.WithControllers {
			p.controllers = path.Join(pkg, "controllers")
		}
		p.owned = []string{"listers", "informers", "controllers"}
		return p, nil
	}
	listers := path.Clean(a.ListersPackage)
	controllers := path.Join(path.Dir(pkg), "controllers")
	base := commonPath(pkg, commonPath(listers, controllers))
	if base == "" || base == "." {
		return plan{}, fmt.Errorf("--listers-package %s shares no leading path with --output-pkg %s: cannot tell which directory it is", listers, pkg)
	}
	up := strings.Count(strings.TrimPrefix(pkg, base), "/")
	baseDir := dir
	for range up {
		baseDir = filepath.Dir(baseDir)
	}
	p := plan{baseDir: baseDir, basePkg: base, listers: listers, informers: pkg}
	if !a.SingleDirectory {
		p.informers = path.Join(pkg, "externalversions")
	}
	if a.WithControllers {
		p.controllers = controllers
	}
	for _, owned := range []string{pkg, listers, controllers} {
		p.owned = append(p.owned, p.rel(owned))
	}
	return p, nil
}

// commonPath is the longest leading sequence of whole elements a and b share.
func commonPath(a, b string) string {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return strings.Join(as[:n], "/")
}

// rel is the slash-separated path of package pkg below basePkg.
func (p plan) rel(pkg string) string {
	if pkg == p.basePkg {
		return "."
	}
	return strings.TrimPrefix(pkg, p.basePkg+"/")
}

// NameSystems are the namers templates use.
func NameSystems(pluralExceptions map[string]string) namer.NameSystems {
	return namer.NameSystems{
		"public":             namer.NewPublicNamer(0),
		"private":            namer.NewPrivateNamer(0),
		"raw":                namer.NewRawNamer("", nil),
		"publicPlural":       namer.NewPublicPluralNamer(pluralExceptions),
		"allLowercasePlural": namer.NewAllLowercasePluralNamer(pluralExceptions),
		"lowercaseSingular":  lowercaseSingular{},
	}
}

// lowercaseSingular names a type by its name in lower case, as lister-gen
// names resources in NotFound errors ("widget.shop.example.dev").
type lowercaseSingular struct{}

func (lowercaseSingular) Name(t *types.Type) string { return strings.ToLower(t.Name.Name) }

// Generate runs the generator and returns the files it would write, without
// touching the output directory. Their paths are relative to OutputRoot.
func Generate(a Args) (*output.Files, error) {
	files, _, err := generate(a)
	return files, err
}

// generate is Generate, also returning the model the files were generated
// from.
func generate(a Args) (*output.Files, *Model, error) {
	if err := a.Validate(); err != nil {
		return nil, nil, err
	}
	plurals, _ := a.pluralExceptions()
	p, _ := a.plan()
	parsed := parser.NewWithOptions(parser.Options{BuildTags: []string{gengo.StdBuildTag}})
	if err := parsed.LoadPackages(a.Inputs...); err != nil {
		return nil, nil, fmt.Errorf("loading input packages: %w", err)
	}
	c, err := generator.NewContext(parsed, NameSystems(plurals), "public")
	if err != nil {
		return nil, nil, fmt.Errorf("reading input packages: %w", err)
	}
	model, err := BuildModel(c, a.LintRules...)
	if err != nil {
		return nil, nil, err
	}
	header, err := gengo.GoBoilerplate(a.GoHeaderFile, "", "")
	if err != nil {
		return nil, nil, fmt.Errorf("reading --go-header-file: %w", err)
	}
	header = append(header, []byte(output.Header+"\n\n")...)

	staging, err := os.MkdirTemp("", "informer-gen-plus-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(staging)
	files := output.New(p.owned...)
	c.FileTypes[generator.GoFileType] = files.GoFileType(staging)
	l := layout{plan: p, staging: staging, clientset: a.VersionedClientSetPackage, header: header}
	targets := listerTargets(model, l)
	if p.informers != "" {
		targets = append(targets, informerTargets(model, l)...)
	}
	if p.controllers != "" {
		targets = append(targets, controllerTargets(model, l)...)
	}
	if p.controllerRuntime != "" {
		targets = append(targets, controllerRuntimeTargets(model, l)...)
	}
	if a.WithInterning {
		if err := selectInterned(model, a.InternKinds); err != nil {
			return nil, nil, err
		}
		if err := withInterning(model, l, targets); err != nil {
			return nil, nil, err
		}
	}
	if err := c.ExecuteTargets(targets); err != nil {
		return nil, nil, err
	}
	return files, model, nil
}

// Run generates and then, unless VerifyOnly, brings the output directory in
// line; with VerifyOnly it writes nothing and returns the drift as an error.
func Run(a Args) error {
	_, err := RunWithSummary(a)
	return err
}

// RunWithSummary is Run, also returning what the run did (or, with
// VerifyOnly, would do): the summary of a failed run is empty, but for the
// drift --verify-only found, with its diff.
func RunWithSummary(a Args) (Summary, error) {
	start := time.Now()
	s := Summary{VerifyOnly: a.VerifyOnly}
	files, model, err := generate(a)
	if err != nil {
		return s, err
	}
	for _, g := range model.Groups {
		for _, v := range g.Versions {
			for _, k := range v.Kinds {
				s.Kinds++
				s.Indexes += len(k.Indexes)
			}
		}
	}
	root, err := a.OutputRoot()
	if err != nil {
		return s, err
	}
	var drift output.Drift
	if a.VerifyOnly {
		drift, err = files.Compare(root)
		if err == nil && !drift.Empty() {
			s.Diff, err = files.Diff(root, drift)
		}
	} else {
		drift, err = files.Write(root)
	}
	if err != nil {
		return s, err
	}
	s.Written = slices.Sorted(slices.Values(slices.Concat(drift.Missing, drift.Changed)))
	s.Removed = drift.Stale
	for _, rel := range files.Paths() {
		if !slices.Contains(s.Written, rel) {
			s.Unchanged = append(s.Unchanged, rel)
		}
	}
	s.Elapsed = time.Since(start)
	if a.VerifyOnly && !drift.Empty() {
		return s, drift
	}
	return s, nil
}

// Summary is what a run did or, with VerifyOnly, would do. Paths are
// relative to OutputRoot, sorted.
type Summary struct {
	VerifyOnly     bool
	Kinds, Indexes int      // of the model: kinds with a lister or informer, and their indexes
	Written        []string // missing or different on disk: written (or, with VerifyOnly, to write)
	Unchanged      []string // generated and already on disk as generated
	Removed        []string // stale: removed (or, with VerifyOnly, to remove)
	// Diff is, with VerifyOnly, the unified diff of every file to write or
	// remove, from the disk to the generated content.
	Diff    string
	Elapsed time.Duration
}

// String is the one-line summary of the run, e.g. "informer-gen-plus: 9
// kinds, 27 indexes: 12 files written, 40 unchanged, 1 removed (0.8s)".
func (s Summary) String() string {
	written, removed, tool := "written", "removed", "informer-gen-plus"
	if s.VerifyOnly {
		written, removed, tool = "to write", "to remove", "informer-gen-plus --verify-only"
	}
	indexes := fmt.Sprintf("%d indexes", s.Indexes)
	if s.Indexes == 1 {
		indexes = "1 index"
	}
	return fmt.Sprintf("%s: %s, %s: %s %s, %d unchanged, %d %s (%.1fs)", tool,
		count(s.Kinds, "kind"), indexes,
		count(len(s.Written), "file"), written, len(s.Unchanged), len(s.Removed), removed,
		s.Elapsed.Seconds())
}

// Actions lists every file of the run with its action, one per line, sorted
// by path: "  written   listers/shop/v1/widget.go".
func (s Summary) Actions() string {
	written, removed := "written", "removed"
	if s.VerifyOnly {
		written, removed = "to write", "to remove"
	}
	type action struct{ path, what string }
	var all []action
	for _, group := range []struct {
		what  string
		paths []string
	}{{written, s.Written}, {"unchanged", s.Unchanged}, {removed, s.Removed}} {
		for _, p := range group.paths {
			all = append(all, action{p, group.what})
		}
	}
	slices.SortFunc(all, func(a, b action) int { return strings.Compare(a.path, b.path) })
	var b strings.Builder
	for _, a := range all {
		fmt.Fprintf(&b, "  %-9s %s\n", a.what, a.path)
	}
	return b.String()
}

// OutputRoot is the directory the paths of Generate's files are relative
// to: --output-dir, or with --listers-package the directory that holds both
// it and the listers.
func (a Args) OutputRoot() (string, error) {
	p, err := a.plan()
	return p.baseDir, err
}

// layout says where the generated packages go and what they share.
type layout struct {
	plan
	staging   string // where gengo assembles the files: baseDir's stand-in
	clientset string // import path of the versioned clientset
	header    []byte // of every file
}

// dir returns the directory the package pkg is written to.
func (l layout) dir(pkg string) string {
	return filepath.Join(l.baseDir, filepath.FromSlash(l.rel(pkg)))
}

// target returns the target of the package pkg, called name.
func (l layout) target(name, pkg string, gens ...generator.Generator) generator.Target {
	return &generator.SimpleTarget{
		PkgName:        name,
		PkgPath:        pkg,
		PkgDir:         filepath.Join(l.staging, filepath.FromSlash(l.rel(pkg))),
		HeaderComment:  l.header,
		GeneratorsFunc: func(*generator.Context) []generator.Generator { return gens },
	}
}

// versionPkg returns the package of group version v under root:
// <root>/<group>/<version>.
func versionPkg(root string, v *Version) string {
	return path.Join(root, v.Group.PackageName, v.Name)
}

// perKindTargets lays out one package per group version under root
// (versionPkg), holding one file per kind that keep selects, written from
// template with the arguments args gives for the kind, and the files extra
// returns for the package. A group version without such a kind gets no
// package.
func perKindTargets(m *Model, l layout, root string, keep func(*Kind) bool, template string,
	args func(k *Kind) func(*generator.Context) generator.Args,
	extra func(pkg string, v *Version, kinds []*Kind) []generator.Generator) []generator.Target {
	var targets []generator.Target
	for _, g := range m.Groups {
		for _, v := range g.Versions {
			kinds := kindsWhere(v, keep)
			if len(kinds) == 0 {
				continue
			}
			pkg := versionPkg(root, v)
			var gens []generator.Generator
			if extra != nil {
				gens = extra(pkg, v, kinds)
			}
			for _, k := range kinds {
				gens = append(gens, newFileGenerator(pkg, fileName(k), template, args(k)))
			}
			targets = append(targets, l.target(v.Name, pkg, gens...))
		}
	}
	return targets
}

// kindsWhere returns the kinds of v for which keep is true.
func kindsWhere(v *Version, keep func(*Kind) bool) []*Kind {
	var out []*Kind
	for _, k := range v.Kinds {
		if keep(k) {
			out = append(out, k)
		}
	}
	return out
}

// fileName is the name of a kind's file in lister, informer and controller
// packages.
func fileName(k *Kind) string { return strings.ToLower(k.Type.Name.Name) + ".go" }

func groupDisplayName(g *Group) string {
	if g.Name == "" {
		return "core"
	}
	return g.Name
}
