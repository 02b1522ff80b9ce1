package sandbox

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Check suites and check runs, as GitHub Actions reports a workflow run:
// one check suite per run, on the run's head_sha (for pull_request_target
// that is the base branch's tip, github-api/REFERENCE.md §7), and one check
// run per job, named after the job. A commit status exists only where a
// workflow step posts one; a check run exists because a job ran.

// checkSuiteRec is one check suite. Its status and conclusion are derived
// from its check runs, as GitHub derives them.
type checkSuiteRec struct {
	ID         int64     `json:"id"`
	HeadSHA    string    `json:"head_sha"`
	HeadBranch string    `json:"head_branch,omitempty"`
	App        string    `json:"app"`              // the app's slug: github-actions
	RunID      int64     `json:"run_id,omitempty"` // the workflow run the suite reports
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// checkRunRec is one check run (one job of an Actions run).
type checkRunRec struct {
	ID          int64      `json:"id"`
	SuiteID     int64      `json:"suite_id"`
	HeadSHA     string     `json:"head_sha"`
	Name        string     `json:"name"`
	App         string     `json:"app"`
	Status      string     `json:"status"` // queued, in_progress, completed
	Conclusion  string     `json:"conclusion,omitempty"`
	DetailsURL  string     `json:"details_url,omitempty"`
	Title       string     `json:"title,omitempty"`
	Summary     string     `json:"summary,omitempty"`
	StartedAt   time.Time  `json:"started_at"`
	CompletedAt *time.Time `json:"completed_at,omitempty"`
}

// checkApp is a GitHub App that reports checks.
type checkApp struct {
	ID          int64
	Slug, Name  string
	Owner       string
	Description string
}

// AppActions is the slug of GitHub Actions, the app behind every check run
// a workflow job creates.
const AppActions = "github-actions"

// checkApps are the apps the sandbox knows; GitHub Actions' id is 15368 on
// github.com.
var checkApps = map[string]checkApp{
	AppActions: {ID: ActionsAppID, Slug: AppActions, Name: "GitHub Actions", Owner: "github",
		Description: "Automate your workflow from idea to production"},
	BotAppSlug: {ID: BotAppID, Slug: BotAppSlug, Name: "aayudha agent", Owner: RepoOwner,
		Description: "The agent's GitHub App"},
}

func appOf(slug string) checkApp {
	if a, ok := checkApps[slug]; ok {
		return a
	}
	return checkApp{ID: 100001, Slug: slug, Name: slug, Owner: RepoOwner} // an app the tests name
}

// createCheckSuite opens a check suite on headSHA for app; runID names the
// workflow run it reports (0 for none). Call with s.mu held.
func (s *Server) createCheckSuite(headSHA, headBranch, app string, runID int64) *checkSuiteRec {
	now := s.now()
	cs := &checkSuiteRec{ID: 12000000000 + s.st.newID(), HeadSHA: headSHA, HeadBranch: headBranch, App: app,
		RunID: runID, CreatedAt: now, UpdatedAt: now}
	s.st.CheckSuites = append(s.st.CheckSuites, cs)
	return cs
}

// addCheckRun adds a check run to a suite; a completed run gets its
// completion time now. Call with s.mu held.
func (s *Server) addCheckRun(cs *checkSuiteRec, name, status, conclusion, detailsURL string) *checkRunRec {
	now := s.now()
	cr := &checkRunRec{ID: 35000000000 + s.st.newID(), SuiteID: cs.ID, HeadSHA: cs.HeadSHA, Name: name, App: cs.App,
		Status: status, DetailsURL: detailsURL, StartedAt: now}
	if status == "completed" {
		cr.Conclusion, cr.CompletedAt = conclusion, &now
	}
	cs.UpdatedAt = now
	s.st.CheckRuns = append(s.st.CheckRuns, cr)
	return cr
}

// createCheckRun records one check run on headSHA in a suite of its own,
// as a one-job workflow run of app would. Call with s.mu held.
func (s *Server) createCheckRun(headSHA, name, app, status, conclusion, detailsURL string) *checkRunRec {
	return s.addCheckRun(s.createCheckSuite(headSHA, "", app, 0), name, status, conclusion, detailsURL)
}

// completeCheckRun finishes a check run with its conclusion. Call with
// s.mu held.
func (s *Server) completeCheckRun(cr *checkRunRec, conclusion, title, summary string) {
	now := s.now()
	cr.Status, cr.Conclusion, cr.CompletedAt = "completed", conclusion, &now
	cr.Title, cr.Summary = title, summary
	if cs := s.checkSuite(cr.SuiteID); cs != nil {
		cs.UpdatedAt = now
	}
}

func (s *Server) checkSuite(id int64) *checkSuiteRec {
	for _, cs := range s.st.CheckSuites {
		if cs.ID == id {
			return cs
		}
	}
	return nil
}

func (s *Server) runsOfSuite(id int64) []*checkRunRec {
	var out []*checkRunRec
	for _, cr := range s.st.CheckRuns {
		if cr.SuiteID == id {
			out = append(out, cr)
		}
	}
	return out
}

// suiteState derives a suite's status and conclusion from its runs: queued
// with none, in progress while any runs, else the worst conclusion (a
// failing run fails the suite; skipped and neutral do not).
func suiteState(runs []*checkRunRec) (status, conclusion string) {
	if len(runs) == 0 {
		return "queued", ""
	}
	var concl []string
	for _, cr := range runs {
		if cr.Status != "completed" {
			return "in_progress", ""
		}
		concl = append(concl, cr.Conclusion)
	}
	return "completed", worstConclusion(concl)
}

// conclusionRank orders conclusions from worst to best, as GitHub rolls a
// suite up.
var conclusionRank = []string{"action_required", "cancelled", "timed_out", "failure", "startup_failure", "stale", "neutral", "skipped", "success"}

func worstConclusion(cs []string) string {
	best := len(conclusionRank)
	for _, c := range cs {
		for i, r := range conclusionRank {
			if r == c && i < best {
				best = i
			}
		}
	}
	if best == len(conclusionRank) {
		return "success"
	}
	if conclusionRank[best] == "skipped" || conclusionRank[best] == "neutral" {
		// A suite whose runs were all skipped or neutral is one of those;
		// with any success among them it is a success.
		for _, c := range cs {
			if c == "success" {
				return "success"
			}
		}
	}
	return conclusionRank[best]
}

// checkGreen reports whether a completed check's conclusion lets a
// required check pass: success, and skipped and neutral as on GitHub.
func checkGreen(conclusion string) bool {
	return conclusion == "success" || conclusion == "skipped" || conclusion == "neutral"
}

// checkRunsFor lists the check runs on sha, newest first.
func (s *Server) checkRunsFor(sha string) []*checkRunRec {
	var out []*checkRunRec
	for i := len(s.st.CheckRuns) - 1; i >= 0; i-- {
		if s.st.CheckRuns[i].HeadSHA == sha {
			out = append(out, s.st.CheckRuns[i])
		}
	}
	return out
}

// latestCheckRuns keeps the newest check run per app and name, the
// default filter=latest of the REST API and what statusCheckRollup shows.
func latestCheckRuns(all []*checkRunRec) []*checkRunRec {
	var out []*checkRunRec
	seen := map[string]bool{}
	for _, cr := range all {
		k := cr.App + "\x00" + cr.Name
		if !seen[k] {
			seen[k] = true
			out = append(out, cr)
		}
	}
	return out
}

func appJSON(base, slug string) map[string]any {
	a := appOf(slug)
	created := time.Date(2018, 7, 30, 9, 30, 17, 0, time.UTC)
	return map[string]any{
		"id": a.ID, "slug": a.Slug, "node_id": nodeID("A", a.ID), "owner": userJSON(base, a.Owner), "name": a.Name,
		"description": a.Description, "external_url": "https://help.github.com/en/actions",
		"html_url": base + "/apps/" + a.Slug, "created_at": ts(created), "updated_at": ts(created),
		"permissions": map[string]any{"actions": "write", "checks": "write", "contents": "write", "metadata": "read",
			"pull_requests": "write", "statuses": "write"},
		"events": []any{"check_run", "check_suite", "pull_request", "push", "workflow_dispatch"},
	}
}

// prsForCheck are the open pull requests whose head is sha, as GitHub
// lists them on a check.
func (s *Server) prsForCheck(base, sha string) []any {
	out := []any{}
	repo := map[string]any{"id": s.repoID(), "url": base + repoPath, "name": RepoName}
	for _, is := range s.st.Issues {
		if is.PR == nil || is.State != "open" || s.headSHA(is).String() != sha {
			continue
		}
		out = append(out, map[string]any{
			"id": is.PR.ID, "number": is.Number, "url": fmt.Sprintf("%s%s/pulls/%d", base, repoPath, is.Number),
			"head": map[string]any{"ref": is.PR.Head, "sha": sha, "repo": repo},
			"base": map[string]any{"ref": is.PR.Base, "sha": s.git.branch(is.PR.Base).String(), "repo": repo},
		})
	}
	return out
}

func (s *Server) checkRunJSON(base string, cr *checkRunRec) map[string]any {
	api := fmt.Sprintf("%s%s/check-runs/%d", base, repoPath, cr.ID)
	html := fmt.Sprintf("%s%s/runs/%d", base, htmlRepo, cr.ID)
	if cs := s.checkSuite(cr.SuiteID); cs != nil && cs.RunID != 0 {
		html = fmt.Sprintf("%s%s/actions/runs/%d/job/%d", base, htmlRepo, cs.RunID, cr.ID)
	}
	var completed any
	if cr.CompletedAt != nil {
		completed = ts(*cr.CompletedAt)
	}
	return map[string]any{
		"id": cr.ID, "head_sha": cr.HeadSHA, "node_id": nodeID("CR", cr.ID), "external_id": "",
		"url": api, "html_url": html, "details_url": nilIfEmpty(cr.DetailsURL), "status": cr.Status,
		"conclusion": nilIfEmpty(cr.Conclusion), "started_at": ts(cr.StartedAt), "completed_at": completed,
		"output": map[string]any{"title": nilIfEmpty(cr.Title), "summary": nilIfEmpty(cr.Summary), "text": nil,
			"annotations_count": 0, "annotations_url": api + "/annotations"},
		"name": cr.Name, "check_suite": map[string]any{"id": cr.SuiteID}, "app": appJSON(base, cr.App),
		"pull_requests": s.prsForCheck(base, cr.HeadSHA),
	}
}

func (s *Server) checkSuiteJSON(base string, cs *checkSuiteRec) map[string]any {
	runs := s.runsOfSuite(cs.ID)
	status, conclusion := suiteState(runs)
	if len(runs) == 0 && cs.RunID != 0 {
		// A seeded run's suite: Actions reports a run's suite as the run.
		for _, run := range s.st.Runs {
			if run.ID == cs.RunID {
				status, conclusion = run.Status, run.Conclusion
			}
		}
	}
	var headCommit any
	if h, ok := s.git.resolve(cs.HeadSHA); ok {
		if c, err := s.git.commit(h); err == nil {
			headCommit = map[string]any{"id": cs.HeadSHA, "tree_id": c.TreeHash.String(), "message": strings.TrimSuffix(c.Message, "\n"),
				"timestamp": ts(c.Committer.When), "author": map[string]any{"name": c.Author.Name, "email": c.Author.Email},
				"committer": map[string]any{"name": c.Committer.Name, "email": c.Committer.Email}}
		}
	}
	api := fmt.Sprintf("%s%s/check-suites/%d", base, repoPath, cs.ID)
	return map[string]any{
		"id": cs.ID, "node_id": nodeID("CS", cs.ID), "head_branch": nilIfEmpty(cs.HeadBranch), "head_sha": cs.HeadSHA,
		"status": status, "conclusion": nilIfEmpty(conclusion), "url": api, "before": nil, "after": cs.HeadSHA,
		"pull_requests": s.prsForCheck(base, cs.HeadSHA), "app": appJSON(base, cs.App),
		"repository": s.repoJSON(base, caller{anonymous: true}, false), "created_at": ts(cs.CreatedAt),
		"updated_at": ts(cs.UpdatedAt), "head_commit": headCommit, "latest_check_runs_count": len(latestCheckRuns(runs)),
		"check_runs_url": api + "/check-runs", "rerequestable": true, "runs_rerequestable": true,
	}
}

// appFilter reads app_id; ok is false when it is given but matches no app
// the sandbox knows, which matches nothing.
func appFilter(r *http.Request) (slug string, ok bool) {
	v := r.URL.Query().Get("app_id")
	if v == "" {
		return "", true
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return "", false
	}
	for s, a := range checkApps {
		if a.ID == id {
			return s, true
		}
	}
	return "", false
}

// listCheckRunsForRef serves GET commits/{ref}/check-runs: check_name,
// status, filter (latest by default, or all) and app_id narrow the list.
func (s *Server) listCheckRunsForRef(w http.ResponseWriter, r *http.Request, ref string) {
	h, ok := s.git.resolve(ref)
	if !ok {
		writeValidation(w, fieldError{Resource: "Commit", Field: "sha", Code: "invalid", Message: "No commit found for SHA: " + ref})
		return
	}
	q := r.URL.Query()
	filter := q.Get("filter")
	if filter != "" && filter != "latest" && filter != "all" {
		writeValidation(w, fieldError{Resource: "CheckRun", Field: "filter", Code: "invalid"})
		return
	}
	app, appOK := appFilter(r)
	runs := s.checkRunsFor(h.String())
	if filter != "all" {
		runs = latestCheckRuns(runs)
	}
	var list []*checkRunRec
	for _, cr := range runs {
		switch {
		case !appOK, app != "" && cr.App != app,
			q.Get("check_name") != "" && cr.Name != q.Get("check_name"),
			q.Get("status") != "" && cr.Status != q.Get("status"):
			continue
		}
		list = append(list, cr)
	}
	start, end := pageOf(w, r, len(list))
	out := []any{}
	for _, cr := range list[start:end] {
		out = append(out, s.checkRunJSON(baseURL(r), cr))
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(list), "check_runs": out})
}

