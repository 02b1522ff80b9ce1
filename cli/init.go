package cli

import (
	"context"
	"fmt"

	core "github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/screens/initrepo"
	"github.com/aayudha/aayu/screens/login"
	"github.com/aayudha/aayu/tui"
)

// initScreen wires `aayu init`: a person's step (it proposes the gates and
// may set the variable that names the presence check's App), so an agent
// lane and CI are refused and a process without a terminal is asked for
// the presence check first.
func (w wiring) initScreen() (tui.Screen, error) {
	ctx, inv, e, sess, common := w.ctx, w.inv, w.e, w.sess, w.common
	if sess.owner == "" {
		return nil, openErr(tui.ExitUsage, whichRepository)
	}
	opts := core.Options{
		Owner: sess.owner, Repo: sess.repo, ClientID: inv.Flags["client-id"],
		Gates: inv.Flags["gates"] == "true", Identity: inv.Flags["identity"] == "true",
	}
	if opts.ClientID != "" {
		if err := core.CheckClientID(opts.ClientID); err != nil {
			return nil, openErr(tui.ExitRefused, "refused: %s", tui.SanitizeLine(err.Error()))
		}
		opts.Identity = true
	}
	// The pull request is only a proposal: a person reviews and merges it,
	// so proposing needs no approval. The variable is written at once and
	// names the App every later presence check asks, so setting it is a
	// person's step: an agent lane and CI are refused, and a process
	// without a terminal approves by device code first.
	d := identity.RequireHuman(identity.HumanCheck{Command: "aayu init", Env: e.getenv,
		Terminal: e.personsTerminal(), CI: inv.Global.CI, Need: identity.AccessAdmin})
	if d.Outcome == identity.Refused {
		return nil, openErr(tui.ExitRefused, "refused: %s\nNothing was done.", d.Reason)
	}
	if opts.ClientID != "" {
		w.newClientID = opts.ClientID
		if _, code, ok := w.presenceFor(login.Request{
			Command: "aayu init --client-id " + opts.ClientID, Need: identity.AccessAdmin,
			Approving: []string{fmt.Sprintf("Sets the repository variable %s of %s/%s to %s, the App every presence check will ask.", ghx.DeviceClientVariable, sess.owner, sess.repo, opts.ClientID)},
		}); !ok {
			return nil, &openError{code: code} // the presence check said why
		}
	}
	return initrepo.New(ctx, common, initrepo.Deps{
		Yes: inv.Flags["yes"] == "true", DryRun: inv.Global.DryRun,
		Identity: opts.Identity || !opts.Gates,
		Guide:    guide(inv, sess),
		Read: func(ctx context.Context) (core.Plan, error) {
			tok, _, err := sess.resolve(ctx)
			if err != nil {
				return core.Plan{}, err
			}
			gh, err := sess.client(tok)
			if err != nil {
				return core.Plan{}, err
			}
			user, _, err := gh.Users.Get(ctx, "")
			if err != nil {
				return core.Plan{}, fmt.Errorf("could not read which account this token is: %w", err)
			}
			o := opts
			o.Client, o.Login = gh, user.GetLogin()
			return core.Read(ctx, o)
		},
		Apply: func(ctx context.Context, p core.Plan) (core.Result, error) {
			tok, _, err := sess.resolve(ctx)
			if err != nil {
				return core.Result{}, err
			}
			gh, err := sess.client(tok)
			if err != nil {
				return core.Result{}, err
			}
			return core.Apply(ctx, gh, p)
		},
	}), nil
}

// guide is how to create the presence check's App by hand. The sandbox has
// no settings pages; its own presence App is sandbox.OwnClientID.
func guide(inv tui.Invocation, sess *session) []string {
	g := core.AppGuide(sess.webURL(), sess.owner, sess.repo)
	if inv.Global.Sandbox {
		g = append(g, "(The sandbox has no settings pages; its own presence App, with no permissions, is "+sandbox.OwnClientID+": try aayu --sandbox --repo "+sess.owner+"/"+sess.repo+" init --identity --client-id "+sandbox.OwnClientID+".)")
	}
	return g
}

// initCommand is aayu init's table entry and run.
func initCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "init",
			Group: "setup",
			Short: "set up a repository, proposed as one pull request",
			Long: "Set up a repository: the merge gate, the protected-paths gate, config, LAYERS.md and CODEOWNERS, " +
				"proposed as one pull request, and the presence check's App (a GitHub App with no permissions) and its repository variable. " +
				"--gates or --identity does only that half.",
			Example: "aayu init\naayu init --yes\naayu init --identity --client-id Iv1.0123456789abcdef\naayu init --identity --bot-app",
			Flags: []tui.FlagDef{
				{Name: "yes", Usage: "take every proposed default without asking"},
				{Name: "gates", Usage: "only the gates, config, LAYERS.md and CODEOWNERS"},
				{Name: "identity", Usage: "only the presence check's App and its repository variable; with a browser here, creates the App (no permissions) through GitHub's App-manifest flow"},
				{Name: "client-id", Value: "ID", Usage: "the presence App's client ID (Iv23…), for --identity, when you made the App by hand"},
				{Name: "bot-app", Usage: "with --identity: create the bot GitHub App through GitHub's App-manifest flow (needs a browser here)"},
			},
		},
		run: func(w wiring) int {
			switch {
			case w.inv.Flags["bot-app"] == "true":
				return w.runInitBotApp()
			case presenceAppHere(w.inv, w.e.getenv):
				return w.runInitPresenceApp()
			}
			return w.runScreen(w.initScreen)
		},
	}
}
