package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is also a kind of group a.example.dev.
//
// +genclient
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}
