// Package scan is a fixture of marker scanning.
//
// +index(for: "k8s.io/api/core/v1.Pod", name: byNode, field: spec.nodeName)
package scan

// Widget is indexed twice.
//
// +genclient
// +index(name: byColor, field: spec.color)
// +index(name: byImage, field: "spec.containers[*].image")
// +indexes are not markers
// +index markers in prose are not markers either
type Widget struct{}

type (
	// Gadget is declared in a group.
	// +index(name: byTeam, label: team)
	Gadget struct{}

	// Plain has no markers.
	Plain struct{}
)

// Broken has two malformed markers.
//
// +index(name: ByColor, field: spec.color)
// +index(name: byColor, field: spec.color, label: team)
type Broken struct{}

// +index(name: byShape, field: spec.shape)

// Tagged carries its marker in the block above its doc comment.
type Tagged struct{}
