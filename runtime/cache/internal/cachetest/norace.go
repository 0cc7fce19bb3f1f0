//go:build !race

package cachetest

// RaceEnabled tells tests that the race detector is on.
const RaceEnabled = false
