package store

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/listers"
	"k8s.io/client-go/tools/cache"
)

// Lister reads one resource from a client-go cache.Indexer. It is the base
// that generated listers wrap, one line per method. Over an indexer of this
// package (an informer's GetIndexer, or Indexer.AsIndexer) it reads
// the typed store directly: lookups neither allocate per object nor
// type-assert, and namespace-scoped ones cost in proportion to that
// namespace. Over any other indexer (client-go's cache.NewIndexer, as tests
// build) it behaves as lister-gen's listers do.
//
// Lister values are cheap to copy and safe for concurrent use; the objects
// they return are shared with the store and must not be mutated.
type Lister[T Object] struct {
	store    *Indexer[T] // nil when indexer is not one of ours
	indexer  cache.Indexer
	resource schema.GroupResource
}

// NewLister returns a lister over indexer. resource names the objects in
// NotFound errors.
func NewLister[T Object](indexer cache.Indexer, resource schema.GroupResource) Lister[T] {
	store, _ := StoreOf[T](indexer)
	return Lister[T]{store: store, indexer: indexer, resource: resource}
}

// NewStoreLister returns a lister over a typed store.
func NewStoreLister[T Object](store *Indexer[T], resource schema.GroupResource) Lister[T] {
	return Lister[T]{store: store, indexer: store.AsIndexer(), resource: resource}
}

// List returns the objects, in every namespace, whose labels match selector
// (see Indexer.Select for how label indexes narrow the search).
func (l Lister[T]) List(selector labels.Selector) ([]T, error) {
	if l.store != nil {
		return l.store.Select("", selector), nil
	}
	return listers.New[T](l.indexer, l.resource).List(selector)
}

// Get returns the cluster-scoped object called name, or an apimachinery
// NotFound error for the lister's resource.
func (l Lister[T]) Get(name string) (T, error) {
	return l.get(ObjectName{Name: name})
}

// ByIndex returns the objects, in every namespace, indexed under value.
func (l Lister[T]) ByIndex(indexName, value string) ([]T, error) {
	if l.store != nil {
		return l.store.ByIndex(indexName, value)
	}
	return l.byIndex(indexName, "", value)
}

// VisitByIndex calls yield with each object, in every namespace, indexed
// under value, until yield returns false. Over an indexer of this package it
// visits the typed store's objects without collecting them in a slice and,
// once warmed up, allocates nothing; over any other indexer it lists them
// first, as ByIndex does, and yields nothing when the index is missing.
// Generated listers' EachBy lookups call it.
func (l Lister[T]) VisitByIndex(indexName, value string, yield func(T) bool) {
	l.visit(indexName, "", value, yield)
}

// Namespace returns a lister for the objects of one namespace.
func (l Lister[T]) Namespace(namespace string) NamespaceLister[T] {
	return NamespaceLister[T]{base: l, namespace: namespace}
}

func (l Lister[T]) get(key ObjectName) (T, error) {
	if l.store != nil {
		obj, ok := l.store.Get(key)
		if !ok {
			return obj, errors.NewNotFound(l.resource, key.Name)
		}
		return obj, nil
	}
	var zero T
	item, exists, err := l.indexer.GetByKey(key.String())
	if err != nil {
		return zero, err
	}
	if !exists {
		return zero, errors.NewNotFound(l.resource, key.Name)
	}
	obj, ok := item.(T)
	if !ok {
		return zero, fmt.Errorf("expected %T in the indexer, found %T", zero, item)
	}
	return obj, nil
}

// visit is VisitByIndex in namespace, or in every namespace when it is empty.
func (l Lister[T]) visit(indexName, namespace, value string, yield func(T) bool) {
	if l.store != nil {
		for obj := range l.store.IndexedObjects(indexName, namespace, value) {
			if !yield(obj) {
				return
			}
		}
		return
	}
	// The indexer gets a copy of value: passed through client-go's
	// interface, value itself could not stay on the caller's stack.
	objs, _ := l.byIndex(indexName, namespace, strings.Clone(value))
	for _, obj := range objs {
		if !yield(obj) {
			return
		}
	}
}

// byIndex is ByIndex over a client-go indexer, keeping the objects of
// namespace when it is not empty.
func (l Lister[T]) byIndex(indexName, namespace, value string) ([]T, error) {
	items, err := l.indexer.ByIndex(indexName, value)
	if err != nil {
		return nil, err
	}
	out := make([]T, 0, len(items))
	for _, item := range items {
		obj, ok := item.(T)
		if !ok {
			return nil, fmt.Errorf("expected %T in the indexer, found %T", obj, item)
		}
		if namespace == "" || obj.GetNamespace() == namespace {
			out = append(out, obj)
		}
	}
	return out, nil
}

// NamespaceLister reads the objects of one namespace.
type NamespaceLister[T Object] struct {
	base      Lister[T]
	namespace string
}

// List returns the objects of the namespace whose labels match selector.
func (l NamespaceLister[T]) List(selector labels.Selector) ([]T, error) {
	if l.base.store != nil {
		return l.base.store.Select(l.namespace, selector), nil
	}
	return listers.NewNamespaced(listers.New[T](l.base.indexer, l.base.resource), l.namespace).List(selector)
}

// Get returns the object of the namespace called name, or an apimachinery
// NotFound error for the lister's resource.
func (l NamespaceLister[T]) Get(name string) (T, error) {
	return l.base.get(ObjectName{Namespace: l.namespace, Name: name})
}

// ByIndex returns the objects of the namespace indexed under value.
func (l NamespaceLister[T]) ByIndex(indexName, value string) ([]T, error) {
	if l.base.store != nil {
		return l.base.store.ByIndexInNamespace(indexName, l.namespace, value)
	}
	return l.base.byIndex(indexName, l.namespace, value)
}

// VisitByIndex is Lister.VisitByIndex for the objects of the namespace.
func (l NamespaceLister[T]) VisitByIndex(indexName, value string, yield func(T) bool) {
	l.base.visit(indexName, l.namespace, value, yield)
}
