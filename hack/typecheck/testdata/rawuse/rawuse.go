// Package rawuse reads metav1.FieldsV1's Raw field, which apimachinery's
// fieldsv1string build does not have.
package rawuse

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Size is the length of f's encoding.
func Size(f metav1.FieldsV1) int { return len(f.Raw) }
