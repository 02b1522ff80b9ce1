package checks

import (
	"net/url"
	"strings"
)

// InspectContext is the check by which inspect states its judgement.
const InspectContext = "aayudha/inspect"

// The account a workflow's GITHUB_TOKEN posts a status as, and the app
// behind every check run an Actions job creates: the merge gate's comment
// job posts inspect's judgement as these, and no person or agent can.
const (
	ActionsBot = "github-actions[bot]"
	ActionsApp = "github-actions"
)

// RunsPath is the web path under which every workflow run of owner/repo
// lies, /OWNER/REPO/actions/runs: the run a caller passes to
// InspectFromGate when it does not know which of the gate's runs it wants.
func RunsPath(owner, repo string) string {
	return "/" + owner + "/" + repo + "/actions/runs"
}

// InspectFromGate is the one rule for which inspect result counts (SPEC
// §11: the status aayudha/inspect on the head, posted by the merge gate's
// own run), for ship and the inbox alike: a status github-actions[bot]
// posted, or a check run of GitHub Actions, whose target is runPath or a
// page under it. Ship passes the run its pack came from
// (/OWNER/REPO/actions/runs/ID); the inbox, which reads no runs for a card,
// passes RunsPath. Any other poster's inspect — a person's, an agent's, an
// app's — grants nothing and shows nothing.
func InspectFromGate(c Check, runPath string) bool {
	if c.Name != InspectContext || runPath == "" {
		return false
	}
	u, err := url.Parse(c.URL)
	if err != nil || u.Path == "" {
		return false
	}
	// GitHub's paths name the owner and repository in any case.
	p, run := strings.ToLower(strings.TrimSuffix(u.Path, "/")), strings.ToLower(strings.TrimSuffix(runPath, "/"))
	if p != run && !strings.HasPrefix(p, run+"/") {
		return false
	}
	switch c.Kind {
	case "status":
		return strings.EqualFold(c.By, ActionsBot)
	case "check run":
		return c.By == ActionsApp
	}
	return false
}
