package discovery

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubediscovery "k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
)

// resolver answers whether the server serves resources, from a cached
// discovery client that it invalidates when an answer needs newer data than
// the cache holds. Lookups are serialised, so that concurrent pollers share
// one refresh.
type resolver struct {
	client kubediscovery.CachedDiscoveryInterfaceWithContext
	now    func() time.Time

	mu sync.Mutex
	// fetchedAt is when the cache was last emptied (or found empty), so
	// that the data it holds is at least that recent.
	fetchedAt time.Time
}

// newResolver returns a resolver over client, wrapped in client-go's memory
// cache unless it is a cached discovery client already (which is then shared
// with its other users, and invalidated by this resolver too).
func newResolver(client kubediscovery.DiscoveryInterfaceWithContext) *resolver {
	cached, ok := client.(kubediscovery.CachedDiscoveryInterfaceWithContext)
	if !ok {
		cached = memory.NewMemCacheClientWithContext(client)
	}
	return &resolver{client: cached, now: time.Now}
}

// check looks every resource up in discovery data fetched no earlier than
// notBefore (refreshing the cache when it is older) and returns, per
// resource, nil when the server serves it with the list and watch verbs, an
// error wrapping ErrNotServed when it does not, or the discovery error.
func (r *resolver) check(ctx context.Context, gvrs []schema.GroupVersionResource, notBefore time.Time) map[schema.GroupVersionResource]error {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case !r.client.FreshWithContext(ctx):
		// The lookups below fill the cache from the server.
		r.fetchedAt = r.now()
	case r.fetchedAt.Before(notBefore):
		r.client.InvalidateWithContext(ctx)
		r.fetchedAt = r.now()
	}
	results := make(map[schema.GroupVersionResource]error, len(gvrs))
	for _, gvr := range gvrs {
		results[gvr] = r.lookup(ctx, gvr)
	}
	return results
}

// checkAtStart looks the resources up as Start needs: an answer that a
// resource is served is taken from the cache as it is, one that it is not
// (or a discovery error) only from data fetched during this call, so that a
// CRD installed since the cache was filled is seen.
func (r *resolver) checkAtStart(ctx context.Context, gvrs []schema.GroupVersionResource) map[schema.GroupVersionResource]error {
	begin := r.now()
	results := r.check(ctx, gvrs, time.Time{})
	var misses []schema.GroupVersionResource
	for gvr, err := range results {
		if err != nil {
			misses = append(misses, gvr)
		}
	}
	if len(misses) == 0 || ctx.Err() != nil {
		return results
	}
	for gvr, err := range r.check(ctx, misses, begin) {
		results[gvr] = err
	}
	return results
}

// lookup answers for one resource from the cache (which fills itself when
// empty).
func (r *resolver) lookup(ctx context.Context, gvr schema.GroupVersionResource) error {
	gv := gvr.GroupVersion().String()
	list, err := r.client.ServerResourcesForGroupVersionWithContext(ctx, gv)
	switch {
	case errors.Is(err, memory.ErrCacheNotFound) || apierrors.IsNotFound(err):
		return notServed(gvr, fmt.Sprintf("discovery does not list group version %s", gv))
	case err != nil:
		return fmt.Errorf("%s: discovery of %s: %w", resourceName(gvr), gv, err)
	}
	for _, res := range list.APIResources {
		if res.Name != gvr.Resource {
			continue
		}
		if !slices.Contains(res.Verbs, "list") || !slices.Contains(res.Verbs, "watch") {
			return notServed(gvr, fmt.Sprintf("discovery lists it with the verbs %v, without list and watch", []string(res.Verbs)))
		}
		return nil
	}
	return notServed(gvr, fmt.Sprintf("discovery does not list it in %s", gv))
}
