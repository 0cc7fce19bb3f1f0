//go:build !race

package cache

// raceEnabled tells tests that the race detector is on.
const raceEnabled = false
