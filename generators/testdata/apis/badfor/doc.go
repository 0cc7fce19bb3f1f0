// Package badfor declares indexes for types that cannot take them.
//
// +index(for: "k8s.io/api/core/v1.Podd", name: byNode, field: spec.nodeName)
// +index(for: "k8s.io/api/core/v1.Pod", name: byNode, field: spec.nodeNam)
// +index(for: "k8s.io/api/core/v1.PodSpec", name: byNode, field: nodeName)
package badfor
