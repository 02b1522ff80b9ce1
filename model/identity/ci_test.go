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

// TestRequireHumanIsHereWithTheRunsApproval: RequireHuman is Here, taken
// once from the process, with the run's approval applied by With — so a
// command that decides once and applies With at each step answers every
// step as RequireHuman would, and Here never reads the approval.
func TestRequireHumanIsHereWithTheRunsApproval(t *testing.T) {
	cmd := "aayu ship 4"
	sessions := []*Session{nil,
		{Command: cmd, Login: "ana", Access: AccessWrite, Method: "device-flow"},
		{Command: cmd, Login: "ana", Access: AccessAdmin, Method: "device-flow"},
		{Command: "aayu ship 5", Login: "ana", Access: AccessAdmin, Method: "device-flow"}}
	envs := []map[string]string{nil, {AgentVariable: "1"}, {"CI": "true"}, {"CLAUDECODE": "1"}, {AgentVariable: "0"}}
	for _, env := range envs {
		for _, terminal := range []bool{true, false} {
			for _, ci := range []bool{true, false} {
				base := HumanCheck{Command: cmd, Env: envOf(env), Terminal: terminal, CI: ci}
				here := Here(base)
				for _, s := range sessions {
					for _, need := range []Access{AccessWrite, AccessAdmin} {
						in := base
						in.Session, in.Need = s, need
						if got, want := here.With(s, cmd, need), RequireHuman(in); got != want {
							t.Errorf("env %v terminal %v ci %v session %+v need %v: Here+With %+v, RequireHuman %+v", env, terminal, ci, s, need, got, want)
						}
						if h := Here(in); h != here {
							t.Errorf("Here read the approval: %+v, without it %+v", h, here)
						}
					}
				}
			}
		}
	}
}

// TestSoloBypassReadsTheCommandsOneAnswer: the bypass judged with the Here
// a command already took refuses in the same words as when it looks at the
// process itself, so ship's bypass and its presence check cannot disagree.
func TestSoloBypassReadsTheCommandsOneAnswer(t *testing.T) {
	cmd := "aayu ship 4"
	envs := []map[string]string{nil, {AgentVariable: "1"}, {"CI": "true"}, {"GITHUB_ACTIONS": "yes\x1b[2J"}, {"CLAUDECODE": "1"}}
	for _, env := range envs {
		for _, terminal := range []bool{true, false} {
			for _, ci := range []bool{true, false} {
				for _, s := range []*Session{nil, {Command: cmd, Login: "ana", Access: AccessAdmin, Method: "device-flow"}} {
					in := SoloBypassInput{Command: cmd, Env: envOf(env), Terminal: terminal, CI: ci, Session: s}
					want := strings.Join(SoloBypassRefusals(in), "\n")
					here := Here(HumanCheck{Command: cmd, Env: envOf(env), Terminal: terminal, CI: ci})
					in.Here, in.Env, in.Terminal, in.CI = &here, nil, true, false // the answer alone decides
					if got := strings.Join(SoloBypassRefusals(in), "\n"); got != want {
						t.Errorf("env %q terminal %v ci %v session %v:\n%s\nwant\n%s", env, terminal, ci, s != nil, got, want)
					}
				}
			}
		}
	}
}
