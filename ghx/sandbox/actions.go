package sandbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

func (s *Server) routeActions(m *http.ServeMux) {
	m.HandleFunc("GET /repos/{owner}/{repo}/actions/workflows/{workflow}/runs", s.listWorkflowRuns)
	m.HandleFunc("POST /repos/{owner}/{repo}/actions/workflows/{workflow}/dispatches", s.dispatchWorkflow)
	m.HandleFunc("GET /repos/{owner}/{repo}/actions/runs", s.listWorkflowRuns)
	m.HandleFunc("GET /repos/{owner}/{repo}/actions/runs/{run}", s.getRun)
	m.HandleFunc("GET /repos/{owner}/{repo}/actions/runs/{run}/artifacts", s.listRunArtifacts)
	m.HandleFunc("POST /repos/{owner}/{repo}/actions/runs/{run}/rerun", s.rerunRun)
	m.HandleFunc("GET /repos/{owner}/{repo}/actions/artifacts/{artifact}", s.getArtifact)
	m.HandleFunc("DELETE /repos/{owner}/{repo}/actions/artifacts/{artifact}", s.deleteArtifact)
	m.HandleFunc("GET /repos/{owner}/{repo}/actions/artifacts/{artifact}/{format}", s.downloadArtifact)
	m.HandleFunc("GET /repos/{owner}/{repo}/actions/permissions/artifact-and-log-retention", s.getRetention)
	m.HandleFunc("GET /repos/{owner}/{repo}/check-runs/{id}", s.getCheckRun)
}

// knownWorkflow accepts the merge gate by file name or numeric id.
func knownWorkflow(id string) bool { return id == GateFile || id == strconv.Itoa(workflowID) }

// runView is a run as of now: a dispatched run is invisible until it is
// created, then queued, in progress, and completed with success.
func (s *Server) runView(run *runRec) (runRec, bool) {
	v := *run
	now := s.now()
	if !run.Dispatched {
		return v, true
	}
	age := now.Sub(run.CreatedAt)
	switch {
	case age < 0:
		return v, false
	case age < 3*time.Second:
		v.Status, v.Conclusion = "queued", ""
	case age < 10*time.Second:
		v.Status, v.Conclusion = "in_progress", ""
	default:
		v.Status, v.Conclusion = "completed", "success"
		v.UpdatedAt = run.CreatedAt.Add(10 * time.Second)
	}
	return v, true
}

func (s *Server) runJSON(base string, v runRec) map[string]any {
	api := fmt.Sprintf("%s%s/actions/runs/%d", base, repoPath, v.ID)
	prs := []any{}
	for _, p := range v.PRs {
		repo := map[string]any{"id": s.repoID(), "url": base + repoPath, "name": RepoName}
		prs = append(prs, map[string]any{
			"id": int64(p.Number) + 900000, "number": p.Number, "url": fmt.Sprintf("%s%s/pulls/%d", base, repoPath, p.Number),
			"head": map[string]any{"ref": p.HeadRef, "sha": p.HeadSHA, "repo": repo},
			"base": map[string]any{"ref": p.BaseRef, "sha": p.BaseSHA, "repo": repo},
		})
	}
	var conclusion any
	if v.Conclusion != "" {
		conclusion = v.Conclusion
	}
	var headCommit any
	if c, ok := s.git.resolve(v.HeadSHA); ok {
		cc, _ := s.git.commit(c)
		headCommit = map[string]any{"id": v.HeadSHA, "tree_id": cc.TreeHash.String(), "message": strings.TrimSuffix(cc.Message, "\n"),
			"timestamp": ts(cc.Committer.When), "author": map[string]any{"name": cc.Author.Name, "email": cc.Author.Email},
			"committer": map[string]any{"name": cc.Committer.Name, "email": cc.Committer.Email}}
	}
	repo := s.repoJSON(base, caller{anonymous: true}, false)
	path := gatePath
	if v.Path != "" {
		path = v.Path
	}
	suite := v.ID + 1000000
	if v.CheckSuiteID != 0 {
		suite = v.CheckSuiteID
	}
	return map[string]any{
		"id": v.ID, "name": v.Name, "node_id": nodeID("WFR", v.ID), "check_suite_id": suite,
		"check_suite_node_id": nodeID("CS", suite), "head_branch": v.HeadBranch, "head_sha": v.HeadSHA,
		"path": path, "run_number": v.RunNumber, "run_attempt": v.RunAttempt, "event": v.Event,
		"display_title": v.Title, "status": v.Status, "conclusion": conclusion, "workflow_id": v.WorkflowID,
		"url": api, "html_url": fmt.Sprintf("%s%s/actions/runs/%d", base, htmlRepo, v.ID), "pull_requests": prs,
		"created_at": ts(v.CreatedAt), "updated_at": ts(v.UpdatedAt), "run_started_at": ts(v.CreatedAt),
		"actor": userJSON(base, v.Actor), "triggering_actor": userJSON(base, v.Actor),
		"jobs_url": api + "/jobs", "logs_url": api + "/logs", "check_suite_url": fmt.Sprintf("%s%s/check-suites/%d", base, repoPath, suite),
		"artifacts_url": api + "/artifacts", "cancel_url": api + "/cancel", "rerun_url": api + "/rerun",
		"previous_attempt_url": nil, "workflow_url": fmt.Sprintf("%s%s/actions/workflows/%d", base, repoPath, v.WorkflowID),
		"head_commit": headCommit, "repository": repo, "head_repository": repo, "referenced_workflows": []any{},
	}
}

