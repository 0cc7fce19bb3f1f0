package informers

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"

	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
)

// SyncStatus returns, without waiting, the state of every informer requested
// so far, keyed by object type as WaitForCacheSync's result: NotStarted,
// Syncing or Synced, and with WithDiscovery also Waiting, Skipped, Missing,
// Failed or Removed, with the error that says why (see discovery.State).
// Status.Resource is the informer's resource, zero for one that does not tell
// it.
func (f *Factory) SyncStatus() map[reflect.Type]discovery.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[reflect.Type]discovery.Status, len(f.informers))
	for key, inf := range f.informers {
		out[key] = f.statusLocked(key, inf)
	}
	return out
}

// statusLocked is the state of one informer; f.mu must be held.
func (f *Factory) statusLocked(key reflect.Type, inf cache.SharedIndexInformer) discovery.Status {
	gvr, known := f.resources[key]
	st := discovery.Status{Resource: gvr}
	switch {
	case known && f.settings.discovery != nil:
		st = f.settings.discovery.Status(gvr)
		if st.State.Running() && !f.started[key] {
			// Requested since its resource started, or refused by Shutdown.
			st.State, st.Err = discovery.NotStarted, nil
		}
	case f.started[key]:
		st.State = discovery.Syncing
	}
	if st.State == discovery.Syncing && inf.HasSynced() {
		st.State = discovery.Synced
	}
	return st
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
	statuses := f.waitForSync(ctx)
	result := cache.SyncResult{Synced: make(map[reflect.Type]bool, len(statuses))}
	var errs []error
	unsynced := false
	for key, st := range statuses {
		if st.State == discovery.NotStarted {
			continue
		}
		synced := st.State == discovery.Synced
		result.Synced[key] = synced
		switch {
		case synced:
		case st.Err != nil:
			errs = append(errs, st.Err)
		default:
			unsynced = true
		}
	}
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	if unsynced {
		cause := context.Cause(ctx)
		if cause == nil {
			cause = errors.New("informers have not synced")
		}
		errs = append([]error{cause}, errs...)
	}
	result.Err = errors.Join(errs...)
	return result
}

// waitForSync waits until no informer is Syncing or ctx ends, and returns
// the informers' states. Without discovery that is until every started
// informer has synced; with it, a change of a resource's state (a resource
// removed, or started after a wait) wakes it to decide again what it waits
// for.
func (f *Factory) waitForSync(ctx context.Context) map[reflect.Type]discovery.Status {
	for {
		var changed <-chan struct{}
		if f.settings.discovery != nil {
			// Taken before the states, so that no change is missed.
			changed = f.settings.discovery.Changed()
		}
		f.mu.Lock()
		statuses := make(map[reflect.Type]discovery.Status, len(f.informers))
		var pending []cache.DoneChecker
		for key, inf := range f.informers {
			st := f.statusLocked(key, inf)
			statuses[key] = st
			if st.State == discovery.Syncing {
				pending = append(pending, inf.HasSyncedChecker())
			}
		}
		f.mu.Unlock()
		if len(pending) == 0 || ctx.Err() != nil {
			return statuses
		}
		waitOrChange(ctx, changed, pending)
	}
}

// waitOrChange waits until every checker is done, ctx ends or changed is
// closed (nil: never).
func waitOrChange(ctx context.Context, changed <-chan struct{}, checkers []cache.DoneChecker) {
	if changed == nil {
		cache.WaitFor(ctx, "", checkers...)
		return
	}
	waitCtx, cancel := context.WithCancel(ctx)
	var watcher sync.WaitGroup
	watcher.Go(func() {
		select {
		case <-changed:
			cancel()
		case <-waitCtx.Done():
		}
	})
	cache.WaitFor(waitCtx, "", checkers...)
	cancel()
	watcher.Wait()
}
