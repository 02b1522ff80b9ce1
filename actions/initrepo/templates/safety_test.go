package templates

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// audit lists every way a pull_request_target workflow breaks the rules
// that make it safe to run on an untrusted pull request (issue 12).
func audit(text string) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var wf struct {
		On          map[string]any `yaml:"on"`
		Permissions any            `yaml:"permissions"`
		Jobs        map[string]struct {
			Permissions any `yaml:"permissions"`
			Steps       []struct {
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
	if _, ok := wf.On["pull_request_target"]; !ok {
		bad("does not run on pull_request_target, so a pull request could run its own copy")
	}
	for ev := range wf.On {
		if ev != "pull_request_target" {
			bad("also runs on %s, which could run a copy the pull request changed", ev)
		}
	}
	if m, ok := wf.Permissions.(map[string]any); !ok || len(m) != 0 {
		bad("the workflow's default permissions are %v, not {}: every job must name its own", wf.Permissions)
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
	if strings.Contains(text, "secrets.") {
		bad("names a secret; the gate needs none")
	}
	checkouts := 0
	for name, job := range wf.Jobs {
		perms, ok := job.Permissions.(map[string]any)
		if !ok {
			bad("job %s names no permissions of its own", name)
		}
		checksOut, downloads := false, false
		for _, st := range job.Steps {
			if strings.Contains(st.Run, "${{") {
				bad("job %s expands an expression inside run: %q; pass it through env", name, st.Run)
			}
			action, _, _ := strings.Cut(st.Uses, "@")
			switch action {
			case "actions/checkout":
				checksOut = true
				if st.With["persist-credentials"] != false {
					bad("job %s checks out without persist-credentials: false, leaving a token in .git/config", name)
				}
			case "actions/setup-go":
				if st.With["cache"] != false {
					bad("job %s sets up Go with a cache a pull request could poison", name)
				}
			case "actions/download-artifact":
				downloads = true
			case "actions/cache", "actions/cache/restore", "actions/cache/save":
				bad("job %s uses %s, a cache a pull request could poison", name, action)
			}
		}
		if checksOut {
			checkouts++
			if len(perms) != 1 || perms["contents"] != "read" {
				bad("job %s runs the pull request's code with permissions %v, not only contents: read", name, perms)
			}
			if downloads {
				bad("job %s both runs the pull request's code and reads another job's artifact", name)
			}
		}
		for k, v := range perms {
			if v == "write" && checksOut {
				bad("job %s can write %s while running the pull request's code", name, k)
			}
		}
	}
	return problems
}

func TestWorkflowsAreSafeByConstruction(t *testing.T) {
	for _, f := range Workflows() {
		if got := audit(f.Body); len(got) > 0 {
			t.Errorf("%s:\n%s", f.Path, strings.Join(got, "\n"))
		}
	}
}

// TestMergeGateShape: the verify job checks out the head, runs aayu verify
// --ci and uploads aayudha-pack; the comment job never checks out, downloads
// the pack and runs aayu comment --ci with pull-requests: write.
func TestMergeGateShape(t *testing.T) {
	var wf struct {
		Jobs map[string]struct {
			Needs       any               `yaml:"needs"`
			Permissions map[string]string `yaml:"permissions"`
			Steps       []struct {
				Uses string         `yaml:"uses"`
				Run  string         `yaml:"run"`
				With map[string]any `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(MergeGate), &wf); err != nil {
		t.Fatal(err)
	}
	v, c := wf.Jobs["verify"], wf.Jobs["comment"]
	joined := func(steps []struct {
		Uses string         `yaml:"uses"`
		Run  string         `yaml:"run"`
		With map[string]any `yaml:"with"`
	}) string {
		var b strings.Builder
		for _, s := range steps {
			fmt.Fprintf(&b, "%s|%s|%v\n", s.Uses, s.Run, s.With)
		}
		return b.String()
	}
	vs, cs := joined(v.Steps), joined(c.Steps)
	for _, want := range []string{"actions/checkout@", "github.event.pull_request.head.sha", `aayu verify "$AAYU_STORY" --ci`, "actions/upload-artifact@", "name:aayudha-pack", "path:.aayudha/proof/${{ env.AAYU_STORY }}/"} {
		if !strings.Contains(vs, want) {
			t.Errorf("verify job lacks %q:\n%s", want, vs)
		}
	}
	for _, want := range []string{"actions/download-artifact@", "name:aayudha-pack", "path:.aayudha/proof/${{ env.AAYU_STORY }}/", `aayu comment "$PR_NUMBER" --ci`} {
		if !strings.Contains(cs, want) {
			t.Errorf("comment job lacks %q:\n%s", want, cs)
		}
	}
	// aayu comment refuses --dir outside --dry-run: the run's own pack,
	// downloaded where aayu reads a story's pack, is the only one it judges.
	if strings.Contains(cs, "--dir") {
		t.Errorf("the comment job passes --dir, which aayu comment --ci refuses:\n%s", cs)
	}
	if strings.Contains(cs, "actions/checkout") {
		t.Error("the comment job checks out code; it must read only the pack artifact")
	}
	if c.Permissions["pull-requests"] != "write" || c.Needs != "verify" {
		t.Errorf("comment job: permissions %v needs %v", c.Permissions, c.Needs)
	}
}

// TestAuditRefusesAPwnRequest: the demo's old workflow, a textbook pwn
// request, fails every rule it breaks, so the audit above can fail.
func TestAuditRefusesAPwnRequest(t *testing.T) {
	const pwn = `name: gate
on:
  pull_request_target:
  workflow_dispatch:
permissions:
  contents: read
  pull-requests: write
jobs:
  merge-gate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          ref: ${{ github.event.pull_request.head.sha }}
      - uses: actions/setup-go@v5
      - run: aayu verify --ci "${{ github.event.pull_request.head.ref }}"
      - uses: actions/upload-artifact@v4
        with:
          name: aayudha-pack
          token: ${{ secrets.PAT }}
`
	got := strings.Join(audit(pwn), "\n")
	for _, want := range []string{
		"also runs on workflow_dispatch", "default permissions", "actions/checkout@v4 is not pinned",
		"no # vX comment", "names a secret", "names no permissions", "expands an expression inside run",
		"without persist-credentials", "with a cache",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the audit missed %q; it said:\n%s", want, got)
		}
	}
}
