package store

import (
	"fmt"
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
)

// indexerView is client-go's cache.TypedIndexer[T] over a Indexer:
// the same objects and indexes, reached through client-go's untyped
// interface. It holds no state of its own.
//
// cache.NamespaceIndex is built in: it is answered from the store's grouping
// of objects by namespace, which costs no memory, unless an index of that name
// has been added explicitly. Registering cache.MetaNamespaceIndexFunc under
// that name (as informer-gen's informers do) is accepted and changes nothing.
type indexerView[T Object] struct {
	store *Indexer[T]
}

var _ cache.TypedIndexer[*metav1.PartialObjectMetadata] = (*indexerView[*metav1.PartialObjectMetadata])(nil)

// AsIndexer returns a client-go cache.TypedIndexer (and so cache.Indexer and
// cache.Store) over the store. Writes through it write the store; objects of
// another type than T are refused with an error. StoreOf recovers the store.
func (s *Indexer[T]) AsIndexer() cache.TypedIndexer[T] { return &indexerView[T]{store: s} }

// StoreOf returns the typed store behind a client-go store returned by an
// informer of this package (GetIndexer, GetStore, GetTypedIndexer) or by
// Indexer.AsIndexer, and false for any other store, such as one
// client-go's cache.NewIndexer made.
func StoreOf[T Object](store cache.Store) (*Indexer[T], bool) {
	if v, ok := store.(*indexerView[T]); ok {
		return v.store, true
	}
	return nil, false
}

// objectName is the key of obj as the key function of client-go's informer
// indexers (cache.DeletionHandlingMetaNamespaceKeyFunc) computes it: obj may
// also be a cache.DeletedFinalStateUnknown or a cache.ExplicitKey.
func objectName(obj any) (ObjectName, error) {
	if key, ok := obj.(cache.ExplicitKey); ok {
		return cache.ParseObjectName(string(key))
	}
	return cache.DeletionHandlingObjectToName(obj)
}

func (v *indexerView[T]) object(obj any) (T, error) {
	t, ok := obj.(T)
	var zero T
	if !ok || t == zero {
		return zero, fmt.Errorf("expected %T, got %T", zero, obj)
	}
	return t, nil
}

// Add stores obj, replacing any object of the same key.
func (v *indexerView[T]) Add(obj any) error { return v.Update(obj) }

// Update stores obj, replacing any object of the same key.
func (v *indexerView[T]) Update(obj any) error {
	t, err := v.object(obj)
	if err != nil {
		return err
	}
	v.store.Upsert(t)
	return nil
}

// Delete removes the object with obj's key; obj may be a
// cache.DeletedFinalStateUnknown or a cache.ExplicitKey.
func (v *indexerView[T]) Delete(obj any) error {
	key, err := objectName(obj)
	if err != nil {
		return err
	}
	v.store.Remove(key)
	if t, ok := obj.(T); ok {
		v.store.noteResourceVersion(t.GetResourceVersion())
	}
	return nil
}

// List returns every stored object.
func (v *indexerView[T]) List() []any { return toAny(v.store.List()) }

// ListKeys returns the client-go key of every stored object.
func (v *indexerView[T]) ListKeys() []string {
	keys := v.store.ListKeys()
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.String()
	}
	return out
}

// Get returns the object stored under obj's key.
func (v *indexerView[T]) Get(obj any) (any, bool, error) {
	key, err := objectName(obj)
	if err != nil {
		return nil, false, err
	}
	if t, ok := v.store.Get(key); ok {
		return t, true, nil
	}
	return nil, false, nil
}

// GetByKey returns the object stored under a client-go key.
func (v *indexerView[T]) GetByKey(key string) (any, bool, error) {
	t, ok, err := v.store.GetByKey(key)
	if err != nil || !ok {
		return nil, false, err
	}
	return t, true, nil
}

// Replace replaces the whole content of the store; when an object is not a T,
// nothing is replaced.
func (v *indexerView[T]) Replace(list []any, resourceVersion string) error {
	objs := make([]T, len(list))
	for i, obj := range list {
		t, err := v.object(obj)
		if err != nil {
			return err
		}
		objs[i] = t
	}
	v.store.Replace(objs)
	v.store.noteResourceVersion(resourceVersion)
	return nil
}

// Resync does nothing: a store has no one to tell.
func (v *indexerView[T]) Resync() error { return nil }

// LastStoreSyncResourceVersion returns the resourceVersion of the last object
// written or deleted, or of the last Replace or Bookmark made through this
// view. An informer's store does not record the resourceVersion of a list or
// a watch bookmark: it follows the objects the informer has processed.
func (v *indexerView[T]) LastStoreSyncResourceVersion() string { return v.store.resourceVersion() }

// Bookmark records resourceVersion as the store's.
func (v *indexerView[T]) Bookmark(resourceVersion string) {
	v.store.noteResourceVersion(resourceVersion)
}

// builtinNamespace reports whether indexName is answered from the store's
// namespaces.
func (v *indexerView[T]) builtinNamespace(indexName string) bool {
	return indexName == cache.NamespaceIndex && !v.store.hasIndex(indexName)
}

