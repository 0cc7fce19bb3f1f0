//go:build race

package intern_test

// raceEnabled tells tests that the race detector is on: heap figures are
// not meaningful then.
const raceEnabled = true
