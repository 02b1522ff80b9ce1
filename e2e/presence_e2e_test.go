package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// startSandboxServer runs a sandbox GitHub the way `aayu sandbox --addr`
// does, so a test can look inside it while aayu talks to it as to GitHub.
func startSandboxServer(t *testing.T) (*sandbox.Server, string) {
	t.Helper()
	return sandboxWith(t, sandbox.Options{StateDir: t.TempDir(), Device: &sandbox.DeviceOptions{Interval: 0, Expiry: 5 * 60e9}})
}

// TestPresenceClientIDFromRepositoryVariable: with no client ID configured
// locally, a marked shell's login asks GitHub for a device code with the
// OAuth App acme/benefits names in its AAYUDHA_DEVICE_CLIENT_ID variable;
// on acme/fresh, which names none, it asks for nothing and says how to
// name one.
func TestPresenceClientIDFromRepositoryVariable(t *testing.T) {
	t.Parallel()
	srv, url := startSandboxServer(t)
	vars := map[string]string{"HOME": t.TempDir(), "CLAUDECODE": "1", "AAYU_GITHUB_TOKEN": "sandbox-founder"}
	a := startAayu(t, vars, "--api-url", url+"/", "--oauth-url", url, "--repo", "acme/benefits", "--plain", "login")
	m := a.waitFor(deviceCodeLine)
	if got := srv.DeviceClientIDsAsked(); !slices.Equal(got, []string{sandbox.DeviceClientID}) {
		t.Fatalf("device codes were asked for %v, want only the variable's %s", got, sandbox.DeviceClientID)
	}
	approveOnSandbox(t, m[1], m[2], "founder")
	a.waitFor(`Approved by @founder`)
	if code := a.exit(); code != tui.ExitOK {
		t.Fatalf("login exited %d:\n%s", code, a.out.String())
	}

	b := startAayu(t, vars, "--api-url", url+"/", "--oauth-url", url, "--repo", "acme/fresh", "--plain", "login")
	b.waitFor(`AAYUDHA_DEVICE_CLIENT_ID`)
	if code := b.exit(); code == tui.ExitOK {
		t.Fatalf("login on a repository naming no App exited 0:\n%s", b.out.String())
	}
	if got := srv.DeviceClientIDsAsked(); len(got) != 1 {
		t.Errorf("a device code was asked for without a client ID: %v", got)
	}
	if strings.Contains(b.out.String(), "sandbox-founder") {
		t.Error("the token's value was printed")
	}
}
