package cli

import (
	"testing"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// TestApproveScreenOnlyForAPersonAtATerminal: aayu approve BATCH opens its
// screen only for a person at a terminal; --ci, an agent lane and a run
// without a terminal keep the plain lines they had.
func TestApproveScreenOnlyForAPersonAtATerminal(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		ci, tty bool
		env     map[string]string
		args    []string
		want    bool
	}{
		{"a person at a terminal", false, true, nil, []string{"3f9c0a1b2d4e"}, true},
		{"--ci", true, true, nil, []string{"3f9c0a1b2d4e"}, false},
		{"no terminal", false, false, nil, []string{"3f9c0a1b2d4e"}, false},
		{"an agent lane", false, true, map[string]string{identity.AgentVariable: "1"}, []string{"3f9c0a1b2d4e"}, false},
		{"no batch named", false, true, nil, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inv := tui.Invocation{Command: "approve", Args: c.args}
			inv.Global.CI = c.ci
			w := wiring{inv: inv, e: env{getenv: func(k string) string { return c.env[k] }, stdinIsTerminal: c.tty, stdoutIsTerminal: c.tty}}
			if got := w.approveAsScreen(); got != c.want {
				t.Errorf("approveAsScreen = %v, want %v", got, c.want)
			}
		})
	}
}
