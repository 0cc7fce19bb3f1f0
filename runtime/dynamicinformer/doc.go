// Package dynamicinformer is a drop-in for client-go's
// k8s.io/client-go/dynamic/dynamicinformer whose informers are the
// runtime's typed informers of *unstructured.Unstructured
// (runtime/cache.SharedIndexInformer: its store, queue and handler
// delivery), and whose informers take indexes declared at run time.
//
// The constructors have client-go's names and parameters, and the factory
// implements client-go's DynamicSharedInformerFactory, so code written for
// client-go's package compiles after changing only the import path.
// Beyond client-go's API, Factory.Resource returns the typed
// *ResourceInformer, which declares indexes and looks them up:
//
//	factory := dynamicinformer.NewFilteredDynamicSharedInformerFactory(client, 0, "", nil)
//	deployments := factory.Resource(appsv1.SchemeGroupVersion.WithResource("deployments"))
//	if err := deployments.AddIndex("byImage", `field: "spec.template.spec.containers[*].image"`); err != nil {
//		return err // an invalid spec fails here, never while indexing
//	}
//	factory.Start(ctx.Done())
//	factory.WaitForCacheSync(ctx.Done())
//	nginx, err := deployments.ByIndex("byImage", "nginx:1.29")
//
// An index spec is what an +index marker's source argument says
// (runtime/fieldpath.ParseIndexSpec): field (JSON paths with [*], and
// composite keys of several paths), label, annotation or owner (a
// group-qualified kind: "apps/ReplicaSet", "core/ConfigMap"). Each spec is
// compiled once into an index function that reads the object's map
// directly, without reflection, and gives the values
// runtime/fieldpath.Key.Values defines; lookups take one value per path and
// encode them as generated lookups do (fieldpath.JoinValues), so a run-time
// index and a generated one of the same spec agree.
//
// NewDynamicSharedInformerFactoryWithOptions takes what client-go's fixed
// parameter lists have no room for, as options: WithNamespace,
// WithTweakListOptions, WithTransform, and WithDiscovery (or
// WithDiscoveryOptions), which makes Start ask the server's discovery first
// and start only the informers of resources it serves, as generated
// factories do with runtime/informers.WithDiscovery. For a resource the
// server does not serve (a CRD not installed yet) the mode says what Start
// does: discovery.FailFast does not start its informer and StartError names
// it, discovery.Skip does not start it, discovery.Wait starts it once the
// server serves it. WaitForCacheSync never waits for such an informer: it
// reports it false at once, and SyncStatus and WaitForCacheSyncStatus say,
// per resource, why (Waiting, Skipped, Missing, Failed, Removed):
//
//	factory := dynamicinformer.NewDynamicSharedInformerFactoryWithOptions(client, 0,
//		dynamicinformer.WithDiscovery(kubeClient.Discovery(), discovery.Wait))
//	factory.Resource(widgetsGVR) // a CRD that may be installed later
//	factory.Start(ctx.Done())
//	synced := factory.WaitForCacheSync(ctx.Done()) // false, at once, while not served
//	status := factory.SyncStatus()[widgetsGVR]      // Waiting, and why
//
// Factory, ResourceInformer, Lister and SharedInformerOption are this
// package's instantiations of the types runtime/metadatainformer shares
// (runtime/internal/factory/gvrfactory), where their methods' contracts are stated.
//
// Objects handed out (by listers, lookups and handlers) are shared with the
// informer's store: never mutate them.
package dynamicinformer