// Index returns the objects sharing a value of the index with obj.
func (v *indexerView[T]) Index(indexName string, obj any) ([]any, error) {
	if _, isT := obj.(T); !isT && v.builtinNamespace(indexName) {
		// client-go's listers (cache.ListAllByNamespace) ask the namespace
		// index with a *metav1.ObjectMeta that holds only the namespace.
		if m, err := meta.Accessor(obj); err == nil {
			return toAny(v.store.ListNamespace(m.GetNamespace())), nil
		}
	}
	t, err := v.object(obj)
	if err != nil {
		return nil, err
	}
	objs, err := v.TypedIndex(indexName, t)
	return toAny(objs), err
}

// IndexKeys returns the sorted keys of the objects indexed under value.
func (v *indexerView[T]) IndexKeys(indexName, value string) ([]string, error) {
	var keys []ObjectName
	if v.builtinNamespace(indexName) {
		for _, obj := range v.store.ListNamespace(value) {
			keys = append(keys, KeyOf(obj))
		}
		slices.SortFunc(keys, compareNames)
	} else {
		var err error
		if keys, err = v.store.IndexKeys(indexName, value); err != nil {
			return nil, err
		}
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.String()
	}
	return out, nil
}

// ListIndexFuncValues returns every value of the index that has objects.
func (v *indexerView[T]) ListIndexFuncValues(indexName string) []string {
	if v.builtinNamespace(indexName) {
		return v.store.namespaceNames()
	}
	return v.store.ListIndexFuncValues(indexName)
}

// ByIndex returns the objects indexed under value.
func (v *indexerView[T]) ByIndex(indexName, value string) ([]any, error) {
	objs, err := v.ByTypedIndex(indexName, value)
	return toAny(objs), err
}

// GetIndexers returns the store's indexes as client-go index functions, the
// built-in namespace index included.
func (v *indexerView[T]) GetIndexers() cache.Indexers {
	out := cache.Indexers{}
	for name, fn := range v.store.indexFuncs() {
		out[name] = untypedIndexFunc(fn)
	}
	if _, ok := out[cache.NamespaceIndex]; !ok {
		out[cache.NamespaceIndex] = cache.MetaNamespaceIndexFunc
	}
	return out
}

// AddIndexers adds client-go index functions; see
// SharedIndexInformer.AddIndexers for errors they return.
func (v *indexerView[T]) AddIndexers(indexers cache.Indexers) error {
	typed := make(Indexers[T], len(indexers))
	for name, fn := range indexers {
		if fn == nil {
			return fmt.Errorf("index %q has no index function", name)
		}
		if name == cache.NamespaceIndex && sameFunc(fn, cache.MetaNamespaceIndexFunc) {
			continue // built in
		}
		typed[name] = typedIndexFunc[T](name, fn)
	}
	return v.store.AddIndexers(typed)
}

// TypedIndex returns the objects sharing a value of the index with obj.
func (v *indexerView[T]) TypedIndex(indexName string, obj T) ([]T, error) {
	if v.builtinNamespace(indexName) {
		return v.store.ListNamespace(obj.GetNamespace()), nil
	}
	return v.store.Index(indexName, obj)
}

// ByTypedIndex returns the objects indexed under value.
func (v *indexerView[T]) ByTypedIndex(indexName, value string) ([]T, error) {
	if v.builtinNamespace(indexName) {
		return v.store.ListNamespace(value), nil
	}
	return v.store.ByIndex(indexName, value)
}

// AddTypedIndexers adds index functions typed for T.
func (v *indexerView[T]) AddTypedIndexers(indexers cache.TypedIndexers[T]) error {
	typed := make(Indexers[T], len(indexers))
	for name, fn := range indexers {
		if fn == nil {
			return fmt.Errorf("index %q has no index function", name)
		}
		typed[name] = func(obj T) []string {
			values, err := fn(obj)
			return indexValues(name, obj, values, err)
		}
	}
	return v.store.AddIndexers(typed)
}

// typedIndexFunc adapts a client-go index function of index name to the
// store's.
func typedIndexFunc[T Object](name string, fn cache.IndexFunc) IndexFunc[T] {
	return func(obj T) []string {
		values, err := fn(obj)
		return indexValues(name, obj, values, err)
	}
}

// indexValues returns what an index function that can fail returned for obj.
// client-go's store panics on an index function's error; here the error is
// reported through utilruntime.HandleError and the object gets no value in
// that index, so a bad index function cannot take the informer down or lose
// the object.
func indexValues[T Object](name string, obj T, values []string, err error) []string {
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("unable to calculate an index entry for key %q on index %q: %w", KeyOf(obj).String(), name, err))
		return nil
	}
	return values
}

// untypedIndexFunc adapts a store index function to client-go's.
func untypedIndexFunc[T Object](fn IndexFunc[T]) cache.IndexFunc {
	return func(obj any) ([]string, error) {
		t, ok := obj.(T)
		if !ok {
			return nil, fmt.Errorf("expected %T, got %T", t, obj)
		}
		return fn(t), nil
	}
}

// sameFunc reports whether a and b are the same function.
func sameFunc(a, b cache.IndexFunc) bool {
	return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer()
}

func toAny[T any](objs []T) []any {
	if objs == nil {
		return nil
	}
	out := make([]any, len(objs))
	for i, obj := range objs {
		out[i] = obj
	}
	return out
}
