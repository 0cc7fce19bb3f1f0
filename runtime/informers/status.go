package informers

import (
	"context"
	"reflect"

	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/syncstate"
)

// SyncStatus returns, without waiting, the state of every informer requested
// so far, keyed by object type as WaitForCacheSync's result: NotStarted,
// Syncing or Synced, and with WithDiscovery also Waiting, Skipped, Missing,
// Failed or Removed, with the error that says why (see discovery.State).
// Status.Resource is the informer's resource, zero for one that does not tell
// it.
func (f *Factory) SyncStatus() map[reflect.Type]discovery.Status {
	return f.snapshot().Statuses
}

// snapshot takes the state of every informer.
func (f *Factory) snapshot() syncstate.Snapshot[reflect.Type] {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := syncstate.NewSnapshot[reflect.Type](len(f.informers))
	for key, inf := range f.informers {
		s.Add(key, f.statusLocked(key, inf), inf)
	}
	return s
}

// statusLocked is the state of one informer (see syncstate.Of); f.mu must
// be held.
func (f *Factory) statusLocked(key reflect.Type, inf cache.SharedIndexInformer) discovery.Status {
	gvr, known := f.resources[key]
	return syncstate.Of(f.settings.discovery, gvr, known, f.started[key], inf)
}

// StartError returns an error naming every resource whose informers Start
// did not start because the server does not serve it (discovery.FailFast) or
// discovery failed; nil when there is none, and always nil without
// WithDiscovery. A later Start that starts them clears it.
func (f *Factory) StartError() error {
	if f.settings.discovery == nil {
		return nil
	}
	return f.settings.discovery.Err()
}

// WaitForCacheSyncStatus waits as WaitForCacheSyncWithContext does, then
// returns SyncStatus.
func (f *Factory) WaitForCacheSyncStatus(ctx context.Context) map[reflect.Type]discovery.Status {
	return f.waitForSync(ctx)
}

// WaitForCacheSyncWithContext waits, without polling, until every started
// informer has synced or ctx ends. Err is the context's cause when some have
// not.
//
// With WithDiscovery, it waits only for informers that run and whose
// resource is served: an informer whose resource is Waiting, Skipped,
// Missing, Failed or Removed is in Synced as false, at once, and Err then
// joins the errors that say why (with the context's cause if some other
// informer had not synced either). An informer that starts during the wait
// (Wait mode) is waited for too.
func (f *Factory) WaitForCacheSyncWithContext(ctx context.Context) cache.SyncResult {
	synced, err := syncstate.Synced(ctx, f.waitForSync(ctx))
	return cache.SyncResult{Synced: synced, Err: err}
}

// waitForSync waits until no informer is Syncing or ctx ends, and returns
// the informers' states (see syncstate.Wait).
func (f *Factory) waitForSync(ctx context.Context) map[reflect.Type]discovery.Status {
	return syncstate.Wait(ctx, f.settings.discovery, f.snapshot)
}
