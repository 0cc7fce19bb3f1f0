package discovery

import (
	"context"
	"errors"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
)

// follow runs while ctx lasts for one resource Start left Waiting or
// running: it polls discovery with the tracker's backoff while the resource
// is Waiting and starts it once it is served, then looks it up every
// RecheckInterval to report it Removed when the server stops serving it and
// running again when it serves it again. Each lookup accepts discovery data
// up to half its delay old, so that the followers of many resources share
// refreshes. A resource still Waiting when ctx ends is NotStarted again, so
// that a later Start decides it anew.
func (t *Tracker) follow(ctx context.Context, gvr schema.GroupVersionResource, start func(schema.GroupVersionResource)) {
	defer t.stopWaiting(gvr)
	ctx = klog.NewContext(ctx, klog.LoggerWithValues(klog.FromContext(ctx), "resource", resourceName(gvr)))
	waitDelay := t.opts.Backoff.DelayFunc()
	recheckDelay := wait.Backoff{Duration: t.opts.RecheckInterval, Jitter: recheckJitter}.DelayFunc()
	var last time.Duration
	next := func() time.Duration {
		if t.Status(gvr).State == Waiting {
			last = waitDelay()
		} else {
			last = recheckDelay()
		}
		return last
	}
	_ = wait.DelayFunc(next).Until(ctx, false, true, func(ctx context.Context) (bool, error) {
		return t.recheck(ctx, gvr, last/2, start), nil
	})
}

// recheck looks gvr up in discovery data at most maxAge old, records what
// changed, and starts the resource when it is served at last. It reports
// whether following the resource is over.
func (t *Tracker) recheck(ctx context.Context, gvr schema.GroupVersionResource, maxAge time.Duration, start func(schema.GroupVersionResource)) (done bool) {
	err := t.resolver.check(ctx, []schema.GroupVersionResource{gvr}, time.Now().Add(-maxAge))[gvr]
	if ctx.Err() != nil {
		return true
	}
	logger := klog.FromContext(ctx)
	notServed := errors.Is(err, ErrNotServed)
	t.mu.Lock()
	if t.shutdown {
		t.mu.Unlock()
		return true
	}
	e := t.entries[gvr]
	startNow := false
	switch {
	case e.state == Waiting && err == nil:
		e.state, e.err, startNow = Syncing, nil, true
		t.notifyLocked()
		logger.Info("Resource served now: starting its informers")
	case e.state == Waiting:
		e.err = err
		logger.V(4).Info("Resource still not served", "reason", err)
	case e.state == Syncing && notServed:
		e.state, e.err = Removed, err
		t.notifyLocked()
		logger.Error(err, "Resource no longer served: its informers keep running and retry their lists with backoff until it is served again")
	case e.state == Removed && err == nil:
		e.state, e.err = Syncing, nil
		t.notifyLocked()
		logger.Info("Resource served again: its informers resume with their next list")
	case err != nil && !notServed:
		logger.V(2).Info("Discovery failed; keeping the resource's state", "state", e.state, "err", err)
	}
	done = e.state != Waiting && t.opts.RecheckInterval < 0
	t.mu.Unlock()
	if startNow {
		start(gvr)
	}
	return done
}

// stopWaiting makes gvr NotStarted if it is still Waiting.
func (t *Tracker) stopWaiting(gvr schema.GroupVersionResource) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.entries[gvr]; e.state == Waiting {
		e.state, e.err = NotStarted, nil
		t.notifyLocked()
	}
}
