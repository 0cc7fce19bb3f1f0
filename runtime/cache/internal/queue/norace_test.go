//go:build !race

package queue

// raceEnabled tells tests that the race detector is on.
const raceEnabled = false
