package gatecomment

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/google/go-github/v66/github"

	inspectjob "github.com/aayudha/aayu/actions/inspect"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/checks"
	"github.com/aayudha/aayu/model/inspect"
)

// InspectDir is where the comment job downloads the inspect job's
// aayudha-inspect artifact, beside the pack, in its empty working folder.
const InspectDir = ".aayudha/inspect"

// inspectRead is the inspect job's judgement as the comment job found it:
// none (the job did not run), one it refused (why), or one to post.
type inspectRead struct {
	j   *inspect.Judgement
	why string
}

// readInspect reads the judgement of this head from the comment job's
// folder. It is aayu's own file, from this run, but it is still held to
// the pull request and head the job runs for before anything is posted.
func readInspect(cfg Config, pr int, head string) inspectRead {
	dir := cfg.InspectDir
	if dir == "" {
		checkout := cfg.Checkout
		if checkout == "" {
			checkout = "."
		}
		dir = filepath.Join(checkout, InspectDir)
	}
	j, err := inspectjob.Read(dir, pr, head)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return inspectRead{}
	case err != nil:
		return inspectRead{why: "inspect's judgement could not be used: " + err.Error()}
	}
	return inspectRead{j: &j}
}

// setInspectStatus posts aayudha/inspect on head for the judgement, from
// this run (its target is the run, so checks.InspectFromGate takes it as
// the gate's own). Outside Actions there is no run to name, and a status
// that names none would count for nothing, so none is posted.
func setInspectStatus(ctx context.Context, client *github.Client, owner, repo, head string, j *inspect.Judgement, links Links) error {
	if j == nil || links.Run == "" {
		return nil
	}
	state, desc := j.Status()
	st := &github.RepoStatus{State: github.String(state), Context: github.String(checks.InspectContext),
		Description: github.String(desc), TargetURL: github.String(links.Run)}
	if _, _, err := client.Repositories.CreateStatus(ctx, owner, repo, head, st); err != nil {
		return fmt.Errorf("setting the commit status %s on %s: %s", checks.InspectContext, head, ghx.Describe(err))
	}
	return nil
}

// writeInspect renders inspect's judgement: the rung and its status words,
// the reviewer and its spend, then each criterion with its mapped tests,
// what the gate found, and the model's rung and reasons. Every text from
// the pull request or the model passes through inline.
func writeInspect(b *strings.Builder, in inspectRead) {
	line := func(format string, args ...any) { fmt.Fprintf(b, format+"\n", args...) }
	if in.why != "" {
		line("### aayudha/inspect: no judgement")
		line("")
		line("%s", inline(in.why))
		line("")
		return
	}
	j := in.j
	if j == nil {
		return
	}
	state, desc := j.Status()
	line("### aayudha/inspect: %s", inline(desc))
	line("")
	reviewer := "none"
	if j.Reviewer != "" {
		reviewer = inline(j.Reviewer)
	}
	line("status %s · reviewer %s · spend %s", state, reviewer, spendWords(j.Spend))
	line("")
	if j.Builder != "" {
		// The agent's word (the head commit's Aayudha-Model trailer),
		// recorded, never certified.
		line("builder %s", inline(j.Builder))
		line("")
	}
	if j.Capped != "" {
		// Cap caps at rung C only.
		line("Rung capped at %s: %s.", inspect.RungC, inline(j.Capped))
		line("")
	}
	for _, c := range j.Criteria {
		tests := "no mapped test"
		if len(c.Tests) > 0 {
			names := make([]string, len(c.Tests))
			for i, t := range c.Tests {
				names[i] = code(t)
			}
			tests = strings.Join(names, ", ")
		}
		line("- Criterion %d (%s): %s", c.ID, tests, criterionWords(c))
		for _, p := range c.Problems {
			line("  - %s", inline(p))
		}
		if c.Reasons != "" {
			line("  - reviewer: %s", inline(c.Reasons))
		}
	}
	if len(j.Criteria) > 0 {
		line("")
	}
}

func criterionWords(c inspect.Criterion) string {
	switch {
	case c.Rung != "" && c.Shown && len(c.Problems) == 0:
		return "shown, rung " + inline(c.Rung)
	case c.Rung != "":
		return "not shown, rung " + inline(c.Rung)
	case len(c.Problems) == 0:
		return "the mapped tests ran, passed, exist at the head and can fail"
	}
	return fmt.Sprintf("%d %s", len(c.Problems), map[bool]string{true: "finding", false: "findings"}[len(c.Problems) == 1])
}

// spendWords says what the reviewer cost: tokens always, dollars only
// when the endpoint priced them.
func spendWords(s inspect.Spend) string {
	if s.TokensIn == 0 && s.TokensOut == 0 {
		return "none"
	}
	w := fmt.Sprintf("%s tokens in, %s out", groupDigits(s.TokensIn), groupDigits(s.TokensOut))
	if s.USD > 0 {
		return w + fmt.Sprintf(", $%.4f", s.USD)
	}
	return w + ", cost not priced by the endpoint"
}

func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
