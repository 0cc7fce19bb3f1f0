package discovery

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ErrNotServed is wrapped by the errors that say the server does not serve a
// resource, as opposed to discovery failing.
var ErrNotServed = errors.New("not served by the server")

// errShutdown is returned by Start after Shutdown.
var errShutdown = errors.New("discovery tracker is shut down")

// notServed returns an error wrapping ErrNotServed that names gvr and says why.
func notServed(gvr schema.GroupVersionResource, why string) error {
	return fmt.Errorf("%s: %w (%s)", resourceName(gvr), ErrNotServed, why)
}

// resourceName names gvr as kubectl does: resource.version.group, or
// resource.version for the core group.
func resourceName(gvr schema.GroupVersionResource) string {
	if gvr.Group == "" {
		return gvr.Resource + "." + gvr.Version
	}
	return gvr.Resource + "." + gvr.Version + "." + gvr.Group
}
