package ship

import (
	"context"
	"errors"
	"strings"
	"time"
)

// RunChoice is the merge-gate run ship would take for a pull request now,
// and ship's own verdict on it: gate 3 (the gate pack) as ship would judge
// it, with nothing written.
type RunChoice struct {
	PR   int
	Head string // the pull request's head, which the run's pack must prove
	// RunID is the run ship would take; 0 when none qualifies (Verdict says
	// why).
	RunID   int64
	Attempt int
	URL     string
	// Verdict is gate 3's line in ship's words: the run's pack verifies and
	// its floors hold, or which floor does not, or why nothing qualifies.
	Verdict string
	// FloorsHold: the run's pack verifies and every floor holds, so gate 3
	// passes.
	FloorsHold bool
	// Waivers are the floors of the run's pack that do not hold, each
	// waived by an accepted waiver Decision for this head.
	Waivers []WaiverRecord
	// Passed are the runs of this pull request ship passes over before the
	// one it takes, newest first, each with its reason.
	Passed []PassedOver
}

// SelectRun says which merge-gate run ship would take for pull request pr,
// by ship's own rule: it reads the pull request (gate 1's read), the base
// branch's policy (gate 2's) and judges the runs as gate 3 does, through
// the very functions ship runs (checkPack, selectRun). It writes nothing to
// GitHub; the artifacts it downloads go under cfg.WorkDir, which the caller
// removes. cfg needs Client, Owner, Repo and WorkDir; Now and Caps default
// as in New.
func SelectRun(ctx context.Context, cfg Config, pr int) (RunChoice, error) {
	switch {
	case cfg.Client == nil || cfg.Owner == "" || cfg.Repo == "":
		return RunChoice{}, errors.New("choosing ship's run needs a GitHub client and the repository")
	case cfg.WorkDir == "":
		return RunChoice{}, errors.New("choosing ship's run needs a folder for the artifacts")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.Caps = cfg.Caps.withDefaults()
	r := &run{cfg: cfg, ctx: ctx, pr: pr}
	out, err := r.checkPR()
	if err != nil {
		return RunChoice{}, err
	}
	choice := RunChoice{PR: pr, Head: r.target.head}
	if r.target.head == "" {
		// Ship stops at gate 1 and judges no run.
		choice.Verdict = strings.Join(out.refusals, "; ")
		return choice, nil
	}
	if _, err := r.checkPolicy(); err != nil {
		return RunChoice{}, err
	}
	out, err = r.checkPack()
	if err != nil {
		return RunChoice{}, err
	}
	choice.Passed = r.res.Passed
	choice.Verdict = out.words
	if len(out.refusals) > 0 {
		choice.Verdict = strings.Join(out.refusals, "; ")
	}
	if r.evidence.pack != nil {
		choice.RunID, choice.Attempt, choice.URL = r.evidence.pack.run.GetID(), r.evidence.pack.run.GetRunAttempt(), r.evidence.pack.run.GetHTMLURL()
		choice.FloorsHold = (r.evidence.pack.report.FloorsHold || len(r.evidence.waivers) > 0) && len(out.refusals) == 0
		choice.Waivers = r.evidence.waivers
	}
	return choice, nil
}
