package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/approve"
	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/exitcode"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/tui"
)

// runShipBatch is `aayu ship PR [--solo-bypass]` in a host agent's lane: merging
// is the person's act, so the agent's command becomes a batch of one step.
// It is read as ship reads it — ship's own read-only gates, with the
// person's approval planned in place of the presence check — so a pull
// request ship would refuse now posts nothing and says why; one it would
// merge is pinned to the head and base ship read, and merged on approval
// by ship itself, every gate checked again on that head.
func (w wiring) runShipBatch() int {
	pr, err := strconv.Atoi(w.inv.Args[0])
	if err != nil || pr < 1 {
		fmt.Fprintf(w.e.stderr, "aayu ship: %q is not a pull request number. Nothing was done.\n", tui.SanitizeLine(w.inv.Args[0]))
		return tui.ExitUsage
	}
	bypass := w.inv.Flags["solo-bypass"] == "true"
	command := core.Command(pr)
	if bypass {
		command += " --solo-bypass"
	}
	return w.runBatch(command, func(ctx context.Context, gh *github.Client, person, poster string) (approve.Record, error) {
		res, err := w.shipRun(ctx, gh, poster, pr, bypass, &core.Approval{Login: person}, true)
		if err != nil {
			return approve.Record{}, err
		}
		if res.Plan == nil {
			if res.Merged || res.Shipped {
				return approve.Record{}, errNothingToApprove{fmt.Sprintf("#%d is merged already; nothing to approve (a person's aayu ship %d finishes its record).", pr, pr)}
			}
			return approve.Record{}, exitcode.Refuse("aayu ship %d would be refused now, so no batch was posted: %s", pr, strings.Join(res.Refusals, "; "))
		}
		is, _, err := gh.Issues.Get(ctx, w.sess.owner, w.sess.repo, pr)
		if err != nil {
			return approve.Record{}, fmt.Errorf("reading #%d: %s", pr, ghx.Describe(err))
		}
		item := approve.NewShipItem(pr, res.Plan.Base, res.Plan.Head, is.GetTitle(), is.GetBody(), bypass)
		return approve.NewRecordOf(w.sess.owner+"/"+w.sess.repo, []approve.Item{item}, person, "", "", time.Now())
	})
}

// shipRun runs actions/ship with gh's token (its /user is the writer, or
// viewer when given), a batch approval in place of the presence check,
// and no screen: checkOnly stops after the gates that only read.
func (w wiring) shipRun(ctx context.Context, gh *github.Client, viewer string, pr int, bypass bool, a *core.Approval, checkOnly bool) (core.Result, error) {
	if viewer == "" {
		me, _, err := gh.Users.Get(ctx, "")
		if err != nil {
			return core.Result{}, fmt.Errorf("reading who this token is: %s", ghx.Describe(err))
		}
		viewer = me.GetLogin()
	}
	local, err := w.shipLocal()
	if err != nil {
		return core.Result{}, exitcode.Refuse("%v", err)
	}
	var log *actions.Log
	if dir, _ := actions.DefaultLogDir(w.e.getenv); dir != "" {
		log = actions.OpenLog(dir, nil)
	}
	work, err := os.MkdirTemp("", "aayu-ship-*")
	if err != nil {
		return core.Result{}, err
	}
	defer os.RemoveAll(work)
	s, err := core.New(core.Config{Client: gh, Owner: w.sess.owner, Repo: w.sess.repo, Viewer: viewer, Log: log, WorkDir: work, Local: local,
		SoloBypass: bypass, Approval: a, CheckOnly: checkOnly, Env: w.e.getenv, CI: w.inv.Global.CI, TrustedRoot: w.trustedRoot})
	if err != nil {
		return core.Result{}, err
	}
	return s.Run(ctx, pr, nil)
}

// shipApplier is how an approved batch's ship step runs: actions/ship
// with the writer's client (the bot's in the waiting agent process and the
// approve workflow, the person's own at a terminal) and the batch's
// approval standing in for the presence check, exactly as the login
// screen's would.
func (w wiring) shipApplier(gh *github.Client, appLogin string, out io.Writer) approve.ShipFunc {
	return func(ctx context.Context, a approve.ShipApproval) (string, error) {
		it := a.Item
		fmt.Fprintf(out, "Running %s on head %s, on @%s's approval of batch %s...\n", it.Command, gitsha.Short(it.Head), tui.SanitizeLine(a.Login), a.Batch)
		writer, err := ghx.Writer(ctx, gh, appLogin)
		if err != nil {
			return "", fmt.Errorf("%s: %w", it.Command, err)
		}
		res, err := w.shipRun(ctx, gh, writer, it.Story, it.Bypass,
			&core.Approval{Batch: a.Batch, Login: a.Login, Method: a.Method, Comment: a.Comment, Head: it.Head, Base: it.Base, Trailers: a.Trailers}, false)
		if err != nil {
			if res.Unfinished != "" {
				return "", fmt.Errorf("#%d: %s", it.Story, res.Unfinished)
			}
			return "", fmt.Errorf("%s: %w", it.Command, err)
		}
		if !res.Shipped && res.ApprovalVoid != "" {
			return "", &approve.Refusal{Check: approve.CheckApprovalVoid,
				Reason: fmt.Sprintf("%s: %s; nothing was merged.", it.Command, res.ApprovalVoid),
				Next:   fmt.Sprintf("Ask the agent to run %s again for a new batch.", it.Command)}
		}
		if !res.Shipped {
			return "", &approve.Refusal{Check: approve.CheckStepRefused,
				Reason: fmt.Sprintf("%s now refuses: %s; nothing was merged.", it.Command, strings.Join(res.Refusals, "; ")),
				Next:   "Ask the agent to run it again for a new batch once it would pass."}
		}
		return fmt.Sprintf("#%d squash-merged at head %s as %s; ship.json is on the ledger at %s", it.Story, gitsha.Short(it.Head), gitsha.Short(res.MergeCommit), res.LedgerDir), nil
	}
}
