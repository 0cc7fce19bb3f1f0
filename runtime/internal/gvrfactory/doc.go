// Package gvrfactory is the machinery the dynamic and metadata informer
// factories (runtime/dynamicinformer, runtime/metadatainformer) share,
// generic over their object type T (*unstructured.Unstructured,
// *metav1.PartialObjectMetadata):
//
//   - Factory holds one shared informer per GroupVersionResource, created on
//     first use with the factory's namespace, list options change, resync
//     period and transform, and starts, waits for and shuts down all of them
//     together, with the contract of client-go's dynamic and metadata
//     factories;
//   - Informer is one resource's informer together with the indexes
//     declared on it at run time (IndexSpec) and the lookups in them.
//
// What differs between the two object types (how a client lists and watches
// a resource, how an index spec is computed on an object) is passed in as
// functions: Config.NewInformer and Config.Compile.
package gvrfactory
