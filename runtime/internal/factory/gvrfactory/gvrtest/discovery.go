package gvrtest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	kubediscovery "k8s.io/client-go/discovery"
	clienttesting "k8s.io/client-go/testing"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery/discoverytest"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory"
)

// DiscoveryCase is what CheckDiscovery needs of a package.
type DiscoveryCase[T cache.Object, N any] struct {
	// Served and Missing are two resources of the package's fake client:
	// the checks' fake discovery serves Served from the start, and Missing
	// only when a check says so.
	Served, Missing schema.GroupVersionResource
	// New returns a new fake client holding one object of each resource, in
	// namespace "a", and a factory over it built by the package's
	// constructor with options.
	New func(options ...gvrfactory.Option[T, N]) (*gvrfactory.Factory[T, N], Reactors)
	// WithDiscoveryOptions is the package's option.
	WithDiscoveryOptions func(kubediscovery.DiscoveryInterfaceWithContext, discovery.Options) gvrfactory.Option[T, N]
}

// FastDiscovery polls and rechecks every few milliseconds.
func FastDiscovery(mode discovery.Mode) discovery.Options {
	return discovery.Options{
		Mode:            mode,
		Backoff:         wait.Backoff{Duration: time.Millisecond, Factor: 2, Steps: 100, Cap: 20 * time.Millisecond},
		RecheckInterval: 5 * time.Millisecond,
	}
}

// CheckDiscovery checks, in subtests, that the package's factory starts
// according to discovery as runtime/informers.Factory does, in every mode
// and as resources come and go. Every factory is shut down when its subtest
// ends; the package's TestMain should check that no goroutine is left.
func CheckDiscovery[T cache.Object, N any](t *testing.T, c DiscoveryCase[T, N]) {
	for name, check := range map[string]func(*testing.T, DiscoveryCase[T, N]){
		"FailFast":                         checkFailFast[T, N],
		"Skip":                             checkSkip[T, N],
		"Wait":                             checkWait[T, N],
		"WaitForCacheSyncFollowsAStart":    checkWaitFollowsAStart[T, N],
		"RemovedResource":                  checkRemoved[T, N],
		"WithoutDiscovery":                 checkWithoutDiscovery[T, N],
		"OneOptionTwoFactoriesTwoTrackers": checkOptionAppliedTwice[T, N],
	} {
		t.Run(name, func(t *testing.T) { check(t, c) })
	}
}

// start builds a factory of c with discovery over server configured by
// opts, requests both resources' informers, and starts it under a context
// that ends, and a Shutdown that runs, when the test ends.
func (c DiscoveryCase[T, N]) start(t *testing.T, server *discoverytest.Server, opts discovery.Options) (*gvrfactory.Factory[T, N], context.Context, Reactors) {
	f, client := c.New(c.WithDiscoveryOptions(server, opts))
	f.Resource(c.Served)
	f.Resource(c.Missing)
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(func() { cancel(); f.Shutdown() })
	return f, ctx, client
}

// stateOf returns the state of f's informer of gvr.
func stateOf[T cache.Object, N any](f *gvrfactory.Factory[T, N], gvr schema.GroupVersionResource) discovery.State {
	return f.SyncStatus()[gvr].State
}

// notServedError reports whether err says that the server does not serve
// gvr, and nothing about other.
func notServedError(err error, gvr, other schema.GroupVersionResource) bool {
	return errors.Is(err, discovery.ErrNotServed) && strings.Contains(err.Error(), gvr.Resource) && !strings.Contains(err.Error(), other.Resource)
}

