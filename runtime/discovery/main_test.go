package discovery

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine is still running once
// they are done: every poller and recheck must end with its context.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
