//go:build race

package bench

// raceEnabled reports whether the tests run under the race detector, which
// makes the engine about 12 times slower.
const raceEnabled = true
