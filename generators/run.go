// Package generators is informer-gen-plus's generator: it reads API type
// packages with gengo, checks their +index markers, and writes listers (with
// typed index lookups) through gengo targets, one generator per generated
// file kind. Output is assembled in memory and written only when the whole
// run has succeeded.
package generators

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"k8s.io/gengo/v2"
	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/parser"

	"github.com/informer-gen-plus/informer-gen-plus/generators/output"
)

// Args are the inputs of a run. Their flag names follow informer-gen's and
// lister-gen's.
type Args struct {
	OutputDir                 string   // --output-dir
	OutputPkg                 string   // --output-pkg
	VersionedClientSetPackage string   // --versioned-clientset-package
	GoHeaderFile              string   // --go-header-file
	PluralExceptions          []string // --plural-exceptions, Kind:Plural
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
	case a.VersionedClientSetPackage == "":
		return errors.New("--versioned-clientset-package must be specified")
	case len(a.Inputs) == 0:
		return errors.New("at least one input package must be given")
	}
	_, err := a.pluralExceptions()
	return err
}

func (a Args) pluralExceptions() (map[string]string, error) {
	out := map[string]string{"Endpoints": "Endpoints"}
	for _, e := range a.PluralExceptions {
		kind, plural, ok := strings.Cut(e, ":")
		if !ok || kind == "" || plural == "" {
			return nil, fmt.Errorf("--plural-exceptions: %q is not Kind:Plural", e)
		}
		out[kind] = plural
	}
	return out, nil
}

// NameSystems are the namers templates use.
func NameSystems(pluralExceptions map[string]string) namer.NameSystems {
	return namer.NameSystems{
		"public":             namer.NewPublicNamer(0),
		"private":            namer.NewPrivateNamer(0),
		"raw":                namer.NewRawNamer("", nil),
		"publicPlural":       namer.NewPublicPluralNamer(pluralExceptions),
		"allLowercasePlural": namer.NewAllLowercasePluralNamer(pluralExceptions),
	}
}

// Generate runs the generator and returns the files it would write, without
// touching the output directory.
func Generate(a Args) (*output.Files, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	plurals, _ := a.pluralExceptions()
	p := parser.NewWithOptions(parser.Options{BuildTags: []string{gengo.StdBuildTag}})
	if err := p.LoadPackages(a.Inputs...); err != nil {
		return nil, fmt.Errorf("loading input packages: %w", err)
	}
	c, err := generator.NewContext(p, NameSystems(plurals), "public")
	if err != nil {
		return nil, fmt.Errorf("reading input packages: %w", err)
	}
	model, err := BuildModel(c)
	if err != nil {
		return nil, err
	}
	header, err := gengo.GoBoilerplate(a.GoHeaderFile, "", "")
	if err != nil {
		return nil, fmt.Errorf("reading --go-header-file: %w", err)
	}
	header = append(header, []byte(output.Header+"\n\n")...)

	staging, err := os.MkdirTemp("", "informer-gen-plus-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(staging)
	files := output.New(ownedDirs...)
	c.FileTypes[generator.GoFileType] = files.GoFileType(staging)
	l := layout{outputPkg: a.OutputPkg, outputDir: staging, clientset: a.VersionedClientSetPackage, header: header}
	if err := c.ExecuteTargets(slices.Concat(listerTargets(model, l), informerTargets(model, l), controllerTargets(model, l))); err != nil {
		return nil, err
	}
	return files, nil
}

// Run generates and then, unless VerifyOnly, brings the output directory in
// line; with VerifyOnly it writes nothing and returns the drift as an error.
func Run(a Args) error {
	files, err := Generate(a)
	if err != nil {
		return err
	}
	if a.VerifyOnly {
		drift, err := files.Compare(a.OutputDir)
		if err != nil {
			return err
		}
		if !drift.Empty() {
			return drift
		}
		return nil
	}
	_, err = files.Write(a.OutputDir)
	return err
}

// ownedDirs are the subdirectories of --output-dir the generator writes; only
// there does it remove generated files it no longer generates.
var ownedDirs = []string{"listers", "informers", "controllers"}

// layout says where the generated packages go and what they share.
type layout struct {
	outputPkg, outputDir string // the output as a whole
	clientset            string // import path of the versioned clientset
	header               []byte // of every file
}

// pkg returns the import path of the package at parts below the output.
func (l layout) pkg(parts ...string) string {
	return path.Join(append([]string{l.outputPkg}, parts...)...)
}

// target returns the target of the package at parts below the output.
func (l layout) target(name string, parts []string, gens ...generator.Generator) generator.Target {
	return &generator.SimpleTarget{
		PkgName:        name,
		PkgPath:        l.pkg(parts...),
		PkgDir:         filepath.Join(append([]string{l.outputDir}, parts...)...),
		HeaderComment:  l.header,
		GeneratorsFunc: func(*generator.Context) []generator.Generator { return gens },
	}
}

// versionPath returns the path, below the output directory, of the package
// of group version v under root: <root>/<group>/<version>.
func versionPath(root string, v *Version) []string {
	return []string{root, v.Group.PackageName, v.Name}
}

// perKindTargets lays out one package per group version under root
// (versionPath), holding one file per kind that keep selects, written from
// template with the arguments args gives for the kind. A group version
// without such a kind gets no package.
func perKindTargets(m *Model, l layout, root string, keep func(*Kind) bool, template string,
	args func(k *Kind) func(*generator.Context) generator.Args) []generator.Target {
	var targets []generator.Target
	for _, g := range m.Groups {
		for _, v := range g.Versions {
			kinds := kindsWhere(v, keep)
			if len(kinds) == 0 {
				continue
			}
			parts := versionPath(root, v)
			pkg := l.pkg(parts...)
			var gens []generator.Generator
			for _, k := range kinds {
				gens = append(gens, newFileGenerator(pkg, fileName(k), template, args(k)))
			}
			targets = append(targets, l.target(v.Name, parts, gens...))
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

func groupDisplayName(g *Group) string {
	if g.Name == "" {
		return "core"
	}
	return g.Name
}
