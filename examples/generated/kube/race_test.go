//go:build race

package kube_test

// raceEnabled tells tests that the race detector is on.
const raceEnabled = true
