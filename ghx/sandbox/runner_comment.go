package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/aayudha/aayu/actions/initrepo/templates"
	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/gitsha"
)

// commentEvent is the issue_comment run's event: the new comment and its
// issue, as Actions hands them to the workflow (GITHUB_EVENT_PATH, and the
// github.event expressions the approve workflow's if: reads).
type commentEvent struct {
	ID    int64
	Issue int
	IsPR  bool
	Body  string
	User  string
}

// newComments are the comments on the demo repository's issues and pull
// requests posted after the comment id after, in order; call without s.mu.
func (s *Server) newComments(after int64) []commentEvent {
	var out []commentEvent
	s.inRepoLocked(RepoName, func() {
		for _, c := range s.st.Comments {
			if c.ID <= after {
				continue
			}
			ev := commentEvent{ID: c.ID, Issue: c.Issue, Body: c.Body, User: c.User}
			if is := s.st.issue(c.Issue); is != nil {
				ev.IsPR = is.PR != nil
			}
			out = append(out, ev)
		}
	})
	return out
}

// lastCommentID is the highest comment id now: comments present when the
// runner starts are taken as already run.
func (s *Server) lastCommentID() int64 {
	var last int64
	for _, c := range s.newComments(0) {
		last = max(last, c.ID)
	}
	return last
}

// runOnComment runs the default branch's aayudha-approve.yml for a new
// issue comment, as Actions runs an issue_comment workflow: the default
// branch's copy (an issue comment has no pull request copy to run), its
// job's if: deciding whether anything runs at all.
func (s *Server) runOnComment(ctx context.Context, url string, ro RunnerOptions, ev commentEvent) {
	var (
		wfText []byte
		err    error
		tip    string
	)
	s.inRepoLocked(RepoName, func() {
		tip = s.git.branch("main").String()
		wfText, err = s.fileAt(tip, templates.ApprovePath)
	})
	if err != nil || ev.IsPR {
		return // no approve workflow on the default branch: Actions runs nothing
	}
	// A comment no job's if: takes (the gate's own comments, the
	// workflow's answers) leaves no run behind in the sandbox.
	wf, err := parseWorkflow(wfText)
	if err != nil {
		return
	}
	probe, any := &runJob{comment: &ev}, false
	for _, job := range wf.Jobs {
		ok, err := probe.commentIf(job.If)
		any = any || ok || err != nil
	}
	if !any {
		return
	}
	j := &runJob{s: s, repo: RepoName, opts: ro, url: url, headRef: "main", headSHA: tip, baseRef: "main",
		artifacts: map[string][]byte{}, comment: &ev}
	s.inRepoLocked(RepoName, func() {
		now := s.now()
		j.run = &runRec{ID: s.st.newID(), WorkflowID: workflowID + 7, Name: "aayudha approve", Title: "aayudha approve",
			Event: "issue_comment", Status: "in_progress", HeadBranch: "main", HeadSHA: tip,
			RunNumber: len(s.st.Runs) + 1, RunAttempt: 1, Actor: ev.User, CreatedAt: now, UpdatedAt: now, Situation: "runner"}
		s.st.Runs = append(s.st.Runs, j.run)
		j.suite = s.createCheckSuite(tip, "main", AppActions, j.run.ID)
		j.run.CheckSuiteID = j.suite.ID
		_ = s.save()
	})
	ok := j.execute(ctx, wfText)
	s.inRepoLocked(RepoName, func() {
		j.run.Status, j.run.Conclusion, j.run.UpdatedAt = "completed", "failure", s.now()
		if ok {
			j.run.Conclusion = "success"
		}
		_ = s.save()
	})
	s.logf("runner: issue_comment run %d for comment %d on #%d at %s: %s\n%s", j.run.ID, ev.ID, ev.Issue, gitsha.Short(tip), j.run.Conclusion, j.log.String())
}

// commentIf evaluates the approve workflow's job condition for the event:
// the one form it takes, "!github.event.issue.pull_request && (startsWith(
// github.event.comment.body, 'A') || …)". Any other condition is refused,
// as the sandbox evaluates nothing it does not know.
var startsWithBody = lazyre.New(`startsWith\(github\.event\.comment\.body, '([^']*)'\)`)

func (j *runJob) commentIf(cond string) (bool, error) {
	cond = strings.TrimSpace(cond)
	if m := expr().FindStringSubmatch(cond); m != nil && m[0] == cond {
		cond = m[1]
	}
	rest := strings.TrimSpace(strings.TrimPrefix(cond, "!github.event.issue.pull_request &&"))
	prefixes := startsWithBody().FindAllStringSubmatch(rest, -1)
	leftover := strings.NewReplacer("||", "", "(", "", ")", "", " ", "").Replace(startsWithBody().ReplaceAllString(rest, ""))
	if rest == cond || len(prefixes) == 0 || leftover != "" {
		return false, fmt.Errorf("the sandbox runner does not evaluate if: %s", cond)
	}
	if j.comment.IsPR {
		return false, nil
	}
	for _, p := range prefixes {
		if strings.HasPrefix(j.comment.Body, p[1]) {
			return true, nil
		}
	}
	return false, nil
}

// commentEnv makes a job's environment an issue_comment run's: the event's
// name and the event file, as Actions writes it.
func (j *runJob) commentEnv(env map[string]string, home string) {
	if j.comment == nil {
		return
	}
	ev := map[string]any{
		"action":  "created",
		"comment": map[string]any{"id": j.comment.ID, "body": j.comment.Body, "user": map[string]any{"login": j.comment.User}},
		"issue":   map[string]any{"number": j.comment.Issue},
	}
	b, _ := json.Marshal(ev)
	p := filepath.Join(home, "event.json")
	_ = os.WriteFile(p, b, 0o600)
	env["GITHUB_EVENT_NAME"], env["GITHUB_EVENT_PATH"] = "issue_comment", p
	env["GITHUB_WORKFLOW_REF"] = RepoOwner + "/" + j.repo + "/" + templates.ApprovePath + "@refs/heads/main"
	delete(env, "GITHUB_BASE_REF")
	delete(env, "GITHUB_HEAD_REF")
}