func (s *Server) listWorkflowRuns(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	only := "" // another workflow than the gate: only its own runs
	if wf := r.PathValue("workflow"); wf != "" && !knownWorkflow(wf) {
		if !s.workflowOnMain(wf) {
			notFound(w)
			return
		}
		only = ".github/workflows/" + wf
	}
	q := r.URL.Query()
	var list []runRec
	for _, run := range s.st.Runs {
		v, visible := s.runView(run)
		if !visible || only != "" && v.Path != only || !runMatches(v, q.Get("branch"), q.Get("event"), q.Get("head_sha"), q.Get("status"), q.Get("actor")) {
			continue
		}
		list = append(list, v)
	}
	sort.SliceStable(list, func(i, j int) bool {
		if !list[i].CreatedAt.Equal(list[j].CreatedAt) {
			return list[i].CreatedAt.After(list[j].CreatedAt)
		}
		return list[i].ID > list[j].ID
	})
	start, end := pageOf(w, r, len(list))
	out := []any{}
	for _, v := range list[start:end] {
		out = append(out, s.runJSON(baseURL(r), v))
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(list), "workflow_runs": out})
}

// runMatches applies the list filters; status matches a status or, for
// conclusions such as success, the conclusion.
func runMatches(v runRec, branch, event, headSHA, status, actor string) bool {
	switch {
	case branch != "" && v.HeadBranch != branch,
		event != "" && v.Event != event,
		headSHA != "" && v.HeadSHA != headSHA,
		actor != "" && !strings.EqualFold(v.Actor, actor):
		return false
	case status == "":
		return true
	}
	return v.Status == status || v.Conclusion == status
}

func (s *Server) runFrom(w http.ResponseWriter, r *http.Request) *runRec {
	if !repoOK(w, r) {
		return nil
	}
	id, _ := strconv.ParseInt(r.PathValue("run"), 10, 64)
	for _, run := range s.st.Runs {
		if run.ID == id {
			if _, visible := s.runView(run); visible {
				return run
			}
		}
	}
	notFound(w)
	return nil
}

func (s *Server) getRun(w http.ResponseWriter, r *http.Request) {
	run := s.runFrom(w, r)
	if run == nil {
		return
	}
	v, _ := s.runView(run)
	writeJSON(w, http.StatusOK, s.runJSON(baseURL(r), v))
}

