package templates

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// auditBroker lists every way the token broker breaks the rules that keep
// the App's key and its tokens safe: dispatched only, no permission of the
// workflow token, pinned actions, no input or output expanded inside a
// run: script, the App's key named once and only for the minting action,
// the minted token scoped down and handed only to aayu token seal, and no
// checkout (nothing of the repository's code runs beside the key).
func auditBroker(text string) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var wf struct {
		On          map[string]any `yaml:"on"`
		Permissions any            `yaml:"permissions"`
		Jobs        map[string]struct {
			Permissions any               `yaml:"permissions"`
			Env         map[string]string `yaml:"env"`
			Steps       []struct {
				ID   string            `yaml:"id"`
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				With map[string]any    `yaml:"with"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(text), &wf); err != nil {
		return []string{"not YAML: " + err.Error()}
	}
	for ev := range wf.On {
		if ev != "workflow_dispatch" {
			bad("runs on %s; the broker runs only when a person dispatches it", ev)
		}
	}
	if _, ok := wf.On["workflow_dispatch"]; !ok {
		bad("does not run on workflow_dispatch")
	}
	if m, ok := wf.Permissions.(map[string]any); !ok || len(m) != 0 {
		bad("the workflow's default permissions are %v, not {}", wf.Permissions)
	}
	pin := regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40}$`)
	for line := range strings.SplitSeq(text, "\n") {
		t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
		if !strings.HasPrefix(t, "uses:") {
			continue
		}
		ref, comment, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(t, "uses:")), "#")
		if !pin.MatchString(strings.TrimSpace(ref)) {
			bad("%s is not pinned to a full 40-hex commit SHA", strings.TrimSpace(ref))
		}
		if !strings.HasPrefix(strings.TrimSpace(comment), "v") {
			bad("%s has no # vX comment naming the release it pins", strings.TrimSpace(ref))
		}
	}
	if n := strings.Count(text, "secrets."); n != 1 || !strings.Contains(text, "secrets.AAYUDHA_APP_PRIVATE_KEY") {
		bad("names secrets %d times; only the App's key, once, for the minting action", n)
	}
	if strings.Contains(text, "github.token") || strings.Contains(text, "GITHUB_TOKEN") {
		bad("hands the workflow token to a step; the broker needs none")
	}
	for name, job := range wf.Jobs {
		if m, ok := job.Permissions.(map[string]any); !ok || len(m) != 0 {
			bad("job %s has permissions %v, not {}: the workflow token must be able to do nothing", name, job.Permissions)
		}
		for k, v := range job.Env {
			if strings.Contains(v, "${{") {
				bad("job %s puts %s in every step's environment", name, k)
			}
		}
		minted := ""
		for _, st := range job.Steps {
			if strings.Contains(st.Run, "${{") {
				bad("job %s expands an expression inside run: %q; pass it through env", name, st.Run)
			}
			action, _, _ := strings.Cut(st.Uses, "@")
			switch action {
			case "actions/checkout":
				bad("job %s checks out the repository beside the App's key", name)
			case "actions/create-github-app-token":
				minted = st.ID
				if fmt.Sprint(st.With["skip-token-revoke"]) != "true" {
					bad("job %s lets the action revoke the token when the job ends, before aayu can use it", name)
				}
				scoped := false
				for k, v := range st.With {
					if p, ok := strings.CutPrefix(k, "permission-"); ok {
						scoped = true
						switch p {
						case "administration", "workflows", "secrets", "actions", "members", "organization-administration":
							bad("job %s gives the bot's token %s: %v", name, p, v)
						}
					}
					if k == "owner" || k == "repositories" {
						bad("job %s mints a token for other repositories (%s)", name, k)
					}
				}
				if !scoped {
					bad("job %s mints a token with every permission the App has; name the ones agents need", name)
				}
			}
			for k, v := range st.Env {
				if minted != "" && strings.Contains(v, "steps."+minted+".outputs.token") && !strings.Contains(st.Run, "aayu token seal") {
					bad("job %s hands the minted token (%s) to a step that does not seal it", name, k)
				}
			}
		}
		if minted == "" {
			bad("job %s mints no token with actions/create-github-app-token (or gives the step no id)", name)
		}
	}
	return problems
}

func TestTokenBrokerIsSafeByConstruction(t *testing.T) {
	for _, f := range IdentityWorkflows() {
		if got := auditBroker(f.Body); len(got) > 0 {
			t.Errorf("%s:\n%s", f.Path, strings.Join(got, "\n"))
		}
	}
}

// TestTokenBrokerAuditCatchesEachUnsafeChange: each unsafe edit of the
// broker is caught, so the test above means something.
func TestTokenBrokerAuditCatchesEachUnsafeChange(t *testing.T) {
	cases := []struct{ name, from, to string }{
		{"runs on push too", "on:\n  workflow_dispatch:", "on:\n  push:\n  workflow_dispatch:"},
		{"input expanded inside run", `aayu token seal --ci`, `aayu token seal --ci --key "${{ inputs.public_key }}"`},
		{"job permissions", "    permissions: {}\n    steps:", "    permissions:\n      contents: write\n    steps:"},
		{"unpinned action", "actions/create-github-app-token@1b10c78c7865c340bc4f6099eb2f838309f1e8c3", "actions/create-github-app-token@v3"},
		{"token revoked at job end", "skip-token-revoke: true", "skip-token-revoke: false"},
		{"token given administration", "permission-issues: write", "permission-administration: write"},
		{"a checkout", "      - name: Install aayu", "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n      - name: Install aayu"},
		{"the workflow token handed out", "AAYUDHA_APP_TOKEN: ${{ steps.app.outputs.token }}", "AAYUDHA_APP_TOKEN: ${{ steps.app.outputs.token }}\n          GITHUB_TOKEN: ${{ github.token }}"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(TokenBroker, c.from) {
				t.Fatalf("the template no longer holds %q", c.from)
			}
			if got := auditBroker(strings.Replace(TokenBroker, c.from, c.to, 1)); len(got) == 0 {
				t.Errorf("the audit passes a broker with %s", c.name)
			}
		})
	}
}
