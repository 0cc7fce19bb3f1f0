package gvrtest

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory"
)

// Timeout bounds every wait of the checks.
const Timeout = 10 * time.Second

// Start starts the factory's informers, waits for them to sync (failing t
// if they do not within Timeout), and stops them and shuts the factory down
// when the test ends.
func Start[T cache.Object, N any](t testing.TB, f *gvrfactory.Factory[T, N]) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); f.Shutdown() })
	f.StartWithContext(ctx)
	waitCtx, done := context.WithTimeout(ctx, Timeout)
	defer done()
	if _, err := f.WaitForCacheSyncWithContext(waitCtx); err != nil {
		t.Fatal(err)
	}
}

// pollInterval is how long Eventually waits between two checks.
const pollInterval = 5 * time.Millisecond

// Eventually polls check until it returns "", failing t with what and
// check's last message after Timeout.
func Eventually(t testing.TB, what string, check func() string) {
	t.Helper()
	msg := ""
	err := wait.PollUntilContextTimeout(context.Background(), pollInterval, Timeout, true, func(context.Context) (bool, error) {
		msg = check()
		return msg == "", nil
	})
	if err != nil {
		t.Fatalf("timed out waiting for %s: %s", what, msg)
	}
}

// until polls cond until it holds, failing t with what after Timeout.
func until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	Eventually(t, what, func() string {
		if cond() {
			return ""
		}
		return "condition not met"
	})
}

// WaitFor waits for ch to close, failing t after Timeout.
func WaitFor(t testing.TB, what string, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(Timeout):
		t.Fatalf("timed out waiting for %s", what)
	}
}
