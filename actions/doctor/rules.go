package doctor

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/initrepo"
	"github.com/aayudha/aayu/ghx"
)

// ruleRow is one rule on one branch: a missing or weaker rule fails,
// naming what is missing, with aayu init as the next step and the exact
// setting for doing it by hand.
func ruleRow(c initrepo.RuleCheck) Row {
	switch c.Verdict {
	case initrepo.Holds:
		return Row{c.Name(), OK, c.Detail, ""}
	case initrepo.Unread:
		return Row{c.Name(), Warn, c.Detail, "an admin runs aayu doctor, or checks " + c.Setting}
	}
	return Row{c.Name(), Fail, c.Detail, "run aayu init with an admin's token: it creates the ruleset (by hand: " + c.Setting + ")"}
}

// botAppRow checks the bot App has no workflows permission (GET
// /apps/{app_slug}): with it, an agent's token can push a change to
// .github/workflows/, the gates themselves (GitHub refuses such a push
// without it).
func botAppRow(ctx context.Context, gh *github.Client, slug string) Row {
	name := "bot App " + slug + " permissions"
	where := "Settings, Developer settings, GitHub Apps, " + slug + ", Permissions and events, Repository permissions"
	app, _, err := gh.Apps.Get(ctx, slug)
	if err != nil {
		return Row{name, Warn, "could not be read: " + ghx.Describe(err), "check them on GitHub: " + where}
	}
	perms := map[string]string{}
	if b, err := json.Marshal(app.GetPermissions()); err == nil {
		_ = json.Unmarshal(b, &perms)
	}
	if level := perms["workflows"]; level != "" {
		return Row{name, Fail, fmt.Sprintf("the App has workflows: %s, so an agent's token can change .github/workflows/, the gates that judge its own work", level),
			"remove it: " + where + ", Workflows: No access"}
	}
	var have []string
	for k, v := range perms {
		have = append(have, k+": "+v)
	}
	sort.Strings(have)
	return Row{name, OK, "no workflows permission, so an agent's token cannot change a workflow (it has " + strings.Join(have, ", ") + ")", ""}
}

// WorkflowScopeRow warns of every other token in reach whose classic
// scopes (X-OAuth-Scopes) include workflow: an agent holding one can
// change the gates' workflow files. The token aayu uses has its own row
// (token scopes).
func WorkflowScopeRow(creds []Credential) Row {
	const name = "workflow scope on other tokens in reach"
	own := strings.TrimSuffix(OwnSource(ghx.Token{}), ")")
	var with []string
	for _, c := range creds {
		if slices.Contains(c.Scopes, "workflow") && !strings.HasPrefix(c.Source, own) {
			who := c.Source
			if c.Account != "" {
				who += " (" + c.Account + ")"
			}
			with = append(with, who)
		}
	}
	if len(with) == 0 {
		return Row{name, OK, "no other token this session reaches carries the workflow scope", ""}
	}
	return Row{name, Warn, "the workflow scope, with which a token can change the gates' workflow files, is on: " + strings.Join(with, "; "),
		"give agents tokens without it (gh auth refresh --remove-scopes workflow, or a fine-grained token without Workflows)"}
}
