package sandbox

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// The Checks API's writes, as GitHub serves them: only a GitHub App may
// create or update check runs and suites ("OAuth apps and personal access
// tokens (classic) cannot use this endpoint", checks/create), so a
// person's token gets 403 "You must authenticate via a GitHub App."; an
// App's installation token needs checks: write (a job's GITHUB_TOKEN its
// job's checks permission, held to it before the handler runs). A check
// run belongs to the App that created it, in that App's check suite on the
// commit, and only that App may update it.

const checksDocs = "https://docs.github.com/rest/checks/runs#create-a-check-run"

// checksApp is the App slug a caller writes checks as, or "" after writing
// GitHub's refusal.
func (s *Server) checksApp(w http.ResponseWriter, c caller) string {
	perms, isApp := c.appPermissions()
	switch {
	case !isApp:
		writeErrorDoc(w, http.StatusForbidden, "You must authenticate via a GitHub App.", checksDocs)
		return ""
	case c.job != nil:
		return AppActions // refuseJob held the token to its checks permission
	case perms["checks"] != "write":
		writeErrorDoc(w, http.StatusForbidden, notAccessible, checksDocs)
		return ""
	case c.install != nil:
		return c.install.app.Slug
	}
	return BotAppSlug
}

type checkOutput struct {
	Title   *string `json:"title"`
	Summary *string `json:"summary"`
}

type checkRunBody struct {
	Name        *string      `json:"name"`
	HeadSHA     *string      `json:"head_sha"`
	DetailsURL  *string      `json:"details_url"`
	Status      *string      `json:"status"`
	Conclusion  *string      `json:"conclusion"`
	CompletedAt *string      `json:"completed_at"`
	Output      *checkOutput `json:"output"`
}

var (
	checkStatuses    = []string{"queued", "in_progress", "completed"}
	checkConclusions = []string{"action_required", "cancelled", "failure", "neutral", "success", "skipped", "stale", "timed_out"}
)

// validCheckRun says what is wrong with a check run's body, in GitHub's
// 422 fields; nil when nothing is.
func validCheckRun(b checkRunBody) *fieldError {
	switch {
	case b.Status != nil && !slices.Contains(checkStatuses, *b.Status):
		return &fieldError{Resource: "CheckRun", Field: "status", Code: "invalid"}
	case b.Conclusion != nil && !slices.Contains(checkConclusions, *b.Conclusion):
		return &fieldError{Resource: "CheckRun", Field: "conclusion", Code: "invalid"}
	case b.Status != nil && *b.Status == "completed" && b.Conclusion == nil:
		return &fieldError{Resource: "CheckRun", Field: "conclusion", Code: "missing_field"}
	}
	return nil
}

// applyCheckRun writes a body's fields onto a check run: a conclusion (or
// completed_at) completes it, as GitHub's docs say.
func (s *Server) applyCheckRun(cr *checkRunRec, b checkRunBody) {
	now := s.now()
	if b.Name != nil {
		cr.Name = *b.Name
	}
	if b.DetailsURL != nil {
		cr.DetailsURL = *b.DetailsURL
	}
	if b.Status != nil {
		cr.Status = *b.Status
	}
	if b.Output != nil {
		if b.Output.Title != nil {
			cr.Title = *b.Output.Title
		}
		if b.Output.Summary != nil {
			cr.Summary = *b.Output.Summary
		}
	}
	if b.Conclusion != nil {
		cr.Status, cr.Conclusion = "completed", *b.Conclusion
		at := now
		if b.CompletedAt != nil {
			if t, err := time.Parse(time.RFC3339, *b.CompletedAt); err == nil {
				at = t
			}
		}
		cr.CompletedAt = &at
	}
	if cs := s.checkSuite(cr.SuiteID); cs != nil {
		cs.UpdatedAt = now
	}
}

