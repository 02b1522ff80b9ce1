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
			If          string            `yaml:"if"`
			Permissions any               `yaml:"permissions"`
			Env         map[string]string `yaml:"env"`
			Outputs     map[string]string `yaml:"outputs"`
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
	for name, job := range wf.Jobs {
		perms, ok := job.Permissions.(map[string]any)
		if !ok {
			bad("job %s names no permissions of its own", name)
		}
		checksOut, downloads, attests := false, false, false
		// runsCode: a step after the pull request's checkout runs its code;
		// holdsToken: a step (or the job) has a token in its environment;
		// builds: the job builds or uploads the pack; comments: it runs
		// aayu comment.
		runsCode, holdsToken, builds, comments := "", false, false, false
		tokenIn := func(env map[string]string) bool {
			for k, v := range env {
				if strings.Contains(v, "github.token") || strings.Contains(v, "secrets.") || tokenName(k) {
					return true
				}
			}
			return false
		}
		holdsToken = tokenIn(job.Env)
		for _, st := range job.Steps {
			if strings.Contains(st.Run, "${{") {
				bad("job %s expands an expression inside run: %q; pass it through env", name, st.Run)
			}
			holdsToken = holdsToken || tokenIn(st.Env)
			if checksOut && runsCode == "" && runsPRCode(st.Run) {
				runsCode = strings.TrimSpace(st.Run)
			}
			builds = builds || strings.Contains(st.Run, "--from-raw") || st.With["name"] == "aayudha-pack" && strings.HasPrefix(st.Uses, "actions/upload-artifact@")
			comments = comments || strings.Contains(st.Run, "aayu comment")
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
			case "actions/attest", "actions/attest-build-provenance":
				attests = true
				if runsCode != "" {
					bad("job %s signs an attestation after running the pull request's code (%s)", name, runsCode)
				}
			case "actions/cache", "actions/cache/restore", "actions/cache/save":
				bad("job %s uses %s, a cache a pull request could poison", name, action)
			}
		}
		if runsCode != "" {
			if len(perms) != 1 || perms["contents"] != "read" {
				bad("job %s runs the pull request's code with permissions %v, not only contents: read", name, perms)
			}
			if downloads {
				bad("job %s both runs the pull request's code and reads another job's artifact", name)
			}
		}
		for k, v := range perms {
			// Signing is the one write a job that checked out the head may
			// hold, and only the job that builds and attests the pack,
			// running none of the pull request's code.
			signing := (k == "id-token" || k == "attestations") && attests && builds && runsCode == ""
			if v == "write" && checksOut && !signing {
				bad("job %s can write %s while running the pull request's code", name, k)
			}
			// Reading attestations (the comment checks the pack's before
			// naming who signed it) is no signing power, for a job that
			// never checks out the pull request's code.
			readsAttestations := k == "attestations" && v == "read" && !checksOut
			if (k == "id-token" || k == "attestations") && v != "none" && !readsAttestations && !(attests && builds && runsCode == "") {
				bad("job %s holds %s: %s but does not build and attest the pack; only that job may sign", name, k, v)
			}
		}
		// A job's outputs are read by the jobs that need it, and shown in
		// the run's log: never a token.
		for k, v := range job.Outputs {
			if strings.Contains(v, "github.token") || strings.Contains(v, "secrets.") {
				bad("job %s passes a token on as its output %s", name, k)
			}
		}
		if attests && (perms["id-token"] != "write" || perms["attestations"] != "write") {
			bad("job %s attests without exactly id-token: write and attestations: write", name)
		}
		if runsCode != "" && holdsToken {
			bad("job %s runs the pull request's code (%s) with a token in a step's environment", name, runsCode)
		}
		if runsCode != "" && builds {
			bad("job %s builds or uploads the pack and also runs the pull request's code (%s)", name, runsCode)
		}
		if comments {
			if !strings.Contains(job.If, "!cancelled()") && !strings.Contains(job.If, "always()") {
				bad("job %s posts the gate's verdict only when every job before it passed; it must run when they fail (if: !cancelled())", name)
			}
			if perms["statuses"] != "write" {
				bad("job %s cannot set the commit status aayudha/merge-gate (statuses: write)", name)
			}
			for k, v := range perms {
				if v == "write" && k != "statuses" && k != "pull-requests" {
					bad("job %s can write %s; posting the comment and the status needs only pull-requests and statuses", name, k)
				}
			}
		}
	}
	return problems
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

func TestWorkflowsAreSafeByConstruction(t *testing.T) {
	for _, f := range Workflows() {
		check := audit
		if f.Path == ApprovePath {
			check = auditApprove // issue_comment, not pull_request_target
		}
		if got := check(f.Body); len(got) > 0 {
			t.Errorf("%s:\n%s", f.Path, strings.Join(got, "\n"))
		}
	}
}

