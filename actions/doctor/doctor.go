// Package doctor checks a repository's aayudha set-up against GitHub
// (issue 12): the workflows present and current, the rules init sets on
// the integration, default and ledger branches (initrepo.CheckRules), the
// presence check's App, the ledger branch, the bot App's permissions and
// the tokens' scopes, each row with its one next step. It only reads;
// screens/doctor shows it.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/actions/initrepo/templates"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/basepolicy"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/pass"
)

// GateCheck is the commit status the merge gate's comment job sets on the
// pull request's head: the check a branch must require.
const GateCheck = "aayudha/merge-gate"

// State is a row's verdict, always said in words.
type State string

const (
	OK   State = "ok"
	Warn State = "warning"
	Fail State = "not set up"
)

// Row is one check and the one thing to do next.
type Row struct {
	Name   string
	State  State
	Detail string
	Next   string // "" when nothing is to be done
}

// Report is every row, in a fixed order.
type Report struct {
	Repo string
	Rows []Row
}

// Failed reports whether any row is not set up.
func (r Report) Failed() bool {
	for _, row := range r.Rows {
		if row.State == Fail {
			return true
		}
	}
	return false
}

// Check reads the set-up of owner/repo. Only a failure to reach GitHub at
// all is an error; everything else is a row.
func Check(ctx context.Context, gh *github.Client, owner, repo string) (Report, error) {
	return CheckWith(ctx, gh, owner, repo, nil)
}

// Credentials lists the GitHub credentials the session reaches and the
// login of the token aayu uses (see FindCredentials).
type Credentials func(ctx context.Context) (creds []Credential, viewer string)

// CheckWith is Check with the approvals row, judged on what reach finds;
// a nil reach leaves the row out.
func CheckWith(ctx context.Context, gh *github.Client, owner, repo string, reach Credentials) (Report, error) {
	rep := Report{Repo: owner + "/" + repo}
	r, resp, err := gh.Repositories.Get(ctx, owner, repo)
	if err != nil {
		return rep, fmt.Errorf("reading %s: %s", rep.Repo, ghx.Describe(err))
	}
	def := r.GetDefaultBranch()
	setupPR := openSetupPR(ctx, gh, owner, repo)
	for _, f := range templates.Workflows() {
		rep.Rows = append(rep.Rows, workflowRow(ctx, gh, owner, repo, def, f, setupPR))
	}
	// The default branch's policy through the one reader ship and the
	// protected-paths gate use: what it cannot read, doctor says in the
	// same words, rather than quietly falling back to the defaults.
	pol, polErr := ghx.ReadBasePolicy(ctx, gh, owner, repo, def)
	rep.Rows = append(rep.Rows, policyRow(def, pol, polErr))
	// The rules init sets, judged by the one rule init plans by.
	guard := initrepo.ReadGuard(ctx, gh, owner, repo, def)
	for _, c := range initrepo.CheckRules(ctx, gh, owner, repo, guard.Targets(def)) {
		rep.Rows = append(rep.Rows, ruleRow(c))
	}
	rep.Rows = append(rep.Rows, mergeSettingsRow(r))
	rep.Rows = append(rep.Rows, variableRow(ctx, gh, owner, repo), ledgerRow(ctx, gh, owner, repo))
	if pol != nil {
		if slug := pol.Identity().AppSlug; slug != "" {
			rep.Rows = append(rep.Rows, botAppRow(ctx, gh, slug))
		}
	}
	rep.Rows = append(rep.Rows, ledgerHistoryRow(ctx, gh, owner, repo))
	// Every response carries the token's scopes; the first one will do.
	rep.Rows = append(rep.Rows, scopesRow(ghx.Scopes(resp.Header)))
	if reach != nil {
		// Approvers and device_for as the default branch has them: a
		// local layer cannot widen who approves (SPEC §9).
		var p pass.Policy
		if pol != nil {
			p = pol.Pass()
		}
		creds, viewer := reach(ctx)
		rep.Rows = append(rep.Rows, ApprovalsRow(creds, p.Approvers, p.DeviceFor, viewer), WorkflowScopeRow(creds))
	}
	return rep, nil
}

func openSetupPR(ctx context.Context, gh *github.Client, owner, repo string) int {
	prs, _, err := gh.PullRequests.List(ctx, owner, repo, &github.PullRequestListOptions{State: "open", Head: owner + ":" + initrepo.SetupBranch})
	if err != nil {
		return 0
	}
	for _, pr := range prs {
		if pr.GetHead().GetRef() == initrepo.SetupBranch {
			return pr.GetNumber()
		}
	}
	return 0
}