func (s *Server) artifactJSON(base string, a *artifactRec) map[string]any {
	api := fmt.Sprintf("%s%s/actions/artifacts/%d", base, repoPath, a.ID)
	sum := sha256.Sum256(a.Zip)
	m := map[string]any{
		"id": a.ID, "node_id": nodeID("MDg", a.ID), "name": a.Name, "size_in_bytes": len(a.Zip), "url": api,
		"archive_download_url": api + "/zip", "expired": !s.now().Before(a.ExpiresAt),
		"created_at": ts(a.CreatedAt), "updated_at": ts(a.CreatedAt), "expires_at": ts(a.ExpiresAt),
		"digest": "sha256:" + hex.EncodeToString(sum[:]),
	}
	for _, run := range s.st.Runs {
		if run.ID == a.RunID {
			m["workflow_run"] = map[string]any{"id": run.ID, "repository_id": s.repoID(), "head_repository_id": s.repoID(),
				"head_branch": run.HeadBranch, "head_sha": run.HeadSHA}
		}
	}
	return m
}

func (s *Server) listRunArtifacts(w http.ResponseWriter, r *http.Request) {
	run := s.runFrom(w, r)
	if run == nil {
		return
	}
	name := r.URL.Query().Get("name")
	var list []*artifactRec
	for _, a := range s.st.Artifacts {
		if a.RunID == run.ID && (name == "" || a.Name == name) {
			list = append(list, a)
		}
	}
	start, end := pageOf(w, r, len(list))
	out := []any{}
	for _, a := range list[start:end] {
		out = append(out, s.artifactJSON(baseURL(r), a))
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(list), "artifacts": out})
}

func (s *Server) artifactFrom(w http.ResponseWriter, r *http.Request) *artifactRec {
	if !repoOK(w, r) {
		return nil
	}
	id, _ := strconv.ParseInt(r.PathValue("artifact"), 10, 64)
	for _, a := range s.st.Artifacts {
		if a.ID == id {
			return a
		}
	}
	notFound(w)
	return nil
}

func (s *Server) getArtifact(w http.ResponseWriter, r *http.Request) {
	if a := s.artifactFrom(w, r); a != nil {
		writeJSON(w, http.StatusOK, s.artifactJSON(baseURL(r), a))
	}
}

// downloadArtifact answers 302 to a signed URL valid for one minute, or
// 410 once the artifact has expired. The 410 message is not pinned by any
// public source; this one is a plausible wording.
func (s *Server) downloadArtifact(w http.ResponseWriter, r *http.Request) {
	a := s.artifactFrom(w, r)
	if a == nil {
		return
	}
	if r.PathValue("format") != "zip" {
		notFound(w)
		return
	}
	if !s.now().Before(a.ExpiresAt) {
		writeErrorDoc(w, http.StatusGone, "Artifact has expired", "https://docs.github.com/rest/actions/artifacts#download-an-artifact")
		return
	}
	exp := s.now().Add(time.Minute).Unix()
	loc := fmt.Sprintf("%s/_blob/artifacts/%d?exp=%d&sig=%s", baseURL(r), a.ID, exp, s.blobSig(a.ID, exp))
	if s.cur == FreshRepoName {
		// The storage host serves both repositories; the key signing the
		// URL is the repository's own, so the name only says where to look.
		loc += "&repo=" + FreshRepoName
	}
	w.Header().Set("Location", loc)
	w.Header().Set("Content-Type", "text/html;charset=utf-8")
	w.WriteHeader(http.StatusFound)
}

func (s *Server) blobSig(id, exp int64) string {
	mac := hmac.New(sha256.New, []byte(fmt.Sprintf("sandbox-blob-key-%d", s.st.RepoCreated.UnixNano())))
	fmt.Fprintf(mac, "%d|%d", id, exp)
	return hex.EncodeToString(mac.Sum(nil))[:32]
}

// handleBlob serves the signed download. Like blob storage it wants no
// GitHub token: one sent here would be a leak, so it is refused.
func (s *Server) handleBlob(w http.ResponseWriter, r *http.Request) {
	s.inRepo(r.URL.Query().Get("repo"), func() { s.serveBlob(w, r) })
}

