package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/aayudha/aayu/internal/lazyre"
)

// Workflow dispatch of the repository's own workflows (the token broker,
// aayudha-token.yml): the dispatch is checked against the workflow file on
// the ref as GitHub checks it, the run is recorded at once, and with the
// runner on (Options.Runner) the workflow runs in the background as a
// workflow_dispatch run, its inputs and the repository's variables and
// secrets expanded as Actions expands them.

// TokenBrokerFile is the token broker's workflow file.
const TokenBrokerFile = "aayudha-token.yml"

var workflowFileName = lazyre.New(`^[A-Za-z0-9_.-]+\.ya?ml$`)

func (j *runJob) eventName() string {
	if j.event != "" {
		return j.event
	}
	return "pull_request_target"
}

func (j *runJob) workflowPath() string {
	if j.wfPath != "" {
		return j.wfPath
	}
	return gatePath
}

// repoVariable reads a repository variable for a job.
func (s *Server) repoVariable(repo, name string) string {
	var v string
	s.inRepoLocked(repo, func() {
		if rec := s.variable(name); rec != nil {
			v = rec.Value
		}
	})
	return v
}

// dispatchInputs is the part of a workflow file a dispatch is checked
// against.
type dispatchInputs struct {
	On map[string]*struct {
		Inputs map[string]struct {
			Required bool   `yaml:"required"`
			Default  string `yaml:"default"`
		} `yaml:"inputs"`
	} `yaml:"on"`
}

