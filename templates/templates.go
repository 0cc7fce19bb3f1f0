// Package templates holds the text of the files informer-gen-plus
// generates, one template per generated file kind, in gengo's SnippetWriter
// syntax ($ delimiters, namers such as $.type|public$). Templates only lay out
// code: every identifier and every computed piece of code comes from the
// generator that fills them.
package templates

import _ "embed"

// Lister is the per-kind lister file: lister-gen's lister and namespace
// lister interfaces with a lookup per index, their implementations over the
// runtime's lister, and the kind's index names, index functions and index
// registration.
//
//go:embed lister.go.tmpl
var Lister string

// Expansion is the expansion_generated.go of a lister package: lister-gen's
// empty expansion interfaces of the kinds without a hand-written
// <kind>_expansion.go.
//
//go:embed expansion.go.tmpl
var Expansion string

// Informer is the per-kind informer file: informer-gen's informer
// interfaces, aliases and constructors, over the runtime's informer with
// every index of the kind registered.
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

// Factory is the shared informer factory of the clientset, over the
// runtime's factory, with informer-gen's options.
//
//go:embed factory.go.tmpl
var Factory string

// FactoryInterfaces is internalinterfaces/factory_interfaces.go: what the
// informers of each group version need of the factory.
//
//go:embed factory_interfaces.go.tmpl
var FactoryInterfaces string

// Generic is the factory's generic.go: GenericInformer and ForResource.
//
//go:embed generic.go.tmpl
var Generic string

// Controller is the per-kind controller file: a constructor of a
// runtime/controller Controller whose primary source is the kind's informer
// from the shared factory.
//
//go:embed controller.go.tmpl
var Controller string

// FieldSelectors is the per-kind <kind>_fieldselectors.go of a lister
// package, for the kinds with +kubebuilder:selectablefield markers: the
// field selector key of each selectable field, a function that builds the
// field selector of one value, and one that sets it on list options (for a
// shared informer factory's WithTweakListOptions).
//
//go:embed fieldselectors.go.tmpl
var FieldSelectors string

// ControllerRuntimeIndexes is the per-kind file of a controller-runtime
// package: the registration of the kind's indexes with a manager's field
// indexer, a List helper per index and an event mapper per index whose value
// names another object.
//
//go:embed crindexes.go.tmpl
var ControllerRuntimeIndexes string

// ControllerRuntimeSetup is the setup.go of a controller-runtime package:
// SetupIndexes, registering the indexes of every kind of the group version.
//
//go:embed crsetup.go.tmpl
var ControllerRuntimeSetup string

// Intern is a file of the interning transforms of a lister package
// (--with-interning): <kind>_intern.go, with Intern<Kind> and the walkers,
// key encoders and pools only that kind uses, or intern_generated.go, with
// those several kinds use and InternTransform. The generator writes the
// code of every declaration; the template lays out the pools' var block
// and the functions.
//
//go:embed intern.go.tmpl
var Intern string
