package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBinaryLeavesOutWhatPackDoesNotNeed: every package linked into aayu
// runs its init in every run, `aayu pack DIR` included. A JSON Schema
// library compiles its meta-schemas at init (6-9 ms, about a third of
// aayu's start-up, issue 23), so pack.json's schema is checked by hand
// (proof.validatePackV1) and the library stays in tests only.
func TestBinaryLeavesOutWhatPackDoesNotNeed(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/aayudha/aayu").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/santhosh-tekuri/jsonschema") {
			t.Errorf("aayu links %s, whose init runs on every start", dep)
		}
	}
}
