package actions

import (
	"testing"

	"github.com/aayudha/aayu/internal/paralleltest"
)

// serialTests are this package's tests allowed not to call t.Parallel(),
// each with the reason. The others each start their own sandbox and
// write only through it and their own temporary folders, so they run
// side by side: one after another they took nearly five minutes under
// -race on the shared two-core machine.
var serialTests = map[string]string{}

// TestEveryTestCallsParallel fails when a test of this package neither
// calls t.Parallel() nor is listed in serialTests with its reason.
func TestEveryTestCallsParallel(t *testing.T) {
	t.Parallel()
	paralleltest.Check(t, serialTests)
}
