package cache

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ControllerOf returns the name of obj's controlling owner when that owner is
// of kind owner: the owner reference with controller: true names owner.Kind,
// and the group of its apiVersion (as schema.ParseGroupVersion reads it, in
// any version) is owner.Group. The core group is the empty group: "v1" is its
// apiVersion. ok is false when obj has no controlling owner, when the
// controller is of another kind or group, and when its apiVersion does not
// parse.
//
// It is the one definition of "controlled by a K" in this module: the index
// functions generated for +index(owner: ...) markers and the controller's
// WatchOwned and MapToControllerOwner both call it, so that an object an owner
// index files under an owner is also an object whose changes reach that
// owner's controller, and the other way round. It reads obj without copying
// it and allocates nothing.
func ControllerOf(obj metav1.Object, owner schema.GroupKind) (name string, ok bool) {
	ref := metav1.GetControllerOfNoCopy(obj)
	if ref == nil || ref.Kind != owner.Kind {
		return "", false
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil || gv.Group != owner.Group {
		return "", false
	}
	return ref.Name, true
}
