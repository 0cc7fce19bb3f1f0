// Package cache is the typed data path shared by every informer that
// informer-gen-plus generates: the shared informer (SharedIndexInformer), the
// thread-safe, indexed object store it keeps (Indexer), and the lister base
// that generated listers wrap (Lister, NamespaceLister).
//
// SharedIndexInformer implements client-go's cache.SharedIndexInformer and
// cache.TypedSharedIndexInformer[T]: handlers are client-go's (untyped
// cache.ResourceEventHandler, typed cache.TypedResourceEventHandler[T]),
// GetIndexer and GetStore are client-go views of the typed store
// (Indexer.AsIndexer), and code written for client-go's informers uses it
// unchanged. TypedStore and the listers reach the typed store itself.
//
// The concepts and their observable behaviour are those of
// k8s.io/client-go/tools/cache (docs/clientgo-semantics.md lists them, and
// docs/runtime-semantics.md the deliberate differences); what differs is that
// every object is typed (T is a pointer to an API type, such as *corev1.Pod),
// keys are comparable ObjectName values instead of "namespace/name" strings
// built on every call, and lookups are cheap: a lookup by key or index value
// does not allocate per object, a namespace-scoped lookup costs in proportion
// to the matches in that namespace, and label indexes (Indexer.AddLabelIndex)
// narrow label-selector lists to the objects that carry the selected value.
//
// The store and the queue are implemented in internal packages
// (runtime/cache/internal/store, runtime/cache/internal/queue); this package
// names what users and generated code use. NewClientListWatch decodes LIST
// responses and watch streams with runtime/wire.
//
// # Ordering
//
// The informer's queue accumulates the deltas of one object under its key,
// as client-go's DeltaFIFO does: per object, deltas are delivered strictly in
// arrival order; across objects, the key queued first is popped first, and a
// key keeps its place in line while more deltas for it arrive. client-go
// v0.37's default informer queue (RealFIFO) instead delivers every event as
// its own entry, strictly in arrival order across objects. Consumers that
// need cross-object ordering must not rely on either queue for it; the
// Kubernetes API does not promise it across objects either.
package cache
