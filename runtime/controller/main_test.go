package controller

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if a goroutine outlives them: a
// controller's workers, its queue and its informers all end with Run.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
