package discovery

import "fmt"

// Mode is what Tracker.Start does with a resource the server does not serve.
type Mode int

const (
	// FailFast does not start the resource's informers, reports the resource
	// as Missing, and makes Start return an error naming every missing
	// resource. It is the zero value, the default.
	FailFast Mode = iota
	// Skip does not start the resource's informers and reports the resource
	// as Skipped. A later Start decides again.
	Skip
	// Wait reports the resource as Waiting and polls discovery with backoff
	// until the server serves it, then starts its informers.
	Wait
)

// String returns the mode's name.
func (m Mode) String() string {
	switch m {
	case FailFast:
		return "FailFast"
	case Skip:
		return "Skip"
	case Wait:
		return "Wait"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// valid reports whether m is one of the modes above.
func (m Mode) valid() bool { return m == FailFast || m == Skip || m == Wait }
