package ghx

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/google/go-github/v66/github"
)

// Requirement is one status check a branch requires, and what requires it.
type Requirement struct {
	Check string
	By    string // "a ruleset" or "branch protection"
}

// RequiredChecks lists the status checks a branch requires through
// rulesets (GET rules/branches/{branch}, readable with read access) and
// through classic branch protection (GET branches/{branch}/protection,
// admin only; "Branch not protected" is a 404). protectionUnread is true
// when the token may not read the protection, so a check required only
// there cannot be seen.
func RequiredChecks(ctx context.Context, c *github.Client, owner, repo, branch string) (reqs []Requirement, protectionUnread bool, err error) {
	// The rulesets and the branch protection are read side by side; the
	// rulesets' failure is still the one returned when both fail.
	var (
		prot    *github.Protection
		resp    *github.Response
		protErr error
		done    = make(chan struct{})
	)
	go func() {
		defer close(done)
		prot, resp, protErr = c.Repositories.GetBranchProtection(ctx, owner, repo, branch)
	}()
	rules, _, err := c.Repositories.GetRulesForBranch(ctx, owner, repo, branch)
	<-done
	if err != nil {
		return nil, false, err
	}
	for _, r := range rules {
		if r.Type != "required_status_checks" || r.Parameters == nil {
			continue
		}
		var p github.RequiredStatusChecksRuleParameters
		if json.Unmarshal(*r.Parameters, &p) != nil {
			continue
		}
		for _, s := range p.RequiredStatusChecks {
			reqs = append(reqs, Requirement{Check: s.Context, By: "a ruleset"})
		}
	}
	err = protErr
	switch {
	case resp != nil && resp.StatusCode == http.StatusNotFound:
		return reqs, false, nil
	case resp != nil && resp.StatusCode == http.StatusForbidden:
		return reqs, true, nil
	case err != nil:
		return reqs, false, err
	}
	if rsc := prot.GetRequiredStatusChecks(); rsc != nil {
		if rsc.Checks != nil {
			for _, ch := range *rsc.Checks {
				reqs = append(reqs, Requirement{Check: ch.Context, By: "branch protection"})
			}
		}
		if rsc.Contexts != nil {
			for _, ctxName := range *rsc.Contexts {
				reqs = append(reqs, Requirement{Check: ctxName, By: "branch protection"})
			}
		}
	}
	return reqs, false, nil
}

// WorkflowState is Actions' state of a workflow file ("active",
// "disabled_manually", …), or "" when Actions does not know the file.
func WorkflowState(ctx context.Context, c *github.Client, owner, repo, file string) (string, error) {
	wfs, _, err := c.Actions.ListWorkflows(ctx, owner, repo, &github.ListOptions{PerPage: 100})
	if err != nil {
		return "", err
	}
	for _, wf := range wfs.Workflows {
		if strings.HasSuffix(wf.GetPath(), "/"+file) {
			one, _, err := c.Actions.GetWorkflowByID(ctx, owner, repo, wf.GetID())
			if err != nil {
				return "", err
			}
			return one.GetState(), nil
		}
	}
	return "", nil
}

// Scopes reads a classic token's scopes from a response's X-OAuth-Scopes
// header; nil when GitHub sent none (a fine-grained or App token).
func Scopes(h http.Header) []string {
	vals, ok := h[http.CanonicalHeaderKey("X-OAuth-Scopes")]
	if !ok {
		return nil
	}
	out := []string{}
	for _, v := range vals {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}
