package gvrfactory

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine is still running once
// they are done: Shutdown must wait for every informer the factory started.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
