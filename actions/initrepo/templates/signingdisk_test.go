package templates

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// noWorkingTreeRule: a job that holds a write or signing permission (or a
// secret) never has the pull request's files in a working tree, and keeps
// what it uploads or attests under runner.temp. Such a job on
// pull_request_target holds a token that can write; a checkout of the head
// puts on its disk files and symlinks the pull request chose, and a pack
// written, attested and uploaded from a path inside that tree can be one
// the pull request planted there. The job reads the pull request's commits
// with a bare fetch (git --git-dir) or the API instead.
const noWorkingTreeRule = "no working tree where a job can write or sign"

func noWorkingTreeWhereAJobCanWriteOrSign(w workflow, _ policy, bad func(string, ...any)) {
	_, onPullRequest := w.On["pull_request"]
	for _, name := range w.jobs() {
		j := w.Jobs[name]
		power := writePower(j)
		if power == "" {
			continue
		}
		for _, st := range j.Steps {
			if st.action() == "actions/checkout" {
				ref := strings.TrimSpace(fmt.Sprint(st.With["ref"]))
				if st.With["ref"] == nil && onPullRequest || namesThePRsHead(ref) {
					bad("job %s holds %s and checks out the pull request's head (ref: %s) into a working tree; read its commits with a bare fetch (git --git-dir) or the API", name, power, ref)
				}
			}
			if g := workingTreeCommand.FindString(st.Run); g != "" && !strings.Contains(g, "--bare") && !strings.Contains(g, "--mirror") {
				bad("job %s holds %s and runs %q, which puts the pull request's files in a working tree", name, power, strings.TrimSpace(g))
			}
			for _, kept := range keptPaths(st) {
				for p := range strings.SplitSeq(kept.path, "\n") {
					if p = strings.TrimSpace(p); p != "" && !underRunnerTemp(p) {
						bad("job %s holds %s and %s %s, outside runner.temp: a path in the workspace is one a checkout could have filled", name, power, kept.verb, p)
					}
				}
			}
		}
	}
}

