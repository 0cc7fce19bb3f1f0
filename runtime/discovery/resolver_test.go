package discovery

import (
	"errors"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// A resource is served when discovery lists it with list and watch; a
// missing group version, a resource missing from its group version and one
// without list or watch are not served, each saying why; a discovery failure
// is not "not served".
func TestResolverNeedsTheResourceWithListAndWatch(t *testing.T) {
	server := serving(podsGVR).Serve(widgetsGVR, "get", "list")
	r := newResolver(server)
	ctx := t.Context()
	results := r.checkAtStart(ctx, []schema.GroupVersionResource{podsGVR, widgetsGVR, gadgetsGVR, trucksGVR})
	if err := results[podsGVR]; err != nil {
		t.Errorf("pods: %v, want served", err)
	}
	for gvr, want := range map[schema.GroupVersionResource]string{
		widgetsGVR: "without list and watch",
		gadgetsGVR: "does not list it in shop.example.dev/v1",
		trucksGVR:  "does not list group version fleet.example.dev/v1",
	} {
		err := results[gvr]
		if !errors.Is(err, ErrNotServed) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), resourceName(gvr)) {
			t.Errorf("%s: %v, want a not-served error naming it and saying %q", gvr, err, want)
		}
	}

	server.Fail(errBroken)
	r.client.InvalidateWithContext(ctx)
	err := r.checkAtStart(ctx, []schema.GroupVersionResource{podsGVR})[podsGVR]
	if err == nil || errors.Is(err, ErrNotServed) || !strings.Contains(err.Error(), errBroken.Error()) {
		t.Errorf("with discovery failing: %v, want the discovery error", err)
	}
}

// Start's lookups answer "served" from the cache, and refresh it when a
// resource is missing, so that a CRD installed since is seen; a poll
// refreshes only data older than it accepts, so pollers share refreshes.
func TestResolverRefreshesOnAMissAndWhenTooOld(t *testing.T) {
	server := serving(podsGVR)
	r := newResolver(server)
	ctx := t.Context()
	check := func(gvr schema.GroupVersionResource) error {
		return r.checkAtStart(ctx, []schema.GroupVersionResource{gvr})[gvr]
	}
	if err := check(podsGVR); err != nil {
		t.Fatal(err)
	}
	if got := server.Refreshes(); got != 1 {
		t.Fatalf("first lookup: %d refreshes, want 1", got)
	}
	if err := check(podsGVR); err != nil || server.Refreshes() != 1 {
		t.Fatalf("a hit: %v, %d refreshes; want served from the cache", err, server.Refreshes())
	}
	if err := check(widgetsGVR); !errors.Is(err, ErrNotServed) || server.Refreshes() != 2 {
		t.Fatalf("a miss: %v, %d refreshes; want not served after one more refresh", err, server.Refreshes())
	}
	server.Serve(widgetsGVR)
	if err := check(widgetsGVR); err != nil || server.Refreshes() != 3 {
		t.Fatalf("a resource installed since: %v, %d refreshes; want served after one more refresh", err, server.Refreshes())
	}

	calls := server.Refreshes()
	r.check(ctx, []schema.GroupVersionResource{podsGVR}, time.Now().Add(-time.Hour))
	if got := server.Refreshes(); got != calls {
		t.Errorf("a poll accepting hour-old data refreshed the cache")
	}
	r.check(ctx, []schema.GroupVersionResource{podsGVR}, time.Now().Add(time.Millisecond))
	if got := server.Refreshes(); got != calls+1 {
		t.Errorf("a poll needing newer data did not refresh the cache")
	}
}
