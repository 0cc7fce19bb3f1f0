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

// Informer is the per-kind informer file: the kind's informer accessor over
// a shared factory, and constructors of standalone informers with every index
// of the kind registered.
//
//go:embed informer.go.tmpl
var Informer string

// Version is the interface.go of a group version's informer package.
//
//go:embed version.go.tmpl
var Version string

// Group is the interface.go of a group's informer package.
//
//go:embed group.go.tmpl
var Group string

// Factory is the shared informer factory of the clientset, with
// ForResource.
//
//go:embed factory.go.tmpl
var Factory string

// Controller is the per-kind controller file: a constructor of a
// runtime/controller Controller whose primary source is the kind's informer
// from the shared factory.
//
//go:embed controller.go.tmpl
var Controller string
