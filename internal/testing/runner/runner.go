// Package runner runs a function that works until its context ends, such as
// an informer's RunWithContext, in a goroutine of its own, for benchmarks
// that start and stop informers.
package runner

import "context"

// Running is a started function.
type Running struct {
	cancel  context.CancelFunc
	stopped chan struct{}
}

// Start runs run in a new goroutine with a context that Stop cancels.
func Start(run func(context.Context)) *Running {
	ctx, cancel := context.WithCancel(context.Background())
	r := &Running{cancel: cancel, stopped: make(chan struct{})}
	go func() {
		defer close(r.stopped)
		run(ctx)
	}()
	return r
}

// Stop cancels the context and waits until run has returned.
func (r *Running) Stop() {
	r.cancel()
	<-r.stopped
}
