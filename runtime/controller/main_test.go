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

// must returns v, panicking when err is not nil: for constructors whose
// configuration a test knows to be valid.
func must[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}
