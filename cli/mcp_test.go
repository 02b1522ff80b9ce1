package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/aayudha/aayu/agents/mcpserver"
)

// TestMCPRefusesEveryHumanOnlyCommand: every command the table marks
// human-only is a verb the MCP server refuses by name, and no tool runs
// one (story_goal runs ready's --dry-run, which writes nothing); the
// person's command for a refused call is the verb's own.
func TestMCPRefusesEveryHumanOnlyCommand(t *testing.T) {
	t.Parallel()
	for _, c := range commands() {
		if c.humanOnly && !slices.Contains(mcpserver.HumanOnly(), c.def.Name) {
			t.Errorf("aayu %s is human-only but the MCP server does not refuse a tool named for it", c.def.Name)
		}
	}
	for tool, line := range mcpserver.ToolCommands() {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if c, ok := commandFor(f[0]); ok && c.humanOnly && !slices.Contains(f, "--dry-run") {
			t.Errorf("the %s tool runs aayu %s, a human-only step", tool, line)
		}
	}
	for _, c := range []struct {
		verb  string
		args  []string
		flags map[string]string
		want  string
	}{
		{"decide", []string{"2"}, map[string]string{"accept": "1"}, "aayu decide 2 --accept 1"},
		{"ship", []string{"4"}, map[string]string{"solo-bypass": "true"}, "aayu ship 4 --solo-bypass"},
		{"ready", []string{"17"}, nil, "aayu ready 17"},
		{"approve", []string{"0123456789AB"}, nil, "aayu approve 0123456789ab"},
		{"next", []string{"1"}, nil, ""},
	} {
		if got := mcpPerson(c.verb, c.args, c.flags); got != c.want {
			t.Errorf("mcpPerson(%s %v %v) = %q, want %q", c.verb, c.args, c.flags, got, c.want)
		}
	}
}
