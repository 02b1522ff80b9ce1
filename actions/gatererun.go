package actions

import (
	"context"
	"fmt"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gaterun"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/inbox"
)

// gateRerun makes a WriteGateRerun, the last write of accepting a floor
// waiver: the merge gate's newest run on pull request w.Number at head
// w.CommitID failed on the floor before the waiver stood, and its status
// aayudha/merge-gate stays red until the run's comment job runs again and
// reads the waiver. So that run is re-run (POST actions/runs/{id}/rerun,
// which a token that may write to the repository can ask for). The
// Decision is accepted whatever becomes of this: a run that cannot be
// re-run from here is said in words, with the command the person runs,
// never as a failure of the acceptance. was reports that nothing needed
// re-running; rerunWords says what happened.
func (r *run) gateRerun(ctx context.Context, w inbox.Write) (was bool, err error) {
	c, owner, repo := r.e.cfg.Client, r.e.cfg.Owner, r.e.cfg.Repo
	head := gitsha.Short(w.CommitID)
	byHand := func(id int64, why string) (bool, error) {
		r.rerunWords = fmt.Sprintf("the merge gate's run %d on #%d's head %s was not re-run (%s): re-run it so it reads the waiver, with gh run rerun %d --repo %s/%s",
			id, w.Number, head, why, id, owner, repo)
		r.byHand = fmt.Sprintf("Re-run the merge gate's run %d on #%d (gh run rerun %d --repo %s/%s), so its status reads the waiver.", id, w.Number, id, owner, repo)
		return true, nil
	}
	runs, err := ghx.ListWorkflowRuns(ctx, c, owner, repo, gaterun.WorkflowFile, &github.ListWorkflowRunsOptions{Event: gaterun.EventTarget})
	switch {
	case ghx.IsNotFound(err):
		r.rerunWords = fmt.Sprintf("no merge gate has run on #%d's head %s, so none was re-run: it reads the waiver when it runs", w.Number, head)
		return true, nil
	case err != nil:
		r.rerunWords = fmt.Sprintf("the merge gate's runs could not be read (%s), so none was re-run: re-run the newest on #%d's head %s from its page so it reads the waiver",
			ghx.Describe(err), w.Number, head)
		r.byHand = fmt.Sprintf("Re-run the merge gate's newest run on #%d's head %s, so its status reads the waiver.", w.Number, head)
		return true, nil
	}
	target := gaterun.Target{PR: w.Number, Head: w.CommitID}
	for _, run := range runs {
		facts := ghx.GateRunFacts(run)
		ours, why := gaterun.Judge(facts, target)
		switch {
		case !ours || (!gaterun.Decides(facts, target) && why != "still running"):
			continue
		case why == "still running":
			r.rerunWords = fmt.Sprintf("the merge gate's run %d on #%d's head %s is still running, so it was not re-run: if its status stays red once it ends, re-run it with gh run rerun %d --repo %s/%s",
				run.GetID(), w.Number, head, run.GetID(), owner, repo)
			return true, nil
		case gaterun.Qualifies(facts, target):
			r.rerunWords = fmt.Sprintf("the merge gate's run %d on #%d's head %s succeeded, so it needs no re-run", run.GetID(), w.Number, head)
			return true, nil
		}
		if _, err := c.Actions.RerunWorkflowByID(ctx, owner, repo, run.GetID()); err != nil {
			return byHand(run.GetID(), ghx.Describe(err))
		}
		r.rerunWords = fmt.Sprintf("the merge gate's run %d on #%d's head %s was asked to run again, so its status reads the waiver", run.GetID(), w.Number, head)
		return false, nil
	}
	r.rerunWords = fmt.Sprintf("no merge gate has run on #%d's head %s, so none was re-run: it reads the waiver when it runs", w.Number, head)
	return true, nil
}
