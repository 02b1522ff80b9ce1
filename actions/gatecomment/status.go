package gatecomment

import (
	"context"
	"fmt"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
)

// StatusContext is the commit status the merge gate's comment job sets on
// the pull request's head: on GitHub the gate's jobs report as check runs
// on the base's tip (pull_request_target), so a ruleset can require the
// gate on a pull request only through this status.
const StatusContext = "aayudha/merge-gate"

// statusOf is the status for the gate's verdict: success only when the
// pack verifies and every floor holds, or every floor that does not is
// waived by an accepted waiver for this head.
func statusOf(code int, missing string, w *Waivers) (state, description string) {
	switch {
	case code == ExitOK && w.All():
		// GitHub keeps at most 140 characters of a description.
		desc := []rune("the proof pack verifies; floors waived: " + w.waivedWords())
		if len(desc) > 140 {
			desc = append(desc[:139], '…')
		}
		return "success", string(desc)
	case code == ExitOK:
		return "success", "the proof pack verifies and every floor holds"
	case code == ExitFloor:
		return "failure", "the proof pack verifies but a floor does not hold"
	case missing != "":
		return "failure", "this run built no pack that can be verified"
	}
	return "failure", "the proof pack does not verify"
}

// setStatus sets aayudha/merge-gate on head for the gate's verdict,
// pointing at the run.
func setStatus(ctx context.Context, client *github.Client, owner, repo, head string, code int, missing string, w *Waivers, links Links) error {
	state, desc := statusOf(code, missing, w)
	st := &github.RepoStatus{State: github.String(state), Context: github.String(StatusContext), Description: github.String(desc)}
	if links.Run != "" {
		st.TargetURL = github.String(links.Run)
	}
	if _, _, err := client.Repositories.CreateStatus(ctx, owner, repo, head, st); err != nil {
		return fmt.Errorf("setting the commit status %s on %s: %s", StatusContext, head, ghx.Describe(err))
	}
	return nil
}
