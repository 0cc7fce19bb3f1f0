// Command typecheck type-checks packages, their tests and all of their
// dependencies from source under the build tags it is given, and prints each
// type error with its position. It exits with status 1 when there is one,
// 2 when the packages cannot be loaded.
//
// make test uses it for apimachinery's fieldsv1string build, where
// metav1.FieldsV1 has no Raw field: every package of the module must compile
// there too. Type-checking from source finds what a compile would (a type
// error) without compiling every package that imports metav1 once more, which
// go vet or go build under that tag do before they can check a single file
// of the module.
//
// Usage:
//
//	go run ./hack/typecheck [-tags tag,...] packages...
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"golang.org/x/tools/go/packages"
)

func main() {
	tags := flag.String("tags", "", "comma-separated build tags, as go build's -tags")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: typecheck [-tags tag,...] packages...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	os.Exit(run(*tags, flag.Args()))
}

// run loads patterns with their tests and dependencies, type-checked from
// source, and reports the errors of every package loaded.
func run(tags string, patterns []string) int {
	start := time.Now()
	cfg := &packages.Config{
		// NeedDeps with NeedSyntax makes go/packages parse and type-check
		// every dependency from source instead of reading export data,
		// which go list would have to compile first.
		Mode:  packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedSyntax | packages.NeedTypes,
		Tests: true,
	}
	if tags != "" {
		cfg.BuildFlags = []string{"-tags=" + tags}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "typecheck: %v\n", err)
		return 2
	}
	n := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) { n++ })
	if errs := packages.PrintErrors(pkgs); errs > 0 {
		fmt.Fprintf(os.Stderr, "typecheck: %d errors (tags %q)\n", errs, tags)
		return 1
	}
	fmt.Printf("typecheck: %d packages type-check with tags %q (%v)\n", n, tags, time.Since(start).Round(time.Second))
	return 0
}
