// +groupName=badselectable.example.dev

// Package v1 is an input whose selectable field markers are wrong in every
// way the generator checks.
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing has bad selectable fields.
//
// +genclient
// +kubebuilder:selectablefield:JSONPath=.spec.colour
// +kubebuilder:selectablefield:JSONPath=.spec
// +kubebuilder:selectablefield:JSONPath=.spec.tags
// +kubebuilder:selectablefield:JSONPath=.spec.labels
// +kubebuilder:selectablefield:JSONPath=.spec.parts.name
// +kubebuilder:selectablefield:JSONPath=.spec.color
// +kubebuilder:selectablefield:JSONPath=".spec.color"
// +kubebuilder:selectablefield:JSONPath=spec.size
// +kubebuilder:selectablefield:JSONPath=.metadata.name
// +kubebuilder:selectablefield:JSONPath=.spec.parts[*].name
// +index(name: bySize, selectableField: spec.size)
// +index(name: byColor, selectableField: spec.color)
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ThingSpec `json:"spec"`
}

// ThingSpec is the desired state.
type ThingSpec struct {
	Color  string            `json:"color"`
	Size   int32             `json:"size"`
	Tags   []string          `json:"tags"`
	Labels map[string]string `json:"labels"`
	Parts  []Part            `json:"parts"`
}

// Part is a part of a Thing.
type Part struct {
	Name string `json:"name"`
}

// ThingList is a list of things.
type ThingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Thing `json:"items"`
}

// Many has more selectable fields than the API server accepts.
//
// +genclient
// +kubebuilder:selectablefield:JSONPath=.spec.a
// +kubebuilder:selectablefield:JSONPath=.spec.b
// +kubebuilder:selectablefield:JSONPath=.spec.c
// +kubebuilder:selectablefield:JSONPath=.spec.d
// +kubebuilder:selectablefield:JSONPath=.spec.e
// +kubebuilder:selectablefield:JSONPath=.spec.f
// +kubebuilder:selectablefield:JSONPath=.spec.g
// +kubebuilder:selectablefield:JSONPath=.spec.h
// +kubebuilder:selectablefield:JSONPath=.spec.i
// +index(name: aField, field: spec.a)
type Many struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ManySpec `json:"spec"`
}

// ManySpec has nine fields.
type ManySpec struct {
	A string `json:"a"`
	B string `json:"b"`
	C string `json:"c"`
	D string `json:"d"`
	E string `json:"e"`
	F string `json:"f"`
	G string `json:"g"`
	H string `json:"h"`
	I string `json:"i"`
}

// ManyList is a list of Manys.
type ManyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Many `json:"items"`
}

// Loose has a selectable field but no +genclient: its markers are
// controller-gen's business only, even a wrong one.
//
// +kubebuilder:selectablefield:JSONPath=.spec.nothing
type Loose struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
}