// listCheckSuitesForRef serves GET commits/{ref}/check-suites: app_id and
// check_name (a suite holding a run of that name) narrow the list.
func (s *Server) listCheckSuitesForRef(w http.ResponseWriter, r *http.Request, ref string) {
	h, ok := s.git.resolve(ref)
	if !ok {
		writeValidation(w, fieldError{Resource: "Commit", Field: "sha", Code: "invalid", Message: "No commit found for SHA: " + ref})
		return
	}
	app, appOK := appFilter(r)
	name := r.URL.Query().Get("check_name")
	var list []*checkSuiteRec
	for i := len(s.st.CheckSuites) - 1; i >= 0; i-- {
		cs := s.st.CheckSuites[i]
		if cs.HeadSHA != h.String() || !appOK || (app != "" && cs.App != app) {
			continue
		}
		if name != "" {
			found := false
			for _, cr := range s.runsOfSuite(cs.ID) {
				found = found || cr.Name == name
			}
			if !found {
				continue
			}
		}
		list = append(list, cs)
	}
	start, end := pageOf(w, r, len(list))
	out := []any{}
	for _, cs := range list[start:end] {
		out = append(out, s.checkSuiteJSON(baseURL(r), cs))
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(list), "check_suites": out})
}

// getCheckRun serves GET check-runs/{id}.
func (s *Server) getCheckRun(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err == nil {
		for _, cr := range s.st.CheckRuns {
			if cr.ID == id {
				writeJSON(w, http.StatusOK, s.checkRunJSON(baseURL(r), cr))
				return
			}
		}
	}
	notFound(w)
}

// ReportCheckRun records on ref of the demo repository a completed check
// run named name with conclusion, as a one-job run of another GitHub
// Actions workflow would (for tests that stage such a check). It returns
// the check run's id.
func (s *Server) ReportCheckRun(ref, name, conclusion string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.git.resolve(ref)
	if !ok {
		return 0, fmt.Errorf("no commit %s in the demo repository", ref)
	}
	cr := s.createCheckRun(h.String(), name, AppActions, "completed", conclusion, "")
	if err := s.save(); err != nil {
		return 0, err
	}
	return cr.ID, nil
}
