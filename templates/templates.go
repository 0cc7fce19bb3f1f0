// Package templates holds the text of the files informer-gen-plus
// generates, one template per generated file kind, in gengo's SnippetWriter
// syntax ($ delimiters, namers such as $.type|public$). Templates only lay out
// code: every identifier and every computed piece of code comes from the
// generator that fills them.
package templates

import _ "embed"

// Lister is the per-kind lister file: the lister and namespace lister
// interfaces, their implementations over the runtime's generic lister, and
// the kind's index names, index functions and index registration.
//
//go:embed lister.go.tmpl
var Lister string