// FailFast: the informer of a resource the server does not serve is not
// started, StartError names it, WaitForCacheSync returns at once with it
// false and an error saying why; the other starts and syncs. A later Start,
// once the server serves the resource, starts it.
func checkFailFast[T cache.Object, N any](t *testing.T, c DiscoveryCase[T, N]) {
	server := discoverytest.NewServer().Serve(c.Served)
	f, ctx, _ := c.start(t, server, FastDiscovery(discovery.FailFast))
	f.StartWithContext(ctx)
	if err := f.StartError(); !notServedError(err, c.Missing, c.Served) {
		t.Fatalf("StartError() = %v, want %s named, not %s", err, c.Missing.Resource, c.Served.Resource)
	}
	synced, err := f.WaitForCacheSyncWithContext(ctx) // must not block on Missing
	if want := (map[schema.GroupVersionResource]bool{c.Served: true, c.Missing: false}); !reflect.DeepEqual(synced, want) || !notServedError(err, c.Missing, c.Served) {
		t.Fatalf("WaitForCacheSync = %v, %v; want %v and an error naming %s", synced, err, want, c.Missing.Resource)
	}
	if errors.Is(err, context.Canceled) {
		t.Errorf("error %v holds a context error while the context is live", err)
	}
	st := f.SyncStatus()
	if st[c.Missing].State != discovery.Missing || st[c.Missing].Resource != c.Missing || st[c.Served].State != discovery.Synced {
		t.Fatalf("SyncStatus() = %v", st)
	}
	if f.Resource(c.Missing).Informer().HasSynced() {
		t.Fatal("the informer of the missing resource ran")
	}

	server.Serve(c.Missing)
	f.StartWithContext(ctx)
	if err := f.StartError(); err != nil {
		t.Fatalf("StartError() after a Start that started everything = %v", err)
	}
	if _, err := f.WaitForCacheSyncWithContext(ctx); err != nil {
		t.Fatal(err)
	}
}

// Skip: the informer is not started and reported Skipped, with no
// StartError; WaitForCacheSync returns at once with it false.
func checkSkip[T cache.Object, N any](t *testing.T, c DiscoveryCase[T, N]) {
	server := discoverytest.NewServer().Serve(c.Served)
	f, ctx, _ := c.start(t, server, FastDiscovery(discovery.Skip))
	f.StartWithContext(ctx)
	if err := f.StartError(); err != nil {
		t.Fatalf("StartError() = %v in Skip mode", err)
	}
	if synced, want := f.WaitForCacheSync(ctx.Done()), (map[schema.GroupVersionResource]bool{c.Served: true, c.Missing: false}); !reflect.DeepEqual(synced, want) {
		t.Fatalf("WaitForCacheSync = %v, want %v", synced, want)
	}
	if got := f.SyncStatus()[c.Missing]; got.State != discovery.Skipped || !errors.Is(got.Err, discovery.ErrNotServed) {
		t.Fatalf("%s: %v, want Skipped", c.Missing.Resource, got)
	}
}

// Wait: the informer starts once the server serves its resource (and only
// then), and syncs its object; WaitForCacheSync does not wait for it
// meanwhile.
func checkWait[T cache.Object, N any](t *testing.T, c DiscoveryCase[T, N]) {
	server := discoverytest.NewServer().Serve(c.Served)
	f, ctx, _ := c.start(t, server, FastDiscovery(discovery.Wait))
	f.StartWithContext(ctx)
	if got := stateOf(f, c.Missing); got != discovery.Waiting {
		t.Fatalf("%s: %v, want Waiting", c.Missing.Resource, got)
	}
	synced, err := f.WaitForCacheSyncWithContext(ctx)
	if synced[c.Missing] || !synced[c.Served] || !notServedError(err, c.Missing, c.Served) {
		t.Fatalf("WaitForCacheSync = %v, %v; want %s false, not served", synced, err, c.Missing.Resource)
	}
	time.Sleep(20 * time.Millisecond)
	if f.Resource(c.Missing).Informer().HasSynced() {
		t.Fatal("the informer ran before its resource was served")
	}
	server.Serve(c.Missing)
	until(t, c.Missing.Resource+" synced", func() bool { return stateOf(f, c.Missing) == discovery.Synced })
	if all := f.WaitForCacheSyncStatus(ctx); all[c.Missing].State != discovery.Synced || all[c.Served].State != discovery.Synced {
		t.Fatalf("WaitForCacheSyncStatus = %v", all)
	}
	if keys := f.Resource(c.Missing).Informer().GetStore().ListKeys(); len(keys) != 1 {
		t.Fatalf("the cache of %s holds %v, want its one object", c.Missing.Resource, keys)
	}
}

