// +groupName=bad.example.dev

// Package v1 is an input whose markers are wrong in every way the generator
// checks against types.
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing has bad markers.
//
// +genclient
// +index(name: byColour, field: spec.colour)
// +index(name: bySpec, field: spec)
// +index(name: byTags, field: spec.tags)
// +index(name: byColor, field: spec.color)
// +index(name: byColor, label: color)
// +index(name: byMissing, func: "github.com/informer-gen-plus/informer-gen-plus/generators/testdata/apis/bad/v1.Missing")
// +index(name: byWrong, func: "github.com/informer-gen-plus/informer-gen-plus/generators/testdata/apis/bad/v1.Wrong")
// +index(name: byColorTag, field: "spec.color,spec.tags[*]", param: color)
// +index(name: byRefPair, field: "spec.color,spec.tags[*]", ref: ConfigMap)
// +index(name: byRefLower, field: spec.color, ref: configMap)
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ThingSpec `json:"spec"`
}

// ThingSpec is the desired state.
type ThingSpec struct {
	Color string   `json:"color"`
	Tags  []string `json:"tags"`
}

// ThingList is a list of things.
type ThingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Thing `json:"items"`
}

// Loose has markers but no +genclient.
//
// +index(name: byName, field: metadata.name)
type Loose struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// Wrong has the wrong signature for an index function.
func Wrong(t *Thing) string { return t.Spec.Color }
