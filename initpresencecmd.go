package main

import (
	"fmt"
	"runtime"

	core "github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/screens/login"
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
	ctx, inv, e, sess := w.ctx, w.inv, w.e, w.sess
	say := func(format string, args ...any) { fmt.Fprintf(e.stdout, format+"\n", args...) }
	if sess.owner == "" {
		fmt.Fprintln(e.stderr, "which repository? Give --repo OWNER/NAME (or run it in a checkout whose origin is on GitHub). Nothing was done.")
		return tui.ExitUsage
	}
	if inv.Global.CI {
		fmt.Fprintln(e.stderr, "aayu init --identity refuses --ci: creating the presence App needs a person at a browser. Nothing was created.")
		return tui.ExitRefused
	}
	if lane, marker := identity.AgentLane(e.getenv); lane {
		fmt.Fprintf(e.stderr, "aayu init --identity refuses an agent lane (%s is set): the presence App is a person's step. Nothing was created.\n", marker)
		return tui.ExitRefused
	}
	tok, _, err := sess.resolve(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu init: %v\nNothing was created.\n", err)
		return tui.ExitFailed
	}
	gh, err := sess.client(tok)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu init: %v\nNothing was created.\n", err)
		return tui.ExitFailed
	}
	repo, _, err := gh.Repositories.Get(ctx, sess.owner, sess.repo)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu init: reading %s/%s: %v\nNothing was created.\n", sess.owner, sess.repo, err)
		return tui.ExitFailed
	}
	openURL := login.OpenInBrowser(e.getenv)
	res, err := core.CreatePresenceApp(ctx, core.PresenceAppOptions{
		BotAppOptions: core.BotAppOptions{Client: gh, Web: sess.webURL(), Owner: sess.owner, Repo: sess.repo,
			OwnerIsOrg: repo.GetOwner().GetType() == "Organization", Getenv: e.getenv,
			Open: func(u string) error {
				say("Opening %s in your browser: press the button there, then Create GitHub App on GitHub.", u)
				return openURL(u)
			}},
		Say: func(s string) { say("%s", tui.SanitizeLine(s)) },
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
