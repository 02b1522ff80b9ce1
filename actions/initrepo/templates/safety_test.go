package templates

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// One audit for every workflow aayu writes: each rule below runs over each
// workflow, and what a workflow may do that another may not (its trigger,
// its permissions, its one secret, the App token it mints) is its row in
// policies. A new workflow is covered by adding its row; a workflow file
// or a path init writes with no row fails TestWorkflowsAreSafeByConstruction.

// policy is what one workflow is allowed; every rule reads it.
type policy struct {
	path, template string
	// trigger is the one event it runs on, and why no other may start it.
	trigger, why string
	// perms is the most any job may hold (absent: none); exact says every
	// job holds exactly that.
	perms map[string]string
	exact bool
	// secret is the one secret it may name, once, for the minting action
	// alone ("": none).
	secret string
	// readerKey is the one secret a job that may only read may put in the
	// environment of the one step that runs readerKeyTo, under its own
	// name ("": none): the merge gate's inspect asks the reviewer model
	// with AAYUDHA_REVIEWER_KEY and can write nothing.
	readerKey, readerKeyTo string
	// workflowToken: a step may hold github.token (never one that runs the
	// pull request's code).
	workflowToken bool
	// jobTokenTo is the one command that may hold the job's own token, and
	// only as GITHUB_TOKEN ("": none): the approve workflow answers a reply
	// with it when the App's token cannot be minted.
	jobTokenTo string
	// eventText: a step's env may carry the event's text (github.event…).
	eventText bool
	// checksOut: the pull request's or the repository's files may be on
	// disk (a checkout, another job's artifact).
	checksOut bool
	// mint is the App token its every job mints; nil: none.
	mint *mintPolicy
	// jobIf are what every job's if: must say, so only the right event
	// starts it.
	jobIf []string
	// attestsDownloaded: the job that signs attests what another job built
	// and it downloaded (the release's artifacts), never the pack.
	attestsDownloaded bool
}

type mintPolicy struct {
	// consumer is the one command the minted token may reach.
	consumer string
	// outlivesJob: the token must outlive the job (skip-token-revoke), as
	// the broker's does: aayu uses it after the run.
	outlivesJob bool
}

var policies = []policy{
	{
		path: MergeGatePath, template: MergeGate,
		trigger: "pull_request_target", why: "so GitHub runs the base branch's copy and a pull request cannot run its own",
		perms: map[string]string{"actions": "read", "attestations": "write", "contents": "read", "id-token": "write",
			"issues": "read", "pull-requests": "write", "statuses": "write"},
		workflowToken: true, eventText: true, checksOut: true,
		readerKey: "AAYUDHA_REVIEWER_KEY", readerKeyTo: "aayu inspect",
	},
	{
		path: ProtectedPathsPath, template: ProtectedPaths,
		trigger: "pull_request_target", why: "so GitHub runs the base branch's copy and a pull request cannot run its own",
		perms:         map[string]string{"contents": "read", "pull-requests": "read"},
		workflowToken: true, eventText: true,
	},
	{
		path: ApprovePath, template: Approve,
		trigger: "issue_comment", why: "GitHub runs the default branch's copy for a reply",
		perms: map[string]string{"contents": "read", "issues": "write"}, exact: true,
		secret:     "AAYUDHA_APP_PRIVATE_KEY",
		mint:       &mintPolicy{consumer: "aayu approve --ci"},
		jobTokenTo: "aayu approve --ci",
		jobIf:      []string{"startsWith(github.event.comment.body, 'Approve batch ')", "!github.event.issue.pull_request"},
	},
	{
		path: ReleasePath, template: Release,
		trigger: "push", why: "it runs only on the tag aayu release pushes",
		perms:     map[string]string{"contents": "read", "id-token": "write", "attestations": "write"},
		checksOut: true, attestsDownloaded: true,
	},
	{
		path: LoopsPath, template: Loops,
		trigger: "schedule", why: "the loops run on their schedule alone, never on an event anyone can raise",
		perms: map[string]string{"contents": "read"}, exact: true,
		secret: "AAYUDHA_APP_PRIVATE_KEY",
		mint:   &mintPolicy{consumer: "aayu loops --ci"},
	},
	{
		path: TokenBrokerPath, template: TokenBroker,
		trigger: "workflow_dispatch", why: "the broker runs only when a person dispatches it",
		perms: map[string]string{}, exact: true,
		secret: "AAYUDHA_APP_PRIVATE_KEY",
		mint:   &mintPolicy{consumer: "aayu token seal", outlivesJob: true},
	},
}

// workflow is the parsed file, with its text for the rules that read lines.
type workflow struct {
	text        string
	On          map[string]any    `yaml:"on"`
	Permissions any               `yaml:"permissions"`
	Env         map[string]string `yaml:"env"`
	Jobs        map[string]job    `yaml:"jobs"`
}

type job struct {
	If          string            `yaml:"if"`
	Permissions any               `yaml:"permissions"`
	Env         map[string]string `yaml:"env"`
	Outputs     map[string]string `yaml:"outputs"`
	Steps       []step            `yaml:"steps"`
}

