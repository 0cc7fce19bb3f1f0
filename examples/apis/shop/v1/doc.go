// Package v1 is the v1 version of the shop.example.dev API group, an example
// input for informer-gen-plus: its types carry +genclient and +index markers.
//
// +k8s:deepcopy-gen=package
// +groupName=shop.example.dev
package v1