// TestMergeGateShape: the tests job checks out the head and runs aayu
// verify --raw-out with no token, uploading aayudha-raw; the pack job
// downloads it and runs aayu verify --ci --from-raw, uploading
// aayudha-pack; the comment job never checks out, downloads the pack,
// runs aayu comment --ci even when the jobs before it failed, with
// pull-requests: write and statuses: write.
func TestMergeGateShape(t *testing.T) {
	type step struct {
		ID   string            `yaml:"id"`
		Uses string            `yaml:"uses"`
		Run  string            `yaml:"run"`
		With map[string]any    `yaml:"with"`
		Env  map[string]string `yaml:"env"`
	}
	var wf struct {
		Jobs map[string]struct {
			Name        string            `yaml:"name"`
			Needs       any               `yaml:"needs"`
			If          string            `yaml:"if"`
			Permissions map[string]string `yaml:"permissions"`
			Outputs     map[string]string `yaml:"outputs"`
			Steps       []step            `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(MergeGate), &wf); err != nil {
		t.Fatal(err)
	}
	joined := func(steps []step) string {
		var b strings.Builder
		for _, s := range steps {
			fmt.Fprintf(&b, "%s|%s|%v|%v\n", s.Uses, s.Run, s.With, s.Env)
		}
		return b.String()
	}
	tj, pj, cj := wf.Jobs["tests"], wf.Jobs["pack"], wf.Jobs["comment"]
	ts, ps, cs := joined(tj.Steps), joined(pj.Steps), joined(cj.Steps)
	for _, want := range []string{"actions/checkout@", "github.event.pull_request.head.sha", `aayu verify "$AAYU_STORY" --raw-out "$RUNNER_TEMP/aayudha-raw"`,
		"actions/upload-artifact@", "name:aayudha-raw", "fix/*", "aayu/revert-*"} {
		if !strings.Contains(ts, want) {
			t.Errorf("tests job lacks %q:\n%s", want, ts)
		}
	}
	for _, bad := range []string{"github.token", "GITHUB_TOKEN", "aayudha-pack", "--ci"} {
		if strings.Contains(ts, bad) {
			t.Errorf("tests job, which runs the pull request's code, holds %q:\n%s", bad, ts)
		}
	}
	for _, want := range []string{"actions/download-artifact@", "name:aayudha-raw", `--from-raw "$RUNNER_TEMP/aayudha-raw"`, `aayu verify "$AAYU_STORY" --ci`,
		"actions/upload-artifact@", "name:aayudha-pack", "path:.aayudha/proof/${{ env.AAYU_STORY }}/",
		"retention-days:${{ steps.pack.outputs.retention_days }}"} {
		if !strings.Contains(ps, want) {
			t.Errorf("pack job lacks %q:\n%s", want, ps)
		}
	}
	for _, want := range []string{"actions/download-artifact@", "name:aayudha-pack", "path:.aayudha/proof/${{ env.AAYU_STORY }}/", `aayu comment "$PR_NUMBER" --ci`} {
		if !strings.Contains(cs, want) {
			t.Errorf("comment job lacks %q:\n%s", want, cs)
		}
	}
	// The pack is kept for [proof] retention_days: the days come from the
	// step that built it, which reads the base branch's policy.
	for _, s := range pj.Steps {
		if strings.Contains(s.Run, "aayu verify") && s.ID != "pack" {
			t.Errorf("the pack job's verify step has id %q; the upload's retention-days reads steps.pack.outputs", s.ID)
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
	if pj.Needs != "tests" || fmt.Sprint(cj.Needs) != "[tests pack]" || !strings.Contains(cj.If, "!cancelled()") {
		t.Errorf("needs: pack %v, comment %v if %q", pj.Needs, cj.Needs, cj.If)
	}
	if len(tj.Permissions) != 1 || tj.Permissions["contents"] != "read" {
		t.Errorf("tests job permissions %v, want contents: read only", tj.Permissions)
	}
	// The pack job signs: exactly id-token and attestations are written,
	// everything else only read; no other job holds either.
	for k, v := range pj.Permissions {
		signing := (k == "id-token" || k == "attestations") && v == "write"
		if v != "read" && !signing {
			t.Errorf("pack job can %s %s", v, k)
		}
	}
	if pj.Permissions["id-token"] != "write" || pj.Permissions["attestations"] != "write" {
		t.Errorf("pack job permissions %v: it cannot attest the pack", pj.Permissions)
	}
	for id, j := range wf.Jobs {
		if _, ok := j.Permissions["id-token"]; ok && id != "pack" {
			t.Errorf("job %s holds id-token; only the pack job signs", id)
		}
		// The comment job reads the pack's attestations to check them
		// before it names who signed; no other job holds attestations.
		if v, ok := j.Permissions["attestations"]; ok && id != "pack" && (id != "comment" || v != "read") {
			t.Errorf("job %s holds attestations: %s; only the pack job signs and only the comment job reads", id, v)
		}
	}
	if cj.Permissions["attestations"] != "read" {
		t.Errorf("comment job permissions %v: it cannot read the pack's attestations to check them", cj.Permissions)
	}
	// The attestation's id and URL pass from the attest step to the pack
	// job's outputs, and into the comment step through env, never through
	// an expression inside its script.
	for name, want := range map[string]string{"attestation-id": "${{ steps.attest.outputs.attestation-id }}",
		"attestation-url": "${{ steps.attest.outputs.attestation-url }}"} {
		if pj.Outputs[name] != want {
			t.Errorf("pack job output %s = %q, want %q", name, pj.Outputs[name], want)
		}
	}
	attestID := ""
	for _, s := range pj.Steps {
		if strings.HasPrefix(s.Uses, "actions/attest@") {
			attestID = s.ID
		}
	}
	if attestID != "attest" {
		t.Errorf("the attest step has id %q; the pack job's outputs read steps.attest.outputs", attestID)
	}
	var commentEnv map[string]string
	for _, s := range cj.Steps {
		if strings.Contains(s.Run, "aayu comment") {
			commentEnv = s.Env
		}
	}
	if commentEnv["AAYU_ATTESTATION_ID"] != "${{ needs.pack.outputs.attestation-id }}" ||
		commentEnv["AAYU_ATTESTATION_URL"] != "${{ needs.pack.outputs.attestation-url }}" {
		t.Errorf("the comment step's env %v does not carry the pack job's attestation id and URL", commentEnv)
	}
	for _, want := range []string{"actions/attest@1e69f48acb82d1966a394da916b4c1698aa569d6",
		"subject-path:.aayudha/proof/${{ env.AAYU_STORY }}/pack.json", "predicate-type:https://aayudha.dev/proof-pack/v1",
		"predicate-path:.aayudha/proof/${{ env.AAYU_STORY }}/pack.json"} {
		if !strings.Contains(ps, want) {
			t.Errorf("pack job lacks %q:\n%s", want, ps)
		}
	}
	if strings.Index(ps, "actions/attest@") < strings.Index(ps, "--from-raw") || strings.Index(ps, "actions/attest@") > strings.Index(ps, "name:aayudha-pack") {
		t.Errorf("the attest step must sign the pack the job just built, before it is uploaded:\n%s", ps)
	}
	if cj.Permissions["pull-requests"] != "write" || cj.Permissions["statuses"] != "write" {
		t.Errorf("comment job permissions %v", cj.Permissions)
	}
	// The check runs the jobs create are not the status a ruleset requires.
	for id, j := range wf.Jobs {
		if j.Name == "aayudha/merge-gate" {
			t.Errorf("job %s is named aayudha/merge-gate, the commit status the comment job sets; a check run of that name sits on the base's tip", id)
		}
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
        env:
          GITHUB_TOKEN: ${{ github.token }}
      - run: aayu comment 4 --ci
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
		"with a token in a step's environment", "builds or uploads the pack and also runs the pull request's code",
		"must run when they fail", "cannot set the commit status",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the audit missed %q; it said:\n%s", want, got)
		}
	}
}

// TestAuditRefusesSigningWhereThePullRequestsCodeRuns: a job that runs the
// pull request's tests may not sign, nor may a job that only comments; a
// pull request's code with an OIDC token could sign anything as the gate.
func TestAuditRefusesSigningWhereThePullRequestsCodeRuns(t *testing.T) {
	const wf = `name: gate
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
    outputs:
      token: ${{ github.token }}
  comment:
    if: ${{ !cancelled() }}
    permissions:
      pull-requests: write
      statuses: write
      id-token: write
    steps:
      - run: aayu comment 4 --ci
  reader:
    permissions:
      contents: read
      attestations: read
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
`
	got := strings.Join(audit(wf), "\n")
	for _, want := range []string{
		"job tests signs an attestation after running the pull request's code",
		"job tests can write id-token while running the pull request's code",
		"job comment holds id-token: write but does not build and attest the pack",
		"job reader holds attestations: read but does not build and attest the pack",
		"job tests passes a token on as its output token",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the audit missed %q; it said:\n%s", want, got)
		}
	}
}
