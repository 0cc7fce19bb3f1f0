// Package discovery decides, per resource, whether the API server serves it,
// so that an informer factory starts only informers whose list and watch can
// work, and tells, per resource, why one is not running instead of waiting
// forever for a resource the server does not serve (a CustomResourceDefinition
// not installed yet, or deleted).
//
// A Tracker answers from client-go's discovery client, wrapped in its memory
// cache (k8s.io/client-go/discovery/cached/memory) unless it caches already.
// The cache is invalidated when a lookup misses, so a resource installed
// since the last lookup is seen, and when data older than a poll's interval
// would decide it. A resource is served when discovery lists its group,
// version and resource with the list and watch verbs.
//
// What Start does with a resource that is not served is the tracker's Mode:
// FailFast reports it as Missing and returns an error naming every such
// resource, Skip reports it as Skipped, Wait reports it as Waiting and polls
// discovery with backoff until it is served, then starts it. In every mode a
// started resource that the server stops serving (its CRD deleted) is
// reported as Removed and logged; its informer keeps running (client-go's
// reflector retries the failing list with its own backoff) and the resource is
// reported as running again once discovery lists it again.
//
// The tracker is keyed by schema.GroupVersionResource and knows nothing of
// informers: a factory passes the resources it is about to start and a
// function that starts the informers of one resource. Factories built on this
// module's runtime use it through runtime/informers.WithDiscovery.
package discovery