// appSuite is app's check suite on sha, opened when it has none.
func (s *Server) appSuite(sha, app string) (cs *checkSuiteRec, created bool) {
	for i := len(s.st.CheckSuites) - 1; i >= 0; i-- {
		if x := s.st.CheckSuites[i]; x.HeadSHA == sha && x.App == app && x.RunID == 0 {
			return x, false
		}
	}
	return s.createCheckSuite(sha, "", app, 0), true
}

// postCheckRun is POST /repos/{owner}/{repo}/check-runs.
func (s *Server) postCheckRun(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	app := s.checksApp(w, callerOf(r))
	if app == "" {
		return
	}
	var b checkRunBody
	if !decodeBody(w, r, &b) {
		return
	}
	switch {
	case b.Name == nil || *b.Name == "":
		writeValidation(w, fieldError{Resource: "CheckRun", Field: "name", Code: "missing_field"})
		return
	case b.HeadSHA == nil:
		writeValidation(w, fieldError{Resource: "CheckRun", Field: "head_sha", Code: "missing_field"})
		return
	}
	if fe := validCheckRun(b); fe != nil {
		writeValidation(w, *fe)
		return
	}
	h, ok := s.commitHash(*b.HeadSHA)
	if !ok {
		writeValidation(w, fieldError{Resource: "CheckRun", Field: "head_sha", Code: "invalid", Message: "No commit found for SHA: " + *b.HeadSHA})
		return
	}
	cs, _ := s.appSuite(h.String(), app)
	cr := s.addCheckRun(cs, *b.Name, "queued", "", "")
	s.applyCheckRun(cr, b)
	w.Header().Set("Location", fmt.Sprintf("%s%s/check-runs/%d", baseURL(r), repoPath, cr.ID))
	writeJSON(w, http.StatusCreated, s.checkRunJSON(baseURL(r), cr))
}

// patchCheckRun is PATCH /repos/{owner}/{repo}/check-runs/{id}: only the
// App that created the run may change it.
func (s *Server) patchCheckRun(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	app := s.checksApp(w, callerOf(r))
	if app == "" {
		return
	}
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	var cr *checkRunRec
	for _, x := range s.st.CheckRuns {
		if x.ID == id {
			cr = x
		}
	}
	if cr == nil {
		notFound(w)
		return
	}
	if cr.App != app {
		writeErrorDoc(w, http.StatusForbidden, notAccessible, "https://docs.github.com/rest/checks/runs#update-a-check-run")
		return
	}
	var b checkRunBody
	if !decodeBody(w, r, &b) {
		return
	}
	if fe := validCheckRun(b); fe != nil {
		writeValidation(w, *fe)
		return
	}
	s.applyCheckRun(cr, b)
	writeJSON(w, http.StatusOK, s.checkRunJSON(baseURL(r), cr))
}

// postCheckSuite is POST /repos/{owner}/{repo}/check-suites: the App's
// suite on head_sha, 201 when it is new and 200 when it was there.
func (s *Server) postCheckSuite(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	app := s.checksApp(w, callerOf(r))
	if app == "" {
		return
	}
	var b struct {
		HeadSHA *string `json:"head_sha"`
	}
	if !decodeBody(w, r, &b) {
		return
	}
	if b.HeadSHA == nil {
		writeValidation(w, fieldError{Resource: "CheckSuite", Field: "head_sha", Code: "missing_field"})
		return
	}
	h, ok := s.commitHash(*b.HeadSHA)
	if !ok {
		writeValidation(w, fieldError{Resource: "CheckSuite", Field: "head_sha", Code: "invalid", Message: "No commit found for SHA: " + *b.HeadSHA})
		return
	}
	cs, created := s.appSuite(h.String(), app)
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeJSON(w, status, s.checkSuiteJSON(baseURL(r), cs))
}

func (s *Server) routeCheckWrites(m *http.ServeMux) {
	m.HandleFunc("POST /repos/{owner}/{repo}/check-runs", s.postCheckRun)
	m.HandleFunc("PATCH /repos/{owner}/{repo}/check-runs/{id}", s.patchCheckRun)
	m.HandleFunc("POST /repos/{owner}/{repo}/check-suites", s.postCheckSuite)
}
