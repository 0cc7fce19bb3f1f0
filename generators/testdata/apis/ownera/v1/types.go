package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Gadget has owner markers of every outcome.
//
// +genclient
// +index(name: byWidget, owner: Widget)
// +index(name: bySprocket, owner: Sprocket)
// +index(name: byGadget, owner: Gadget)
// +index(name: byWidgetOfA, owner: "a.example.dev/Widget")
// +index(name: byVersioned, owner: "a.example.dev/v1/Widget")
// +index(name: byCoreNode, owner: "/Node")
// +index(name: bySpec, owner: GadgetSpec)
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              GadgetSpec `json:"spec"`
}

// GadgetSpec is a struct, not a kind.
type GadgetSpec struct {
	Color string `json:"color"`
}

// Widget is also a kind of group b.example.dev.
//
// +genclient
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}
