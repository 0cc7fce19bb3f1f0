// Package testwait polls a condition in tests until it holds, or fails the
// test once a timeout has passed.
package testwait

import (
	"testing"
	"time"
)

// interval is how long For sleeps between two checks.
const interval = 5 * time.Millisecond

// For calls check until it returns "". Once timeout has passed it fails t
// with what and check's last message instead.
func For(t testing.TB, timeout time.Duration, what string, check func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		msg := check()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s: %s", what, msg)
		}
		time.Sleep(interval)
	}
}

// Until calls cond until it holds, failing t with what once timeout has
// passed.
func Until(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	For(t, timeout, what, func() string {
		if cond() {
			return ""
		}
		return "condition not met"
	})
}
