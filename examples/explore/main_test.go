package explore_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine is still running once
// they are done: Run must stop every informer and discovery poll it starts.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
