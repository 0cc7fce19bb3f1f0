package controller

import (
	"context"
	"time"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// Reconciler brings the world in line with the desired state of one primary
// object. The controller never calls Reconcile for one key from two
// goroutines at once; different keys are reconciled concurrently when the
// controller has several workers.
//
// ctx carries a logger (klog.FromContext) with the controller's name and the
// key, and is cancelled when the controller's grace period ends during
// shutdown. The object may have been deleted since its key was queued: read it
// through a lister and treat NotFound as the object being gone.
//
// The result of a key's latest reconcile decides when it comes back: a nil
// error with a zero Result ends the work on key until the next event (a
// retry or requeue an earlier result scheduled is cancelled); an error
// retries key after the controller's rate limiter's backoff, up to
// MaxRetries, after which the key waits for the next event. A panic is
// recovered and counted as an error.
type Reconciler interface {
	Reconcile(ctx context.Context, key cache.ObjectName) (Result, error)
}

// ReconcilerFunc adapts a function to Reconciler.
type ReconcilerFunc func(ctx context.Context, key cache.ObjectName) (Result, error)

// Reconcile implements Reconciler.
func (f ReconcilerFunc) Reconcile(ctx context.Context, key cache.ObjectName) (Result, error) {
	return f(ctx, key)
}

// Result tells the controller what to do with a key whose reconcile
// succeeded. It is ignored when Reconcile returns an error.
type Result struct {
	// RequeueAfter, when positive, reconciles the key again after this
	// duration; when an event enqueues the key first, it is reconciled
	// then, and that reconcile's result decides what comes next. It resets
	// the key's retry count, as any success does.
	RequeueAfter time.Duration
}
