package cli

import (
	"context"

	"github.com/google/go-github/v66/github"

	build "github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// wiring is the composition root (gh's Factory): the one small set of
// dependencies every command's run and every screen of this run is built
// from: the run's context, its command line and environment, the
// layered settings, the GitHub session and what the shell shares with
// every screen. Its screen builders return (tui.Screen, error); an
// *openError carries the exit code the command line ends with. The inbox
// calls the same builders to open ship, the pack viewer and verify on top
// of it.
type wiring struct {
	ctx    context.Context
	inv    tui.Invocation
	e      env
	cfg    *config.Config
	sess   *session
	common tui.Common
	src    configSources
	// newClientID is the OAuth App aayu init --client-id is about to name:
	// the presence check asks it for the code when nothing names an App
	// yet, since the App cannot be named before a person is present.
	newClientID string
}

// fallbackTrailers tag a ledger commit an agent lane makes under the
// person's token (no bot App or machine user configured, no
// AAYU_BOT_TOKEN): the seed's human-fallback trailer, which aayu audit
// lists in its own section.
func (w wiring) fallbackTrailers() []string {
	if lane, _ := identity.AgentLane(w.e.getenv); !lane {
		return nil
	}
	if c := w.botResolver().Choice(); c.Kind == ghx.BotHumanFallback {
		return []string{c.Trailer}
	}
	return nil
}

// botResolver is the seed's Resolver.Bot wired to this run: the
// environment, the [identity] table, the person's token (for the fallback
// and the broker's dispatch), the broker, and the OS keyring.
func (w wiring) botResolver() ghx.Resolver {
	r := ghx.Resolver{Getenv: w.e.getenv, Identity: identityConfig(w.cfg), Secret: ghx.KeyringSecret(nil, 0)}
	if w.sess != nil {
		r.Human = func(ctx context.Context) (ghx.Token, error) {
			tok, _, err := w.sess.resolve(ctx)
			return tok, err
		}
		if w.sess.owner != "" {
			// The broker is dispatched with the person's token, so the run
			// is theirs in the workflow history; its token is the bot's.
			r.Broker = func(ctx context.Context, human ghx.Token) (ghx.Token, error) {
				gh, err := w.sess.client(human)
				if err != nil {
					return ghx.Token{}, err
				}
				return ghx.Broker{Client: gh, Owner: w.sess.owner, Repo: w.sess.repo, Workflow: r.Identity.Broker}.Mint(ctx)
			}
		}
	}
	return r
}

// writeToken is the token this run's writes go out with: an agent lane
// writes under the bot (Resolver.Bot; the person's token only in solo
// mode, tagged by fallbackTrailers), a person under their own token.
func (w wiring) writeToken(ctx context.Context) (ghx.Token, error) {
	if lane, _ := identity.AgentLane(w.e.getenv); lane {
		tok, _, err := w.botResolver().Bot(ctx)
		return tok, err
	}
	tok, _, err := w.sess.resolve(ctx)
	return tok, err
}

// whichRepository is the one refusal of a command that reads or writes a
// repository and was told none: no --repo, no checkout whose origin is on
// GitHub, no --sandbox.
const whichRepository = "which repository? Give --repo OWNER/NAME, run it in a checkout whose origin is on GitHub, or add --sandbox for the demo. Nothing was done."

// storyCommand is the preamble of a command on one Story (ready, plan):
// the Story's number from the argument, the repository it is in, and the
// client it reads with, built when first used so a refusal asks for no
// token.
func (w wiring) storyCommand() (int, func(context.Context) (*github.Client, error), error) {
	story, err := build.ParseStory(w.inv.Args[0])
	if err != nil {
		return 0, nil, openErr(tui.ExitUsage, "%v", err)
	}
	if w.sess.owner == "" {
		return 0, nil, openErr(tui.ExitUsage, whichRepository)
	}
	client := func(ctx context.Context) (*github.Client, error) {
		tok, _, err := w.sess.resolve(ctx)
		if err != nil {
			return nil, err
		}
		return w.sess.client(tok)
	}
	return story, client, nil
}
