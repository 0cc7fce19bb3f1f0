package informers

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubediscovery "k8s.io/client-go/discovery"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
)

// WithDiscovery makes Start ask the server, through client (cached in
// memory, see runtime/discovery), whether it serves each informer's resource
// with the list and watch verbs before starting the informer, and do with an
// informer whose resource it does not serve what mode says:
//
//   - discovery.FailFast (the zero value): not start it, log an error and
//     keep one for StartError naming every such resource;
//   - discovery.Skip: not start it, report it Skipped;
//   - discovery.Wait: poll discovery with backoff and start it once the
//     server serves it (a CRD installed later gets its informer then).
//
// In every mode an informer whose resource the server stops serving while it
// runs is reported Removed and logged, keeps running (its lists back off)
// and resumes when the resource is served again; and WaitForCacheSync does
// not wait for an informer whose resource is not served. Informers that do
// not tell their resource (client-go's own, see InformerFor) start
// unconditionally, as without this option.
//
// Generated factories pass it through their options, as a SharedInformerOption:
//
//	factory := externalversions.NewSharedInformerFactoryWithOptions(client, resync,
//		informers.WithDiscovery(client.Discovery(), discovery.Wait))
func WithDiscovery(client kubediscovery.DiscoveryInterfaceWithContext, mode discovery.Mode) Option {
	return WithDiscoveryOptions(client, discovery.Options{Mode: mode})
}

// WithDiscoveryOptions is WithDiscovery with the backoff of Wait mode's polls
// and the interval of the rechecks of running resources set too.
func WithDiscoveryOptions(client kubediscovery.DiscoveryInterfaceWithContext, options discovery.Options) Option {
	// Each factory gets a tracker of its own, also when one Option is
	// applied to several.
	return func(s *settings) { s.discovery = discovery.New(client, options) }
}

// resourceInformer is an informer that tells the resource it lists and
// watches: the runtime's SharedIndexInformer.
type resourceInformer interface {
	GroupVersionResource() schema.GroupVersionResource
}

// resourceOf returns the resource of inf, when it tells a non-empty one.
func resourceOf(inf cache.SharedIndexInformer) (schema.GroupVersionResource, bool) {
	r, ok := inf.(resourceInformer)
	if !ok {
		return schema.GroupVersionResource{}, false
	}
	gvr := r.GroupVersionResource()
	return gvr, !gvr.Empty()
}
