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
}

type Container struct {
	Image string `json:"image"`
	Ports []Port `json:"ports"`
}

type Port struct {
	Name string `json:"name"`
}

type WidgetStatus struct {
	Phase Phase `json:"phase"`
}
