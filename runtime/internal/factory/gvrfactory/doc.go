// Package gvrfactory is the dynamic and metadata informer factories
// (runtime/dynamicinformer, runtime/metadatainformer), generic over their
// object type T (*unstructured.Unstructured, *metav1.PartialObjectMetadata)
// and over N, the interface of client-go's namespace lister of T
// (dynamiclister.NamespaceLister, metadatalister.NamespaceLister). The
// public packages name instantiations of its types (type aliases) and add
// client-go's constructors:
//
//   - Factory holds one shared informer per GroupVersionResource, created on
//     first use with the factory's namespace, list options change, resync
//     period and transform, and starts, waits for and shuts down all of them
//     together, with the contract of client-go's dynamic and metadata
//     factories; with WithDiscovery it starts only the informers of
//     resources the server serves, as runtime/informers.Factory does (see
//     runtime/internal/factory/syncstate), and reports each one's state;
//   - ResourceInformer is one resource's informer together with the indexes
//     declared on it at run time (fieldpath.IndexSpec) and the lookups in
//     them, as client-go's informers.GenericInformer;
//   - Lister is client-go's dynamic or metadata lister over the runtime's
//     cache.Lister.
//
// What differs between the object types (how a client lists and watches a
// resource, how an index spec is computed on an object, client-go's generic
// lister shim) is a Kind.
package gvrfactory
