//go:build !race

package store

// raceEnabled tells tests that the race detector is on.
const raceEnabled = false
