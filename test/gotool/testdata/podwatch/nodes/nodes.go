// Package nodes answers which Pods run on a node, through the generated
// byNode index of Pods.
package nodes

import (
	"slices"

	corelisters "example.dev/podwatch/generated/listers/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// PodsOn returns the Pods scheduled to node, sorted by namespace and name.
func PodsOn(pods corelisters.PodLister, node string) ([]string, error) {
	onNode, err := pods.ByNode(node)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(onNode))
	for _, p := range onNode {
		names = append(names, types.NamespacedName{Namespace: p.Namespace, Name: p.Name}.String())
	}
	slices.Sort(names)
	return names, nil
}

// CountOn returns how many Pods of namespace are scheduled to node, without
// building a slice of them.
func CountOn(pods corelisters.PodLister, namespace, node string) int {
	n := 0
	for range pods.Pods(namespace).EachByNode(node) {
		n++
	}
	return n
}
