package cli

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
	e, sess := w.e, w.sess
	say := func(format string, args ...any) { fmt.Fprintf(e.stdout, format+"\n", args...) }
	const command = "aayu init --identity --bot-app"
	// SSH or a computer without a browser stops before anything is served.
	stop := func() string { return core.BrowserRefusal(e.getenv, runtime.GOOS) }
	opts, code, ok := w.manifestFlowOptions(command, "the bot App", stop)
	if !ok {
		return code
	}
	res, err := core.CreateBotApp(w.ctx, opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %s\n", command, tui.SanitizeLine(err.Error()))
		return tui.ExitFailed
	}
	say("Created and checked the App %s: same owner, the permissions asked for, no events, no webhook.", tui.SanitizeLine(res.Slug))
	say("Set the variable AAYUDHA_APP_CLIENT_ID and the secret AAYUDHA_APP_PRIVATE_KEY on %s/%s.", sess.owner, sess.repo)
	say("Install it on %s/%s only: %s", sess.owner, sess.repo, tui.SanitizeLine(res.InstallURL))
	say("Then add [identity] app_slug = %q and broker = \"aayudha-token.yml\" to .aayudha/config.toml and run aayu init --gates for the broker, through a reviewed pull request.", res.Slug)
	return tui.ExitOK
}

// manifestFlowOptions is what both App-manifest commands (the bot App,
// the presence App) need before GitHub is asked to make an App, decided
// once: the refusals (no repository, --ci, an agent lane, each in words,
// nothing created), the person's client, whether the owner is an
// organisation, and a browser opener that says what it opens. stop, after
// those refusals, may stop the command in words. ok is false with the
// exit code when it refused, stopped or failed.
func (w wiring) manifestFlowOptions(command, what string, stop func() string) (opts core.BotAppOptions, code int, ok bool) {
	ctx, inv, e, sess := w.ctx, w.inv, w.e, w.sess
	if sess.owner == "" {
		fmt.Fprintln(e.stderr, whichRepository)
		return opts, tui.ExitUsage, false
	}
	if inv.Global.CI {
		fmt.Fprintf(e.stderr, "%s refuses --ci: creating %s needs a person at a browser. Nothing was created.\n", command, what)
		return opts, tui.ExitRefused, false
	}
	if lane, marker := identity.AgentLane(e.getenv); lane {
		fmt.Fprintf(e.stderr, "%s refuses an agent lane (%s is set): creating %s is a person's step. Nothing was created.\n", command, marker, what)
		return opts, tui.ExitRefused, false
	}
	if why := stop(); why != "" {
		fmt.Fprintf(e.stderr, "%s stops: %s\n", command, why)
		return opts, tui.ExitRefused, false
	}
	tok, _, err := sess.resolve(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu init: %v\nNothing was created.\n", err)
		return opts, tui.ExitFailed, false
	}
	gh, err := sess.client(tok)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu init: %v\nNothing was created.\n", err)
		return opts, tui.ExitFailed, false
	}
	repo, _, err := gh.Repositories.Get(ctx, sess.owner, sess.repo)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu init: reading %s/%s: %v\nNothing was created.\n", sess.owner, sess.repo, err)
		return opts, tui.ExitFailed, false
	}
	openURL := login.OpenInBrowser(e.getenv)
	return core.BotAppOptions{Client: gh, Web: sess.webURL(), Owner: sess.owner, Repo: sess.repo,
		OwnerIsOrg: repo.GetOwner().GetType() == "Organization", Getenv: e.getenv,
		Open: func(u string) error {
			fmt.Fprintf(e.stdout, "Opening %s in your browser: press the button there, then Create GitHub App on GitHub.\n", u)
			return openURL(u)
		}}, 0, true
}
