// Package shopoperator is a kubebuilder-style operator for the example shop
// API on controller-runtime: reconcilers with SetupWithManager, a manager's
// cached client, and no index name written as a string. Its index lookups
// and event mappers are the ones informer-gen-plus generates from the +index
// markers of the API types (--controller-runtime-output-pkg), registered with
// the manager by the generated SetupIndexes.
package shopoperator