// A WaitForCacheSync in progress also waits for an informer that Wait mode
// starts meanwhile.
func checkWaitFollowsAStart[T cache.Object, N any](t *testing.T, c DiscoveryCase[T, N]) {
	server := discoverytest.NewServer().Serve(c.Served)
	f, ctx, client := c.start(t, server, FastDiscovery(discovery.Wait))
	// The list of Served is held until the test releases it: it keeps
	// WaitForCacheSync waiting.
	release := make(chan struct{})
	client.PrependReactor("list", c.Served.Resource, func(clienttesting.Action) (bool, runtime.Object, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return false, nil, nil
	})
	f.StartWithContext(ctx)
	done := make(chan map[schema.GroupVersionResource]bool)
	go func() { done <- f.WaitForCacheSync(ctx.Done()) }()
	server.Serve(c.Missing)
	until(t, c.Missing.Resource+" started", func() bool { return stateOf(f, c.Missing).Running() })
	close(release)
	if synced := <-done; !synced[c.Served] || !synced[c.Missing] {
		t.Fatalf("WaitForCacheSync = %v, want both synced", synced)
	}
}

// A running informer whose resource the server stops serving is reported
// Removed (WaitForCacheSync: false), keeps running, and is Synced again once
// the resource is served again.
func checkRemoved[T cache.Object, N any](t *testing.T, c DiscoveryCase[T, N]) {
	server := discoverytest.NewServer().Serve(c.Served).Serve(c.Missing)
	f, ctx, _ := c.start(t, server, FastDiscovery(discovery.FailFast))
	f.StartWithContext(ctx)
	if _, err := f.WaitForCacheSyncWithContext(ctx); err != nil {
		t.Fatal(err)
	}
	server.Remove(c.Missing)
	until(t, c.Missing.Resource+" Removed", func() bool { return stateOf(f, c.Missing) == discovery.Removed })
	synced, err := f.WaitForCacheSyncWithContext(ctx)
	if synced[c.Missing] || !synced[c.Served] || !notServedError(err, c.Missing, c.Served) {
		t.Fatalf("WaitForCacheSync = %v, %v; want %s false", synced, err, c.Missing.Resource)
	}
	if f.Resource(c.Missing).Informer().IsStopped() {
		t.Fatal("the informer of a removed resource stopped")
	}
	server.Serve(c.Missing)
	until(t, c.Missing.Resource+" Synced again", func() bool { return stateOf(f, c.Missing) == discovery.Synced })
}

// Without discovery the states are NotStarted, Syncing and Synced, an
// informer requested after Start is NotStarted until the next Start, and
// there is no StartError.
func checkWithoutDiscovery[T cache.Object, N any](t *testing.T, c DiscoveryCase[T, N]) {
	f, _ := c.New()
	f.Resource(c.Served)
	if got := f.SyncStatus()[c.Served]; got != (discovery.Status{Resource: c.Served}) {
		t.Fatalf("before Start: %v", got)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer func() { cancel(); f.Shutdown() }()
	f.StartWithContext(ctx)
	if got := f.WaitForCacheSyncStatus(ctx)[c.Served]; got.State != discovery.Synced {
		t.Fatalf("after the wait: %v", got)
	}
	f.Resource(c.Missing)
	if got := f.SyncStatus()[c.Missing].State; got != discovery.NotStarted {
		t.Fatalf("an informer requested after Start: %v", got)
	}
	if f.StartError() != nil {
		t.Fatal("StartError without discovery")
	}
}

// One option applied to two factories gives each a tracker of its own: the
// informers of both start when the resource they wait for is served.
func checkOptionAppliedTwice[T cache.Object, N any](t *testing.T, c DiscoveryCase[T, N]) {
	server := discoverytest.NewServer()
	option := c.WithDiscoveryOptions(server, FastDiscovery(discovery.Wait))
	ctx, cancel := context.WithCancel(t.Context())
	var factories []*gvrfactory.Factory[T, N]
	defer func() {
		cancel()
		for _, f := range factories {
			f.Shutdown()
		}
	}()
	for range 2 {
		f, _ := c.New(option)
		factories = append(factories, f)
		f.Resource(c.Missing)
		f.StartWithContext(ctx)
		if got := stateOf(f, c.Missing); got != discovery.Waiting {
			t.Fatalf("state %v, want Waiting", got)
		}
	}
	server.Serve(c.Missing)
	for i, f := range factories {
		until(t, fmt.Sprint("the informer of factory ", i, " synced"), func() bool { return stateOf(f, c.Missing) == discovery.Synced })
	}
}
