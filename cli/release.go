package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/google/go-github/v66/github"

	core "github.com/aayudha/aayu/actions/release"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/screens/login"
	"github.com/aayudha/aayu/screens/release"
	"github.com/aayudha/aayu/tui"
)

// releaseScreen wires `aayu release --to BRANCH [--tag TAG]`. Promoting to
// the stable branch is a person's act, and an admin's: aayu's own lane was
// refused before (refuseAayuLane), and CI and a host agent's lane without
// a terminal are refused here at once, naming the command the person runs
// (it never waits for a code). Everything that only reads comes first, so
// a refusal or a release that is blocked asks for no code; then the
// presence check, always by device flow (the approval the promotion
// record names, via: device-flow), as an admin; then the yes.
func (w wiring) releaseScreen() (tui.Screen, error) {
	ctx, inv, e, sess, common := w.ctx, w.inv, w.e, w.sess, w.common
	to := inv.Flags["to"]
	if to == "" {
		return nil, openErr(tui.ExitUsage, "which stable branch? Give --to BRANCH, e.g. aayu release --to main. Nothing was done.")
	}
	if sess.owner == "" {
		return nil, openErr(tui.ExitUsage, whichRepository)
	}
	command, dryRun := core.Command(to), inv.Global.DryRun
	if !dryRun {
		if refusal := releaseLaneRefusal(inv, e, command); refusal != "" {
			return nil, openErr(tui.ExitRefused, "%s", refusal)
		}
	}
	client := func(ctx context.Context) (*github.Client, error) {
		tok, _, err := sess.resolve(ctx)
		if err != nil {
			return nil, err
		}
		return sess.client(tok)
	}
	work, err := os.MkdirTemp("", "aayu-release-*")
	if err != nil {
		return nil, err
	}
	read := func(ctx context.Context) (core.Plan, error) {
		gh, err := client(ctx)
		if err != nil {
			return core.Plan{}, err
		}
		user, _, err := gh.Users.Get(ctx, "")
		if err != nil {
			return core.Plan{}, fmt.Errorf("could not read which account this token is: %w", err)
		}
		return core.Read(ctx, core.Options{Client: gh, Owner: sess.owner, Repo: sess.repo, To: to, Tag: inv.Flags["tag"],
			Viewer: user.GetLogin(), WorkDir: work})
	}
	var approval core.Approval
	if !dryRun {
		here := w.here(command)
		p, err := read(ctx)
		if err == nil && len(p.Blocks) == 0 {
			s, code, ok := w.releasePresence(login.Request{Command: command, Need: identity.AccessAdmin, MustBe: p.Viewer,
				Approving: []string{fmt.Sprintf("Promotes %s of %s/%s to %s's tip %s (%d %s with proof, %d carried without proof), "+
					"records the promotion on the ledger naming you, and tags and publishes the release %s.",
					to, sess.owner, sess.repo, p.From, gitsha.Short(p.FromSHA), len(p.Stories), tui.Plural(len(p.Stories), "Story", "Stories"), len(p.Unproven), p.Tag)},
			}, here)
			if !ok {
				_ = os.RemoveAll(work)
				return nil, &openError{code: code} // the presence check said why
			}
			approval = core.Approval{Login: s.Login, Via: s.Method, AgentMarker: here.Marker}
		}
		read = func(context.Context) (core.Plan, error) { return p, err }
	}
	return release.New(ctx, common, release.Deps{
		To: to, DryRun: dryRun, Read: read,
		Apply: func(ctx context.Context, p core.Plan) (core.Result, error) {
			gh, err := client(ctx)
			if err != nil {
				return core.Result{}, err
			}
			return core.Apply(ctx, gh, p, approval, time.Now())
		},
		LastWords: func(ctx context.Context, p core.Plan) []string {
			gh, err := client(ctx)
			if err != nil {
				return nil
			}
			return core.Held(ctx, gh, p)
		},
		Close: func() { _ = os.RemoveAll(work) },
	}), nil
}

// releaseLaneRefusal is why this process may not release at all, in
// words naming what the person runs; "" when it may go on to the reads.
// A host agent's lane with no terminal never waits for a code, so it is
// refused at once rather than made a batch: a release is approved at the
// person's own terminal or by their device code, never by a reply.
func releaseLaneRefusal(inv tui.Invocation, e env, command string) string {
	d := identity.Here(identity.HumanCheck{Command: command, Env: e.getenv, Terminal: e.personsTerminal(), CI: inv.Global.CI})
	if d.Outcome == identity.Refused {
		return fmt.Sprintf("refused: %s.\nThe person releases at their own terminal: %s (an admin, with the device code it shows).\nNothing was done.", tui.SanitizeLine(d.Reason), command)
	}
	if hostBatchLane(e) {
		_, marker := identity.AgentLane(e.getenv)
		return fmt.Sprintf("refused: %s is the person's act and this is an agent host's lane (%s) with no terminal; a release never waits for an approval here.\nThe person releases at their own terminal: %s (an admin, with the device code it shows).\nNothing was done.", command, marker, command)
	}
	return ""
}

// releasePresence is the presence check a release always takes, by device
// flow, as an admin: even at a person's own terminal, since the promotion
// record names who approved and by which means (via: device-flow).
func (w wiring) releasePresence(req login.Request, here identity.Decision) (*identity.Session, int, bool) {
	screen, err := w.loginScreen(req, here)
	if err != nil {
		fmt.Fprintf(w.e.stderr, "aayu: %v\nNothing was done.\n", err)
		return nil, tui.ExitFailed, false
	}
	code, err := tui.Run(w.ctx, screen, runOptions(w.inv, w.e, w.common))
	if err != nil {
		fmt.Fprintf(w.e.stderr, "aayu: %v\n", err)
	}
	if s, ok := screen.Session(); ok && code == tui.ExitOK && s != nil {
		return s, code, true
	}
	if code == tui.ExitOK {
		code = tui.ExitRefused
	}
	return nil, code, false
}

// releaseCommand is aayu release's table entry and run.
func releaseCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "release",
			Group: "daily",
			Short: "promote the integration branch to the stable branch, on an admin's device-code approval",
			Long: "What the integration branch holds that the stable branch lacks, Story by Story: each Story's ship record and pack, " +
				"verified again; what it carries without proof (a merge without ship, an open audit, a correction); what blocks it. " +
				"Then the presence check (an admin, by device code), then one confirmation listing the writes: the promotion " +
				"(a fast-forward, or a pull request where the rulesets ask for one), the promotion record releases/TAG.json on the ledger, " +
				"the tag and the GitHub release.\n" +
				"An agent's lane and CI are refused at once, naming the command the person runs.",
			Example: "aayu release --to main\naayu release --to main --tag v1.4.0\n# what would be released; writes nothing\naayu release --to main --dry-run",
			Flags: []tui.FlagDef{
				{Name: "to", Value: "BRANCH", Usage: "the stable branch to promote to (e.g. main)"},
				{Name: "tag", Value: "TAG", Usage: "the release's tag (default vYEAR.MONTH.DAY)"},
			},
		},
		run:       screenRun(wiring.releaseScreen),
		humanOnly: true,
		person: func(inv tui.Invocation) string {
			if to := inv.Flags["to"]; to != "" {
				return core.Command(to)
			}
			return "aayu release --to main"
		},
	}
}
