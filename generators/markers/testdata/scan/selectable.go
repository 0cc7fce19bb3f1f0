package scan

// Colored has selectable fields, in every form of the value, and a bad
// one.
//
// +genclient
// +kubebuilder:selectablefield:JSONPath=.spec.color
// +kubebuilder:selectablefield:JSONPath=".spec.size"
// +kubebuilder:selectablefield:JSONPath=`.status.ready`
// +kubebuilder:selectablefield:JSONPath=spec.shape
// +kubebuilder:selectablefields are not markers
type Colored struct{}

// +kubebuilder:selectablefield:JSONPath=.spec.weight

// Weighed carries its marker in the block above its doc comment.
type Weighed struct{}
