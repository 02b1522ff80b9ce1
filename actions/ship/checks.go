package ship

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/checks"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/untrusted"
)

// InspectContext is the check by which inspect states its judgement.
const InspectContext = checks.InspectContext

// actionsBot is the account a workflow's GITHUB_TOKEN posts as, and
// actionsApp the app behind every check run an Actions job creates.
const (
	actionsBot = checks.ActionsBot
	actionsApp = checks.ActionsApp
)

// checkPRAndChecks is gate 1 with what GitHub itself will hold the merge
// to, judged before anyone is asked: every check on the head green and
// every check the base requires (rulesets and branch protection) passed,
// across check runs and statuses (SPEC §9 "Required checks"); and a merge
// method the repository allows.
func (r *run) checkPRAndChecks() (gateOutcome, error) {
	out, err := r.checkPR()
	if err != nil || len(out.refusals) > 0 || r.target.resume != nil || r.res.Shipped || r.target.head == "" {
		return out, err
	}
	refusals, words, err := r.requiredChecks()
	if err != nil {
		return out, err
	}
	method, err := r.mergeMethod()
	if err != nil {
		return out, err
	}
	if method != "" {
		refusals = append(refusals, method)
	}
	if len(refusals) > 0 {
		return gateOutcome{refusals: refusals, detail: out.detail}, nil
	}
	out.words += "; " + words
	return out, nil
}

// requiredChecks judges the head's checks against the base's requirements.
func (r *run) requiredChecks() (refusals []string, words string, err error) {
	req, err := r.readRequired(r.target.baseRef)
	required, unread := req.required, req.unread
	if err != nil {
		return nil, "", fmt.Errorf("reading the checks %s requires: %s", r.target.baseRef, ghx.Describe(err))
	}
	list, err := r.readHeadChecks(r.target.head)
	if err != nil {
		return nil, "", fmt.Errorf("reading the checks of head %s: %s", gitsha.Short(r.target.head), ghx.Describe(err))
	}
	v := checks.Judge(list, required)
	if !v.Green() {
		return v.Refusals(gitsha.Short(r.target.head), r.target.baseRef), "", nil
	}
	var names []string
	for _, q := range v.Required {
		names = append(names, untrusted.Line(q.Name))
	}
	words = fmt.Sprintf("every check on it is green (%d)", len(list))
	if len(names) > 0 {
		words = fmt.Sprintf("every check on it is green, including what %s requires: %s", r.target.baseRef, strings.Join(names, ", "))
	}
	if unread {
		words += " (your token may not read branch protection, so a check required only there is not seen; GitHub still enforces it)"
	}
	return nil, words, nil
}

// mergeMethod refuses, in words, a repository that does not allow squash
// merges: ship merges only by squash (SPEC §5), so the pack's head lands
// as one commit. "" when squash is allowed, or when GitHub did not say
// (the settings show only to accounts that may change them; GitHub's 405
// then says it at the merge).
func (r *run) mergeMethod() (string, error) {
	repo, err := r.readRepo()
	if err != nil {
		return "", fmt.Errorf("reading %s's merge settings: %s", r.repoName(), ghx.Describe(err))
	}
	if repo.AllowSquashMerge == nil || repo.GetAllowSquashMerge() {
		return "", nil
	}
	var allowed []string
	if repo.GetAllowMergeCommit() {
		allowed = append(allowed, "merge commits")
	}
	if repo.GetAllowRebaseMerge() {
		allowed = append(allowed, "rebase merges")
	}
	return fmt.Sprintf("%s does not allow squash merges (it allows %s), and ship merges only by squash, so the shipped head lands as one commit: an admin turns on Allow squash merging (Settings, General, Pull Requests)",
		r.repoName(), strings.Join(allowed, " and ")), nil
}

// mergeRefusedWords says in words why GitHub answered the merge with 405:
// the rule of the base's rulesets that refused it, or the merge setting.
func (r *run) mergeRefusedWords(message string) string {
	msg := strings.TrimSpace(message)
	if rest, ok := strings.CutPrefix(msg, "Repository rule violations found"); ok {
		var rules []string
		for _, line := range strings.Split(rest, "\n") {
			if line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- ")); line != "" {
				rules = append(rules, untrusted.Line(line))
			}
		}
		return fmt.Sprintf("GitHub refused the merge: a ruleset on %s requires what head %s does not have — %s; nothing was merged",
			r.target.baseRef, gitsha.Short(r.target.head), strings.Join(rules, " "))
	}
	return fmt.Sprintf("GitHub refused the merge (%s); nothing was merged", untrusted.Line(msg))
}

// onProof says whether [autonomy] proof may merge this pull request with no
// review: the pack verified with its floors holding, the head green by the
// one rule (checks.Rule: no check fails, every required one passed), and
// inspect's judgement at a rung in proof_rungs — taken only
// from the merge gate's own run for this pull request into its base (the
// run the pack came from): its check run, or a status github-actions[bot]
// posted with that run as its target. Any other inspect judgement grants
// nothing and is named in r.evidence.proofNotes.
func (r *run) onProof() (bool, error) {
	p := r.evidence.base.policy
	if !p.Proof || r.evidence.pack == nil || !r.evidence.pack.report.FloorsHold {
		return false, nil
	}
	list, err := r.readHeadChecks(r.target.head)
	if err != nil {
		return false, fmt.Errorf("reading the checks of head %s: %s", gitsha.Short(r.target.head), ghx.Describe(err))
	}
	req, err := r.readRequired(r.target.baseRef)
	if err != nil {
		return false, fmt.Errorf("reading the checks %s requires: %s", r.target.baseRef, ghx.Describe(err))
	}
	// The one green rule (checks.Rule), as ship's first gate judges it.
	green := checks.Judge(list, req.required).Green()
	runPath := r.gateRunPath()
	rungOK := false
	for _, c := range list {
		if c.Name != InspectContext {
			continue
		}
		if !checks.InspectFromGate(c, runPath) {
			r.evidence.proofNotes = append(r.evidence.proofNotes, fmt.Sprintf("%s grants nothing: merge on proof takes inspect's judgement only from the merge gate's own run %d for #%d into %s (its check run, or a status %s posted for that run)",
				c.Describe(), r.evidence.pack.run.GetID(), r.pr, r.target.baseRef, actionsBot))
			continue
		}
		if c.State != checks.Green {
			continue
		}
		for _, rung := range p.ProofRungs {
			if strings.HasPrefix(c.Summary, "rung "+rung+":") || strings.HasPrefix(c.Summary, "rung "+rung+" ") {
				rungOK = true
			}
		}
	}
	return green && rungOK, nil
}

// gateRunPath is the web path of the merge gate's run the pack came from,
// /OWNER/REPO/actions/runs/ID.
func (r *run) gateRunPath() string {
	if u, err := url.Parse(r.evidence.pack.run.GetHTMLURL()); err == nil && u.Path != "" {
		return strings.TrimSuffix(u.Path, "/")
	}
	return fmt.Sprintf("/%s/%s/actions/runs/%d", r.cfg.Owner, r.cfg.Repo, r.evidence.pack.run.GetID())
}

// described words an error as ghx.Describe does and keeps it in the chain,
// so a caller can still tell a transient failure (ghx.Retryable) from a
// refusal: the story update retries a comment read dropped mid-answer.
type described struct{ err error }

func (d described) Error() string { return ghx.Describe(d.err) }
func (d described) Unwrap() error { return d.err }