// serveBlob is handleBlob with the artifact's repository current.
func (s *Server) serveBlob(w http.ResponseWriter, r *http.Request) {
	id, ok := s.signedBlob(w, r)
	if !ok {
		return
	}
	for _, a := range s.st.Artifacts {
		if a.ID == id {
			w.Header().Set("Content-Type", "application/zip")
			w.Header().Set("Content-Length", strconv.Itoa(len(a.Zip)))
			_, _ = w.Write(a.Zip)
			return
		}
	}
	blobText(w, http.StatusNotFound, "BlobNotFound")
}

// signedBlob checks a signed download as blob storage does: no GitHub
// token wanted, the signature and its expiry checked. It answers a refusal
// itself and reports whether the blob id may be served.
func (s *Server) signedBlob(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	exp, _ := strconv.ParseInt(r.URL.Query().Get("exp"), 10, 64)
	switch {
	case r.Header.Get("Authorization") != "":
		blobText(w, http.StatusBadRequest, "The signed URL must be fetched without an Authorization header.")
	case !hmac.Equal([]byte(r.URL.Query().Get("sig")), []byte(s.blobSig(id, exp))):
		blobText(w, http.StatusForbidden, "AuthenticationFailed: the signature does not match.")
	case s.now().Unix() > exp:
		blobText(w, http.StatusForbidden, "AuthenticationFailed: the signed URL has expired.")
	default:
		return id, true
	}
	return 0, false
}

// blobText is blob storage's plain-text answer.
func blobText(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg + "\n"))
}

func (s *Server) getRetention(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	if callerOf(r).Permission != "admin" {
		// GitHub answers 403 or 404 here; which one is unconfirmed.
		writeError(w, http.StatusForbidden, "Must have admin rights to Repository.")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"days": s.st.Retention, "maximum_allowed_days": 90})
}

// dispatchWorkflow answers 204 and makes a run appear a little later.
func (s *Server) dispatchWorkflow(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	if !knownWorkflow(r.PathValue("workflow")) {
		s.dispatchFile(w, r) // the repository's other workflows (dispatch.go)
		return
	}
	var req struct {
		Ref    string         `json:"ref"`
		Inputs map[string]any `json:"inputs"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	c := callerOf(r)
	if !c.canPush() {
		writeError(w, http.StatusForbidden, "Must have write access to dispatch a workflow.")
		return
	}
	ref := strings.TrimPrefix(req.Ref, "refs/heads/")
	tip := s.git.branch(ref)
	switch {
	case req.Ref == "":
		writeValidation(w, fieldError{Resource: "WorkflowDispatch", Field: "ref", Code: "missing_field"})
		return
	case tip.IsZero():
		writeErrorDoc(w, http.StatusUnprocessableEntity, "No ref found for: "+req.Ref, "https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event")
		return
	case len(req.Inputs) > 25:
		writeErrorDoc(w, http.StatusUnprocessableEntity, "you may only define up to 25 `inputs` for a `workflow_dispatch` event", "https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event")
		return
	}
	created := s.now().Add(2 * time.Second)
	s.addRun(&runRec{Event: "workflow_dispatch", Status: "queued", HeadBranch: ref, HeadSHA: tip.String(),
		Actor: c.Login, CreatedAt: created, UpdatedAt: created, Dispatched: true, Title: "aayudha merge gate"})
	w.WriteHeader(http.StatusNoContent)
}

// addRun fills the ids and numbers of a new merge-gate run.
func (s *Server) addRun(run *runRec) *runRec {
	run.ID = 30000000000 + s.st.newID()
	run.WorkflowID = workflowID
	if run.Name == "" {
		run.Name = "aayudha merge gate"
	}
	run.RunNumber = len(s.st.Runs) + 1
	if run.RunAttempt == 0 {
		run.RunAttempt = 1
	}
	s.st.Runs = append(s.st.Runs, run)
	return run
}
