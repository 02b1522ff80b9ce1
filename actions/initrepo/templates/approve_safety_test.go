package templates

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// auditApprove lists every way the approve workflow breaks the rules that
// make a reply safe to act on: it runs on issue_comment only (GitHub runs
// the default branch's copy), the workflow token can only read, every
// action is pinned by SHA, no event text (a comment's body, an issue's
// title) is expanded inside run:, nothing of the repository is checked out
// or run, the App's key is named once and only for the minting action, and
// its token reaches only aayu approve --ci.
func auditApprove(text string) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var wf struct {
		On          map[string]any `yaml:"on"`
		Permissions any            `yaml:"permissions"`
		Jobs        map[string]struct {
			If          string            `yaml:"if"`
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
	if len(wf.On) != 1 || wf.On["issue_comment"] == nil {
		bad("runs on %v, not on issue_comment alone", wf.On)
	}
	if m, ok := wf.Permissions.(map[string]any); !ok || len(m) != 0 {
		bad("the workflow's default permissions are %v, not {}", wf.Permissions)
	}
	pin := regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40}$`)
	if n := strings.Count(text, "secrets."); n != 1 || !strings.Contains(text, "secrets.AAYUDHA_APP_PRIVATE_KEY") {
		bad("names %d secrets; only AAYUDHA_APP_PRIVATE_KEY, once, for the minting action", n)
	}
	for name, job := range wf.Jobs {
		perms, ok := job.Permissions.(map[string]any)
		if !ok || len(perms) != 1 || perms["contents"] != "read" {
			bad("job %s has permissions %v, not only contents: read (it writes with the App's token)", name, job.Permissions)
		}
		if !strings.Contains(job.If, "startsWith(github.event.comment.body, 'Approve batch ')") || !strings.Contains(job.If, "!github.event.issue.pull_request") {
			bad("job %s does not start only on a reply naming a batch on an issue (if: %q)", name, job.If)
		}
		minted := false
		for _, st := range job.Steps {
			if strings.Contains(st.Run, "${{") {
				bad("job %s expands an expression inside run: %q; pass it through env", name, st.Run)
			}
			for k, v := range st.Env {
				if strings.Contains(v, "github.event") {
					bad("job %s hands event text to a step (%s)", name, k)
				}
				if strings.Contains(v, "steps.app.outputs.token") && !strings.Contains(st.Run, "aayu approve --ci") {
					bad("job %s hands the App's token to %q, not to aayu approve --ci", name, st.Run)
				}
				if strings.Contains(v, "github.token") {
					bad("job %s hands the workflow token to a step", name)
				}
			}
			for k, v := range st.With {
				if s, ok := v.(string); ok && strings.Contains(s, "secrets.") && !strings.HasPrefix(st.Uses, "actions/create-github-app-token@") {
					bad("job %s gives a secret to %s (%s)", name, st.Uses, k)
				}
			}
			if st.Uses != "" && !pin.MatchString(st.Uses) {
				bad("%s is not pinned to a full 40-hex commit SHA", st.Uses)
			}
			action, _, _ := strings.Cut(st.Uses, "@")
			switch action {
			case "actions/checkout", "actions/cache", "actions/cache/restore", "actions/download-artifact":
				bad("job %s uses %s: the approve workflow runs nothing of the repository's", name, action)
			case "actions/setup-go":
				if st.With["cache"] != false {
					bad("job %s sets up Go with a cache", name)
				}
			case "actions/create-github-app-token":
				minted = st.ID == "app"
			}
		}
		if !minted {
			bad("job %s mints no App token (actions/create-github-app-token with id: app)", name)
		}
	}
	return problems
}

// TestAuditApproveRefusesAnUnsafeApproveWorkflow: each way of breaking the
// approve workflow's rules is named by the audit.
func TestAuditApproveRefusesAnUnsafeApproveWorkflow(t *testing.T) {
	for _, c := range []struct{ name, from, to, want string }{
		{"comment body in run", `run: aayu approve --ci --repo "$GITHUB_REPOSITORY"`, `run: aayu approve --ci --repo "$GITHUB_REPOSITORY" "${{ github.event.comment.body }}"`, "inside run"},
		{"unpinned", "actions/create-github-app-token@1b10c78c7865c340bc4f6099eb2f838309f1e8c3", "actions/create-github-app-token@v3", "not pinned"},
		{"write permission", "      contents: read\n    steps:", "      contents: write\n    steps:", "not only contents: read"},
		{"another event", "  issue_comment:\n", "  pull_request_target:\n  issue_comment:\n", "not on issue_comment alone"},
		{"checkout", "      - name: Install aayu\n", "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n      - name: Install aayu\n", "uses actions/checkout"},
		{"workflow token", "AAYU_BOT_TOKEN: ${{ steps.app.outputs.token }}", "AAYU_BOT_TOKEN: ${{ github.token }}", "workflow token"},
	} {
		bad := strings.Replace(Approve, c.from, c.to, 1)
		if bad == Approve {
			t.Fatalf("%s: the template has no %q to change", c.name, c.from)
		}
		got := strings.Join(auditApprove(bad), "\n")
		if c.want == "" {
			continue
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: the audit says %q, want it to name %q", c.name, got, c.want)
		}
	}
	if got := auditApprove(Approve); len(got) > 0 {
		t.Errorf("the template itself: %v", got)
	}
}
