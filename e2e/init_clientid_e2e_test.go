package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// TestInitClientIDProvesTheAppItNames: on a repository that names no
// presence-check App yet (acme/fresh, reached as GitHub is, not through
// --sandbox's own client), aayu init --identity --client-id cannot ask an
// App that is not named; it asks the App it is about to name for the code,
// and on the person's approval and yes sets the variable.
func TestInitClientIDProvesTheAppItNames(t *testing.T) {
	t.Parallel()
	srv, url := startSandboxServer(t)
	f := &freshLoop{t: t, srv: srv, base: url, home: t.TempDir()}
	code, out := f.personWithPresence("init", "--identity", "--client-id", sandbox.DeviceClientID)
	if code != tui.ExitOK || !strings.Contains(out, "Approved by @founder") {
		t.Fatalf("init --identity --client-id exited %d:\n%s", code, out)
	}
	if got := srv.DeviceClientIDsAsked(); !slices.Equal(got, []string{sandbox.DeviceClientID}) {
		t.Errorf("device codes were asked for %v, want the App being named", got)
	}
	v, _, err := f.client("founder").Actions.GetRepoVariable(context.Background(), "acme", "fresh", "AAYUDHA_DEVICE_CLIENT_ID")
	if err != nil || v.Value != sandbox.DeviceClientID {
		t.Errorf("the variable after init: %v %v", v, err)
	}
}
