package ship

import (
	"fmt"
	"net/url"
	"slices"
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
	if r.evidence.pack == nil {
		return false, nil
	}
	list, err := r.readHeadChecks(r.target.head)
	if err != nil {
		return false, fmt.Errorf("reading the checks of head %s: %s", gitsha.Short(r.target.head), ghx.Describe(err))
	}
	// The rung is read whether or not proof is on: an autonomous merge's
	// audit entry records it too, and its sample counts toward a streak
	// only at rung A or B (pass.SampleCounts).
	r.evidence.rung = r.gateRung(list, p.ProofRungs, p.Proof)
	if !p.Proof {
		return false, nil
	}
	if !r.evidence.pack.report.FloorsHold {
		r.proofWhyNot("the pack's floors do not all hold")
		return false, nil
	}
	req, err := r.readRequired(r.target.baseRef)
	if err != nil {
		return false, fmt.Errorf("reading the checks %s requires: %s", r.target.baseRef, ghx.Describe(err))
	}
	// The one green rule (checks.Rule), as ship's first gate judges it.
	green := checks.Judge(list, req.required).Green()
	r.evidence.proofChecks = list
	switch {
	case !green:
		r.proofWhyNot(fmt.Sprintf("head %s is not green (a check failed, or one %s requires has not passed)", gitsha.Short(r.target.head), r.target.baseRef))
	case r.evidence.rung == "":
		r.proofWhyNot(fmt.Sprintf("the merge gate's own run posted no green %s judgement at a rung for head %s", InspectContext, gitsha.Short(r.target.head)))
	case !slices.Contains(p.ProofRungs, r.evidence.rung):
		allowed := strings.Join(p.ProofRungs, ", ")
		if allowed == "" {
			allowed = "no rung"
		}
		r.proofWhyNot(fmt.Sprintf("inspect judged head %s at rung %s, and the base branch's autonomy.proof_rungs allows %s",
			gitsha.Short(r.target.head), untrusted.RecordLine(r.evidence.rung), allowed))
	default:
		return true, nil
	}
	return false, nil
}

// proofWhyNot names, beside the human pass, why [autonomy] proof (on in
// the base's policy) does not merge this pull request with no review, so
// a refusal that asks for a review says why proof was not enough.
func (r *run) proofWhyNot(why string) {
	r.evidence.proofNotes = append(r.evidence.proofNotes, "merge on proof does not apply: "+why)
}

// gateRung is the rung of inspect's green judgement from the merge gate's
// own run for this head (its summary starts "rung X:" or "rung X "): one in
// proofRungs when any is, else the first; "" when there is none. With note,
// each inspect judgement from anywhere else is named in
// r.evidence.proofNotes, as granting nothing.
func (r *run) gateRung(list []checks.Check, proofRungs []string, note bool) string {
	runPath := r.gateRunPath()
	found := ""
	for _, c := range list {
		if c.Name != InspectContext {
			continue
		}
		if !checks.InspectFromGate(c, runPath) {
			if note {
				r.evidence.proofNotes = append(r.evidence.proofNotes, fmt.Sprintf("%s grants nothing: merge on proof takes inspect's judgement only from the merge gate's own run %d for #%d into %s (its check run, or a status %s posted for that run)",
					c.Describe(), r.evidence.pack.run.GetID(), r.pr, r.target.baseRef, actionsBot))
			}
			continue
		}
		rest, ok := strings.CutPrefix(c.Summary, "rung ")
		if c.State != checks.Green || !ok {
			continue
		}
		k := strings.IndexAny(rest, ": ")
		if k <= 0 {
			continue
		}
		rung := rest[:k]
		if slices.Contains(proofRungs, rung) {
			return rung
		}
		if found == "" {
			found = rung
		}
	}
	return found
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
