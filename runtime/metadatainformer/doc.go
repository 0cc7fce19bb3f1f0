// Package metadatainformer is a drop-in for client-go's
// k8s.io/client-go/metadata/metadatainformer whose informers are the
// runtime's typed informers of *metav1.PartialObjectMetadata
// (runtime/cache.SharedIndexInformer: its store, queue and handler
// delivery), and whose informers take indexes declared at run time.
//
// A metadata informer lists and watches only the objects' metadata (the
// server sends PartialObjectMetadata), so it keeps a fraction of the memory
// of a full informer of the same objects: the informer of choice for
// watching every object of a kind to react to its labels, annotations or
// owners.
//
// The constructors and options have client-go's names and parameters, and
// the factory implements client-go's SharedInformerFactory, so code written
// for client-go's package compiles after changing only the import path.
// Beyond client-go's API, Factory.Resource returns the typed
// *ResourceInformer, which declares indexes and looks them up:
//
//	factory := metadatainformer.NewSharedInformerFactory(client, 0)
//	configMaps := factory.Resource(corev1.SchemeGroupVersion.WithResource("configmaps"))
//	if err := configMaps.AddIndex("byOwner", "owner: apps/Deployment"); err != nil {
//		return err // an invalid spec fails here, never while indexing
//	}
//	factory.Start(ctx.Done())
//	factory.WaitForCacheSync(ctx.Done())
//	owned, err := configMaps.ByIndexInNamespace("byOwner", "default", "web")
//
// Index specs are those of runtime/fieldpath.ParseIndexSpec: label,
// annotation and owner. A field spec is refused when it is declared: the
// informer holds no field beyond the metadata.
//
// NewSharedInformerFactoryWithOptions takes, beside client-go's options
// (WithNamespace, WithTweakListOptions, WithTransform), WithDiscovery (or
// WithDiscoveryOptions), which makes Start ask the server's discovery first
// and start only the informers of resources it serves, as generated
// factories do with runtime/informers.WithDiscovery. For a resource the
// server does not serve (a CRD not installed yet) the mode says what Start
// does: discovery.FailFast does not start its informer and StartError names
// it, discovery.Skip does not start it, discovery.Wait starts it once the
// server serves it. WaitForCacheSync never waits for such an informer: it
// reports it false at once, and SyncStatus and WaitForCacheSyncStatus say,
// per resource, why (Waiting, Skipped, Missing, Failed, Removed).
//
// Factory, ResourceInformer, Lister and SharedInformerOption are this
// package's instantiations of the types runtime/dynamicinformer shares
// (runtime/internal/factory/gvrfactory), where their methods' contracts are stated.
//
// Objects handed out (by listers, lookups and handlers) are shared with the
// informer's store: never mutate them.
package metadatainformer
