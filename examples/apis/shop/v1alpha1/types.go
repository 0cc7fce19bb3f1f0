package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Widget is the v1alpha1 Widget: no embedded identity, placement or
// nickname yet, and fewer indexes than v1.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +index(name: byColor, field: spec.color)
// +index(name: byTeam, label: team)
// +index(name: byImage, field: "spec.containers[*].image")
// +index(name: byShop, owner: Shop)
// +index(name: byPhaseColor, field: "status.phase,spec.color")
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec,omitempty"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// Color of the widget.
	Color string `json:"color"`
	// Size of the widget, in arbitrary units.
	Size int32 `json:"size,omitempty"`
	// ConfigRef is the name of a ConfigMap in the Widget's namespace that
	// configures it.
	// +optional
	ConfigRef string `json:"configRef,omitempty"`
	// Containers run the widget.
	Containers []WidgetContainer `json:"containers,omitempty"`
}

// WidgetContainer is a container-like part of a Widget.
type WidgetContainer struct {
	// Name of the container, unique within the Widget.
	Name string `json:"name"`
	// Image is the container image reference.
	Image string `json:"image"`
}

// WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	// Phase is the current lifecycle phase (Pending, Ready, Failed).
	// +optional
	Phase string `json:"phase,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Widget `json:"items"`
}

// Shop is a cluster-scoped example kind.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster
// +index(name: byRegion, field: spec.region)
type Shop struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ShopSpec `json:"spec,omitempty"`
}

// ShopSpec is the desired state of a Shop.
type ShopSpec struct {
	// Region the Shop serves.
	Region string `json:"region"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true

// ShopList is a list of Shops.
type ShopList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Shop `json:"items"`
}
