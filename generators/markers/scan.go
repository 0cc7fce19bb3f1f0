package markers

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
)

// Package holds the markers of one Go package.
type Package struct {
	// Types maps a type name to the markers on its doc comment, in source
	// order.
	Types map[string][]Marker
	// Package lists the markers on the package's doc comments (they carry
	// For), in source order.
	Package []Marker
	// SelectableFields maps a type name to the +kubebuilder:selectablefield
	// markers of its comments, in source order.
	SelectableFields map[string][]SelectableField
}

// Scan reads the Go files of the package in dir (those the go tool would
// build) and returns its markers. It reports every malformed marker, not only
// the first, joined in one error.
func Scan(dir string) (Package, error) {
	out := Package{Types: map[string][]Marker{}, SelectableFields: map[string][]SelectableField{}}
	bp, err := build.ImportDir(dir, build.ImportComment)
	if err != nil {
		return out, fmt.Errorf("reading package in %s: %w", dir, err)
	}
	fset := token.NewFileSet()
	var errs []error
	for _, name := range bp.GoFiles {
		file, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return out, err
		}
		out.Package = append(out.Package, collect(fset, file.Doc, true, &errs)...)
		for _, decl := range file.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.TYPE {
				continue
			}
			for _, spec := range gen.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(gen.Specs) == 1 {
					doc = gen.Doc
				}
				var ms []Marker
				var sfs []SelectableField
				for _, group := range []*ast.CommentGroup{secondClosest(fset, file, doc, gen, ts), doc} {
					ms = append(ms, collect(fset, group, false, &errs)...)
					sfs = append(sfs, collectSelectable(fset, group, &errs)...)
				}
				if len(ms) > 0 {
					out.Types[ts.Name.Name] = append(out.Types[ts.Name.Name], ms...)
				}
				if len(sfs) > 0 {
					out.SelectableFields[ts.Name.Name] = append(out.SelectableFields[ts.Name.Name], sfs...)
				}
			}
		}
	}
	return out, errors.Join(errs...)
}

// secondClosest returns the comment group that ends one blank line above a
// type's doc comment (or above the type when it has none), where
// k8s.io/api-style packages put their tags; gengo reads the same group as
// SecondClosestCommentLines.
func secondClosest(fset *token.FileSet, file *ast.File, doc *ast.CommentGroup, gen *ast.GenDecl, ts *ast.TypeSpec) *ast.CommentGroup {
	var top token.Pos
	switch {
	case doc != nil:
		top = doc.Pos()
	case len(gen.Specs) == 1:
		top = gen.Pos()
	default:
		top = ts.Pos()
	}
	want := fset.Position(top).Line - 2
	for _, g := range file.Comments {
		if g != doc && fset.Position(g.End()).Line == want {
			return g
		}
	}
	return nil
}

// collect parses the markers of one comment group, appending malformed ones
// to errs.
func collect(fset *token.FileSet, group *ast.CommentGroup, packageLevel bool, errs *[]error) []Marker {
	if group == nil {
		return nil
	}
	var out []Marker
	for _, c := range group.List {
		line, ok := strings.CutPrefix(c.Text, "//")
		if !ok {
			continue // block comments carry no markers
		}
		line = strings.TrimSpace(line)
		if !isMarkerLine(line) {
			continue
		}
		m, err := Parse(fset.Position(c.Slash), line, packageLevel)
		if err != nil {
			*errs = append(*errs, err)
			continue
		}
		out = append(out, m)
	}
	return out
}

// collectSelectable parses the +kubebuilder:selectablefield markers of one
// comment group, appending malformed ones to errs.
func collectSelectable(fset *token.FileSet, group *ast.CommentGroup, errs *[]error) []SelectableField {
	if group == nil {
		return nil
	}
	var out []SelectableField
	for _, c := range group.List {
		line, ok := strings.CutPrefix(c.Text, "//")
		if !ok {
			continue
		}
		line = strings.TrimSpace(line)
		if !isSelectableLine(line) {
			continue
		}
		f, err := ParseSelectableField(fset.Position(c.Slash), line)
		if err != nil {
			*errs = append(*errs, err)
			continue
		}
		out = append(out, f)
	}
	return out
}

// isMarkerLine reports whether line is a marker: "+index" followed by its
// arguments, a value or nothing. Prose that merely starts with the word
// ("+index markers are ...") and longer tag names ("+indexes") are not.
func isMarkerLine(line string) bool {
	rest, ok := strings.CutPrefix(line, Prefix)
	if !ok {
		return false
	}
	return rest == "" || rest[0] == '(' || rest[0] == '='
}