func workflowRow(ctx context.Context, gh *github.Client, owner, repo, def string, f templates.File, setupPR int) Row {
	name := "workflow " + f.Path
	initNext := "run aayu init: it proposes the current file in a pull request"
	if setupPR != 0 {
		initNext = fmt.Sprintf("review and merge pull request #%d, which aayu init opened with it", setupPR)
	}
	b, err := ghx.ReadFile(ctx, gh, owner, repo, def, f.Path)
	switch {
	case ghx.IsNotFound(err):
		return Row{name, Fail, "missing on " + def, initNext}
	case err != nil:
		return Row{name, Fail, "could not be read: " + ghx.Describe(err), "check your token's access (aayu auth), then run aayu doctor again"}
	case string(b) != f.Body:
		return Row{name, Fail, "on " + def + " but not current: it differs from this aayu's template", initNext}
	}
	state, err := ghx.WorkflowState(ctx, gh, owner, repo, strings.TrimPrefix(f.Path, ".github/workflows/"))
	switch {
	case err != nil:
		return Row{name, Warn, "current, but Actions' state could not be read: " + ghx.Describe(err), "check it under the repository's Actions tab"}
	case state != "" && state != "active":
		return Row{name, Fail, "current, but Actions has it " + state, "enable it: Actions, select the workflow, Enable workflow"}
	}
	return Row{name, OK, "present on " + def + " and byte for byte this aayu's template", ""}
}

// policyRow says whether the default branch's policy can be judged by:
// every refusal is the sentence ship and the protected-paths gate give.
func policyRow(def string, pol *basepolicy.Policy, err error) Row {
	name := "policy on " + def
	switch {
	case err != nil:
		return Row{name, Fail, "could not be read: " + err.Error(), "check your token's access (aayu auth), then run aayu doctor again"}
	case len(pol.Refusals()) > 0:
		return Row{name, Fail, strings.Join(pol.Refusals(), "; "), "fix it through a reviewed pull request: until then ship and the protected-paths gate refuse"}
	}
	return Row{name, OK, fmt.Sprintf("%s, %s and CODEOWNERS read at %s (any missing file means the defaults)", basepolicy.ConfigPath, basepolicy.LayersPath, gitsha.Short(pol.Tip())), ""}
}

// mergeSettingsRow checks the repository allows squash merges, the only
// merge ship makes (SPEC §5): without it ship refuses before asking
// anyone. GitHub shows the settings only to accounts that may change them.
func mergeSettingsRow(r *github.Repository) Row {
	const name = "merge settings"
	next := "an admin turns on Allow squash merging: Settings, General, Pull Requests"
	switch {
	case r.AllowSquashMerge == nil:
		return Row{name, Warn, "your token may not read the merge settings (GitHub shows them to admins)", "an admin runs aayu doctor, or checks Settings, General, Pull Requests for Allow squash merging"}
	case !r.GetAllowSquashMerge():
		return Row{name, Fail, "squash merges are off, and ship merges only by squash, so ship refuses every pull request", next}
	}
	return Row{name, OK, "squash merges are allowed (ship's one merge method)", ""}
}

func variableRow(ctx context.Context, gh *github.Client, owner, repo string) Row {
	name := "presence check App (" + ghx.DeviceClientVariable + ")"
	v, err := ghx.RepoVariable(ctx, gh, owner, repo, ghx.DeviceClientVariable)
	switch {
	case errors.Is(err, ghx.ErrNoVariable) || (err == nil && v == ""):
		return Row{name, Fail, "not set, so the presence check has no App to ask for a device code", presenceNext}
	case err != nil:
		return Row{name, Warn, "could not be read: " + ghx.Describe(err), "an admin runs aayu doctor, or checks Settings, Secrets and variables, Actions, Variables"}
	}
	return presenceClientRow(ctx, gh, owner, repo, name, v)
}

func ledgerRow(ctx context.Context, gh *github.Client, owner, repo string) Row {
	_, _, err := gh.Git.GetRef(ctx, owner, repo, "heads/ledger")
	switch {
	case ghx.IsNotFound(err):
		return Row{"ledger branch", Warn, "not there yet", "nothing to do: the first Ready snapshot or ship creates it through the Git Data API"}
	case err != nil:
		return Row{"ledger branch", Warn, "could not be read: " + ghx.Describe(err), "check your token's access (aayu auth)"}
	}
	return Row{"ledger branch", OK, "present", ""}
}

// scopesRow warns about the scopes seed 001 names: a token for aayu needs
// only repo access (the same words as aayu auth).
func scopesRow(scopes []string) Row {
	if scopes == nil {
		return Row{"token scopes", OK, "GitHub reported none (a fine-grained or App token; its permissions are set on GitHub)", ""}
	}
	var warn []string
	for _, s := range scopes {
		switch {
		case s == "workflow":
			warn = append(warn, "workflow (it can change the merge gate that judges every change)")
		case strings.HasPrefix(s, "admin:"):
			warn = append(warn, s+" (it can administer the organisation or its keys and hooks)")
		case s == "delete_repo":
			warn = append(warn, "delete_repo (it can delete repositories)")
		}
	}
	if len(warn) == 0 {
		return Row{"token scopes", OK, strings.Join(scopes, ", "), ""}
	}
	return Row{"token scopes", Warn, "the token carries " + strings.Join(warn, "; "), "use a token with only the repo scope (gh auth refresh --remove-scopes workflow, or a fine-grained token)"}
}
