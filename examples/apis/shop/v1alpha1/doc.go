// Package v1alpha1 is the v1alpha1 version of the shop.example.dev API
// group, an example input for informer-gen-plus: an older version of the
// group with fewer fields and fewer indexes than v1.
//
// +k8s:deepcopy-gen=package
// +groupName=shop.example.dev
package v1alpha1
