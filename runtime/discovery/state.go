package discovery

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// State is where a resource's informers are, as far as starting them and the
// server serving the resource go.
type State int

const (
	// NotStarted: Start has not been asked to start the resource (or is
	// deciding right now).
	NotStarted State = iota
	// Waiting: the server does not serve the resource; in Wait mode its
	// informers start once it does.
	Waiting
	// Skipped: the server did not serve the resource when Start was called
	// in Skip mode; its informers were not started.
	Skipped
	// Missing: the server did not serve the resource when Start was called
	// in FailFast mode; its informers were not started and Start returned an
	// error naming it.
	Missing
	// Failed: discovery could not tell whether the server serves the
	// resource (or the tracker is misconfigured); its informers were not
	// started. Status.Err says why.
	Failed
	// Syncing: the informers run and have not synced yet.
	Syncing
	// Synced: the informers run and have synced. A Tracker reports Syncing
	// for every running resource; the factory, which knows its informers,
	// reports Synced.
	Synced
	// Removed: the informers run, but the server stopped serving the
	// resource after they were started (its CRD was deleted). Their lists
	// fail and client-go's reflector retries them with backoff; once the
	// server serves the resource again the state goes back to Syncing or
	// Synced, and the next list fills the cache again.
	Removed
)

// String returns the state's name.
func (s State) String() string {
	switch s {
	case NotStarted:
		return "NotStarted"
	case Waiting:
		return "Waiting"
	case Skipped:
		return "Skipped"
	case Missing:
		return "Missing"
	case Failed:
		return "Failed"
	case Syncing:
		return "Syncing"
	case Synced:
		return "Synced"
	case Removed:
		return "Removed"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Running reports whether informers in this state run: Syncing, Synced and
// Removed.
func (s State) Running() bool { return s == Syncing || s == Synced || s == Removed }

// Status is the state of one resource.
type Status struct {
	// Resource is the resource; the zero value for an informer whose
	// resource its factory does not know (it is started unconditionally).
	Resource schema.GroupVersionResource
	// State is where the resource's informers are.
	State State
	// Err says why the resource is not served or its informers do not run:
	// set for Waiting (the last poll's answer), Skipped, Missing, Failed and
	// Removed, nil otherwise. errors.Is(Err, ErrNotServed) tells a resource
	// the server does not serve from a discovery failure.
	Err error
}

// String returns "resource: state" and the error, if any.
func (s Status) String() string {
	name := resourceName(s.Resource)
	if s.Resource.Empty() {
		name = "(unknown resource)"
	}
	if s.Err != nil {
		return fmt.Sprintf("%s: %s (%v)", name, s.State, s.Err)
	}
	return fmt.Sprintf("%s: %s", name, s.State)
}
