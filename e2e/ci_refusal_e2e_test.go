package e2e

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
)

// TestShipRefusesCIMarker: every human-only command refuses a CI run named
// by its environment alone (no --ci), exit 4, with the marker in words and
// nothing done: no presence code is offered and nothing is read. The API
// address is a closed port, so any request would fail differently.
func TestShipRefusesCIMarker(t *testing.T) {
	t.Parallel()
	commands := [][]string{
		{"ship", "4"},
		{"ship", "4", "--solo-bypass"},
		{"inbox"},
		{"login"},
		{"init"},
	}
	markers := []struct{ name, value string }{
		{"CI", "true"}, {"CI", "1"}, {"GITHUB_ACTIONS", "true"}, {"GITHUB_RUN_ID", "42"},
		{"GITLAB_CI", "true"}, {"BUILDKITE", "true"}, {"CIRCLECI", "true"}, {"JENKINS_URL", "https://jenkins.example/"},
	}
	for _, m := range markers {
		for _, cmd := range commands {
			t.Run(m.name+"="+m.value+"/"+strings.Join(cmd, " "), func(t *testing.T) {
				vars := map[string]string{m.name: m.value, "AAYU_GITHUB_TOKEN": "ghp_ci-marker-test"}
				args := append([]string{"--plain", "--api-url", "http://127.0.0.1:1/", "--oauth-url", "http://127.0.0.1:1", "--repo", "acme/benefits"}, cmd...)
				code, out, errOut := runAayuEnv(t, vars, args...)
				all := out + errOut
				if code != tui.ExitRefused {
					t.Fatalf("exit %d, want %d:\n%s", code, tui.ExitRefused, all)
				}
				for _, want := range []string{"human-only step", "this is a CI run (" + m.name, "Nothing was done"} {
					if !strings.Contains(all, want) {
						t.Errorf("the refusal does not say %q:\n%s", want, all)
					}
				}
				for _, never := range []string{"login/device", "127.0.0.1:1", "ghp_ci-marker-test"} {
					if strings.Contains(all, never) {
						t.Errorf("the refusal shows %q (a code offered or a request made):\n%s", never, all)
					}
				}
			})
		}
	}
}
