package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/approve"
	build "github.com/aayudha/aayu/actions/packbuild"
	core "github.com/aayudha/aayu/actions/plan"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// runPlanBatch is `aayu plan STORY [--solo-bypass]` in a host agent's
// lane: a plan review is the person's act, so the agent's command becomes
// a batch of one step, read as the person's own aayu plan reads it (the
// person as the reviewer: never the builder, never a bot; a bypass judged
// as ship judges its own, with the person's approval planned), so a
// refusal, a plan that needs no review or one recorded already posts
// nothing. A plan review counts only as a comment in the person's own
// name, so the step is applied by their reply or by aayu approve HASH at
// their own terminal (approve.applyPlan), never written as the bot.
func (w wiring) runPlanBatch() int {
	story, err := build.ParseStory(w.inv.Args[0])
	if err != nil {
		fmt.Fprintf(w.e.stderr, "aayu plan: %v\n", err)
		return tui.ExitUsage
	}
	bypass := w.inv.Flags["solo-bypass"] == "true"
	command := core.Command(story, bypass)
	return w.runBatch(command, func(ctx context.Context, gh *github.Client, person, _ string) (approve.Record, error) {
		need := identity.NeedFor(bypass)
		here := identity.Decision{Outcome: identity.NeedsPresence, Reason: command + " was started in an agent lane; only its batch's approval shows the person asked for it"}
		r, err := core.Read(ctx, core.Options{Client: gh, Owner: w.sess.owner, Repo: w.sess.repo, Story: story, Viewer: person, SoloBypass: bypass,
			Env: w.e.getenv, Here: &here, Session: &identity.Session{Command: command, Login: person, Access: need, Method: "the batch's approval, asked next"}})
		switch {
		case err != nil:
			return approve.Record{}, err
		case r.NotNeeded != "":
			return approve.Record{}, errNothingToApprove{r.NotNeeded + "; nothing to approve."}
		case r.Same:
			return approve.Record{}, errNothingToApprove{fmt.Sprintf("#%d already has a plan %s covering this plan on the ledger; nothing to approve.", story, r.Record.Kind)}
		}
		is, _, err := gh.Issues.Get(ctx, w.sess.owner, w.sess.repo, story)
		if err != nil {
			return approve.Record{}, fmt.Errorf("reading #%d: %s", story, ghx.Describe(err))
		}
		item := approve.NewPlanItem(story, r.LayerIDs(), is.GetTitle(), is.GetBody(), bypass)
		return approve.NewRecordOf(w.sess.owner+"/"+w.sess.repo, []approve.Item{item}, person, "", "", time.Now())
	})
}
