package main

import (
	"runtime"

	"fmt"

	core "github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/screens/login"
	"github.com/aayudha/aayu/tui"
)

// runInitBotApp is `aayu init --identity --bot-app`: the bot GitHub App
// through GitHub's App-manifest flow (core.CreateBotApp). It is a person's
// step at a browser: an agent lane and CI are refused, and SSH or a
// computer without a browser stops before anything is served or created.
// Lines only; the App's key goes from GitHub's answer to the sealed secret
// and is never printed.
func (w wiring) runInitBotApp() int {
	ctx, inv, e, sess := w.ctx, w.inv, w.e, w.sess
	say := func(format string, args ...any) { fmt.Fprintf(e.stdout, format+"\n", args...) }
	if sess.owner == "" {
		fmt.Fprintln(e.stderr, "which repository? Give --repo OWNER/NAME (or run it in a checkout whose origin is on GitHub). Nothing was done.")
		return tui.ExitUsage
	}
	if inv.Global.CI {
		fmt.Fprintln(e.stderr, "aayu init --identity --bot-app refuses --ci: it needs a person at a browser. Nothing was created.")
		return tui.ExitRefused
	}
	if lane, marker := identity.AgentLane(e.getenv); lane {
		fmt.Fprintf(e.stderr, "aayu init --identity --bot-app refuses an agent lane (%s is set): creating the bot App is a person's step. Nothing was created.\n", marker)
		return tui.ExitRefused
	}
	if why := core.BrowserRefusal(e.getenv, runtime.GOOS); why != "" {
		fmt.Fprintf(e.stderr, "aayu init --identity --bot-app stops: %s\n", why)
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
	res, err := core.CreateBotApp(ctx, core.BotAppOptions{Client: gh, Web: sess.webURL(), Owner: sess.owner, Repo: sess.repo,
		OwnerIsOrg: repo.GetOwner().GetType() == "Organization", Getenv: e.getenv,
		Open: func(u string) error {
			say("Opening %s in your browser: press the button there, then Create GitHub App on GitHub.", u)
			return openURL(u)
		}})
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu init --identity --bot-app: %s\n", tui.SanitizeLine(err.Error()))
		return tui.ExitFailed
	}
	say("Created and checked the App %s: same owner, the permissions asked for, no events, no webhook.", tui.SanitizeLine(res.Slug))
	say("Set the variable AAYUDHA_APP_CLIENT_ID and the secret AAYUDHA_APP_PRIVATE_KEY on %s/%s.", sess.owner, sess.repo)
	say("Install it on %s/%s only: %s", sess.owner, sess.repo, tui.SanitizeLine(res.InstallURL))
	say("Then add [identity] app_slug = %q and broker = \"aayudha-token.yml\" to .aayudha/config.toml and run aayu init --gates for the broker, through a reviewed pull request.", res.Slug)
	return tui.ExitOK
}
