package ghx

import (
	"testing"

	"github.com/aayudha/aayu/internal/paralleltest"
)

// serialTests are this package's tests allowed not to call t.Parallel(),
// each with the reason. The others each start their own sandbox or
// httptest server and record their waits instead of sleeping, so they run
// side by side. go test runs these before the parallel ones start, so
// each is timed (or measured) alone.
var serialTests = map[string]string{
	"TestTransportRefusesServerTricklingAByteEveryTwoSeconds": "times the refusal against a 300 ms idle limit",
	"TestTransportRefusesBodyPastTheOverallDeadline":          "times the refusal against a 400 ms deadline",
	"TestTransportRefusesHugeJSONBody":                        "measures the process's allocations (runtime.MemStats) and times a refusal",
	"TestTransportRefusesGzipBomb":                            "times the refusal of a 256 MiB inflation",
	"TestTransportLimitsLeaveSoundAnswersAlone":               "a 200 ms idle limit a busy neighbour could trip",
	"TestKeyringTimesOut":                                     "times a 50 ms keyring timeout",
	"TestSecondaryLimitWaitHonoursContext":                    "times a prompt cancellation",
}

// TestEveryTestCallsParallel fails when a test of this package neither
// calls t.Parallel() nor is listed in serialTests with its reason.
func TestEveryTestCallsParallel(t *testing.T) {
	t.Parallel()
	paralleltest.Check(t, serialTests)
}
