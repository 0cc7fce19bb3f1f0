// Package promreg registers the runtime's Prometheus collectors on a
// registry that other parts of the process (another controller, another
// ring member) may have registered the same collectors on.
package promreg

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"
)

// RegisterOrReuse registers collector on reg, or returns the equal collector
// already registered there. A collector of another type under the same
// descriptors is an error.
func RegisterOrReuse[C prometheus.Collector](reg prometheus.Registerer, collector C) (C, error) {
	err := reg.Register(collector)
	if err == nil {
		return collector, nil
	}
	if are, ok := errors.AsType[prometheus.AlreadyRegisteredError](err); ok {
		if existing, ok := are.ExistingCollector.(C); ok {
			return existing, nil
		}
	}
	return collector, err
}