// writePower names what a job can write or sign with, or "": its write
// permissions (id-token and attestations among them), write-all, or a
// secret it names.
func writePower(j job) string {
	var out []string
	switch perms := j.Permissions.(type) {
	case string:
		if strings.Contains(perms, "write") {
			out = append(out, perms)
		}
	case map[string]any:
		for k, v := range perms {
			if fmt.Sprint(v) == "write" {
				out = append(out, k+": write")
			}
		}
	}
	if strings.Contains(fmt.Sprint(j.Env), "secrets.") || slices.ContainsFunc(j.Steps, func(st step) bool {
		return strings.Contains(fmt.Sprint(st.Env), "secrets.") || strings.Contains(fmt.Sprint(st.With), "secrets.")
	}) {
		out = append(out, "a secret")
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// namesThePRsHead says whether a checkout's ref is the pull request's head
// or its merge commit.
func namesThePRsHead(ref string) bool {
	for _, s := range []string{"github.event.pull_request.head", "github.event.pull_request.merge_commit_sha", "github.head_ref", "refs/pull/", "github.event.issue.pull_request"} {
		if strings.Contains(ref, s) {
			return true
		}
	}
	return false
}

// workingTreeCommand finds a command that fills a working tree: git
// checkout, switch, restore, worktree add or clone (a --bare or --mirror
// clone has none), and gh pr checkout.
var workingTreeCommand = regexp.MustCompile(`\bgit\b[^\n;&|]*?\s(checkout|switch|restore|worktree\s+add|clone)\b[^\n;&|]*|\bgh\s+pr\s+checkout\b`)

type keptPath struct{ verb, path string }

// keptPaths are the paths a step uploads or attests.
func keptPaths(st step) []keptPath {
	var out []keptPath
	add := func(verb, key string) {
		if v, ok := st.With[key]; ok {
			out = append(out, keptPath{verb, fmt.Sprint(v)})
		}
	}
	switch st.action() {
	case "actions/upload-artifact":
		add("uploads", "path")
	case "actions/attest", "actions/attest-build-provenance", "actions/attest-sbom":
		add("attests", "subject-path")
		add("attests", "predicate-path")
		add("attests", "sbom-path")
	}
	return out
}

var runnerTemp = regexp.MustCompile(`^\$\{\{\s*runner\.temp\s*\}\}(/|$)`)

// underRunnerTemp says whether a path is inside the runner's temporary
// folder, which no checkout fills and the job's own steps create.
func underRunnerTemp(p string) bool {
	return runnerTemp.MatchString(p) && !strings.Contains(p, "..")
}

// TestAuditRefusesASigningJobWithThePRsFilesOnDisk: the merge gate as it
// was — its pack job holding id-token: write and attestations: write with
// the pull request's head checked out, attesting and uploading the pack
// from a path inside that tree — fails the rule on each count; the gate
// aayu writes now (a bare fetch, the pack under runner.temp) passes it,
// and so does every other workflow aayu writes.
func TestAuditRefusesASigningJobWithThePRsFilesOnDisk(t *testing.T) {
	p, _ := policyOf(MergeGatePath)
	old, err := os.ReadFile("testdata/merge-gate-signing-job-with-checkout.yml")
	if err != nil {
		t.Fatal(err)
	}
	found := strings.Join(audit(string(old), p)[noWorkingTreeRule], "\n")
	for _, says := range []string{
		"job pack holds attestations: write, id-token: write and checks out the pull request's head (ref: ${{ github.event.pull_request.head.sha }})",
		"job pack holds attestations: write, id-token: write and attests .aayudha/proof/${{ env.AAYU_STORY }}/pack.json, outside runner.temp",
		"job pack holds attestations: write, id-token: write and uploads .aayudha/proof/${{ env.AAYU_STORY }}/, outside runner.temp",
	} {
		if !strings.Contains(found, says) {
			t.Errorf("the old gate: the rule did not say %q; it said:\n%s", says, found)
		}
	}
	for _, f := range append(Workflows(), IdentityWorkflows()...) {
		p, _ := policyOf(f.Path)
		if got := audit(f.Body, p)[noWorkingTreeRule]; len(got) > 0 {
			t.Errorf("%s breaks the rule:\n%s", f.Path, strings.Join(got, "\n"))
		}
	}

	// Each way back onto the disk is caught on today's gate too.
	cases := []struct{ name, from, to, says string }{
		{"a checkout of the head in the pack job",
			"      - name: Fetch the pull request's commits into a bare repository, with no working tree of them\n",
			"      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n          persist-credentials: false\n      - name: Fetch the pull request's commits into a bare repository, with no working tree of them\n",
			"job pack holds attestations: write, id-token: write and checks out the pull request's head"},
		{"a git checkout of the head", `git --git-dir="$commits" update-ref --no-deref HEAD "$HEAD_SHA"`,
			`git --git-dir="$commits" update-ref --no-deref HEAD "$HEAD_SHA"` + "\n          git clone -q \"$commits\" work && git -C work checkout -q \"$HEAD_SHA\"",
			`runs "git clone -q \"$commits\" work"`},
		{"a git worktree of the head", `git --git-dir="$commits" update-ref --no-deref HEAD "$HEAD_SHA"`,
			`git --git-dir="$commits" update-ref --no-deref HEAD "$HEAD_SHA"` + "\n          git --git-dir=\"$commits\" worktree add -q work \"$HEAD_SHA\"",
			"worktree add"},
		{"the pack attested from the workspace", "          subject-path: ${{ runner.temp }}/aayudha-pack/pack.json\n",
			"          subject-path: aayudha-pack/pack.json\n", "attests aayudha-pack/pack.json, outside runner.temp"},
		{"the pack uploaded from above runner.temp", "          path: ${{ runner.temp }}/aayudha-pack/\n",
			"          path: ${{ runner.temp }}/../work/aayudha-pack/\n", "uploads ${{ runner.temp }}/../work/aayudha-pack/, outside runner.temp"},
		{"the comment job checks out the head", "      - name: Keep the gate's one comment and set aayudha/merge-gate and aayudha/inspect on the head\n",
			"      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n        with:\n          ref: refs/pull/${{ github.event.pull_request.number }}/merge\n          persist-credentials: false\n      - name: Keep the gate's one comment and set aayudha/merge-gate and aayudha/inspect on the head\n",
			"job comment holds pull-requests: write, statuses: write and checks out the pull request's head"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := strings.Replace(MergeGate, c.from, c.to, 1)
			if body == MergeGate {
				t.Fatalf("the template no longer holds %q", c.from)
			}
			got := strings.Join(audit(body, p)[noWorkingTreeRule], "\n")
			if !strings.Contains(got, c.says) {
				t.Errorf("the rule did not say %q; it said:\n%s", c.says, got)
			}
		})
	}
}
