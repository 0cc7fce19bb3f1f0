//go:build !race

package intern_test

// raceEnabled tells tests that the race detector is on.
const raceEnabled = false
