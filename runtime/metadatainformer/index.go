package metadatainformer

import (
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// errFieldIndex refuses field specs: a metadata informer has no fields
// beyond the metadata to index.
var errFieldIndex = errors.New("a metadata informer holds only the objects' metadata, so it has no field to index; " +
	"index by label, annotation or owner, or use a dynamic informer (runtime/dynamicinformer) for field indexes")

// compile returns the index function of a valid annotation or owner spec
// (label specs become the store's label indexes); field specs are refused.
// The functions read the object without copying it, never fail, and give
// objects without the annotation or controller no value.
func compile(spec fieldpath.IndexSpec) (cache.IndexFunc[*metav1.PartialObjectMetadata], error) {
	switch spec.Source() {
	case fieldpath.IndexByField:
		return nil, errFieldIndex
	case fieldpath.IndexByAnnotation:
		key := spec.Annotation
		return func(m *metav1.PartialObjectMetadata) []string {
			if v, ok := m.Annotations[key]; ok {
				return []string{v}
			}
			return nil
		}, nil
	case fieldpath.IndexByOwner:
		return ownerIndex(spec.Owner), nil
	}
	return nil, fmt.Errorf("index spec %s cannot be compiled into an index function", spec)
}

// ownerIndex returns the index function of the name of the controlling
// owner of kind owner, as runtime/cache.ControllerOf defines it.
func ownerIndex(owner schema.GroupKind) cache.IndexFunc[*metav1.PartialObjectMetadata] {
	return func(m *metav1.PartialObjectMetadata) []string {
		if name, ok := cache.ControllerOf(m, owner); ok {
			return []string{name}
		}
		return nil
	}
}
