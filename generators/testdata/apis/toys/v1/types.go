package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Robot is namespaced.
//
// +genclient
// +index(name: byColor, field: spec.color)
// +index(name: byPart, field: "spec.parts[*].name")
// +index(name: byModeColor, field: "status.mode,spec.color")
// +index(name: byTeam, label: team)
// +index(name: byMaker, annotation: "toys.example.dev/maker")
// +index(name: byBox, owner: Box)
// +index(name: byLength, func: "github.com/informer-gen-plus/informer-gen-plus/generators/testdata/apis/toys/v1.LengthOf")
type Robot struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              RobotSpec   `json:"spec"`
	Status            RobotStatus `json:"status,omitempty"`
}

// RobotSpec is the desired state.
type RobotSpec struct {
	Color  string `json:"color"`
	Parts  []Part `json:"parts,omitempty"`
	Length *int32 `json:"length,omitempty"`
}

// Part is a robot part.
type Part struct {
	Name string `json:"name"`
}

// RobotStatus is the observed state.
type RobotStatus struct {
	Mode string `json:"mode,omitempty"`
}

// RobotList is a list of robots.
type RobotList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Robot `json:"items"`
}

// Box is cluster-scoped. Its owner indexes name kinds of groups that are
// not inputs, qualified.
//
// +genclient
// +genclient:nonNamespaced
// +index(name: bySize, field: spec.size)
// +index(name: byDefinition, owner: "apiextensions.k8s.io/CustomResourceDefinition")
// +index(name: byNode, owner: "core/Node")
type Box struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              BoxSpec `json:"spec"`
}

// BoxSpec is the desired state.
type BoxSpec struct {
	Size int64 `json:"size"`
}

// BoxList is a list of boxes.
type BoxList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Box `json:"items"`
}

// Crate has a client that cannot watch: a lister, as lister-gen writes, but
// no informer.
//
// +genclient
// +genclient:skipVerbs=watch
type Crate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// CrateList is a list of crates.
type CrateList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Crate `json:"items"`
}

// Gear has no list verb: no lister.
//
// +genclient
// +genclient:onlyVerbs=get
type Gear struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// LengthOf indexes robots by length, in meters.
func LengthOf(r *Robot) []string {
	if r.Spec.Length == nil {
		return nil
	}
	return []string{string(rune('0' + *r.Spec.Length))}
}
