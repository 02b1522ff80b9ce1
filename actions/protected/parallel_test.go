package protected_test

import (
	"testing"

	"github.com/aayudha/aayu/internal/paralleltest"
)

// serialTests are this package's tests allowed not to call t.Parallel(),
// each with the reason. The others each start their own sandbox (its own
// state folder, git repository and listener) or touch nothing shared, so
// they run side by side instead of adding up under -race.
var serialTests = map[string]string{}

// TestEveryTestCallsParallel fails when a test of this package neither
// calls t.Parallel() nor is listed in serialTests with its reason.
func TestEveryTestCallsParallel(t *testing.T) {
	t.Parallel()
	paralleltest.Check(t, serialTests)
}
