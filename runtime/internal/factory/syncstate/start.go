package syncstate

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
)

// StartGated hands the resources of the informers a factory's Start left to
// discovery to tracker (see discovery.Tracker.Start), which calls start for
// each resource once the server serves it: start must start the informers of
// the resource that are not running, unless the factory is shutting down.
// Resources the server does not serve, or discovery cannot tell about, are
// logged through ctx's logger, unless shuttingDown reports that the factory
// is shutting down. It does nothing when gated is empty (tracker may then be
// nil).
func StartGated(ctx context.Context, tracker *discovery.Tracker, gated []schema.GroupVersionResource, start func(schema.GroupVersionResource), shuttingDown func() bool) {
	if len(gated) == 0 {
		return
	}
	if err := tracker.Start(ctx, gated, start); err != nil && !shuttingDown() {
		klog.FromContext(ctx).Error(err, "Not starting the informers of resources the server does not serve")
	}
}
