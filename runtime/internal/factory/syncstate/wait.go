package syncstate

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
)

// Snapshot is the state of a factory's informers at one moment: what Wait
// returns, and what it waits for.
type Snapshot[K comparable] struct {
	// Statuses is the state of every informer.
	Statuses map[K]discovery.Status
	// Pending are the sync checkers of the Syncing informers.
	Pending []cache.DoneChecker
}

// NewSnapshot returns an empty snapshot for n informers.
func NewSnapshot[K comparable](n int) Snapshot[K] {
	return Snapshot[K]{Statuses: make(map[K]discovery.Status, n)}
}

// Add records the state st of the informer inf, keyed by key.
func (s *Snapshot[K]) Add(key K, st discovery.Status, inf Informer) {
	s.Statuses[key] = st
	if st.State == discovery.Syncing {
		s.Pending = append(s.Pending, inf.HasSyncedChecker())
	}
}

// Wait waits, without polling, until no informer is Syncing or ctx ends,
// and returns the informers' states. take takes a snapshot of the factory's
// informers (under the factory's lock). With a tracker (nil: none), a change
// of a resource's state (a resource removed, or started after a wait) wakes
// the wait to take a new snapshot, so that it waits for exactly the
// informers that can sync.
func Wait[K comparable](ctx context.Context, tracker *discovery.Tracker, take func() Snapshot[K]) map[K]discovery.Status {
	for {
		var changed <-chan struct{}
		if tracker != nil {
			// Taken before the states, so that no change is missed.
			changed = tracker.Changed()
		}
		s := take()
		if len(s.Pending) == 0 || ctx.Err() != nil {
			return s.Statuses
		}
		waitOrChange(ctx, changed, s.Pending)
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

// Synced returns WaitForCacheSync's answer from the informers' states after
// a Wait under ctx: whether each started informer has synced (informers
// NotStarted are left out), and an error that joins, sorted, the errors
// that say why an informer is Waiting, Skipped, Missing, Failed or Removed,
// preceded by ctx's cause when an informer is still Syncing (a generic
// error when ctx has not ended). The error is nil when every started
// informer has synced.
func Synced[K comparable](ctx context.Context, statuses map[K]discovery.Status) (map[K]bool, error) {
	synced := make(map[K]bool, len(statuses))
	var errs []error
	unsynced := false
	for key, st := range statuses {
		if st.State == discovery.NotStarted {
			continue
		}
		synced[key] = st.State == discovery.Synced
		switch {
		case synced[key]:
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
	return synced, errors.Join(errs...)
}
