package wire

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Object is an API object the runtime decodes: a pointer to an API type
// with object metadata, such as *corev1.Pod.
type Object interface {
	comparable
	metav1.Object
	runtime.Object
}

// ItemList is the list a LIST of NewList returns when the runtime decoded
// the response itself: the list's metadata and its items, each decoded into
// its own object. client-go's reflector reads it as any list
// (meta.ListAccessor, meta.ExtractList); because its items are pointers, it
// takes them as they are instead of copying each out of the list.
type ItemList[T Object] struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []T `json:"items"`
}

// DeepCopyObject returns a deep copy of the list and of every item.
func (l *ItemList[T]) DeepCopyObject() runtime.Object {
	if l == nil {
		return nil
	}
	out := &ItemList[T]{TypeMeta: l.TypeMeta}
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	if l.Items != nil {
		out.Items = make([]T, len(l.Items))
		for i, item := range l.Items {
			var zero T
			if item != zero {
				out.Items[i] = item.DeepCopyObject().(T)
			}
		}
	}
	return out
}

// protobufUnmarshaler is what the API types' generated protobuf code
// implements.
type protobufUnmarshaler interface {
	Unmarshal([]byte) error
}

// newObjectFunc returns a function that makes a new zero T, and whether T
// decodes itself from protobuf (the API types' generated Unmarshal); nil
// when T is not a pointer to a named struct, which no decoder fills.
func newObjectFunc[T Object]() (func() T, bool) {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct || t.Elem().Name() == "" {
		return nil, false
	}
	elem := t.Elem()
	newObj := func() T { return reflect.New(elem).Interface().(T) }
	_, ok := any(newObj()).(protobufUnmarshaler)
	return newObj, ok
}
