package discovery

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	kubediscovery "k8s.io/client-go/discovery"
	"k8s.io/klog/v2"
)

// Tracker decides, per resource, whether a factory starts its informers, and
// keeps each resource's State. One factory owns one Tracker (two factories
// holding informers of the same resource need one each). Its methods are safe
// for concurrent use. Nothing runs before Start.
type Tracker struct {
	resolver *resolver
	opts     Options
	// invalid, when set, is why the tracker cannot decide anything: every
	// resource Start is given is Failed with it.
	invalid error

	mu       sync.Mutex
	entries  map[schema.GroupVersionResource]*entry
	changed  chan struct{} // closed, and replaced, at every state change
	shutdown bool
	running  sync.WaitGroup
}

// entry is the state of one resource.
type entry struct {
	state State
	err   error
	// deciding is set while a Start looks the resource up.
	deciding bool
}

// New returns a tracker that asks client (cached as the package
// documentation says) whether the server serves a resource, configured by
// opts. A nil client or an unknown mode is not an error here: Start reports
// it, as every resource's Failed status.
func New(client kubediscovery.DiscoveryInterfaceWithContext, opts Options) *Tracker {
	t := &Tracker{
		opts:    opts.withDefaults(),
		entries: map[schema.GroupVersionResource]*entry{},
		changed: make(chan struct{}),
	}
	switch {
	case client == nil:
		t.invalid = errors.New("discovery: no discovery client")
	case !opts.Mode.valid():
		t.invalid = fmt.Errorf("discovery: unknown mode %v", opts.Mode)
	default:
		t.resolver = newResolver(client)
	}
	return t
}

// Mode returns the tracker's mode.
func (t *Tracker) Mode() Mode { return t.opts.Mode }

// Start decides, for each of resources, whether its informers start, and
// calls start with the resource for those that do: at once for a resource
// the server serves, later (from another goroutine) for one the tracker
// waits for. A resource that is not served is Missing, Skipped or Waiting,
// by the tracker's mode; one discovery cannot answer for is Failed (in Wait
// mode it is Waiting and polled again). The returned error joins the Err of
// every resource of this call that ended Missing or Failed; nil if none did.
//
// Start looks resources up synchronously: it waits for at most two
// refreshes of the discovery cache (the second only when a lookup misses in
// data fetched before the call), none when the cache answers. A resource
// already running gets start called again (so that an informer of it
// requested since is started); one being waited for is left to its poller;
// one Skipped, Missing or Failed is decided anew. start must be safe for
// concurrent use, must not block, and must start each informer once however
// often it is called.
//
// The goroutines Start leaves (the pollers of Waiting resources and the
// rechecks of running ones) end when ctx ends; Shutdown waits for them.
func (t *Tracker) Start(ctx context.Context, resources []schema.GroupVersionResource, start func(schema.GroupVersionResource)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	decide, again, err := t.claim(resources)
	if err != nil {
		return err
	}
	for _, gvr := range again {
		start(gvr)
	}
	if len(decide) == 0 {
		return nil
	}
	var results map[schema.GroupVersionResource]error
	if t.invalid == nil {
		results = t.resolver.checkAtStart(ctx, decide)
	}
	served := t.decide(ctx, decide, results, start)
	for _, gvr := range served {
		start(gvr)
	}
	return t.errOf(decide)
}

// claim marks the resources Start has to decide as being decided, and
// returns them and the running resources of the call.
func (t *Tracker) claim(resources []schema.GroupVersionResource) (decide, again []schema.GroupVersionResource, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.shutdown {
		return nil, nil, errShutdown
	}
	seen := map[schema.GroupVersionResource]bool{}
	for _, gvr := range resources {
		if seen[gvr] {
			continue
		}
		seen[gvr] = true
		e := t.entries[gvr]
		if e == nil {
			e = &entry{}
			t.entries[gvr] = e
		}
		switch {
		case e.deciding || e.state == Waiting:
		case e.state.Running():
			again = append(again, gvr)
		default:
			e.deciding = true
			decide = append(decide, gvr)
		}
	}
	return decide, again, nil
}

