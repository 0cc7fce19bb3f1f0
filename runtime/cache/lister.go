package cache

import (
	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Lister reads one resource from an Indexer. It is the base that generated
// listers wrap, one line per method. Lister values are cheap to copy and safe
// for concurrent use; the objects they return are shared with the store and
// must not be mutated.
type Lister[T Object] struct {
	indexer  Indexer[T]
	resource schema.GroupResource
}

// NewLister returns a lister over indexer. resource names the objects in
// NotFound errors.
func NewLister[T Object](indexer Indexer[T], resource schema.GroupResource) Lister[T] {
	return Lister[T]{indexer: indexer, resource: resource}
}

// List returns the objects, in every namespace, whose labels match selector
// (see Indexer.Select for how label indexes narrow the search).
func (l Lister[T]) List(selector labels.Selector) ([]T, error) {
	return l.indexer.Select("", selector), nil
}

// Get returns the cluster-scoped object called name, or an apimachinery
// NotFound error for the lister's resource.
func (l Lister[T]) Get(name string) (T, error) {
	return get(l.indexer, l.resource, ObjectName{Name: name})
}

// ByIndex returns the objects, in every namespace, indexed under value.
func (l Lister[T]) ByIndex(indexName, value string) ([]T, error) {
	return l.indexer.ByIndex(indexName, value)
}

// Namespace returns a lister for the objects of one namespace.
func (l Lister[T]) Namespace(namespace string) NamespaceLister[T] {
	return NamespaceLister[T]{indexer: l.indexer, resource: l.resource, namespace: namespace}
}

// NamespaceLister reads the objects of one namespace from an Indexer. Its
// lookups cost in proportion to the objects of that namespace, not of the
// whole store.
type NamespaceLister[T Object] struct {
	indexer   Indexer[T]
	resource  schema.GroupResource
	namespace string
}

// List returns the objects of the namespace whose labels match selector.
func (l NamespaceLister[T]) List(selector labels.Selector) ([]T, error) {
	return l.indexer.Select(l.namespace, selector), nil
}

// Get returns the object of the namespace called name, or an apimachinery
// NotFound error for the lister's resource.
func (l NamespaceLister[T]) Get(name string) (T, error) {
	return get(l.indexer, l.resource, ObjectName{Namespace: l.namespace, Name: name})
}

// ByIndex returns the objects of the namespace indexed under value.
func (l NamespaceLister[T]) ByIndex(indexName, value string) ([]T, error) {
	return l.indexer.ByIndexInNamespace(indexName, l.namespace, value)
}

func get[T Object](indexer Indexer[T], resource schema.GroupResource, key ObjectName) (T, error) {
	obj, ok := indexer.Get(key)
	if !ok {
		return obj, errors.NewNotFound(resource, key.Name)
	}
	return obj, nil
}
