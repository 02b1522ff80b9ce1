package e2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestEveryCommandWithoutARepositoryRefusesInOneWay: a command that reads
// or writes a repository, run outside any checkout with no --repo and no
// --sandbox, refuses with the same words and exit 2 (usage), whichever
// command it is, and names every way to say which repository.
func TestEveryCommandWithoutARepositoryRefusesInOneWay(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	const want = "which repository? Give --repo OWNER/NAME, run it in a checkout whose origin is on GitHub, or add --sandbox for the demo. Nothing was done."
	for _, args := range [][]string{
		{"inbox", "--list"},
		{"inbox", "--json", "number"},
		{"decide", "1", "--accept", "1"},
		{"ready", "3"},
		{"plan", "3"},
		{"ship", "4"},
		{"pack", "3"},
		{"proof", "push", "3"},
		{"doctor"},
		{"audit"},
		{"init", "--yes"},
		{"approve", "0123456789ab"},
		{"inspect", "4"},
		{"counsel", "1", "--text", "advice"},
		{"release", "--to", "main"},
		{"waive", "4", "--floor", "coverage", "--why", "accepted"},
		{"--ci", "loops"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(bin, append([]string{"--plain"}, args...)...)
			cmd.Dir = t.TempDir()
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME=", "AAYU_GITHUB_TOKEN=", "GH_TOKEN=", "GITHUB_TOKEN=",
				"AAYU_AGENT=", "CLAUDECODE=", "AMP_THREAD_ID=", "CURSOR_AGENT=", "CODEX_SANDBOX=", "CI=", "GITHUB_ACTIONS=")
			out, _ := cmd.CombinedOutput()
			code := cmd.ProcessState.ExitCode()
			if code != 2 || !strings.Contains(string(out), want) {
				t.Errorf("aayu %s outside a checkout: exit %d, want 2 with %q:\n%s", strings.Join(args, " "), code, want, out)
			}
		})
	}
}
