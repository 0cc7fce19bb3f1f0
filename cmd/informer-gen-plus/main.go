// Command informer-gen-plus generates typed listers with typed index lookups
// (and, as the project grows, informers and controllers) for Kubernetes API
// types, from +genclient and +index markers. Run it with --help for flags and
// the marker grammar.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"k8s.io/klog/v2"

	"github.com/informer-gen-plus/informer-gen-plus/generators"
)

const usage = `Usage: informer-gen-plus [flags] INPUT_PACKAGE...

Generates, under --output-dir, listers/<group>/<version>/ for every type of the
input packages that has +genclient with the list and watch verbs, with one
typed lookup method per +index marker.

Markers (gengo codetags syntax; values other than plain identifiers are Go
strings):

  On a type's doc comment:
    // +index(name: byColor, field: spec.color)
    // +index(name: byImage, field: "spec.containers[*].image")
    // +index(name: byPhaseNode, field: "status.phase,spec.nodeName")
    // +index(name: byTeam, label: team)
    // +index(name: byOwner, annotation: "example.dev/owner")
    // +index(name: byShop, owner: Shop)
    // +index(name: byZone, func: "example.dev/shop/indexing.ZoneOf")

  On a package's doc comment, for types you do not own:
    // +index(for: "k8s.io/api/core/v1.Pod", name: byNode, field: spec.nodeName)

  name        index name; byColor gives the lookup method ByColor; unique per type
  field       JSON path (json tags, inline structs, pointers); [*] indexes every
              element of a list; the leaf is a string, bool or integer, or a
              pointer to one (nil gives no value); comma-separated paths make a
              composite key, looked up with one argument per path
  label       the value of that label (absent: no value)
  annotation  the value of that annotation (absent: no value)
  owner       the name of the controlling owner reference of that kind
  func        a function func(*T) []string, checked at generate time
  for         (package comments only) the fully qualified type

A bad marker is an error naming file:line, the marker and what is wrong; then
nothing is written.

Flags:
`

func main() {
	var a generators.Args
	fs := flag.NewFlagSet("informer-gen-plus", flag.ContinueOnError)
	fs.StringVar(&a.OutputDir, "output-dir", "", "the directory under which to write the generated packages (required)")
	fs.StringVar(&a.OutputPkg, "output-pkg", "", "the Go import path of --output-dir (required)")
	fs.StringVar(&a.VersionedClientSetPackage, "versioned-clientset-package", "", "the Go import path of the typed clientset for the input types, e.g. k8s.io/client-go/kubernetes (required)")
	fs.StringVar(&a.GoHeaderFile, "go-header-file", "", "a file whose text heads every generated file (\"YEAR\" becomes the current year)")
	plurals := fs.String("plural-exceptions", "", "comma-separated Kind:Plural pairs for irregular plurals (Endpoints:Endpoints is always included)")
	fs.BoolVar(&a.VerifyOnly, "verify-only", false, "write nothing; exit non-zero, naming each file that is missing, differs or is stale, when the output is not what would be generated")
	klog.InitFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		if err == flag.ErrHelp {
			return
		}
		os.Exit(2)
	}
	if *plurals != "" {
		a.PluralExceptions = strings.Split(*plurals, ",")
	}
	a.Inputs = fs.Args()
	if err := generators.Run(a); err != nil {
		fmt.Fprintln(os.Stderr, "informer-gen-plus:", err)
		os.Exit(1)
	}
}
