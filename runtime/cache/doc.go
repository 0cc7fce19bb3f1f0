// Package cache is the typed data path shared by every informer that
// informer-gen-plus generates: the shared informer (SharedIndexInformer), a
// thread-safe, indexed object store (Indexer), the queue that feeds it
// (DeltaFIFO) and the lister base that generated listers wrap (Lister,
// NamespaceLister).
//
// SharedIndexInformer implements client-go's cache.SharedIndexInformer and
// cache.TypedSharedIndexInformer[T]: handlers are client-go's (untyped
// cache.ResourceEventHandler, typed cache.TypedResourceEventHandler[T]),
// GetIndexer and GetStore are client-go views of the typed store
// (Indexer.AsIndexer), and code written for client-go's informers
// uses it unchanged. TypedStore, StoreOf and the listers reach the typed
// store itself.
//
// The concepts and their observable behaviour are those of
// k8s.io/client-go/tools/cache; what differs is that every object is typed (T
// is a pointer to an API type, such as *corev1.Pod), keys are comparable
// ObjectName values instead of "namespace/name" strings built on every call,
// and the data structures are laid out for index lookups that do not allocate:
//
//   - every stored object gets a small integer slot, and index sets hold slots,
//     not strings, so an object whose indexed values do not change costs no
//     index work on update;
//   - index buckets that grow large are grouped by namespace, so a lookup in
//     one namespace costs O(matches in that namespace);
//   - objects are also grouped by namespace, so listing a namespace never scans
//     the others;
//   - label indexes (AddLabelIndex) narrow label-selector lists to the objects
//     that carry the selected label value.
//
// # Ordering
//
// DeltaFIFO accumulates the deltas of one object under its key, as client-go's
// DeltaFIFO does: per object, deltas are delivered strictly in arrival order;
// across objects, the key queued first is popped first, and a key keeps its
// place in line while more deltas for it arrive. client-go v0.37's default
// informer queue (RealFIFO) instead delivers every event as its own entry,
// strictly in arrival order across objects. Consumers that need cross-object
// ordering must not rely on either queue for it; the Kubernetes API does not
// promise it across objects either.
package cache
