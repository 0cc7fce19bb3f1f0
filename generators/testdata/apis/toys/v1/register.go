package v1

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// SchemeGroupVersion is the group version of these types.
var SchemeGroupVersion = schema.GroupVersion{Group: "toys.example.dev", Version: "v1"}

// Resource qualifies a resource name with the group.
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

// DeepCopyObject copies a Robot (shallowly: enough for the golden test).
func (r *Robot) DeepCopyObject() runtime.Object { c := *r; return &c }

// DeepCopyObject copies a Box (shallowly: enough for the golden test).
func (b *Box) DeepCopyObject() runtime.Object { c := *b; return &c }

// DeepCopyObject copies a Crate (shallowly: enough for the golden test).
func (c *Crate) DeepCopyObject() runtime.Object { d := *c; return &d }

// DeepCopyObject copies a RobotList (shallowly: enough for the golden test).
func (l *RobotList) DeepCopyObject() runtime.Object { c := *l; return &c }

// DeepCopyObject copies a BoxList (shallowly: enough for the golden test).
func (l *BoxList) DeepCopyObject() runtime.Object { c := *l; return &c }

// DeepCopyObject copies a Sensor (shallowly: enough for the golden test).
func (s *Sensor) DeepCopyObject() runtime.Object { c := *s; return &c }
