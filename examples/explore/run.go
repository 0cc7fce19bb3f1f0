package explore

import (
	"context"
	"fmt"
	"io"

	"k8s.io/client-go/discovery/cached/memory"
)

// Run prints, on out, what discovery lists (unless opts.SkipDiscovery) and,
// when opts.Resource is set, runs the resource's informer with opts.Indexes,
// waits until it has synced and answers opts.Lookups. Bad options are
// errors before anything talks to a server; a resource discovery does not
// list, a resource whose informer does not sync within opts.Timeout and a
// failed lookup are errors too. Every informer and discovery poll it
// started has stopped when Run returns.
func Run(ctx context.Context, opts Options, out io.Writer) error {
	p, err := opts.plan()
	if err != nil {
		return err
	}
	clients, err := opts.clients()
	if err != nil {
		return err
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, opts.Timeout, fmt.Errorf("--timeout %s passed", opts.Timeout))
		defer cancel()
	}
	// One cache for the table, the resolution and the factory's discovery
	// tracker: discovery is fetched once.
	cached := memory.NewMemCacheClientWithContext(clients.Discovery)
	a, err := discover(ctx, cached)
	if err != nil {
		return causeOf(ctx, err)
	}
	if !opts.SkipDiscovery {
		if err := writeTable(out, a, p.groups); err != nil {
			return err
		}
	}
	if opts.Resource == "" {
		return nil
	}
	r, err := a.resolve(opts.Resource)
	if err != nil {
		return err
	}
	if !r.res.Namespaced && opts.Namespace != "" {
		return fmt.Errorf("--namespace %s: %s is cluster-scoped", opts.Namespace, r.name())
	}
	if !opts.SkipDiscovery {
		fmt.Fprintln(out)
	}
	return explore(ctx, exploration{resolved: r, plan: p, namespace: opts.Namespace, discovery: cached, dynamic: clients.Dynamic}, out)
}

// causeOf returns err, or the context's cause when ctx has ended (a
// timeout says which flag set it).
func causeOf(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
		return fmt.Errorf("%w: %w", cause, err)
	}
	return err
}
