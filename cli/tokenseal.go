package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// Where the broker's workflow hands aayu token seal its inputs: through
// env:, never inside run: (templates/aayudha-token.yml).
const (
	// sealRequesterVar and sealTriggeringVar carry github.actor and
	// github.triggering_actor to the requester check (brokerRequester).
	sealRequesterVar  = "AAYUDHA_REQUESTER"
	sealTriggeringVar = "AAYUDHA_TRIGGERING_ACTOR"
	sealTokenVar      = "AAYUDHA_APP_TOKEN"
	sealPublicKeyVar  = "AAYUDHA_PUBLIC_KEY"
	sealRequestIDVar  = "AAYUDHA_REQUEST_ID"
)

// runTokenSeal is `aayu token seal --ci --out FILE`, the broker's one aayu
// step: it seals the App's installation token, just minted in this run, to
// the requester's one-time age key (ghx.SealBrokerToken). It runs only
// inside an Actions run, never in an agent lane, and writes nothing to the
// terminal but what went wrong, never the token.
func (w wiring) runTokenSeal() int {
	ctx, inv, e, sess := w.ctx, w.inv, w.e, w.sess
	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(e.stderr, "aayu token seal: "+format+"\nNothing was sealed.\n", args...)
		return code
	}
	out := inv.Flags["out"]
	switch {
	case !inv.Global.CI || out == "":
		return fail(tui.ExitUsage, "the token broker's step; it needs --ci and --out FILE, inside the broker's workflow run.")
	case e.getenv("GITHUB_ACTIONS") != "true":
		return fail(tui.ExitRefused, "it runs only inside the broker's GitHub Actions run (GITHUB_ACTIONS is not \"true\").")
	}
	if lane, marker := identity.AgentLane(e.getenv); lane {
		return fail(tui.ExitRefused, "refused in an agent lane (%s is set): the broker's token is sealed only inside the broker's workflow.", marker)
	}
	tok := ghx.NewToken(e.getenv(sealTokenVar), sealTokenVar)
	if tok.IsZero() {
		return fail(tui.ExitFailed, "%s is empty: the step before it minted no token.", sealTokenVar)
	}
	gh, err := sess.client(tok)
	if err != nil {
		return fail(tui.ExitFailed, "%v", err)
	}
	if why, err := w.brokerRequester(ctx, gh); err != nil {
		return fail(tui.ExitFailed, "%s", tui.SanitizeLine(err.Error()))
	} else if why != "" {
		return fail(tui.ExitRefused, "refused: %s", tui.SanitizeLine(why))
	}
	var sealed bytes.Buffer
	if err := ghx.SealBrokerToken(ctx, gh, tok, e.getenv(sealPublicKeyVar), e.getenv(sealRequestIDVar), &sealed); err != nil {
		return fail(tui.ExitFailed, "%s", tui.SanitizeLine(err.Error()))
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o700); err != nil {
		return fail(tui.ExitFailed, "%v", err)
	}
	if err := os.WriteFile(out, sealed.Bytes(), 0o600); err != nil {
		return fail(tui.ExitFailed, "%v", err)
	}
	fmt.Fprintf(e.stdout, "sealed the App's installation token for request %s to its one-time key\n", tui.SanitizeLine(e.getenv(sealRequestIDVar)))
	return tui.ExitOK
}

// brokerRequester is why this run's requester may not get the bot's
// token, or "" when they may. Seed 001's broker is "dispatched with the
// human's own token", so only a person the repository names may get the
// bot's token through it, never a writer or an agent holding a write
// token (issue 30): the run's github.actor, and github.triggering_actor of
// a re-run too, must each be in [approvals] approvers or be the
// [autonomy] approver on the default branch's .aayudha/config.toml (a
// protected path, changed only by a reviewed pull request), and not a
// bot. The policy is read with the App's token the run just minted.
func (w wiring) brokerRequester(ctx context.Context, gh *github.Client) (string, error) {
	e, sess := w.e, w.sess
	owner, repo := sess.owner, sess.repo
	if owner == "" {
		owner, repo, _ = strings.Cut(e.getenv("GITHUB_REPOSITORY"), "/")
	}
	pol, err := readBatchPolicy(ctx, gh, owner, repo)
	if err != nil {
		return "", fmt.Errorf("reading the default branch's policy: %w", err)
	}
	named := append(append([]string(nil), pol.approvers...), pol.approver)
	for _, v := range []string{sealRequesterVar, sealTriggeringVar} {
		login := strings.TrimSpace(e.getenv(v))
		if login == "" && v == sealTriggeringVar {
			continue
		}
		if r := brokerRequesterRefusal(login, named, append(pol.botLogins, pol.appLogin)); r != "" {
			return r, nil
		}
	}
	return "", nil
}

// brokerRequesterRefusal is why login may not get the bot's token from the
// broker, or "" when it may: a person named by the default branch's
// policy (named), never a bot.
func brokerRequesterRefusal(login string, named, bots []string) string {
	switch {
	case login == "":
		return "the run names no requester (github.actor)."
	case identity.IsBot(identity.Account{Login: login}, bots):
		return fmt.Sprintf("@%s is a bot; the broker mints the bot's token only for a person's own dispatch.", login)
	}
	for _, n := range named {
		if n != "" && identity.SameLogin(n, login) {
			return ""
		}
	}
	return fmt.Sprintf("@%s dispatched the broker, but only a person the default branch names ([approvals] approvers or [autonomy] approver in .aayudha/config.toml) gets the bot's token; a writer's or an agent's dispatch gets none. Add them through a reviewed pull request if they should.", login)
}

// tokenSealCommand is aayu token seal's table entry and run.
func tokenSealCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "token seal",
			Group: "ci",
			Short: "the token broker's step: seal the bot App's token to the requester's key (CI)",
			Long: "The token broker's one aayu step (aayudha-token.yml): encrypts the installation token the run just minted, " +
				"with when GitHub says it expires, to the one-time age key of the aayu that dispatched the run. Run with --ci. " +
				"It seals nothing for a requester the default branch does not name ([approvals] approvers, [autonomy] approver) or a bot.",
			Example: "aayu token seal --ci --out \"$RUNNER_TEMP/aayudha-token/token.age\"",
			Flags: []tui.FlagDef{
				{Name: "out", Value: "FILE", Usage: "where the sealed token is written"},
			},
		},
		run:   wiring.runTokenSeal,
		token: never,
	}
}