// decide records what Start found for the claimed resources, starts the
// goroutines that follow them, logs the outcome, and returns the resources to
// start now.
func (t *Tracker) decide(ctx context.Context, decide []schema.GroupVersionResource, results map[schema.GroupVersionResource]error, start func(schema.GroupVersionResource)) []schema.GroupVersionResource {
	logger := klog.FromContext(ctx)
	var served []schema.GroupVersionResource
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, gvr := range decide {
		e := t.entries[gvr]
		e.deciding = false
		if t.shutdown {
			continue
		}
		err := results[gvr]
		if t.invalid != nil {
			err = t.invalid
		}
		follow := true
		switch {
		case err == nil:
			e.state, e.err = Syncing, nil
			served = append(served, gvr)
			follow = t.opts.RecheckInterval > 0
		case t.invalid == nil && t.opts.Mode == Wait:
			e.state, e.err = Waiting, err
			logger.Info("Resource not served: waiting for it before starting its informers", "resource", resourceName(gvr), "reason", err)
		case t.invalid == nil && t.opts.Mode == Skip && errors.Is(err, ErrNotServed):
			e.state, e.err, follow = Skipped, err, false
			logger.Info("Resource not served: skipping its informers", "resource", resourceName(gvr), "reason", err)
		case errors.Is(err, ErrNotServed):
			e.state, e.err, follow = Missing, err, false
		default:
			e.state, e.err, follow = Failed, err, false
		}
		if follow {
			t.running.Go(func() { t.follow(ctx, gvr, start) })
		}
	}
	t.notifyLocked()
	return served
}

// errOf joins the errors of the resources among gvrs that are Missing or
// Failed, in the order of their names.
func (t *Tracker) errOf(gvrs []schema.GroupVersionResource) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	var failed []Status
	for _, gvr := range gvrs {
		if e := t.entries[gvr]; e != nil && (e.state == Missing || e.state == Failed) {
			failed = append(failed, Status{Resource: gvr, State: e.state, Err: e.err})
		}
	}
	return joinErrors(failed)
}

// Err joins the errors of every resource that is Missing or Failed, in the
// order of their names: what a factory's Start could not start. nil when
// there is none.
func (t *Tracker) Err() error {
	var failed []Status
	for _, st := range t.Statuses() {
		if st.State == Missing || st.State == Failed {
			failed = append(failed, st)
		}
	}
	return joinErrors(failed)
}

// joinErrors joins the errors of statuses, sorted by resource name.
func joinErrors(statuses []Status) error {
	slices.SortFunc(statuses, func(a, b Status) int {
		return cmp.Compare(resourceName(a.Resource), resourceName(b.Resource))
	})
	errs := make([]error, 0, len(statuses))
	for _, st := range statuses {
		errs = append(errs, st.Err)
	}
	return errors.Join(errs...)
}

// Status returns the state of one resource: NotStarted for one Start has not
// been given (or is deciding).
func (t *Tracker) Status(gvr schema.GroupVersionResource) Status {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.statusLocked(gvr)
}

// statusLocked is Status with t.mu held.
func (t *Tracker) statusLocked(gvr schema.GroupVersionResource) Status {
	e := t.entries[gvr]
	if e == nil || e.deciding {
		return Status{Resource: gvr}
	}
	return Status{Resource: gvr, State: e.state, Err: e.err}
}

// Statuses returns the state of every resource Start has been given.
func (t *Tracker) Statuses() map[schema.GroupVersionResource]Status {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[schema.GroupVersionResource]Status, len(t.entries))
	for gvr := range t.entries {
		out[gvr] = t.statusLocked(gvr)
	}
	return out
}

// Changed returns a channel that is closed at the next change of any
// resource's state, for waiting without polling.
func (t *Tracker) Changed() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.changed
}

// notifyLocked wakes the waiters on Changed; t.mu must be held.
func (t *Tracker) notifyLocked() {
	close(t.changed)
	t.changed = make(chan struct{})
}

// Shutdown makes later Starts fail and start nothing, then waits until every
// goroutine the tracker started has returned. They return when the context
// given to their Start ends: the caller must end it before or while
// Shutdown waits. Shutdown may be called more than once.
func (t *Tracker) Shutdown() {
	t.mu.Lock()
	t.shutdown = true
	t.mu.Unlock()
	t.running.Wait()
}
