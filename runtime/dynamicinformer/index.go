package dynamicinformer

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// compile returns the index function of a valid field, annotation or owner
// spec (label specs become the store's label indexes). The functions read
// the object's map without copying it or any part of it, never fail, and
// give objects whose fields are absent, null or of another type no value.
func compile(spec fieldpath.IndexSpec) (cache.IndexFunc[*unstructured.Unstructured], error) {
	switch spec.Source() {
	case fieldpath.IndexByField:
		return compileField(spec.Field), nil
	case fieldpath.IndexByAnnotation:
		return annotationIndex(spec.Annotation), nil
	case fieldpath.IndexByOwner:
		return ownerIndex(spec.Owner), nil
	}
	return nil, fmt.Errorf("index spec %s cannot be compiled into an index function", spec)
}

// annotationIndex returns the index function of the value of annotation
// key, for objects that have it.
func annotationIndex(key string) cache.IndexFunc[*unstructured.Unstructured] {
	return func(u *unstructured.Unstructured) []string {
		meta, _ := u.Object["metadata"].(map[string]any)
		annotations, _ := meta["annotations"].(map[string]any)
		if v, ok := annotations[key].(string); ok {
			return []string{v}
		}
		return nil
	}
}

// ownerIndex returns the index function of the name of the controlling
// owner of kind owner, as runtime/cache.ControllerOf defines it. Objects
// whose owner references cannot name such a controller are ruled out on
// the map first: ControllerOf reads the references through
// Unstructured.GetOwnerReferences, which copies them.
func ownerIndex(owner schema.GroupKind) cache.IndexFunc[*unstructured.Unstructured] {
	return func(u *unstructured.Unstructured) []string {
		if !mayBeControlledBy(u.Object, owner.Kind) {
			return nil
		}
		if name, ok := cache.ControllerOf(u, owner); ok {
			return []string{name}
		}
		return nil
	}
}

// mayBeControlledBy reports whether obj has an owner reference with
// controller: true and kind kind: a condition that ControllerOf's answer
// for a controller of that kind implies.
func mayBeControlledBy(obj map[string]any, kind string) bool {
	meta, _ := obj["metadata"].(map[string]any)
	refs, _ := meta["ownerReferences"].([]any)
	for _, r := range refs {
		ref, _ := r.(map[string]any)
		if controller, _ := ref["controller"].(bool); controller && ref["kind"] == kind {
			return true
		}
	}
	return false
}
