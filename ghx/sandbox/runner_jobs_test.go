package sandbox

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// jobsWorkflow has four jobs that report what their tokens could do into
// out: tests (read-only) tries a write and uploads a raw artifact;
// assemble downloads it, uploads its own, then fails; comment runs anyway
// (if: !cancelled()) with pull-requests: write and tries the tests job's
// token again; after needs assemble and is skipped.
const jobsWorkflow = `name: jobs
on:
  pull_request_target:
permissions: {}
env:
  OUT: %[1]s
jobs:
  tests:
    name: run the tests
    permissions:
      contents: read
    steps:
      - name: no token in the environment
        run: env | grep -c ghs_ > "$OUT/tests-env" || true
      - name: a read-only token writes
        env:
          T: ${{ github.token }}
          PR: ${{ github.event.pull_request.number }}
        run: |
          echo "$T" > "$OUT/tests-token"
          curl -s -o /dev/null -w '%%{http_code}' -X POST -H "Authorization: Bearer $T" -d '{"body":"x"}' "$AAYU_GITHUB_API_URL"repos/acme/benefits/issues/$PR/comments > "$OUT/tests-write"
          curl -s -o /dev/null -w '%%{http_code}' -H "Authorization: Bearer $T" "$AAYU_GITHUB_API_URL"repos/acme/benefits/commits/dev > "$OUT/tests-read"
      - run: mkdir raw && echo raw-output > raw/tests.jsonl
      - id: days
        run: echo "keep=7" >> "$GITHUB_OUTPUT"
      - uses: actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2
        with:
          name: raw
          path: raw/
          retention-days: ${{ steps.days.outputs.keep }}
  assemble:
    needs: tests
    permissions:
      contents: read
    steps:
      - uses: actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093 # v4.3.0
        with:
          name: raw
          path: ${{ runner.temp }}/raw
      - run: cp "$RUNNER_TEMP/raw/tests.jsonl" "$OUT/assemble-got"
      - run: exit 1
  comment:
    needs: [tests, assemble]
    if: ${{ !cancelled() }}
    permissions:
      pull-requests: write
    steps:
      - env:
          T: ${{ github.token }}
          PR: ${{ github.event.pull_request.number }}
        run: |
          curl -s -o /dev/null -w '%%{http_code}' -X POST -H "Authorization: Bearer $T" -d '{"body":"gate"}' "$AAYU_GITHUB_API_URL"repos/acme/benefits/issues/$PR/comments > "$OUT/comment-write"
          curl -s -o /dev/null -w '%%{http_code}' -H "Authorization: Bearer $(cat "$OUT/tests-token")" "$AAYU_GITHUB_API_URL"repos/acme/benefits/commits/dev > "$OUT/old-token"
  after:
    needs: assemble
    steps:
      - run: touch "$OUT/after-ran"
`

