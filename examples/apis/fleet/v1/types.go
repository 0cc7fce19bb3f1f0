package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// FleetLabel is the label naming the fleet a Vehicle belongs to.
const FleetLabel = "fleet.example.dev/fleet"

// Vehicle is a namespaced example kind, owned by a Depot through a
// controlling owner reference and scheduled onto a node like a Pod.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
// +index(name: byDepot, owner: Depot)
// +index(name: byNode, field: status.nodeName)
// +index(name: byPhaseNode, field: "status.phase,status.nodeName")
// +index(name: byAutonomous, field: spec.autonomous)
// +index(name: byFleet, label: "fleet.example.dev/fleet")
// +index(name: byDriver, field: spec.driver.name)
// +index(name: byCapacity, field: spec.capacity)
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
	// LicensePlate of the vehicle.
	LicensePlate string `json:"licensePlate,omitempty"`
	// Autonomous says whether the vehicle drives itself.
	Autonomous bool `json:"autonomous"`
	// Capacity is the number of seats.
	Capacity int32 `json:"capacity,omitempty"`
	// Driver is the assigned driver; nil for none (no entry in byDriver).
	// +optional
	Driver *DriverRef `json:"driver,omitempty"`
}

// DriverRef names a driver.
type DriverRef struct {
	// Name of the driver.
	Name string `json:"name"`
}

// VehiclePhase is the lifecycle phase of a Vehicle.
type VehiclePhase string

// The phases of a Vehicle.
const (
	VehicleIdle        VehiclePhase = "Idle"
	VehicleDriving     VehiclePhase = "Driving"
	VehicleMaintenance VehiclePhase = "Maintenance"
)

// VehicleStatus is the observed state of a Vehicle.
type VehicleStatus struct {
	// Phase is the current lifecycle phase.
	// +optional
	Phase VehiclePhase `json:"phase,omitempty"`
	// NodeName is the node the vehicle is bound to, as a Pod's
	// spec.nodeName.
	// +optional
	NodeName string `json:"nodeName,omitempty"`
	// HostIP is the address of that node.
	// +optional
	HostIP string `json:"hostIP,omitempty"`
	// Odometer in kilometres.
	// +optional
	Odometer int64 `json:"odometer,omitempty"`
	// LastSeen is when the vehicle last reported.
	// +optional
	LastSeen *metav1.Time `json:"lastSeen,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true

// VehicleList is a list of Vehicles.
type VehicleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Vehicle `json:"items"`
}

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster
// +kubebuilder:storageversion
// +index(name: byRegion, field: spec.region)

// Depot is a cluster-scoped example kind that owns Vehicles. Its markers
// sit in the comment block before the doc comment, as in k8s.io/api.
type Depot struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec DepotSpec `json:"spec,omitempty"`
}

// DepotSpec is the desired state of a Depot.
type DepotSpec struct {
	// Region the depot is in.
	Region string `json:"region"`
	// Capacity is the number of vehicles the depot holds.
	Capacity int32 `json:"capacity,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true

// DepotList is a list of Depots.
type DepotList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Depot `json:"items"`
}

// Trip is a namespaced kind whose client cannot watch
// (+genclient:skipVerbs=watch): client-gen writes a client without Watch,
// and informer-gen (and so informer-gen-plus) writes no informer for it.
//
// +genclient
// +genclient:skipVerbs=watch
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type Trip struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec TripSpec `json:"spec,omitempty"`
}

// TripSpec describes a Trip.
type TripSpec struct {
	// VehicleName is the Vehicle (same namespace) that made the trip.
	VehicleName string `json:"vehicleName"`
	// DistanceKm is the length of the trip.
	DistanceKm int32 `json:"distanceKm,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true

// TripList is a list of Trips.
type TripList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Trip `json:"items"`
}

// Route is a namespaced kind with a full client but opted out of listers
// (+k8s:lister-gen=false): informer-gen-plus writes no lister for it, and
// so no informer or controller, which are built on the lister.
//
// +genclient
// +k8s:lister-gen=false
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
type Route struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec RouteSpec `json:"spec,omitempty"`
}

// RouteSpec describes a Route.
type RouteSpec struct {
	// Stops are the depots the route visits, in order.
	Stops []string `json:"stops,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true

// RouteList is a list of Routes.
type RouteList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Route `json:"items"`
}
