// Package compat holds the compile-compatibility test of informer-gen-plus's
// output against informer-gen's and lister-gen's (code-generator v0.37.2).
//
// For the API package in testdata/apis/compat/v1 (a namespaced kind, Foo,
// and a cluster-scoped one, Bar), the test generates client-gen's clientset
// once, then, in two scratch modules with the same module path,
// informer-gen + lister-gen output in one and informer-gen-plus output in the
// other, at the same package paths (kube_codegen.sh's layout:
// generated/clientset/versioned, generated/listers,
// generated/informers/externalversions). A hand-written lister expansion,
// testdata/listers/foo_expansion.go, is in the listers package before the
// generators run, as in a real repository.
//
// It then builds and vets the same consumer package, testdata/consumer: one
// small use* function per everyday use of the generated informers, listers
// and factory. A use that does not compile against either output fails the
// test, named with the compiler's message. Last, the consumer's own test runs
// against client-gen's fake clientset in both modules, records what the uses
// observe (lister results and NotFound errors, handler events, tombstones of
// missed deletes, factory options, ...) and the two records must be equal.
//
// Run it with `make compat` (part of `make test`); set COMPAT_KEEP=1 to keep
// the scratch modules and print where they are.
package compat
