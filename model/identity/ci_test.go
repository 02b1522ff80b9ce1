package identity

import (
	"strings"
	"testing"
)

// TestHumanOnlyRefusesCIMarkers: a CI system's marker in the environment
// refuses a human-only step outright, as --ci does, even on a terminal and
// even with this run's approval; no presence check is offered. "0" and
// "false" say "not CI" and change nothing.
func TestHumanOnlyRefusesCIMarkers(t *testing.T) {
	session := &Session{Login: "ana", Command: "aayu ship 4", Method: "device-flow", Access: AccessAdmin}
	for _, c := range []struct {
		env        map[string]string
		wantMarker string
	}{
		{map[string]string{"CI": "true"}, "CI"},
		{map[string]string{"CI": "1"}, "CI"},
		{map[string]string{"CI": "TRUE"}, "CI"},
		{map[string]string{"GITHUB_ACTIONS": "true"}, "GITHUB_ACTIONS"},
		{map[string]string{"GITHUB_RUN_ID": "123"}, "GITHUB_RUN_ID"},
		{map[string]string{"GITLAB_CI": "true"}, "GITLAB_CI"},
		{map[string]string{"BUILDKITE": "true"}, "BUILDKITE"},
		{map[string]string{"CIRCLECI": "true"}, "CIRCLECI"},
		{map[string]string{"JENKINS_URL": "https://ci.example/"}, "JENKINS_URL"},
		{map[string]string{"TF_BUILD": "True"}, "TF_BUILD"},
		{map[string]string{"CI": "false", "GITHUB_ACTIONS": "true"}, "GITHUB_ACTIONS"},
		{map[string]string{"CI": "true", "AMP_THREAD_ID": "T-1"}, "CI"},
	} {
		for _, s := range []*Session{nil, session} {
			d := RequireHuman(HumanCheck{Command: "aayu ship 4", Env: envOf(c.env), Terminal: true, Session: s, Need: AccessWrite})
			if d.Outcome != Refused || d.Marker != c.wantMarker || !strings.Contains(d.Reason, "CI run ("+c.wantMarker) || !strings.Contains(d.Reason, "human-only") {
				t.Errorf("%v (session %v): %v %q marker %q, want refused naming %s", c.env, s != nil, d.Outcome, d.Reason, d.Marker, c.wantMarker)
			}
		}
		refusals := SoloBypassRefusals(SoloBypassInput{Command: "aayu ship 4", Env: envOf(c.env), Terminal: true, Session: session})
		if len(refusals) == 0 || !strings.Contains(refusals[0], "CI run ("+c.wantMarker) {
			t.Errorf("%v: the bypass refusals %q do not name the CI run first", c.env, refusals)
		}
	}
	for _, off := range []map[string]string{{"CI": "false"}, {"CI": "0"}, {"CI": ""}, {"GITHUB_ACTIONS": "false"}} {
		if d := RequireHuman(HumanCheck{Command: "aayu ship 4", Env: envOf(off), Terminal: true}); d.Outcome != Allowed {
			t.Errorf("%v: %v %q, want allowed on a terminal", off, d.Outcome, d.Reason)
		}
	}
}

// TestCIRefusalNeverEchoesAnOddValue: the marker's value reaches the
// terminal only when it is short printable ASCII.
func TestCIRefusalNeverEchoesAnOddValue(t *testing.T) {
	d := RequireHuman(HumanCheck{Command: "aayu ship 4", Env: envOf(map[string]string{"CI": "yes\x1b[2J"}), Terminal: true})
	if d.Outcome != Refused || strings.Contains(d.Reason, "\x1b") || !strings.Contains(d.Reason, "(CI)") {
		t.Fatalf("%v %q", d.Outcome, d.Reason)
	}
}
