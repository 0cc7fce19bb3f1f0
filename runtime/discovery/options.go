package discovery

import (
	"math"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// Defaults of Options.
const (
	// DefaultRecheckInterval is how often a running resource is looked up
	// again when Options.RecheckInterval is zero.
	DefaultRecheckInterval = 30 * time.Second
)

// DefaultBackoff is the backoff between two polls of a resource that is not
// served, in Wait mode, when Options.Backoff is zero: half a second, doubling
// up to 30 seconds, each delay with up to 10 % more at random.
var DefaultBackoff = wait.Backoff{
	Duration: 500 * time.Millisecond,
	Factor:   2,
	Jitter:   0.1,
	Steps:    math.MaxInt32,
	Cap:      30 * time.Second,
}

// recheckJitter spreads the rechecks of running resources.
const recheckJitter = 0.1

// Options configure a Tracker. The zero value is valid: FailFast, the
// default backoff and recheck interval.
type Options struct {
	// Mode is what Start does with a resource the server does not serve.
	Mode Mode
	// Backoff is the delay between two discovery polls of a resource that
	// is not served, in Wait mode, with apimachinery's semantics (the delay
	// grows by Factor for Steps polls, up to Cap; with Steps zero it stays
	// Duration). A zero Duration means DefaultBackoff.
	Backoff wait.Backoff
	// RecheckInterval is how often discovery is asked again whether a
	// running resource is still served (and a Removed one served again),
	// with 10 % jitter. Zero means DefaultRecheckInterval; negative, never:
	// then no resource is ever reported Removed.
	RecheckInterval time.Duration
}

// withDefaults returns o with its zero fields set to the defaults.
func (o Options) withDefaults() Options {
	if o.Backoff.Duration <= 0 {
		o.Backoff = DefaultBackoff
	}
	if o.RecheckInterval == 0 {
		o.RecheckInterval = DefaultRecheckInterval
	}
	return o
}
