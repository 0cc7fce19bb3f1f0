package queue

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine is still running once
// they are done, as client-go's tools/cache tests do
// (docs/clientgo-semantics.md#run-and-stop).
//
// Nothing is ignored: neither client-go nor klog leaves a goroutine behind
// here. klog starts its flush daemon only when asked to (StartFlushDaemon,
// or flags that log to files); client-go's controller, reflector and
// resync timer all end with Run's context; the fake clientset's watchers
// and watch.FakeWatcher run no goroutine.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
