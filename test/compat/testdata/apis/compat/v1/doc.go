// Package v1 is the v1 version of the compat.example.dev API group: the
// input of the compile-compatibility test, which generates informer-gen's and
// lister-gen's output and informer-gen-plus's output for it and compiles the
// same consumer code against both.
//
// +k8s:deepcopy-gen=package
// +groupName=compat.example.dev
package v1
