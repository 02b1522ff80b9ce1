package cli

import (
	"testing"

	"github.com/aayudha/aayu/tui"
)

// TestLocalPackLooksUpNothing: `aayu pack DIR` checks a folder on this
// machine, so openSession neither asks for a token nor runs git to find the
// checkout's repository for it (localPack, pack's offline rule); `aayu pack STORY` and every
// other command still do.
func TestLocalPackLooksUpNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		inv   tui.Invocation
		local bool
	}{
		{tui.Invocation{Command: "pack", Args: []string{dir}}, true},
		{tui.Invocation{Command: "pack", Args: []string{"12"}}, false},
		{tui.Invocation{Command: "pack", Args: []string{dir + "/missing"}}, false},
		{tui.Invocation{Command: "pack"}, false},
		{tui.Invocation{Command: "inbox", Args: []string{dir}}, false},
	} {
		cmd, _ := commandFor(c.inv.Command)
		if got := cmd.offline != nil && cmd.offline(c.inv); got != c.local {
			t.Errorf("offline(%s %q) = %v, want %v", c.inv.Command, c.inv.Args, got, c.local)
		}
		if c.inv.Command == packCommand().def.Name && len(c.inv.Args) > 0 && cmd.needsToken(c.inv) == c.local {
			t.Errorf("needsToken(pack %q) = %v, want %v", c.inv.Args, cmd.needsToken(c.inv), !c.local)
		}
	}
}
