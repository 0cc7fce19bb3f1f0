package store

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
)

// Object is the constraint on the type parameter T of every type in this
// package: a pointer to a Kubernetes API object, such as *corev1.Pod.
type Object interface {
	comparable
	metav1.Object
	runtime.Object
}

// ObjectName is the key of an object in a store or queue: its namespace
// (empty for cluster-scoped objects) and its name. It is client-go's
// cache.ObjectName, so keys convert to and from client-go's string keys with
// ObjectName.String and cache.ParseObjectName.
type ObjectName = cache.ObjectName

// KeyOf returns the key of obj. It builds no string.
func KeyOf[T Object](obj T) ObjectName {
	return ObjectName{Namespace: obj.GetNamespace(), Name: obj.GetName()}
}
