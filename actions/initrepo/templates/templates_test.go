package templates

import (
	"strings"
	"testing"
)

// TestPinInstallsTheReleaseInitRan: a release build writes workflows that
// install exactly its own version; a development build, or anything that is
// not a version, keeps the embedded @latest.
func TestPinInstallsTheReleaseInitRan(t *testing.T) {
	pinned := Pin(MergeGate, "v1.4.2")
	if strings.Contains(pinned, "aayu@latest") || !strings.Contains(pinned, "github.com/aayudha/aayu@v1.4.2") {
		t.Errorf("a release build did not pin itself:\n%s", pinned)
	}
	for _, v := range []string{"", "(devel)", "v1.0.0 $(curl evil)", "latest"} {
		if got := Pin(MergeGate, v); got != MergeGate {
			t.Errorf("version %q changed the workflow", v)
		}
	}
}
