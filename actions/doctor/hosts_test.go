package doctor_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions/doctor"
	"github.com/aayudha/aayu/actions/hostsetup"
	"github.com/aayudha/aayu/model/hostconfig"
)

// TestAgentHostsRow: doctor's row says which hosts are set up in the
// checkout, warns (never fails) when none or one only partly is, or when
// aayu is not on the PATH, and says when it ran outside a checkout.
func TestAgentHostsRow(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	check := func(name string, row doctor.Row, state doctor.State, words ...string) {
		t.Helper()
		if row.Name != doctor.AgentHostsName || row.State != state {
			t.Errorf("%s: %q %s, want %s", name, row.Name, row.State, state)
		}
		for _, w := range words {
			if !strings.Contains(row.Detail+" "+row.Next, w) {
				t.Errorf("%s: %q / %q lacks %q", name, row.Detail, row.Next, w)
			}
		}
	}
	check("outside a checkout", doctor.AgentHostsRow("", true), doctor.Warn, "not run inside a checkout")
	check("none", doctor.AgentHostsRow(root, true), doctor.Warn, "no agent host is connected", "aayu hooks install")
	plan, err := hostsetup.Prepare(root, []hostconfig.Host{hostconfig.ClaudeCode, hostconfig.Codex})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hostsetup.Write(plan); err != nil {
		t.Fatal(err)
	}
	check("two set up", doctor.AgentHostsRow(root, true), doctor.OK, "set up (pre-tool hook and MCP server): claude-code, codex", "not connected: cursor, gemini")
	check("not on the PATH", doctor.AgentHostsRow(root, false), doctor.Warn, "aayu is not on this PATH")
	if err := os.Remove(filepath.Join(root, ".codex", "hooks.json")); err != nil {
		t.Fatal(err)
	}
	check("codex's hook removed", doctor.AgentHostsRow(root, true), doctor.Warn, "partly set up: codex", "set up: claude-code", "aayu hooks install")
}
