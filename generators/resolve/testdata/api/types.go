// Package api is a fixture of field-path resolution.
package api

type Phase string

type Priority int32

type Widget struct {
	Meta   `json:",inline"`
	Spec   WidgetSpec    `json:"spec"`
	Status *WidgetStatus `json:"status,omitempty"`
}

type Meta struct {
	Name string `json:"name"`
}

type Extra struct {
	Zone string `json:"zone"`
}

type WidgetSpec struct {
	*Extra     `json:",inline"`
	Color      string            `json:"color"`
	Size       int32             `json:"size"`
	Count      uint16            `json:"count"`
	Enabled    bool              `json:"enabled"`
	Nickname   *string           `json:"nickname,omitempty"`
	Priority   *Priority         `json:"priority,omitempty"`
	Phases     []*Phase          `json:"phases,omitempty"`
	Containers []Container       `json:"containers"`
	Sidecars   []*Container      `json:"sidecars"`
	Tags       []string          `json:"tags"`
	Labels     map[string]string `json:"labels"`
	Ignored    string            `json:"-"`
	Untagged   string
	// Fields that encoding/json omits when zero.
	Rank   int32  `json:"rank,omitempty"`
	Label  string `json:"label,omitempty"`
	Active bool   `json:"active,omitzero"`
	Serial *Stamp `json:"serial,omitempty"`
	Box    Box    `json:"box,omitzero"`
	Bag    Box    `json:"bag,omitempty"`
}

// Stamp has an IsZero method, which omitzero calls.
type Stamp string

func (s Stamp) IsZero() bool { return s == "" || s == "none" }

// Box is a struct that omitzero omits when it is zero.
type Box struct {
	Name  string   `json:"name"`
	Code  string   `json:"code,omitempty"`
	Stamp Stamp    `json:"stamp,omitzero"`
	Items []string `json:"items"`
}

type Container struct {
	Image string `json:"image"`
	Tag   string `json:"tag,omitempty"`
	Ports []Port `json:"ports"`
}

type Port struct {
	Name string `json:"name"`
}

type WidgetStatus struct {
	Phase Phase `json:"phase"`
}
