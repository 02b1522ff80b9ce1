package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
)

// TestVerifyRawOutRefusesATokenInItsEnvironment: the merge gate's tests
// job runs the pull request's code beside aayu verify --raw-out, so a
// token anywhere in its environment is refused by name (never by value)
// before anything runs, and no raw outputs are written.
func TestVerifyRawOutRefusesATokenInItsEnvironment(t *testing.T) {
	t.Parallel()
	const value = "ghs_0123456789abcdefghijABCDEFGHIJ012345"
	for _, k := range []string{"GITHUB_TOKEN", "GH_TOKEN", "AAYU_GITHUB_TOKEN", "ACTIONS_RUNTIME_TOKEN"} {
		t.Run(k, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "raw")
			code, stdout, stderr := runAayuEnv(t, map[string]string{k: value, "GITHUB_ACTIONS": "true"}, "verify", "3", "--raw-out", out)
			if code != tui.ExitRefused || !strings.Contains(stderr, k+" is set") || !strings.Contains(stderr, "Nothing was run.") {
				t.Fatalf("exit %d, want 4 naming %s:\n%s%s", code, k, stdout, stderr)
			}
			if strings.Contains(stdout+stderr, value) {
				t.Fatalf("the refusal shows the token's value:\n%s", stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatal("raw outputs were written with a token in the environment")
			}
		})
	}
}