type step struct {
	ID   string            `yaml:"id"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]any    `yaml:"with"`
	Env  map[string]string `yaml:"env"`
}

func (s step) action() string { a, _, _ := strings.Cut(s.Uses, "@"); return a }

// jobs are the workflow's jobs in name order, so problems read the same
// each run.
func (w workflow) jobs() []string {
	names := make([]string, 0, len(w.Jobs))
	for name := range w.Jobs {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// facts is what one pass over a job's steps finds, shared by the rules on
// the pull request's code, signing and the verdict.
type facts struct {
	perms map[string]any
	// runsCode is the first step after a checkout that runs something of
	// it; holdsToken: a step (or the job) has a token in its environment;
	// builds: it builds or uploads the pack; comments: it runs aayu comment.
	runsCode                          string
	checksOut, downloads, attests     bool
	holdsToken, builds, comments      bool
	attestsAfterCode, namesOwnPermits bool
}

func factsOf(j job) facts {
	var f facts
	f.perms, f.namesOwnPermits = j.Permissions.(map[string]any)
	f.holdsToken = tokenIn(j.Env)
	for _, st := range j.Steps {
		f.holdsToken = f.holdsToken || tokenIn(st.Env)
		if f.checksOut && f.runsCode == "" && runsPRCode(st.Run) {
			f.runsCode = strings.TrimSpace(st.Run)
		}
		f.builds = f.builds || strings.Contains(st.Run, "--from-raw") || st.With["name"] == "aayudha-pack" && strings.HasPrefix(st.Uses, "actions/upload-artifact@")
		f.comments = f.comments || strings.Contains(st.Run, "aayu comment")
		switch st.action() {
		case "actions/checkout":
			f.checksOut = true
		case "actions/download-artifact":
			f.downloads = true
		case "actions/attest", "actions/attest-build-provenance":
			f.attests = true
			f.attestsAfterCode = f.attestsAfterCode || f.runsCode != ""
		}
	}
	return f
}

func tokenIn(env map[string]string) bool {
	for k, v := range env {
		if strings.Contains(v, "github.token") || strings.Contains(v, "secrets.") || tokenName(k) {
			return true
		}
	}
	return false
}

// rule is one safety rule; bad records a problem.
type rule struct {
	name  string
	check func(w workflow, p policy, bad func(format string, args ...any))
}

var pinned = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@[0-9a-f]{40}$`)

var level = map[string]int{"none": 0, "read": 1, "write": 2}

