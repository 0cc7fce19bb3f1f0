package gvrfactory

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/syncstate"
)

// SyncStatus returns, without waiting, the state of every informer requested
// so far, keyed by resource as WaitForCacheSync's result: NotStarted,
// Syncing or Synced, and with WithDiscovery also Waiting, Skipped, Missing,
// Failed or Removed, with the error that says why (see discovery.State).
func (f *Factory[T, N]) SyncStatus() map[schema.GroupVersionResource]discovery.Status {
	return f.snapshot().Statuses
}

// snapshot takes the state of every informer.
func (f *Factory[T, N]) snapshot() syncstate.Snapshot[schema.GroupVersionResource] {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := syncstate.NewSnapshot[schema.GroupVersionResource](len(f.informers))
	for gvr, r := range f.informers {
		s.Add(gvr, syncstate.Of(f.settings.discovery, gvr, true, f.started[gvr], r.informer), r.informer)
	}
	return s
}

// StartError returns an error naming every resource whose informer Start
// did not start because the server does not serve it (discovery.FailFast) or
// discovery failed; nil when there is none, and always nil without
// WithDiscovery. A later Start that starts them clears it.
func (f *Factory[T, N]) StartError() error {
	if f.settings.discovery == nil {
		return nil
	}
	return f.settings.discovery.Err()
}

// WaitForCacheSync waits until every started informer has synced or stopCh
// is closed, and reports which have synced. With WithDiscovery it does not
// wait for an informer whose resource the server does not serve: such an
// informer is reported false (see WaitForCacheSyncWithContext).
func (f *Factory[T, N]) WaitForCacheSync(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool {
	synced, _ := f.WaitForCacheSyncWithContext(wait.ContextForChannel(stopCh))
	return synced
}

// WaitForCacheSyncWithContext waits, without polling, until every started
// informer has synced or ctx ends, and reports which have synced. The error
// is the context's cause when some have not.
//
// With WithDiscovery, it waits only for informers that run and whose
// resource is served: an informer whose resource is Waiting, Skipped,
// Missing, Failed or Removed is reported false, at once, and the error then
// joins the errors that say why (with the context's cause if some other
// informer had not synced either). An informer that starts during the wait
// (Wait mode) is waited for too.
func (f *Factory[T, N]) WaitForCacheSyncWithContext(ctx context.Context) (map[schema.GroupVersionResource]bool, error) {
	return syncstate.Synced(ctx, f.WaitForCacheSyncStatus(ctx))
}

// WaitForCacheSyncStatus waits as WaitForCacheSyncWithContext does, then
// returns SyncStatus.
func (f *Factory[T, N]) WaitForCacheSyncStatus(ctx context.Context) map[schema.GroupVersionResource]discovery.Status {
	return syncstate.Wait(ctx, f.settings.discovery, f.snapshot)
}
