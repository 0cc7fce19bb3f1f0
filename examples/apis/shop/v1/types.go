package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Well-known label and annotation keys used by the indexes below.
const (
	// TeamLabel is the label naming the team that owns a Widget.
	TeamLabel = "team"
	// OwnerTeamAnnotation is the annotation naming the team that is paged
	// for a Widget.
	OwnerTeamAnnotation = "shop.example.dev/owner-team"
	// ZoneLabel is the well-known topology label; indexing.ZoneOf falls
	// back to it when a Widget has no placement.
	ZoneLabel = "topology.kubernetes.io/zone"
)

// Widget is a namespaced example kind. Its index markers use every form:
// a field, a label, a multi-valued path through a slice, the controlling
// owner of a kind, a composite key, a user function, an annotation, a path
// through an embedded struct, a pointer leaf, a path through a pointer to a
// struct, an integer leaf, and selectable fields. Its color and size are
// selectable fields: the API server accepts field selectors on them
// (spec.color=red), and the generated listers have their selector
// functions (WidgetColorSelector, WidgetsWithColor) and, from the
// selectableField markers, indexes that agree with those selectors.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
// +index(name: byColor, field: spec.color)
// +index(name: byTeam, label: team)
// +index(name: byImage, field: "spec.containers[*].image")
// +index(name: byShop, owner: Shop)
// +index(name: byPhaseColor, field: "status.phase,spec.color")
// +index(name: byZone, func: "github.com/informer-gen-plus/informer-gen-plus/examples/indexing.ZoneOf")
// +index(name: byOwnerTeam, annotation: "shop.example.dev/owner-team")
// +index(name: bySKU, field: spec.sku)
// +index(name: byNickname, field: spec.nickname)
// +index(name: byPlacementZone, field: spec.placement.zone)
// +index(name: byConfigRef, field: spec.configRef, ref: ConfigMap)
// +index(name: bySize, field: spec.size)
// +kubebuilder:selectablefield:JSONPath=.spec.color
// +kubebuilder:selectablefield:JSONPath=.spec.size
// +index(name: byColorField, selectableField: spec.color)
// +index(name: bySizeField, selectableField: ".spec.size")
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec,omitempty"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetIdentity identifies the product a Widget is. It is embedded
// (inlined) in WidgetSpec, so its fields sit directly under spec.
type WidgetIdentity struct {
	// SKU is the stock keeping unit: spec.sku.
	SKU string `json:"sku,omitempty"`
	// Revision is the product revision: spec.revision.
	Revision int64 `json:"revision,omitempty"`
}

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// WidgetIdentity is embedded: spec.sku, spec.revision.
	WidgetIdentity `json:",inline"`

	// Color of the widget.
	Color string `json:"color"`
	// Size of the widget, in arbitrary units.
	Size int32 `json:"size,omitempty"`
	// Nickname is optional; a nil Nickname gives no entry in byNickname.
	// +optional
	Nickname *string `json:"nickname,omitempty"`
	// ConfigRef is the name of a ConfigMap in the Widget's namespace that
	// configures it.
	// +optional
	ConfigRef string `json:"configRef,omitempty"`
	// Placement is optional; a nil Placement gives no entry in
	// byPlacementZone.
	// +optional
	Placement *Placement `json:"placement,omitempty"`
	// Containers run the widget; their images are indexed by byImage.
	Containers []WidgetContainer `json:"containers,omitempty"`
	// Tags are free-form key/value pairs.
	// +optional
	Tags map[string]string `json:"tags,omitempty"`
}

// Placement says where a Widget runs.
type Placement struct {
	// Zone is the primary zone.
	Zone string `json:"zone"`
	// AlternateZones are zones the widget may fail over to.
	// +optional
	AlternateZones []string `json:"alternateZones,omitempty"`
}

// WidgetContainer is a container-like part of a Widget.
type WidgetContainer struct {
	// Name of the container, unique within the Widget.
	Name string `json:"name"`
	// Image is the container image reference.
	Image string `json:"image"`
}

// WidgetPhase is the lifecycle phase of a Widget.
type WidgetPhase string

// The phases of a Widget.
const (
	WidgetPending WidgetPhase = "Pending"
	WidgetReady   WidgetPhase = "Ready"
	WidgetFailed  WidgetPhase = "Failed"
)

// WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	// Phase is the current lifecycle phase.
	// +optional
	Phase WidgetPhase `json:"phase,omitempty"`
	// ObservedGeneration is the generation the status reflects.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions are the standard conditions of the Widget.
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Widget `json:"items"`
}

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
// +index(name: byRegion, field: spec.region)
// +index(name: byTier, label: "shop.example.dev/tier")

// Shop is a cluster-scoped example kind: Widgets name their Shop through
// a controlling owner reference (the byShop index of Widget). Its markers
// sit in the comment block before the doc comment, as in k8s.io/api.
type Shop struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ShopSpec   `json:"spec,omitempty"`
	Status ShopStatus `json:"status,omitempty"`
}

// ShopSpec is the desired state of a Shop.
type ShopSpec struct {
	// DisplayName is the human-readable name of the Shop.
	DisplayName string `json:"displayName,omitempty"`
	// Region the Shop serves.
	Region string `json:"region"`
	// Open says whether the Shop takes orders.
	Open bool `json:"open,omitempty"`
}

// ShopStatus is the observed state of a Shop.
type ShopStatus struct {
	// WidgetCount is the number of Widgets the Shop owns.
	// +optional
	WidgetCount int32 `json:"widgetCount,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true

// ShopList is a list of Shops.
type ShopList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Shop `json:"items"`
}