// TestRunnerJobTokensHoldTheJobsPermissionsAndEndWithTheJob: each job gets
// its own github-actions[bot] token with exactly its permissions (a
// read-only one gets GitHub's 403 on a write), kept out of the steps'
// environment unless a step asks for it, and dead (401) once its job
// ended; jobs run by needs: and if:, the one marked !cancelled() after a
// failure; each job is a check run on the run's head_sha, the base's tip;
// artifacts pass between jobs by name, kept the retention-days a step's
// output gives.
func TestRunnerJobTokensHoldTheJobsPermissionsAndEndWithTheJob(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/usr/bin/curl"); err != nil {
		t.Skip("the workflow's steps use curl")
	}
	s, err := New(Options{ShareSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	out := t.TempDir()
	run := s.runWorkflow(context.Background(), ts.URL, RunnerOptions{Aayu: "/bin/true"}, RepoName, DemoPRReady, fmt.Appendf(nil, jobsWorkflow, out))

	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(out, name))
		return strings.TrimSpace(string(b))
	}
	for file, want := range map[string]string{
		"tests-env": "0", "tests-write": "403", "tests-read": "200", "assemble-got": "raw-output",
		"comment-write": "201", "old-token": "401",
	} {
		if got := read(file); got != want {
			t.Errorf("%s = %q, want %q", file, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "after-ran")); err == nil {
		t.Error("a job that needs a failed job ran without if: always()")
	}
	if run.Conclusion != "failure" {
		t.Errorf("run conclusion %q, want failure (assemble failed)", run.Conclusion)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	base := s.git.branch("dev").String()
	if run.HeadSHA != base {
		t.Errorf("run head_sha %s, want the base's tip %s", run.HeadSHA, base)
	}
	got := map[string]string{}
	for _, cr := range s.checkRunsFor(base) {
		got[cr.Name] = cr.Conclusion
		if cr.SuiteID != run.CheckSuiteID {
			t.Errorf("check run %s is in suite %d, not the run's %d", cr.Name, cr.SuiteID, run.CheckSuiteID)
		}
	}
	want := map[string]string{"run the tests": "success", "assemble": "failure", "comment": "success", "after": "skipped"}
	for name, c := range want {
		if got[name] != c {
			t.Errorf("check run %q concluded %q, want %q (all: %v)", name, got[name], c, got)
		}
	}
	var names []string
	for _, a := range s.st.Artifacts {
		if a.RunID == run.ID {
			names = append(names, a.Name)
			// retention-days from a step's output, as the merge gate
			// passes [proof] retention_days to its upload.
			if kept := a.ExpiresAt.Sub(a.CreatedAt); kept != 7*24*time.Hour {
				t.Errorf("artifact %s is kept %v, want the 7 days its step's output gave", a.Name, kept)
			}
		}
	}
	if strings.Join(names, ",") != "raw" {
		t.Errorf("the run's artifacts: %v, want raw", names)
	}
	var by string
	for _, c := range s.st.Comments {
		if c.Issue == DemoPRReady && c.Body == "gate" {
			by = c.User
		}
	}
	if by != ActionsBotLogin {
		t.Errorf("the comment job's comment is by %q, want %s", by, ActionsBotLogin)
	}
}

// outputsWorkflow passes a step's output out of job make as a job output,
// into job use's environment through needs; job stranger reads the same
// output without needing make, which Actions does not allow.
const outputsWorkflow = `name: outputs
on:
  pull_request_target:
permissions: {}
env:
  OUT: %[1]s
jobs:
  make:
    permissions: {}
    outputs:
      word: ${{ steps.say.outputs.word }}
      token: ${{ github.token }}
    steps:
      - id: say
        run: echo "word=attested-42" >> "$GITHUB_OUTPUT"
  use:
    needs: make
    permissions: {}
    steps:
      - env:
          WORD: ${{ needs.make.outputs.word }}
          TOKEN: ${{ needs.make.outputs.token }}
        run: |
          printf '%%s' "$WORD" > "$OUT/use-got"
          printf '%%s' "$TOKEN" > "$OUT/use-token"
  stranger:
    permissions: {}
    steps:
      - env:
          WORD: ${{ needs.make.outputs.word }}
        run: printf '%%s' "$WORD" > "$OUT/stranger-got"
`

// TestRunnerPassesJobOutputsThroughNeeds: a job's outputs, evaluated from
// its steps' outputs when it ends, reach a job that needs it through
// ${{ needs.<id>.outputs.<name> }} in env:, but not one that holds the
// job's token; a job that does not need it cannot read them (its step
// fails, as Actions refuses the workflow).
func TestRunnerPassesJobOutputsThroughNeeds(t *testing.T) {
	t.Parallel()
	s, err := New(Options{ShareSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	out := t.TempDir()
	run := s.runWorkflow(context.Background(), ts.URL, RunnerOptions{Aayu: "/bin/true"}, RepoName, DemoPRReady, fmt.Appendf(nil, outputsWorkflow, out))
	if b, err := os.ReadFile(filepath.Join(out, "use-got")); err != nil || string(b) != "attested-42" {
		t.Errorf("job use read %q (%v), want make's output attested-42", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "use-token")); err != nil || len(b) != 0 {
		t.Errorf("job use read make's token through an output: %q (%v); Actions passes no output holding a secret", b, err)
	}
	if _, err := os.Stat(filepath.Join(out, "stranger-got")); err == nil {
		t.Error("a job that does not need make read its output")
	}
	if run.Conclusion != "failure" {
		t.Errorf("run conclusion %q, want failure (stranger names a job it does not need)", run.Conclusion)
	}
}