// dispatchFile handles a dispatch of a workflow other than the merge gate,
// by file name: 404 when the ref has no such file, 422 when it has no
// workflow_dispatch trigger or the inputs do not match its inputs, else
// the run, returned at once with return_run_details (200) or 204.
func (s *Server) dispatchFile(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("workflow")
	var req struct {
		Ref              string         `json:"ref"`
		Inputs           map[string]any `json:"inputs"`
		ReturnRunDetails bool           `json:"return_run_details"`
	}
	if !workflowFileName().MatchString(name) || !decodeBody(w, r, &req) {
		if !workflowFileName().MatchString(name) {
			notFound(w)
		}
		return
	}
	c := callerOf(r)
	if !c.canPush() {
		writeError(w, http.StatusForbidden, "Must have write access to dispatch a workflow.")
		return
	}
	ref := strings.TrimPrefix(req.Ref, "refs/heads/")
	tip := s.git.branch(ref)
	const doc = "https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event"
	if req.Ref == "" {
		writeValidation(w, fieldError{Resource: "WorkflowDispatch", Field: "ref", Code: "missing_field"})
		return
	}
	if tip.IsZero() {
		writeErrorDoc(w, http.StatusUnprocessableEntity, "No ref found for: "+req.Ref, doc)
		return
	}
	path := ".github/workflows/" + name
	text, err := s.fileAt(tip.String(), path)
	if err != nil {
		notFound(w)
		return
	}
	var wf dispatchInputs
	if err := yaml.Unmarshal(text, &wf); err != nil {
		writeErrorDoc(w, http.StatusUnprocessableEntity, "Workflow does not have 'workflow_dispatch' trigger", doc)
		return
	}
	trigger, ok := wf.On["workflow_dispatch"]
	if !ok {
		writeErrorDoc(w, http.StatusUnprocessableEntity, "Workflow does not have 'workflow_dispatch' trigger", doc)
		return
	}
	inputs := map[string]string{}
	var unexpected []string
	for k, v := range req.Inputs {
		if trigger == nil || trigger.Inputs == nil {
			unexpected = append(unexpected, k)
			continue
		}
		if _, declared := trigger.Inputs[k]; !declared {
			unexpected = append(unexpected, k)
			continue
		}
		inputs[k] = fmt.Sprint(v)
	}
	if len(unexpected) > 0 {
		sort.Strings(unexpected)
		writeErrorDoc(w, http.StatusUnprocessableEntity, "Unexpected inputs provided: [\""+strings.Join(unexpected, "\", \"")+"\"]", doc)
		return
	}
	if trigger != nil {
		for k, in := range trigger.Inputs {
			if _, given := inputs[k]; !given {
				if in.Required && in.Default == "" {
					writeErrorDoc(w, http.StatusUnprocessableEntity, "Required input '"+k+"' not provided", doc)
					return
				}
				inputs[k] = in.Default
			}
		}
	}
	now := s.now()
	run := &runRec{ID: s.st.newID(), WorkflowID: workflowIDFor(name), Name: name, Title: name, Event: "workflow_dispatch",
		Status: "queued", HeadBranch: ref, HeadSHA: tip.String(), RunNumber: len(s.st.Runs) + 1, RunAttempt: 1,
		Actor: c.Login, CreatedAt: now, UpdatedAt: now, Situation: "dispatch", Path: path}
	s.st.Runs = append(s.st.Runs, run)
	j := &runJob{s: s, repo: s.repoName(), url: "", headRef: ref, headSHA: tip.String(), baseRef: ref, run: run,
		artifacts: map[string][]byte{}, event: "workflow_dispatch", wfPath: path, inputs: inputs}
	j.suite = s.createCheckSuite(tip.String(), ref, AppActions, run.ID)
	run.CheckSuiteID = j.suite.ID
	if ro := s.opts.Runner; ro != nil && ro.Aayu != "" && s.runnerCtx != nil {
		j.opts, j.url = *ro, s.runnerURL
		go s.runDispatched(s.runnerCtx, j, text)
	}
	if !req.ReturnRunDetails {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	base := baseURL(r)
	writeJSON(w, http.StatusOK, map[string]any{"workflow_run_id": run.ID,
		"run_url":  fmt.Sprintf("%s%s/actions/runs/%d", base, repoPath, run.ID),
		"html_url": fmt.Sprintf("%s%s/actions/runs/%d", base, htmlRepo, run.ID)})
}

// workflowIDFor gives each workflow file a stable id of its own.
func workflowIDFor(name string) int64 {
	var h int64 = 7
	for _, c := range name {
		h = h*31 + int64(c)
	}
	if h < 0 {
		h = -h
	}
	return 100000 + h%900000
}

// runDispatched runs a dispatched workflow and records how it ended.
func (s *Server) runDispatched(ctx context.Context, j *runJob, text []byte) {
	s.inRepoLocked(j.repo, func() { j.run.Status, j.run.UpdatedAt = "in_progress", s.now() })
	ok := j.execute(ctx, text)
	s.inRepoLocked(j.repo, func() {
		j.run.Status, j.run.Conclusion, j.run.UpdatedAt = "completed", "failure", s.now()
		if ok {
			j.run.Conclusion = "success"
		}
		_ = s.save()
	})
	s.logf("runner: %s run %d: %s\n%s", j.wfPath, j.run.ID, j.run.Conclusion, j.log.String())
}

// createAppToken emulates actions/create-github-app-token through the
// sandbox's own API, as the action calls GitHub's: a JWT signed with the
// private-key input for the client-id (or app-id) input, the repository's
// installation, and a token for this repository holding the permission-*
// inputs. Its output token is the step's; the post step revokes the token
// when the job ends unless skip-token-revoke is true.
func (j *runJob) createAppToken(ctx context.Context, id string, with map[string]string) error {
	iss := with["client-id"]
	if iss == "" {
		iss = with["app-id"]
	}
	if iss == "" || with["private-key"] == "" {
		return fmt.Errorf("actions/create-github-app-token needs client-id and private-key")
	}
	jwt, err := SignAppJWT(with["private-key"], iss, j.s.now())
	if err != nil {
		return err
	}
	call := func(method, path string, body any, out any) error {
		var rd *bytes.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		} else {
			rd = bytes.NewReader(nil)
		}
		req, err := http.NewRequestWithContext(ctx, method, j.url+path, rd)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+jwt)
		req.Header.Set("Accept", "application/vnd.github+json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			return fmt.Errorf("%s %s: GitHub answered %s", method, path, resp.Status)
		}
		return json.NewDecoder(resp.Body).Decode(out)
	}
	var inst struct {
		ID int64 `json:"id"`
	}
	if err := call(http.MethodGet, "/repos/"+RepoOwner+"/"+j.repo+"/installation", nil, &inst); err != nil {
		return err
	}
	perms := map[string]string{}
	for k, v := range with {
		if p, ok := strings.CutPrefix(k, "permission-"); ok {
			perms[strings.ReplaceAll(p, "-", "_")] = v
		}
	}
	body := map[string]any{"repositories": []string{j.repo}}
	if len(perms) > 0 {
		body["permissions"] = perms
	}
	var tok struct {
		Token string `json:"token"`
	}
	if err := call(http.MethodPost, fmt.Sprintf("/app/installations/%d/access_tokens", inst.ID), body, &tok); err != nil {
		return err
	}
	if id != "" {
		j.outputs[id] = map[string]string{"token": tok.Token, "installation-id": fmt.Sprint(inst.ID)}
	}
	if with["skip-token-revoke"] != "true" {
		j.revokeAtEnd = append(j.revokeAtEnd, tok.Token)
	}
	return nil
}

// deleteArtifact removes an artifact (204), as GitHub does for a caller
// with write access.
func (s *Server) deleteArtifact(w http.ResponseWriter, r *http.Request) {
	a := s.artifactFrom(w, r)
	if a == nil {
		return
	}
	if !callerOf(r).canPush() {
		writeError(w, http.StatusForbidden, "Must have write access to delete an artifact.")
		return
	}
	for i, x := range s.st.Artifacts {
		if x == a {
			s.st.Artifacts = append(s.st.Artifacts[:i], s.st.Artifacts[i+1:]...)
			break
		}
	}
	w.WriteHeader(http.StatusNoContent)
}
