//go:build race

package cachetest

// RaceEnabled tells tests that the race detector is on; it makes sync.Pool
// drop pooled values at random, so allocation counts are not meaningful.
const RaceEnabled = true
