package generators

import (
	"io"

	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/types"
)

// fileGenerator writes one file from one template. Every generated file kind
// is a fileGenerator with its own template and arguments; the arguments are
// computed when the file is written, with the file's raw namer, so that every
// type they name is imported.
type fileGenerator struct {
	generator.GoGenerator
	outputPackage string
	imports       namer.ImportTracker
	template      string
	args          func(c *generator.Context) generator.Args
}

func newFileGenerator(outputPackage, filename, template string, args func(c *generator.Context) generator.Args) *fileGenerator {
	return &fileGenerator{
		GoGenerator:   generator.GoGenerator{OutputFilename: filename},
		outputPackage: outputPackage,
		imports:       generator.NewImportTrackerForPackage(outputPackage),
		template:      template,
		args:          args,
	}
}

// Filter selects no type: the file is written once, by Init. (Its types may
// come from packages gengo loaded after it ordered the input types, such as a
// built-in type named by a package-level marker.)
func (g *fileGenerator) Filter(*generator.Context, *types.Type) bool { return false }

func (g *fileGenerator) Namers(*generator.Context) namer.NameSystems {
	return namer.NameSystems{"raw": namer.NewRawNamer(g.outputPackage, g.imports)}
}

func (g *fileGenerator) Imports(*generator.Context) []string { return g.imports.ImportLines() }

// Init writes the file.
func (g *fileGenerator) Init(c *generator.Context, w io.Writer) error {
	sw := generator.NewSnippetWriter(w, c, "$", "$")
	sw.Do(g.template, g.args(c))
	return sw.Error()
}
