package inboxread_test

import (
	"testing"

	"github.com/aayudha/aayu/internal/paralleltest"
)

// serialTests are this package's tests allowed not to call t.Parallel(),
// each with the reason. The others each read their own sandbox, so they
// run side by side: one after another they took five minutes under -race
// on the shared two-core machine.
var serialTests = map[string]string{
	// It checks that no request leaves during the wait a 429 asked for,
	// allowing 20 ms for a request already on its way: serial tests run
	// before the parallel ones start, so it is timed alone.
	"TestSecondaryLimitOnOnePageMakesThePoolWaitNotFailOrHammer": "times the wire against a 20 ms grace",
}

// TestEveryTestCallsParallel fails when a test of this package neither
// calls t.Parallel() nor is listed in serialTests with its reason.
func TestEveryTestCallsParallel(t *testing.T) {
	t.Parallel()
	paralleltest.Check(t, serialTests)
}
