package v1

import (
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Robot is namespaced.
//
// +genclient
// +index(name: byColor, field: spec.color)
// +index(name: byPart, field: "spec.parts[*].name", ref: Part)
// +index(name: byModeColor, field: "status.mode,spec.color")
// +index(name: byTeam, label: team)
// +index(name: byMaker, annotation: "toys.example.dev/maker")
// +index(name: byBox, owner: Box)
// +index(name: byLength, func: "github.com/informer-gen-plus/informer-gen-plus/generators/testdata/apis/toys/v1.LengthOf")
// +kubebuilder:selectablefield:JSONPath=.spec.color
// +kubebuilder:selectablefield:JSONPath=.spec.length
// +kubebuilder:selectablefield:JSONPath=.status.mode
// +kubebuilder:selectablefield:JSONPath=.status.charge
// +kubebuilder:selectablefield:JSONPath=.status.ready
// +kubebuilder:selectablefield:JSONPath=.status.options
// +index(name: byColorField, selectableField: spec.color)
// +index(name: byLengthField, selectableField: ".spec.length")
// +index(name: byChargeField, selectableField: status.charge)
// +index(name: byReadyField, selectableField: status.ready)
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
	// Serial is unique to each part: interning it would gain nothing.
	// +intern=false
	Serial string `json:"serial,omitempty"`
	// SupplierIP is the same for every part of a supplier.
	// +intern=true
	SupplierIP string `json:"supplierIP,omitempty"`
}

// RobotStatus is the observed state.
type RobotStatus struct {
	Mode   string `json:"mode,omitempty"`
	Charge int32  `json:"charge,omitempty"`
	Ready  bool   `json:"ready,omitempty"`
	// Options is named as the generated selector functions' variable.
	Options string `json:"options,omitempty"`
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

// SensorMode is a named string type, as API enums are.
type SensorMode string

// Priority is a named integer type.
type Priority int32

// Sensor has a field of every kind of leaf an index can use, each indexed:
// the lookups take the leaf's Go type. Its client cannot watch, so it gets a
// lister and no informer.
//
// +genclient
// +genclient:skipVerbs=watch
// +index(name: byModel, field: spec.model)
// +index(name: byMode, field: spec.mode)
// +index(name: byOffset, field: spec.offset)
// +index(name: byReading, field: status.reading)
// +index(name: byChannel, field: spec.channel)
// +index(name: bySerial, field: spec.serial)
// +index(name: byActive, field: spec.active)
// +index(name: byPriority, field: spec.priority)
// +index(name: byAlias, field: spec.alias)
// +index(name: byThreshold, field: spec.threshold)
// +index(name: byCalibrated, field: spec.calibrated)
// +index(name: byFallback, field: spec.fallback)
// +index(name: byTag, field: "spec.tags[*]")
// +index(name: byAllowedMode, field: "spec.allowedModes[*]")
// +index(name: byModeOffset, field: "spec.mode,spec.offset")
// +index(name: byFallbackThreshold, field: "spec.fallback,spec.threshold,spec.active")
// +index(name: bySourceTarget, field: "spec.source.name,spec.target.name")
// +index(name: byRoom, label: "toys.example.dev/room-name")
// +index(name: byVendor, annotation: "toys.example.dev/vendor")
// +index(name: byRobot, owner: Robot)
// +index(name: byZone, func: "github.com/informer-gen-plus/informer-gen-plus/generators/testdata/apis/toys/v1.ZoneOf")
// +index(name: byFloor, func: "github.com/informer-gen-plus/informer-gen-plus/generators/testdata/apis/toys/v1.FloorOf", param: level)
// +index(name: byEnds, field: "spec.source.name,spec.target.name", param: "from, to")
// +kubebuilder:selectablefield:JSONPath=.spec.mode
// +kubebuilder:selectablefield:JSONPath=.spec.offset
// +kubebuilder:selectablefield:JSONPath=.spec.channel
// +kubebuilder:selectablefield:JSONPath=.spec.active
// +kubebuilder:selectablefield:JSONPath=.spec.priority
// +kubebuilder:selectablefield:JSONPath=.spec.calibrated
// +kubebuilder:selectablefield:JSONPath=.spec.fallback
// +kubebuilder:selectablefield:JSONPath=.spec.source.name
// +index(name: byModeField, selectableField: spec.mode)
// +index(name: byPriorityField, selectableField: spec.priority, param: level)
// +index(name: byCalibratedField, selectableField: spec.calibrated)
// +index(name: bySourceField, selectableField: ".spec.source.name")
type Sensor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              SensorSpec   `json:"spec"`
	Status            SensorStatus `json:"status"`
}

// SensorSpec is the desired state.
type SensorSpec struct {
	Model        string       `json:"model"`
	Mode         SensorMode   `json:"mode"`
	Offset       int32        `json:"offset"`
	Channel      uint8        `json:"channel"`
	Serial       uint64       `json:"serial"`
	Active       bool         `json:"active"`
	Priority     Priority     `json:"priority"`
	Alias        *string      `json:"alias"`
	Threshold    *int64       `json:"threshold"`
	Calibrated   *bool        `json:"calibrated"`
	Fallback     *SensorMode  `json:"fallback"`
	Tags         []string     `json:"tags"`
	AllowedModes []SensorMode `json:"allowedModes"`
	Source       Endpoint     `json:"source"`
	Target       Endpoint     `json:"target"`
}

// Endpoint names one end of a Sensor's link.
type Endpoint struct {
	Name string `json:"name"`
}

// SensorStatus is the observed state.
type SensorStatus struct {
	Reading int64 `json:"reading"`
}

// SensorList is a list of sensors.
type SensorList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Sensor `json:"items"`
}

// ZoneOf indexes sensors by the zone part of their model ("zone/model").
func ZoneOf(s *Sensor) []string {
	if zone, _, ok := strings.Cut(s.Spec.Model, "/"); ok {
		return []string{zone}
	}
	return nil
}

// FloorOf indexes sensors by their "floor" label.
func FloorOf(s *Sensor) []string {
	if floor, ok := s.Labels["floor"]; ok {
		return []string{floor}
	}
	return nil
}
