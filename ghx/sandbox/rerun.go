package sandbox

import (
	"context"
	"net/http"
	"time"

	"github.com/aayudha/aayu/model/gitsha"
)

// rerunRun answers POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun
// (actions/re-run-workflow in GitHub's description: "Re-runs your workflow
// run using its id", 201 with an empty object; OAuth and classic tokens
// need the repo scope, a workflow token actions: write, which
// jobtoken.go's scope table enforces). GitHub answers 403 "This workflow
// is already running" for a run not yet completed [wild], and a caller
// without write access is refused.
//
// A re-run is the same run (its id) at its next attempt: it uses the first
// attempt's event, so the workflow file at the run's head_sha (the base's
// tip when the pull request's head was pushed) and that head; the
// artifacts of the earlier attempt are gone once it starts
// (actions/upload-artifact#585, #323: a full re-run's uploads replace
// them). With the runner on, a merge-gate run of it runs again, every job;
// a seeded run, with no runner behind it, moves to its next attempt and
// keeps the conclusion it was seeded with.
func (s *Server) rerunRun(w http.ResponseWriter, r *http.Request) {
	run := s.runFrom(w, r)
	if run == nil {
		return
	}
	if !callerOf(r).canPush() {
		writeError(w, http.StatusForbidden, "Must have write access to re-run a workflow.")
		return
	}
	if v, _ := s.runView(run); v.Status != "completed" {
		writeErrorDoc(w, http.StatusForbidden, "This workflow is already running", "https://docs.github.com/rest/actions/workflow-runs#re-run-a-workflow")
		return
	}
	now := s.now()
	run.RunAttempt++
	run.UpdatedAt = now
	if ro := s.opts.Runner; ro != nil && s.runnerCtx != nil && run.Situation == "runner" && run.Event == "pull_request_target" && len(run.PRs) == 1 {
		run.Status, run.Conclusion = "queued", ""
		kept := s.st.Artifacts[:0]
		for _, a := range s.st.Artifacts {
			if a.RunID != run.ID {
				kept = append(kept, a)
			}
		}
		s.st.Artifacts = kept
		repo := RepoName
		if s.cur == FreshRepoName {
			repo = FreshRepoName
		}
		go s.rerunGate(s.runnerCtx, s.runnerURL, *ro, repo, run)
	}
	_ = s.save()
	writeJSON(w, http.StatusCreated, map[string]any{})
}

// rerunGate runs a merge-gate run again, at the attempt rerunRun set: the
// workflow file at the run's head_sha, bound to the head its pull request
// had when the run started, each job again on a fresh machine with its
// own token, reported in the run's check suite.
func (s *Server) rerunGate(ctx context.Context, url string, ro RunnerOptions, repo string, run *runRec) {
	var j *runJob
	var wfText []byte
	var err error
	var id int64
	var attempt int
	s.inRepoLocked(repo, func() {
		id, attempt = run.ID, run.RunAttempt
		p := run.PRs[0]
		body := ""
		if is := s.st.issue(p.Number); is != nil {
			body = is.Body
		}
		j = &runJob{s: s, repo: repo, opts: ro, url: url, pr: p.Number, headRef: p.HeadRef, headSHA: p.HeadSHA, baseRef: p.BaseRef,
			body: body, run: run, artifacts: map[string][]byte{}}
		if j.suite = s.checkSuite(run.CheckSuiteID); j.suite == nil {
			j.suite = s.createCheckSuite(run.HeadSHA, p.BaseRef, AppActions, run.ID)
			run.CheckSuiteID = j.suite.ID
		}
		wfText, err = s.fileAt(run.HeadSHA, gatePath)
		run.Status, run.UpdatedAt = "in_progress", s.now()
		_ = s.save()
	})
	started := time.Now()
	s.logf("runner: run %d attempt %d for %s#%d at %s started", id, attempt, repo, j.pr, gitsha.Short(j.headSHA))
	ok := err == nil && j.execute(ctx, wfText)
	conclusion := "failure"
	if ok {
		conclusion = "success"
	}
	s.inRepoLocked(repo, func() {
		run.Status, run.Conclusion, run.UpdatedAt = "completed", conclusion, s.now()
		_ = s.save()
	})
	s.logf("runner: run %d attempt %d for %s#%d at %s finished in %s: %s\n%s", id, attempt, repo, j.pr, gitsha.Short(j.headSHA),
		time.Since(started).Round(time.Second), conclusion, j.log.String())
}
