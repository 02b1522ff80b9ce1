//go:build race

package ghx_test

// raceEnabled: the race detector slows the sandbox's seeding several times.
const raceEnabled = true
