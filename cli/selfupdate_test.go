package cli

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
)

// TestSelfUpdateReleaseServer: the release workflow's certificate names
// github.com unless --api-url names a GitHub Enterprise Server.
func TestSelfUpdateReleaseServer(t *testing.T) {
	t.Parallel()
	for api, want := range map[string]string{
		"https://api.github.com/":          "",
		"http://127.0.0.1:8765/":           "",
		"http://localhost:8765/":           "",
		"https://ghes.example.com/api/v3/": "https://ghes.example.com",
		"https://ghes.example.com:8443/":   "https://ghes.example.com:8443",
	} {
		w := wiring{sess: &session{apiURL: api}}
		if got := w.releaseServer(); got != want {
			t.Errorf("--api-url %s: %q, want %q", api, got, want)
		}
	}
}

// TestSelfUpdateRefusesEveryLaneButThePersons: a host agent's lane, --ci
// and a CI run are refused with the reason; a person's shell is not.
func TestSelfUpdateRefusesEveryLaneButThePersons(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		ci   bool
		says string
	}{
		{map[string]string{"CLAUDECODE": "1"}, false, "an agent lane (CLAUDECODE is set)"},
		{map[string]string{}, true, "--ci never replaces aayu"},
		{map[string]string{"GITHUB_ACTIONS": "true"}, false, "a CI run (GITHUB_ACTIONS is set)"},
		{map[string]string{}, false, ""},
	} {
		vars := tc.env
		got := selfUpdateLane(tui.Invocation{Global: tui.Global{CI: tc.ci}}, env{getenv: func(k string) string { return vars[k] }})
		if (tc.says == "") != (got == "") || !strings.Contains(got, tc.says) {
			t.Errorf("%v ci=%v: %q, want %q", tc.env, tc.ci, got, tc.says)
		}
	}
}