var rules = []rule{
	{"trigger", func(w workflow, p policy, bad func(string, ...any)) {
		if _, ok := w.On[p.trigger]; !ok {
			bad("does not run on %s: %s", p.trigger, p.why)
		}
		for ev := range w.On {
			if ev != p.trigger {
				bad("also runs on %s; it may run only on %s: %s", ev, p.trigger, p.why)
			}
		}
	}},
	{"default permissions", func(w workflow, _ policy, bad func(string, ...any)) {
		if m, ok := w.Permissions.(map[string]any); !ok || len(m) != 0 {
			bad("the workflow's default permissions are %v, not {}: every job must name its own", w.Permissions)
		}
	}},
	{"least privilege", func(w workflow, p policy, bad func(string, ...any)) {
		for _, name := range w.jobs() {
			perms, ok := w.Jobs[name].Permissions.(map[string]any)
			if !ok {
				bad("job %s names no permissions of its own", name)
				continue
			}
			for k, v := range perms {
				if level[fmt.Sprint(v)] > level[p.perms[k]] || level[fmt.Sprint(v)] == 0 && fmt.Sprint(v) != "none" {
					bad("job %s can %v %s; this workflow's jobs need at most %v", name, v, k, p.perms)
				}
			}
			if p.exact && (len(perms) != len(p.perms) || !samePerms(perms, p.perms)) {
				bad("job %s has permissions %v, not exactly %v", name, perms, p.perms)
			}
		}
	}},
	{"pinned actions", func(w workflow, _ policy, bad func(string, ...any)) {
		for line := range strings.SplitSeq(w.text, "\n") {
			t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
			if !strings.HasPrefix(t, "uses:") {
				continue
			}
			ref, comment, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(t, "uses:")), "#")
			if !pinned.MatchString(strings.TrimSpace(ref)) {
				bad("%s is not pinned to a full 40-hex commit SHA", strings.TrimSpace(ref))
			}
			if !strings.HasPrefix(strings.TrimSpace(comment), "v") {
				bad("%s has no # vX comment naming the release it pins", strings.TrimSpace(ref))
			}
		}
	}},
	{"no expression in run", func(w workflow, _ policy, bad func(string, ...any)) {
		for _, name := range w.jobs() {
			for _, st := range w.Jobs[name].Steps {
				if strings.Contains(st.Run, "${{") {
					bad("job %s expands an expression inside run: %q; pass it through env", name, st.Run)
				}
			}
		}
	}},
	{"environment", func(w workflow, p policy, bad func(string, ...any)) {
		for k, v := range w.Env {
			if strings.Contains(v, "${{") {
				bad("the workflow puts %s in every job's environment", k)
			}
		}
		for _, name := range w.jobs() {
			j := w.Jobs[name]
			for k, v := range j.Env {
				if strings.Contains(v, "${{") {
					bad("job %s puts %s in every step's environment", name, k)
				}
			}
			for _, st := range j.Steps {
				for k, v := range st.Env {
					if !p.eventText && strings.Contains(v, "github.event") {
						bad("job %s hands event text to a step (%s)", name, k)
					}
				}
			}
		}
	}},
	{"secrets", func(w workflow, p policy, bad func(string, ...any)) {
		n := strings.Count(w.text, "secrets.")
		if p.readerKey != "" {
			n -= strings.Count(w.text, "${{ secrets."+p.readerKey+" }}")
		}
		switch {
		case p.secret == "" && n > 0:
			bad("names a secret; this workflow needs none")
		case p.secret != "" && (n != 1 || !strings.Contains(w.text, "secrets."+p.secret)):
			bad("names secrets %d times; only %s, once, for the minting action", n, p.secret)
		}
		if p.readerKey != "" && strings.Count(w.text, "secrets."+p.readerKey) > 1 {
			bad("names %s more than once; only the step that runs %s may hold it", p.readerKey, p.readerKeyTo)
		}
		for _, name := range w.jobs() {
			for _, st := range w.Jobs[name].Steps {
				for k, v := range st.With {
					if s, ok := v.(string); ok && strings.Contains(s, "secrets.") && st.action() != "actions/create-github-app-token" {
						bad("job %s gives a secret to %s (%s)", name, st.Uses, k)
					}
				}
				for k, v := range st.Env {
					if strings.Contains(v, "secrets.") && !readerKeyStep(w.Jobs[name], st, k, v, p) {
						bad("job %s puts a secret in a step's environment (%s)", name, k)
					}
				}
			}
		}
	}},
	{"workflow token", func(w workflow, p policy, bad func(string, ...any)) {
		if p.workflowToken {
			return
		}
		// Each use the policy allows is one GITHUB_TOKEN: ${{ github.token }}
		// in the env of a step that runs jobTokenTo; any other mention is a
		// token handed elsewhere.
		allowed := 0
		for _, name := range w.jobs() {
			for _, st := range w.Jobs[name].Steps {
				if p.jobTokenTo != "" && st.Env["GITHUB_TOKEN"] == "${{ github.token }}" && strings.Contains(st.Run, p.jobTokenTo) {
					allowed++
				}
			}
		}
		if strings.Count(w.text, "github.token") > allowed || strings.Count(w.text, "GITHUB_TOKEN") > allowed {
			bad("hands the workflow token to a step; this workflow needs none but for %q, as GITHUB_TOKEN", p.jobTokenTo)
		}
	}},
	{"no cache", func(w workflow, _ policy, bad func(string, ...any)) {
		for _, name := range w.jobs() {
			for _, st := range w.Jobs[name].Steps {
				switch a := st.action(); a {
				case "actions/setup-go":
					if st.With["cache"] != false {
						bad("job %s sets up Go with a cache a pull request could poison", name)
					}
				case "actions/cache", "actions/cache/restore", "actions/cache/save":
					bad("job %s uses %s, a cache a pull request could poison", name, a)
				}
			}
		}
	}},
	{"checkout", func(w workflow, p policy, bad func(string, ...any)) {
		for _, name := range w.jobs() {
			for _, st := range w.Jobs[name].Steps {
				switch a := st.action(); a {
				case "actions/checkout", "actions/download-artifact":
					if !p.checksOut {
						bad("job %s uses %s: this workflow runs nothing of the repository's", name, a)
					}
					if a == "actions/checkout" && st.With["persist-credentials"] != false {
						bad("job %s checks out without persist-credentials: false, leaving a token in .git/config", name)
					}
				}
			}
		}
	}},
	{"the pull request's code", func(w workflow, _ policy, bad func(string, ...any)) {
		for _, name := range w.jobs() {
			f := factsOf(w.Jobs[name])
			if f.runsCode != "" {
				if len(f.perms) != 1 || f.perms["contents"] != "read" {
					bad("job %s runs the pull request's code with permissions %v, not only contents: read", name, f.perms)
				}
				if f.downloads {
					bad("job %s both runs the pull request's code and reads another job's artifact", name)
				}
				if f.holdsToken {
					bad("job %s runs the pull request's code (%s) with a token in a step's environment", name, f.runsCode)
				}
				if f.builds {
					bad("job %s builds or uploads the pack and also runs the pull request's code (%s)", name, f.runsCode)
				}
			}
			for k, v := range f.perms {
				// No write, signing included, where a checkout put files on
				// disk: the job that signs reads the commits without a
				// working tree (rule "no working tree where a job can write
				// or sign").
				if v == "write" && f.checksOut {
					bad("job %s can write %s while running the pull request's code", name, k)
				}
			}
		}
	}},
	{"signing", func(w workflow, p policy, bad func(string, ...any)) {
		for _, name := range w.jobs() {
			f := factsOf(w.Jobs[name])
			if f.attestsAfterCode {
				bad("job %s signs an attestation after running the pull request's code (%s)", name, f.runsCode)
			}
			for k, v := range f.perms {
				// Reading attestations (the comment checks the pack's before
				// naming who signed it) is no signing power, for a job that
				// never checks out the pull request's code.
				readsAttestations := k == "attestations" && v == "read" && !f.checksOut
				if (k == "id-token" || k == "attestations") && v != "none" && !readsAttestations && !(f.attests && (f.builds || p.attestsDownloaded && f.downloads && !f.checksOut) && f.runsCode == "") {
					bad("job %s holds %s: %s but does not build and attest the pack; only that job may sign", name, k, v)
				}
			}
			if f.attests && (f.perms["id-token"] != "write" || f.perms["attestations"] != "write") {
				bad("job %s attests without exactly id-token: write and attestations: write", name)
			}
		}
	}},
	{noWorkingTreeRule, noWorkingTreeWhereAJobCanWriteOrSign},
	{"job outputs", func(w workflow, _ policy, bad func(string, ...any)) {
		// A job's outputs are read by the jobs that need it, and shown in
		// the run's log: never a token.
		for _, name := range w.jobs() {
			for k, v := range w.Jobs[name].Outputs {
				if strings.Contains(v, "github.token") || strings.Contains(v, "secrets.") || strings.Contains(v, ".outputs.token") {
					bad("job %s passes a token on as its output %s", name, k)
				}
			}
		}
	}},
	{"verdict", func(w workflow, _ policy, bad func(string, ...any)) {
		for _, name := range w.jobs() {
			j := w.Jobs[name]
			f := factsOf(j)
			if !f.comments {
				continue
			}
			if !strings.Contains(j.If, "!cancelled()") && !strings.Contains(j.If, "always()") {
				bad("job %s posts the gate's verdict only when every job before it passed; it must run when they fail (if: !cancelled())", name)
			}
			if f.perms["statuses"] != "write" {
				bad("job %s cannot set the commit status aayudha/merge-gate (statuses: write)", name)
			}
			for k, v := range f.perms {
				if v == "write" && k != "statuses" && k != "pull-requests" {
					bad("job %s can write %s; posting the comment and the status needs only pull-requests and statuses", name, k)
				}
			}
		}
	}},
	{"app token", func(w workflow, p policy, bad func(string, ...any)) {
		for _, name := range w.jobs() {
			minted := ""
			for _, st := range w.Jobs[name].Steps {
				if st.action() == "actions/create-github-app-token" {
					if p.mint == nil {
						bad("job %s mints an App token; this workflow needs none", name)
						continue
					}
					minted = st.ID
					if revoke := fmt.Sprint(st.With["skip-token-revoke"]) == "true"; revoke != p.mint.outlivesJob {
						if p.mint.outlivesJob {
							bad("job %s lets the action revoke the token when the job ends, before aayu can use it", name)
						} else {
							bad("job %s keeps the App token alive after the job (skip-token-revoke)", name)
						}
					}
					scoped := false
					for k, v := range st.With {
						if perm, ok := strings.CutPrefix(k, "permission-"); ok {
							scoped = true
							switch perm {
							case "administration", "workflows", "secrets", "actions", "members", "organization-administration":
								bad("job %s gives the bot's token %s: %v", name, perm, v)
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
				if minted == "" || p.mint == nil {
					continue
				}
				out := "steps." + minted + ".outputs.token"
				for k, v := range st.Env {
					if strings.Contains(v, out) && !strings.Contains(st.Run, p.mint.consumer) {
						bad("job %s hands the minted token (%s) to a step that is not %s", name, k, p.mint.consumer)
					}
				}
				for k, v := range st.With {
					if s, ok := v.(string); ok && strings.Contains(s, out) {
						bad("job %s hands the minted token to %s (%s)", name, st.Uses, k)
					}
				}
			}
			if p.mint != nil && minted == "" {
				bad("job %s mints no token with actions/create-github-app-token (or gives the step no id)", name)
			}
			if minted != "" && strings.Contains(fmt.Sprint(w.Jobs[name].Env), "steps."+minted) {
				bad("job %s puts the minted token in every step's environment", name)
			}
		}
	}},
	{"job start", func(w workflow, p policy, bad func(string, ...any)) {
		for _, name := range w.jobs() {
			for _, want := range p.jobIf {
				if !strings.Contains(w.Jobs[name].If, want) {
					bad("job %s does not start only when its if: says %s (if: %q)", name, want, w.Jobs[name].If)
				}
			}
		}
	}},
}

func samePerms(got map[string]any, want map[string]string) bool {
	for k, v := range want {
		if fmt.Sprint(got[k]) != v {
			return false
		}
	}
	return true
}

// audit runs every rule over text as the workflow p describes and lists
// what each finds, by rule.
func audit(text string, p policy) map[string][]string {
	out := map[string][]string{}
	w := workflow{text: text}
	if err := yaml.Unmarshal([]byte(text), &w); err != nil {
		out["yaml"] = []string{"not YAML: " + err.Error()}
		return out
	}
	for _, r := range rules {
		r.check(w, p, func(format string, args ...any) {
			out[r.name] = append(out[r.name], fmt.Sprintf(format, args...))
		})
	}
	return out
}

func policyOf(path string) (policy, bool) {
	for _, p := range policies {
		if p.path == path {
			return p, true
		}
	}
	return policy{}, false
}

// tokenName says whether an environment variable's name carries a token.
func tokenName(k string) bool {
	switch strings.ToUpper(k) {
	case "GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN", "AAYU_GITHUB_TOKEN":
		return true
	}
	return false
}

// runsPRCode says whether a run: step, after the pull request's checkout,
// executes something of it: a go command that builds or tests, a script
// of the checkout, a build tool, or aayu verify other than --from-raw
// (which only reads the raw outputs and the commits). Installing aayu by
// module path and naming the story from the branch run nothing of it.
func runsPRCode(run string) bool {
	r := strings.TrimSpace(run)
	if r == "" || strings.HasPrefix(r, "go install ") {
		return false
	}
	if strings.Contains(r, "aayu verify") {
		return !strings.Contains(r, "--from-raw")
	}
	for _, w := range []string{"go test", "go run", "go build", "go vet", "go generate", "make", "./", "bash ", "sh ", "npm ", "python"} {
		if strings.Contains(r, w) {
			return true
		}
	}
	return false
}

// TestWorkflowsAreSafeByConstruction runs every rule over every workflow
// aayu writes (init's Workflows and IdentityWorkflows, as written and as a
// release build pins them). A workflow with no row in policies, or a
// template file in this folder with none, fails: a new workflow is audited
// by adding its row.
func TestWorkflowsAreSafeByConstruction(t *testing.T) {
	written := append(Workflows(), IdentityWorkflows()...)
	for _, f := range written {
		p, ok := policyOf(f.Path)
		if !ok {
			t.Errorf("%s is written by aayu init but has no row in policies: add one", f.Path)
			continue
		}
		for _, body := range []string{f.Body, Pin(p.template, "v1.2.3")} {
			found := audit(body, p)
			for _, r := range append([]rule{{name: "yaml"}}, rules...) {
				if got := found[r.name]; len(got) > 0 {
					t.Errorf("%s breaks %q:\n%s", f.Path, r.name, strings.Join(got, "\n"))
				}
			}
		}
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".yml") && !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		body, err := os.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		covered := slices.ContainsFunc(policies, func(p policy) bool { return p.template == string(body) })
		if !covered {
			t.Errorf("the template %s has no row in policies: add one", e.Name())
		}
	}
	for _, p := range policies {
		if !slices.ContainsFunc(written, func(f File) bool { return f.Path == p.path }) {
			t.Errorf("policies has a row for %s, which aayu init does not write", p.path)
		}
	}
}

// TestWorkflowAuditCatchesEachUnsafeChange feeds the audit broken
// workflows — each an unsafe edit of a template, or a whole unsafe file —
// and checks that the rule named finds the problem named; every rule is
// shown to fail on at least one, so the test above can fail.
func TestWorkflowAuditCatchesEachUnsafeChange(t *testing.T) {
	// pwn is the demo's old gate, a textbook pwn request.
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
        env:
          GITHUB_TOKEN: ${{ github.token }}
      - run: aayu comment 4 --ci
      - uses: actions/upload-artifact@v4
        with:
          name: aayudha-pack
          token: ${{ secrets.PAT }}
`
	// signs: a job that runs the pull request's tests signs, and a job that
	// only comments holds id-token.
	const signs = `name: gate
on:
  pull_request_target:
permissions: {}
jobs:
  tests:
    permissions:
      contents: read
      id-token: write
      attestations: write
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
      - run: go test ./...
      - uses: actions/attest@1e69f48acb82d1966a394da916b4c1698aa569d6 # v4.2.2
        with:
          subject-path: out.bin
  comment:
    if: ${{ !cancelled() }}
    permissions:
      pull-requests: write
      statuses: write
      id-token: write
    steps:
      - run: aayu comment 4 --ci
`
	const checkout = "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n"
	type want struct{ rule, says string }
	cases := []struct {
		name, path string
		// from → to edits the path's template; body, when set, is the
		// whole file instead.
		from, to, body string
		want           []want
	}{
		{name: "a pwn request", path: MergeGatePath, body: pwn, want: []want{
			{"trigger", "also runs on workflow_dispatch"}, {"default permissions", "not {}"},
			{"pinned actions", "actions/checkout@v4 is not pinned"}, {"pinned actions", "no # vX comment"},
			{"secrets", "names a secret"}, {"least privilege", "names no permissions"},
			{"no expression in run", "expands an expression inside run"},
			{"checkout", "without persist-credentials"}, {"no cache", "with a cache"},
			{"the pull request's code", "with a token in a step's environment"},
			{"the pull request's code", "builds or uploads the pack and also runs the pull request's code"},
			{"verdict", "must run when they fail"}, {"verdict", "cannot set the commit status"},
			{"secrets", "gives a secret to actions/upload-artifact@v4"},
		}},
		{name: "signing where the pull request's code runs", path: MergeGatePath, body: signs, want: []want{
			{"signing", "job tests signs an attestation after running the pull request's code"},
			{"the pull request's code", "job tests can write id-token while running the pull request's code"},
			{"the pull request's code", "job tests runs the pull request's code with permissions"},
			{"signing", "job comment holds id-token: write but does not build and attest the pack"},
			{"verdict", "job comment can write id-token"},
		}},
		{name: "the tests job downloads an artifact", path: MergeGatePath,
			from: "      - name: Run the pull request's tests with no token",
			to:   "      - uses: actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093 # v4.3.0\n      - name: Run the pull request's tests with no token",
			want: []want{{"the pull request's code", "job tests both runs the pull request's code and reads another job's artifact"}}},
		{name: "the signing job checks out the head", path: MergeGatePath,
			from: "      - name: Fetch the pull request's commits into a bare repository, with no working tree of them\n",
			to:   checkout + "        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n          persist-credentials: false\n      - name: Fetch the pull request's commits into a bare repository, with no working tree of them\n",
			want: []want{{noWorkingTreeRule, "job pack holds attestations: write, id-token: write and checks out the pull request's head"},
				{"the pull request's code", "job pack can write id-token while running the pull request's code"}}},
		{name: "release: the build job signs", path: ReleasePath, from: "    permissions:\n      contents: read\n    steps:\n      - name: Check out the tag's commit",
			to:   "    permissions:\n      contents: read\n      id-token: write\n    steps:\n      - name: Check out the tag's commit",
			want: []want{{"the pull request's code", "job build runs the pull request's code with permissions"}}},
		{name: "release: the attesting job checks out", path: ReleasePath, from: "      - name: Download the built artifacts\n",
			to:   checkout + "        with:\n          persist-credentials: false\n      - name: Download the built artifacts\n",
			want: []want{{"signing", "job attest holds"}}},
		{name: "release: unpinned attest", path: ReleasePath, from: "actions/attest-build-provenance@4d101475d8b20a2381f78447822ac1eab6504dd8", to: "actions/attest-build-provenance@v4",
			want: []want{{"pinned actions", "actions/attest-build-provenance@v4 is not pinned"}}},
		{name: "release: another event", path: ReleasePath, from: "  push:\n", to: "  pull_request_target:\n  push:\n",
			want: []want{{"trigger", "also runs on pull_request_target"}}},
		{name: "loops: the App token to another command", path: LoopsPath, from: `run: aayu loops --ci --repo "$GITHUB_REPOSITORY"`, to: `run: aayu release --to main`,
			want: []want{{"app token", "hands the minted token"}}},
		{name: "loops: write permission", path: LoopsPath, from: "    permissions:\n      contents: read\n", to: "    permissions:\n      contents: write\n",
			want: []want{{"least privilege", "job loops can write contents"}}},
		{name: "a token as a job output", path: MergeGatePath, from: "      attestation-url: ${{ steps.attest.outputs.attestation-url }}\n",
			to:   "      attestation-url: ${{ steps.attest.outputs.attestation-url }}\n      token: ${{ github.token }}\n",
			want: []want{{"job outputs", "job pack passes a token on as its output token"}}},
		{name: "the tests job reads attestations", path: MergeGatePath, from: "    timeout-minutes: 30\n    permissions:\n      contents: read\n    steps:\n      - name: Set up Go without a cache",
			to:   "    timeout-minutes: 30\n    permissions:\n      contents: read\n      attestations: read\n    steps:\n      - name: Set up Go without a cache",
			want: []want{{"signing", "job tests holds attestations: read but does not build and attest the pack"}}},
		{name: "the pack job attests without id-token", path: MergeGatePath, from: "      id-token: write\n      issues: read", to: "      issues: read",
			want: []want{{"signing", "job pack attests without exactly id-token: write"}}},
		{name: "a merge-gate job beyond the workflow's needs", path: MergeGatePath, from: "      actions: read\n", to: "      actions: write\n",
			want: []want{{"least privilege", "job comment can write actions"}, {"verdict", "job comment can write actions"}}},
		{name: "a cache action", path: MergeGatePath, from: "      - name: Install aayu\n",
			to:   "      - uses: actions/cache@5a3ec84eff668545956fd18022155c47e93e2684 # v4.2.3\n      - name: Install aayu\n",
			want: []want{{"no cache", "uses actions/cache, a cache a pull request could poison"}}},
		{name: "the protected-paths gate checks out", path: ProtectedPathsPath, from: "      - name: Install aayu\n", to: checkout + "        with:\n          persist-credentials: false\n      - name: Install aayu\n",
			want: []want{{"checkout", "job protected-paths uses actions/checkout: this workflow runs nothing of the repository's"}}},
		{name: "the protected-paths gate runs on pull_request", path: ProtectedPathsPath, from: "  pull_request_target:\n", to: "  pull_request:\n",
			want: []want{{"trigger", "does not run on pull_request_target"}, {"trigger", "also runs on pull_request"}}},
		{name: "the protected-paths gate writes", path: ProtectedPathsPath, from: "      pull-requests: read\n", to: "      pull-requests: write\n",
			want: []want{{"least privilege", "job protected-paths can write pull-requests"}}},
		{name: "a workflow-wide expression", path: ProtectedPathsPath, from: "  AAYU_MODULE: github.com/aayudha/aayu@latest\n", to: "  AAYU_MODULE: github.com/aayudha/aayu@latest\n  TITLE: ${{ github.event.pull_request.title }}\n",
			want: []want{{"environment", "the workflow puts TITLE in every job's environment"}}},
		{name: "approve: comment body in run", path: ApprovePath, from: `run: aayu approve --ci --repo "$GITHUB_REPOSITORY"`, to: `run: aayu approve --ci --repo "$GITHUB_REPOSITORY" "${{ github.event.comment.body }}"`,
			want: []want{{"no expression in run", "inside run"}}},
		{name: "gate: the reviewer key in a job that can write", path: MergeGatePath, from: "      issues: read\n      pull-requests: read\n      statuses: read\n", to: "      issues: read\n      pull-requests: read\n      statuses: write\n",
			want: []want{{"secrets", "job inspect puts a secret in a step's environment (AAYUDHA_REVIEWER_KEY)"}}},
		{name: "gate: the reviewer key handed to another command", path: MergeGatePath, from: `run: aayu inspect "$PR_NUMBER" --ci`, to: `run: aayu comment "$PR_NUMBER" --ci`,
			want: []want{{"secrets", "job inspect puts a secret in a step's environment (AAYUDHA_REVIEWER_KEY)"}}},
		{name: "approve: comment body in env", path: ApprovePath, from: "          AAYU_BOT_TOKEN: ${{ steps.app.outputs.token }}\n", to: "          AAYU_BOT_TOKEN: ${{ steps.app.outputs.token }}\n          BODY: ${{ github.event.comment.body }}\n",
			want: []want{{"environment", "hands event text to a step (BODY)"}}},
		{name: "approve: unpinned", path: ApprovePath, from: "actions/create-github-app-token@1b10c78c7865c340bc4f6099eb2f838309f1e8c3", to: "actions/create-github-app-token@v3",
			want: []want{{"pinned actions", "not pinned"}}},
		{name: "approve: write permission", path: ApprovePath, from: "      contents: read\n      issues: write\n    steps:", to: "      contents: write\n      issues: write\n    steps:",
			want: []want{{"least privilege", "job approve can write contents"}, {"least privilege", "not exactly"}}},
		{name: "approve: no permission named", path: ApprovePath, from: "    permissions:\n      contents: read\n      issues: write\n    steps:", to: "    permissions: {}\n    steps:",
			want: []want{{"least privilege", "not exactly"}}},
		{name: "approve: another event", path: ApprovePath, from: "  issue_comment:\n", to: "  pull_request_target:\n  issue_comment:\n",
			want: []want{{"trigger", "also runs on pull_request_target"}}},
		{name: "approve: checkout", path: ApprovePath, from: "      - name: Install aayu\n", to: checkout + "      - name: Install aayu\n",
			want: []want{{"checkout", "uses actions/checkout"}}},
		{name: "approve: the job's token to another step", path: ApprovePath, from: "      - name: Install aayu\n", to: "      - name: Install aayu\n        env:\n          GITHUB_TOKEN: ${{ github.token }}\n",
			want: []want{{"workflow token", "workflow token"}}},
		{name: "approve: workflow token", path: ApprovePath, from: "AAYU_BOT_TOKEN: ${{ steps.app.outputs.token }}", to: "AAYU_BOT_TOKEN: ${{ github.token }}",
			want: []want{{"workflow token", "workflow token"}}},
		{name: "approve: the App token to another command", path: ApprovePath, from: `run: aayu approve --ci --repo "$GITHUB_REPOSITORY"`, to: `run: aayu ship --repo "$GITHUB_REPOSITORY"`,
			want: []want{{"app token", "to a step that is not aayu approve --ci"}}},
		{name: "approve: the App token outlives the job", path: ApprovePath, from: "          permission-contents: write\n", to: "          skip-token-revoke: true\n          permission-contents: write\n",
			want: []want{{"app token", "keeps the App token alive"}}},
		{name: "approve: starts on any comment", path: ApprovePath, from: "!github.event.issue.pull_request && ", to: "",
			want: []want{{"job start", "!github.event.issue.pull_request"}}},
		{name: "approve: the key given to another action", path: ApprovePath, from: "          go-version: stable\n", to: "          go-version: stable\n          token: ${{ secrets.AAYUDHA_APP_PRIVATE_KEY }}\n",
			want: []want{{"secrets", "names secrets 2 times"}, {"secrets", "gives a secret to actions/setup-go"}}},
		{name: "broker: runs on push too", path: TokenBrokerPath, from: "on:\n  workflow_dispatch:", to: "on:\n  push:\n  workflow_dispatch:",
			want: []want{{"trigger", "also runs on push"}}},
		{name: "broker: input expanded inside run", path: TokenBrokerPath, from: `aayu token seal --ci`, to: `aayu token seal --ci --key "${{ inputs.public_key }}"`,
			want: []want{{"no expression in run", "inside run"}}},
		{name: "broker: job permissions", path: TokenBrokerPath, from: "    permissions: {}\n    steps:", to: "    permissions:\n      contents: write\n    steps:",
			want: []want{{"least privilege", "job mint can write contents"}}},
		{name: "broker: job without permissions", path: TokenBrokerPath, from: "    permissions: {}\n    steps:", to: "    steps:",
			want: []want{{"least privilege", "job mint names no permissions"}}},
		{name: "broker: unpinned action", path: TokenBrokerPath, from: "actions/create-github-app-token@1b10c78c7865c340bc4f6099eb2f838309f1e8c3", to: "actions/create-github-app-token@v3",
			want: []want{{"pinned actions", "not pinned"}}},
		{name: "broker: token revoked at job end", path: TokenBrokerPath, from: "skip-token-revoke: true", to: "skip-token-revoke: false",
			want: []want{{"app token", "revoke the token when the job ends"}}},
		{name: "broker: token given administration", path: TokenBrokerPath, from: "permission-issues: write", to: "permission-administration: write",
			want: []want{{"app token", "gives the bot's token administration"}}},
		{name: "broker: token for other repositories", path: TokenBrokerPath, from: "          skip-token-revoke: true\n", to: "          skip-token-revoke: true\n          owner: acme\n",
			want: []want{{"app token", "mints a token for other repositories (owner)"}}},
		{name: "broker: token with every permission", path: TokenBrokerPath,
			from: "          permission-contents: write\n          permission-issues: write\n          permission-pull-requests: write\n", to: "",
			want: []want{{"app token", "with every permission the App has"}}},
		{name: "broker: no minting step id", path: TokenBrokerPath, from: "        id: app\n", to: "",
			want: []want{{"app token", "mints no token"}}},
		{name: "broker: the minted token in the job's env", path: TokenBrokerPath, from: "    permissions: {}\n    steps:", to: "    permissions: {}\n    env:\n      T: ${{ steps.app.outputs.token }}\n    steps:",
			want: []want{{"environment", "job mint puts T in every step's environment"}, {"app token", "puts the minted token in every step's environment"}}},
		{name: "broker: the minted token to the upload", path: TokenBrokerPath, from: "          retention-days: 1\n", to: "          retention-days: 1\n          token: ${{ steps.app.outputs.token }}\n",
			want: []want{{"app token", "hands the minted token to actions/upload-artifact"}}},
		{name: "broker: a checkout", path: TokenBrokerPath, from: "      - name: Install aayu", to: strings.TrimSuffix(checkout, "\n") + "\n      - name: Install aayu",
			want: []want{{"checkout", "uses actions/checkout"}, {"checkout", "without persist-credentials"}}},
		{name: "broker: the workflow token handed out", path: TokenBrokerPath, from: "AAYUDHA_APP_TOKEN: ${{ steps.app.outputs.token }}", to: "AAYUDHA_APP_TOKEN: ${{ steps.app.outputs.token }}\n          GITHUB_TOKEN: ${{ github.token }}",
			want: []want{{"workflow token", "hands the workflow token"}}},
		{name: "broker: a secret in a step's env", path: TokenBrokerPath, from: "          AAYUDHA_REQUEST_ID: ${{ inputs.request_id }}\n", to: "          AAYUDHA_REQUEST_ID: ${{ inputs.request_id }}\n          KEY: ${{ secrets.OTHER }}\n",
			want: []want{{"secrets", "puts a secret in a step's environment (KEY)"}, {"secrets", "names secrets 2 times"}}},
		{name: "the gate mints an App token", path: ProtectedPathsPath, from: "      - name: Install aayu\n",
			to:   "      - uses: actions/create-github-app-token@1b10c78c7865c340bc4f6099eb2f838309f1e8c3 # v3.1.1\n        id: app\n      - name: Install aayu\n",
			want: []want{{"app token", "mints an App token; this workflow needs none"}}},
		{name: "not YAML", path: ApprovePath, body: "on: [\n", want: []want{{"yaml", "not YAML"}}},
	}
	fired := map[string]bool{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, ok := policyOf(c.path)
			if !ok {
				t.Fatalf("no policy for %s", c.path)
			}
			body := c.body
			if body == "" {
				body = strings.Replace(p.template, c.from, c.to, 1)
				if body == p.template {
					t.Fatalf("the template %s no longer holds %q", c.path, c.from)
				}
			}
			found := audit(body, p)
			for _, w := range c.want {
				fired[w.rule] = true
				got := strings.Join(found[w.rule], "\n")
				if !strings.Contains(got, w.says) {
					t.Errorf("rule %q did not say %q; it said %q (all: %v)", w.rule, w.says, got, found)
				}
			}
		})
	}
	for _, r := range rules {
		if !fired[r.name] {
			t.Errorf("no broken workflow above shows rule %q failing", r.name)
		}
	}
}

// readerKeyStep says a step's env entry k: v is the policy's reader key,
// under its own name, in the step that runs readerKeyTo, in a job that may
// only read: the one place the merge gate holds AAYUDHA_REVIEWER_KEY.
func readerKeyStep(j job, st step, k, v string, p policy) bool {
	if p.readerKey == "" || k != p.readerKey || v != "${{ secrets."+p.readerKey+" }}" || !strings.Contains(st.Run, p.readerKeyTo) {
		return false
	}
	perms, ok := j.Permissions.(map[string]any)
	if !ok {
		return false
	}
	for _, level := range perms {
		if level != "read" {
			return false
		}
	}
	return true
}
