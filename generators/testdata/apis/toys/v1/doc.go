// Package v1 is a golden-test input: a namespaced and a cluster-scoped kind
// with one index of every source, a kind whose client cannot watch (a lister,
// no informer) and one that cannot list (nothing).
//
// +groupName=toys.example.dev
package v1
