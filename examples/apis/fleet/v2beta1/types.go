package v2beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// FleetLabel is the label naming the fleet a Vehicle belongs to.
const FleetLabel = "fleet.example.dev/fleet"

// Vehicle is the v2beta1 Vehicle: several drivers instead of one, and an
// optional electric flag.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +index(name: byDepot, owner: Depot)
// +index(name: byNode, field: status.nodeName)
// +index(name: byPhaseNode, field: "status.phase,status.nodeName")
// +index(name: byAutonomous, field: spec.autonomous)
// +index(name: byElectric, field: spec.electric)
// +index(name: byDriver, field: "spec.drivers[*].name")
// +index(name: byFleet, label: "fleet.example.dev/fleet")
type Vehicle struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   VehicleSpec   `json:"spec,omitempty"`
	Status VehicleStatus `json:"status,omitempty"`
}

// VehicleSpec is the desired state of a Vehicle.
type VehicleSpec struct {
	// Model of the vehicle.
	Model string `json:"model"`
	// Autonomous says whether the vehicle drives itself.
	Autonomous bool `json:"autonomous"`
	// Electric is optional; nil gives no entry in byElectric.
	// +optional
	Electric *bool `json:"electric,omitempty"`
	// Drivers are the drivers allowed to drive the vehicle.
	// +optional
	Drivers []DriverRef `json:"drivers,omitempty"`
}

// DriverRef names a driver.
type DriverRef struct {
	// Name of the driver.
	Name string `json:"name"`
}

// VehiclePhase is the lifecycle phase of a Vehicle.
type VehiclePhase string

// VehicleStatus is the observed state of a Vehicle.
type VehicleStatus struct {
	// Phase is the current lifecycle phase.
	// +optional
	Phase VehiclePhase `json:"phase,omitempty"`
	// NodeName is the node the vehicle is bound to.
	// +optional
	NodeName string `json:"nodeName,omitempty"`
	// HostIP is the address of that node.
	// +optional
	HostIP string `json:"hostIP,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true

// VehicleList is a list of Vehicles.
type VehicleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Vehicle `json:"items"`
}

// Depot is a cluster-scoped example kind that owns Vehicles; in v2beta1 its
// region moved under an optional location (a path through a pointer).
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster
// +index(name: byRegion, field: spec.location.region)
type Depot struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec DepotSpec `json:"spec,omitempty"`
}

// DepotSpec is the desired state of a Depot.
type DepotSpec struct {
	// Location of the depot; nil gives no entry in byRegion.
	// +optional
	Location *Location `json:"location,omitempty"`
	// Capacity is the number of vehicles the depot holds.
	Capacity int32 `json:"capacity,omitempty"`
}

// Location is where a Depot is.
type Location struct {
	// Region of the location.
	Region string `json:"region"`
	// Address of the location.
	// +optional
	Address string `json:"address,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true

// DepotList is a list of Depots.
type DepotList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Depot `json:"items"`
}

// Beacon is a kind with a client but no verbs (+genclient:noVerbs), like a
// subresource-only type: client-gen writes a client without methods, and
// informer-gen (and so informer-gen-plus) writes no informer for it.
//
// +genclient
// +genclient:noVerbs
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type Beacon struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Signal strength, in dBm.
	Signal int32 `json:"signal,omitempty"`
}
