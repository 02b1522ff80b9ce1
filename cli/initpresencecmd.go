package cli

import (
	"fmt"
	"runtime"

	core "github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/tui"
)

// presenceAppHere says whether `aayu init --identity` makes the presence
// App itself: only --identity, no --client-id, and a browser on this
// computer. Otherwise the init screen shows how to make it by hand.
func presenceAppHere(inv tui.Invocation, getenv func(string) string) bool {
	return inv.Flags["identity"] == "true" && inv.Flags["client-id"] == "" && inv.Flags["gates"] != "true" &&
		core.BrowserRefusal(getenv, runtime.GOOS) == ""
}

// runInitPresenceApp is `aayu init --identity` at a browser: the presence
// check's GitHub App, with no permissions, through GitHub's App-manifest
// flow (core.CreatePresenceApp), and the repository variable naming it.
// A person's step, as the bot App's: an agent lane and CI are refused.
func (w wiring) runInitPresenceApp() int {
	e, sess := w.e, w.sess
	say := func(format string, args ...any) { fmt.Fprintf(e.stdout, format+"\n", args...) }
	bot, code, ok := w.manifestFlowOptions("aayu init --identity", "the presence App", func() string { return "" })
	if !ok {
		return code
	}
	res, err := core.CreatePresenceApp(w.ctx, core.PresenceAppOptions{
		BotAppOptions: bot,
		Say:           func(s string) { say("%s", tui.SanitizeLine(s)) },
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu init --identity: %s\n", tui.SanitizeLine(err.Error()))
		return tui.ExitFailed
	}
	say("Created and checked the presence App %s: no permissions, no events, no webhook, device flow on.", tui.SanitizeLine(res.Slug))
	say("Set the variable %s of %s/%s to %s: every presence check asks this App, and a code anyone starts with it mints a token that reads who you are and nothing else.",
		"AAYUDHA_DEVICE_CLIENT_ID", sess.owner, sess.repo, tui.SanitizeLine(res.ClientID))
	return tui.ExitOK
}
