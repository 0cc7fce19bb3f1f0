// Package kubeindexes declares the indexes this module's code looks Pods up
// by. Pods are a built-in type, so the markers are on this package comment
// and name the type they index (for:). The package has no code:
// informer-gen-plus reads only this comment.
//
// +index(for: "k8s.io/api/core/v1.Pod", name: byNode, field: spec.nodeName)
package kubeindexes

//go:generate go tool informer-gen-plus --output-dir ../generated --output-pkg example.dev/podwatch/generated --versioned-clientset-package k8s.io/client-go/kubernetes example.dev/podwatch/kubeindexes
