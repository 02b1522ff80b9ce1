package ship

import (
	"os"
	"testing"

	"github.com/aayudha/aayu/internal/paralleltest"
)

// serialTests are this package's tests allowed not to call t.Parallel(),
// each with the reason. Every other test starts its own sandbox (its own
// state folder, git repository and listener) and takes its clock and
// answers through Config, so they run side by side: one after another
// they took four and a half minutes under -race on two cores.
var serialTests = map[string]string{}

// TestEveryTestCallsParallel fails when a test of this package neither
// calls t.Parallel() nor is listed in serialTests with its reason.
func TestEveryTestCallsParallel(t *testing.T) {
	t.Parallel()
	paralleltest.Check(t, serialTests)
}

// TestMain runs the tests and removes the seeded demos they copied from.
func TestMain(m *testing.M) {
	code := m.Run()
	if root, err := seededRoot(); err == nil {
		_ = os.RemoveAll(root)
	}
	os.Exit(code)
}
