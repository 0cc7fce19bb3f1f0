// Package v2beta1 is the v2beta1 version of the fleet.example.dev API group, an
// example input for informer-gen-plus. The group sets +groupGoName, so its
// Go identifiers (clientset.FleetExampleV2beta1(), ...) differ from the
// package name taken from the path (fleet).
//
// +k8s:deepcopy-gen=package
// +groupName=fleet.example.dev
// +groupGoName=FleetExample
package v2beta1
