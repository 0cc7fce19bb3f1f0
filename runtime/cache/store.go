package cache

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/store"
)

// Object is the constraint on the type parameter T of every type in this
// package: a pointer to a Kubernetes API object, such as *corev1.Pod.
type Object = store.Object

// ObjectName is the key of an object in a store or queue: its namespace
// (empty for cluster-scoped objects) and its name. It is client-go's
// cache.ObjectName, so keys convert to and from client-go's string keys with
// ObjectName.String and cache.ParseObjectName.
type ObjectName = cache.ObjectName

// KeyOf returns the key of obj. It builds no string.
func KeyOf[T Object](obj T) ObjectName { return store.KeyOf(obj) }

// Indexer is the typed, indexed object store an informer keeps
// (SharedIndexInformer.TypedStore) and listers read: the counterpart of what
// client-go's cache.NewIndexer returns. It is safe for concurrent use; every
// write (Add, Update, Upsert, Delete, Remove, Replace, adding an index) is
// atomic with the index updates it causes. The zero value is not usable;
// call NewIndexer.
//
// Objects returned by any method are the stored pointers, shared with every
// other reader: callers must not mutate them (client-go's contract).
// Lookups by key, by index value and by namespace read only what they return:
// a namespace-scoped lookup (ByIndexInNamespace, ListNamespace, Select with a
// namespace) costs in proportion to the matches in that namespace, and
// IndexedObjects visits matches without allocating. AsIndexer gives the same
// store as client-go's cache.Indexer.
type Indexer[T Object] = store.Indexer[T]

// NewIndexer returns an empty store with the given indexes. An index without
// a function is an error.
func NewIndexer[T Object](indexers Indexers[T]) (*Indexer[T], error) {
	return store.NewIndexer(indexers)
}

// IndexFunc computes the values under which obj is indexed: client-go's
// cache.TypedIndexFunc without the error. It is called with the store's write
// lock held, must be deterministic, must not mutate obj and must not call back
// into the store. A panic is reported through utilruntime.HandleError and obj
// then gets no value in that index. It may return no value (obj is not
// indexed) or the same value more than once (obj is then listed once under
// that value).
//
// Write index functions by hand in this form; generated code uses the append
// form (AppendIndexFunc), which computes an object's values without
// allocating. Both kinds of index answer the same lookups.
type IndexFunc[T any] = store.IndexFunc[T]

// Indexers maps index names to index functions.
type Indexers[T any] = store.Indexers[T]

// AppendIndexFunc is the append form of IndexFunc, the one generated index
// functions have: it appends the values under which obj is indexed to dst
// and returns the extended slice, as append does. The store calls it with a
// dst it owns and reuses from one object to the next, so the function must
// not keep dst or the slice it returns, only the strings in it. Otherwise it
// is an IndexFunc, with the same rules.
type AppendIndexFunc[T any] = store.AppendIndexFunc[T]

// AppendIndexers maps index names to append-form index functions.
type AppendIndexers[T any] = store.AppendIndexers[T]

// AddAppendIndexes adds append-form index functions and label indexes (index
// name to label key) to indexer: directly to the typed store when indexer is
// one of this package's views (an informer's GetIndexer, Indexer.AsIndexer),
// and as client-go index functions (AppendToIndexers) to any other. A name
// already in use, or a label index with an empty key, is an error, and then
// nothing is added. Generated AddKindIndexes functions call it.
func AddAppendIndexes[T Object](indexer cache.Indexer, funcs AppendIndexers[T], labelIndexes map[string]string) error {
	return store.AddAppendIndexes(indexer, funcs, labelIndexes)
}

// AppendToIndexers returns append-form index functions and label indexes
// (index name to label key) as client-go index functions that index the same
// values, for a client-go indexer (cache.NewIndexer). Each function refuses
// an object that is not a T with an error.
func AppendToIndexers[T Object](funcs AppendIndexers[T], labelIndexes map[string]string) cache.Indexers {
	return store.AppendToIndexers(funcs, labelIndexes)
}

// Lister reads one resource from a client-go cache.Indexer. It is the base
// that generated listers wrap, one line per method. Over an indexer of this
// package (an informer's GetIndexer, or Indexer.AsIndexer) it reads the typed
// store directly: lookups neither allocate per object nor type-assert, and
// namespace-scoped ones cost in proportion to that namespace. Over any other
// indexer (client-go's cache.NewIndexer, as tests build) it behaves as
// lister-gen's listers do.
//
// Lister values are cheap to copy and safe for concurrent use; the objects
// they return are shared with the store and must not be mutated.
type Lister[T Object] = store.Lister[T]

// NamespaceLister is a Lister narrowed to one namespace, as lister-gen's
// namespace listers are.
type NamespaceLister[T Object] = store.NamespaceLister[T]

// NewLister returns a lister over indexer. resource names the objects in
// NotFound errors.
func NewLister[T Object](indexer cache.Indexer, resource schema.GroupResource) Lister[T] {
	return store.NewLister[T](indexer, resource)
}

// NewStoreLister returns a lister over a typed store.
func NewStoreLister[T Object](indexer *Indexer[T], resource schema.GroupResource) Lister[T] {
	return store.NewStoreLister(indexer, resource)
}
