package syncstate

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
)

// Informer is what the package reads of an informer; client-go's
// cache.SharedIndexInformer and the runtime's have it.
type Informer interface {
	HasSynced() bool
	HasSyncedChecker() cache.DoneChecker
}

// Of returns the state of one informer of a factory. tracker is the
// factory's discovery tracker (nil without discovery); resource is the
// informer's resource when known is set (the zero value otherwise); started
// says whether the factory started the informer.
//
// With a tracker, an informer of a known resource has its resource's state,
// except that an informer the factory has not started is NotStarted even
// when its resource runs (it was requested since its resource started, or
// Shutdown refused it). Otherwise a started informer is Syncing and any
// other NotStarted. A Syncing informer that has synced is Synced.
func Of(tracker *discovery.Tracker, resource schema.GroupVersionResource, known, started bool, inf Informer) discovery.Status {
	st := discovery.Status{Resource: resource}
	switch {
	case known && tracker != nil:
		st = tracker.Status(resource)
		if st.State.Running() && !started {
			st.State, st.Err = discovery.NotStarted, nil
		}
	case started:
		st.State = discovery.Syncing
	}
	if st.State == discovery.Syncing && inf.HasSynced() {
		st.State = discovery.Synced
	}
	return st
}
