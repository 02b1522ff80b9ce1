package sandbox

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/gitsha"
)

// RunnerOptions switch on the sandbox's Actions runner: when an open pull
// request's head changes, it runs the base branch's merge-gate workflow the
// way Actions runs pull_request_target — the base branch's file, bound to
// the head — executing its run: steps (the aayu commands) in a fresh clone,
// and emulating the actions it names (checkout, upload and download of the
// artifact). setup-go and `go install` steps are skipped: Aayu is on PATH.
//
// Each job runs as Actions runs it: in the order its needs: and if: say,
// on a fresh folder, with a workflow token of its own that acts as
// github-actions[bot], holds exactly the job's permissions: and stops
// working when the job ends (jobtoken.go), and each job is reported as a
// check run on the run's head_sha (checks.go).
type RunnerOptions struct {
	Aayu string // the aayu binary the workflow's aayu commands run
}

type runnerKey struct {
	repo string // RepoName or FreshRepoName
	pr   int
	head string
}

// startRunner watches the open pull requests of both repositories (the
// demo and acme/fresh, once aayu init gave it a gate); heads present at
// start are taken as already run, so only new pushes and new pull requests
// start a run.
func (s *Server) startRunner(url string) {
	ro := s.opts.Runner
	if ro == nil || ro.Aayu == "" || s.opts.StateDir == "" {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.stopRunner = cancel
	s.mu.Lock()
	s.runnerCtx, s.runnerURL = ctx, url
	s.mu.Unlock()
	seen := map[runnerKey]bool{}
	for _, k := range s.openHeads() {
		seen[k] = true
	}
	lastComment := s.lastCommentID()
	go func() {
		tick := time.NewTicker(300 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			for _, k := range s.openHeads() {
				if !seen[k] {
					seen[k] = true
					s.runGate(ctx, url, *ro, k.repo, k.pr)
				}
			}
			for _, ev := range s.newComments(lastComment) {
				lastComment = ev.ID
				s.runOnComment(ctx, url, *ro, ev)
			}
		}
	}()
}

func (s *Server) openHeads() []runnerKey {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []runnerKey
	for _, repo := range []string{RepoName, FreshRepoName} {
		s.inRepo(repo, func() {
			if repo == FreshRepoName && s.cur != FreshRepoName {
				return // no acme/fresh in this sandbox
			}
			for _, is := range s.st.Issues {
				if is.PR != nil && is.State == "open" {
					out = append(out, runnerKey{repo, is.Number, s.headSHA(is).String()})
				}
			}
		})
	}
	return out
}

type gateStep struct {
	ID               string            `yaml:"id"`
	Name             string            `yaml:"name"`
	If               string            `yaml:"if"`
	Uses             string            `yaml:"uses"`
	Run              string            `yaml:"run"`
	With             map[string]string `yaml:"with"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
	ContinueOnError  bool              `yaml:"continue-on-error"`
}

type gateJob struct {
	Name        string            `yaml:"name"`
	Needs       any               `yaml:"needs"`
	If          string            `yaml:"if"`
	Permissions any               `yaml:"permissions"`
	Env         map[string]string `yaml:"env"`
	Steps       []gateStep        `yaml:"steps"`
	// Outputs are the job's outputs (jobs.<id>.outputs), evaluated once
	// its steps are done; a job that needs it reads them as
	// ${{ needs.<id>.outputs.<name> }}.
	Outputs map[string]string `yaml:"outputs"`
}

type gateWorkflow struct {
	Env         map[string]string  `yaml:"env"`
	Permissions any                `yaml:"permissions"`
	Jobs        map[string]gateJob `yaml:"jobs"`
	order       []string           // the jobs in the file's order
}

// needs lists the jobs a job waits for (a string or a list in YAML).
func (g gateJob) needs() []string {
	switch v := g.Needs.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// parseWorkflow reads the workflow and the order its jobs are written in.
func parseWorkflow(text []byte) (gateWorkflow, error) {
	var wf gateWorkflow
	if err := yaml.Unmarshal(text, &wf); err != nil {
		return wf, err
	}
	var doc struct {
		Jobs yaml.Node `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return wf, err
	}
	for i := 0; i+1 < len(doc.Jobs.Content); i += 2 {
		wf.order = append(wf.order, doc.Jobs.Content[i].Value)
	}
	return wf, nil
}

// defaultPermissions is what a job gets when neither it nor the workflow
// names permissions: the restricted default of a repository created today.
var defaultPermissions = map[string]string{"contents": "read", "packages": "read"}

// runJob is one pull_request_target run in progress.
type runJob struct {
	s                         *Server
	repo                      string // the repository the run belongs to (RepoName or FreshRepoName)
	opts                      RunnerOptions
	url, dir                  string
	pr                        int
	headRef, headSHA, baseRef string
	body                      string // the pull request's body when the run started
	run                       *runRec
	suite                     *checkSuiteRec
	env                       map[string]string            // the running job's environment
	outputs                   map[string]map[string]string // the running job's step outputs, by step id
	jobOutputs                map[string]map[string]string // the outputs of the jobs done, by job id
	needs                     []string                     // the jobs the running job needs
	token                     string                       // the running job's workflow token
	artifacts                 map[string][]byte            // uploaded this run, by name
	perms                     map[string]string            // the running job's permissions
	log                       bytes.Buffer
	// A workflow_dispatch run (dispatch.go) sets these; a merge-gate run
	// leaves them empty.
	event       string            // GITHUB_EVENT_NAME; pull_request_target when empty
	wfPath      string            // the workflow's path; the merge gate's when empty
	inputs      map[string]string // the dispatch's inputs
	revokeAtEnd []string          // installation tokens the job's post steps revoke
	comment     *commentEvent     // set for an issue_comment run (runner_comment.go)
}

// runGate runs the base branch's merge gate for one head; its record
// shows as GitHub's.
func (s *Server) runGate(ctx context.Context, url string, ro RunnerOptions, repo string, pr int) {
	var wfText []byte
	var err error
	s.mu.Lock()
	s.inRepo(repo, func() {
		is := s.st.issue(pr)
		wfText, err = s.fileAt(s.git.branch(is.PR.Base).String(), gatePath)
	})
	s.mu.Unlock()
	if err != nil {
		return // the base branch has no merge gate: Actions runs nothing
	}
	s.runWorkflow(ctx, url, ro, repo, pr, wfText)
}

// inRepoLocked runs fn under s.mu with the named repository current.
func (s *Server) inRepoLocked(repo string, fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inRepo(repo, fn)
}

// runWorkflow runs one pull_request_target run of wfText for the pull
// request's head in repo (RepoName or FreshRepoName), and returns the
// run's record.
func (s *Server) runWorkflow(ctx context.Context, url string, ro RunnerOptions, repo string, pr int, wfText []byte) *runRec {
	var j *runJob
	s.inRepoLocked(repo, func() { j = s.startRun(url, ro, repo, pr) })
	// One line at each end of a run, among the request lines its jobs
	// make, so a person watching the log sees where a run starts and ends.
	started := time.Now()
	s.logf("runner: run %d for %s#%d at %s started", j.run.ID, repo, pr, gitsha.Short(j.headSHA))
	ok := j.execute(ctx, wfText)
	conclusion := "failure"
	if ok {
		conclusion = "success"
	}
	s.inRepoLocked(repo, func() {
		j.run.Status, j.run.Conclusion, j.run.UpdatedAt = "completed", conclusion, s.now()
		_ = s.save()
	})
	// The run's record is read under the lock only: a re-run (rerun.go)
	// may change it as soon as it is completed.
	s.logf("runner: run %d for %s#%d at %s finished in %s: %s\n%s", j.run.ID, repo, pr, gitsha.Short(j.headSHA),
		time.Since(started).Round(time.Second), conclusion, j.log.String())
	return j.run
}

// startRun records a new run in progress; call with the repository current.
func (s *Server) startRun(url string, ro RunnerOptions, repo string, pr int) *runJob {
	is := s.st.issue(pr)
	head := s.headSHA(is)
	baseSHA := s.git.branch(is.PR.Base)
	j := &runJob{s: s, repo: repo, opts: ro, url: url, pr: pr, headRef: is.PR.Head, headSHA: head.String(), baseRef: is.PR.Base,
		body: is.Body, artifacts: map[string][]byte{}}
	{
		now := s.now()
		j.run = &runRec{ID: s.st.newID(), WorkflowID: workflowID, Name: "aayudha merge gate", Title: is.Title,
			Event: "pull_request_target", Status: "in_progress", HeadBranch: is.PR.Base, HeadSHA: baseSHA.String(),
			RunNumber: len(s.st.Runs) + 1, RunAttempt: 1, Actor: is.User, CreatedAt: now, UpdatedAt: now,
			PRs:       []runPR{{Number: pr, HeadRef: is.PR.Head, HeadSHA: head.String(), BaseRef: is.PR.Base, BaseSHA: baseSHA.String()}},
			Situation: "runner"}
		s.st.Runs = append(s.st.Runs, j.run)
		// Actions reports the run as a check suite on the run's head_sha,
		// the base's tip for pull_request_target.
		j.suite = s.createCheckSuite(baseSHA.String(), is.PR.Base, AppActions, j.run.ID)
		j.run.CheckSuiteID = j.suite.ID
		_ = s.save()
	}
	return j
}

// fileAt reads a file at a commit; call with s.mu held.
func (s *Server) fileAt(commit, p string) ([]byte, error) {
	id, ok := s.git.resolve(commit)
	if !ok {
		return nil, fmt.Errorf("no commit %s", commit)
	}
	c, err := s.git.commit(id)
	if err != nil {
		return nil, err
	}
	e, err := s.lookup(c.TreeHash, p)
	if err != nil {
		return nil, err
	}
	return s.git.blob(e.Hash)
}

// execute runs the jobs as Actions does: each once the jobs it needs are
// done, when its if: holds (by default: every job it needs succeeded),
// each on a fresh machine of its own with its own workflow token, and
// each reported as a check run. It reports whether no job failed.
func (j *runJob) execute(ctx context.Context, text []byte) bool {
	wf, err := parseWorkflow(text)
	if err != nil {
		fmt.Fprintf(&j.log, "the workflow is not YAML: %v\n", err)
		return false
	}
	tmp, err := os.MkdirTemp("", "aayu-sandbox-run-*")
	if err != nil {
		return false
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "bin")
	_ = os.MkdirAll(bin, 0o755)
	if err := os.Symlink(j.opts.Aayu, filepath.Join(bin, "aayu")); err != nil {
		return false
	}
	result := map[string]string{} // job id → success, failure or skipped
	ok := true
	for len(result) < len(wf.order) {
		progressed := false
		for _, id := range wf.order {
			job := wf.Jobs[id]
			if result[id] != "" || !allDone(job.needs(), result) {
				continue
			}
			progressed = true
			run, err := jobRuns(job, result)
			if j.comment != nil && strings.Contains(job.If, "github.event.comment") {
				run, err = j.commentIf(job.If)
			}
			if err != nil {
				fmt.Fprintf(&j.log, "%s: %v\n", id, err)
				result[id], ok = "failure", false
				continue
			}
			if !run {
				result[id] = "skipped"
				j.reportSkipped(id, job.Name)
				continue
			}
			home := filepath.Join(tmp, id)
			j.dir = filepath.Join(home, "work")
			_ = os.MkdirAll(j.dir, 0o755)
			j.env = j.jobEnv(wf, job, bin, home)
			j.commentEnv(j.env, home)
			j.outputs = map[string]map[string]string{}
			j.needs = job.needs()
			perms := jobPermissions(job.Permissions, jobPermissions(wf.Permissions, defaultPermissions))
			j.perms = perms
			jt := j.s.mintJobToken(j.repo, j.run.ID, perms)
			j.token = jt.value
			cr := j.startCheck(id, job.Name)
			jobOK := j.job(ctx, id, job.Steps)
			j.keepJobOutputs(id, job)
			// The job is over: its token stops working, and the machine it
			// ran on (its processes and its folder) is gone.
			j.s.revokeJobToken(jt)
			j.token = ""
			for _, tok := range j.revokeAtEnd {
				j.s.revokeInstallToken(tok)
			}
			j.revokeAtEnd = nil
			_ = os.RemoveAll(home)
			j.endCheck(cr, jobOK)
			result[id] = map[bool]string{true: "success", false: "failure"}[jobOK]
			ok = ok && jobOK
		}
		if !progressed {
			fmt.Fprintf(&j.log, "the jobs' needs: form a cycle or name a job that does not exist\n")
			return false
		}
	}
	return ok
}

func allDone(needs []string, result map[string]string) bool {
	for _, n := range needs {
		if result[n] == "" {
			return false
		}
	}
	return true
}

// jobRuns evaluates a job's if: against the results of the jobs it needs;
// the sandbox knows the status functions and nothing else.
func jobRuns(job gateJob, result map[string]string) (bool, error) {
	cond := strings.TrimSpace(job.If)
	if m := expr().FindStringSubmatch(cond); m != nil && m[0] == cond {
		cond = m[1]
	}
	anyFailed, allOK := false, true
	for _, n := range job.needs() {
		anyFailed = anyFailed || result[n] == "failure"
		allOK = allOK && result[n] == "success"
	}
	switch cond {
	case "", "success()":
		return allOK, nil
	case "always()", "!cancelled()":
		return true, nil
	case "failure()":
		return anyFailed, nil
	}
	return false, fmt.Errorf("the sandbox runner does not evaluate if: %s", job.If)
}

// jobEnv is the environment a job's steps start from: a fresh machine's,
// with the workflow's and the job's env: on top. No token is in it.
func (j *runJob) jobEnv(wf gateWorkflow, job gateJob, bin, home string) map[string]string {
	tmp := filepath.Join(home, "runner-temp")
	_ = os.MkdirAll(tmp, 0o755)
	env := map[string]string{
		"PATH": bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME": filepath.Join(home, "home"),
		"XDG_CACHE_HOME": filepath.Join(home, "cache"), "XDG_CONFIG_HOME": filepath.Join(home, "config"),
		"GOCACHE": goEnv("GOCACHE"), "GOMODCACHE": goEnv("GOMODCACHE"), "GOFLAGS": "-mod=mod", "GOTOOLCHAIN": "local",
		"RUNNER_TEMP": tmp, "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": j.eventName(),
		"GITHUB_REPOSITORY": RepoOwner + "/" + j.repo, "GITHUB_RUN_ID": fmt.Sprint(j.run.ID), "GITHUB_RUN_ATTEMPT": fmt.Sprint(max(j.run.RunAttempt, 1)),
		"GITHUB_WORKFLOW_REF": RepoOwner + "/" + j.repo + "/" + j.workflowPath() + "@refs/heads/" + j.baseRef,
		"GITHUB_BASE_REF":     j.baseRef, "GITHUB_HEAD_REF": j.headRef, "GITHUB_WORKSPACE": j.dir,
		"GITHUB_SERVER_URL": j.url, "GITHUB_RETENTION_DAYS": "30",
		"AAYU_GITHUB_API_URL": j.url + "/", "AAYU_GITHUB_OAUTH_URL": j.url,
	}
	if j.s.opts.StateDir != "" {
		// The runner's machines know this sandbox's Sigstore as a machine
		// on github.com knows Sigstore's public-good root: a job's aayu
		// (the gate's comment) checks attestations against it.
		env["AAYU_PROOF_TRUSTED_ROOT"] = filepath.Join(j.s.opts.StateDir, TrustedRootFile)
	}
	for _, m := range []map[string]string{wf.Env, job.Env} {
		for k, v := range m {
			env[k] = v
		}
	}
	return env
}

func goEnv(name string) string {
	out, _ := exec.Command("go", "env", name).Output()
	return strings.TrimSpace(string(out))
}

var (
	expr       = lazyre.New(`\$\{\{\s*([^}]*?)\s*\}\}`)
	stepOutput = lazyre.New(`^steps\.([A-Za-z_][A-Za-z0-9_-]*)\.outputs\.([A-Za-z_][A-Za-z0-9_-]*)$`)
	jobOutput  = lazyre.New(`^needs\.([A-Za-z_][A-Za-z0-9_-]*)\.outputs\.([A-Za-z_][A-Za-z0-9_-]*)$`)
)

// keepJobOutputs evaluates a finished job's outputs: as Actions does, once
// its steps are done (a failed job's too, from the steps that ran), each
// from the job's step outputs; an expression it cannot evaluate leaves
// the output empty.
func (j *runJob) keepJobOutputs(id string, job gateJob) {
	if j.jobOutputs == nil {
		j.jobOutputs = map[string]map[string]string{}
	}
	out := map[string]string{}
	for name, v := range job.Outputs {
		x, err := j.expand(v)
		switch {
		case err != nil:
			fmt.Fprintf(&j.log, "%s: output %s: %v\n", id, name, err)
		case j.token != "" && strings.Contains(x, j.token):
			// Actions does not pass on an output that holds a secret.
			fmt.Fprintf(&j.log, "%s: Skip output '%s' since it may contain secret.\n", id, name)
		default:
			out[name] = x
		}
	}
	j.jobOutputs[id] = out
}

// expand replaces the expressions the gate uses; any other fails the step.
func (j *runJob) expand(s string) (string, error) {
	var bad error
	out := expr().ReplaceAllStringFunc(s, func(m string) string {
		e := expr().FindStringSubmatch(m)[1]
		switch {
		case e == "github.token":
			return j.token
		case e == "github.event.pull_request.head.ref":
			return j.headRef
		case e == "github.event.pull_request.body":
			return j.body
		case e == "github.event.pull_request.head.sha":
			return j.headSHA
		case e == "github.event.pull_request.base.ref":
			return j.baseRef
		case e == "github.event.pull_request.number":
			return fmt.Sprint(j.pr)
		case e == "github.actor" || e == "github.triggering_actor":
			// The account that started the run: a dispatch's is the token's
			// user, as Actions records it (the run's actor).
			return j.run.Actor
		case e == "runner.temp":
			return j.env["RUNNER_TEMP"]
		case strings.HasPrefix(e, "env."):
			return j.env[strings.TrimPrefix(e, "env.")]
		case strings.HasPrefix(e, "inputs.") || strings.HasPrefix(e, "github.event.inputs."):
			return j.inputs[e[strings.LastIndex(e, ".")+1:]]
		case strings.HasPrefix(e, "vars."):
			return j.s.repoVariable(j.repo, strings.TrimPrefix(e, "vars."))
		case strings.HasPrefix(e, "secrets."):
			v, _ := j.s.Secret(strings.TrimPrefix(e, "secrets."))
			return v
		case stepOutput().MatchString(e):
			m := stepOutput().FindStringSubmatch(e)
			return j.outputs[m[1]][m[2]]
		case jobOutput().MatchString(e):
			// Actions knows needs.<id> only for the jobs this one needs.
			m := jobOutput().FindStringSubmatch(e)
			if slices.Contains(j.needs, m[1]) {
				return j.jobOutputs[m[1]][m[2]]
			}
			bad = fmt.Errorf("${{ %s }} names job %s, which this job does not need", e, m[1])
			return ""
		}
		bad = fmt.Errorf("the sandbox runner does not know ${{ %s }}", e)
		return ""
	})
	return out, bad
}

// job runs one job's steps; a failed step skips the rest but those marked
// to run anyway.
func (j *runJob) job(ctx context.Context, name string, steps []gateStep) bool {
	ok := true
	for _, st := range steps {
		always := strings.Contains(st.If, "!cancelled()") || strings.Contains(st.If, "always()")
		if !ok && !always {
			continue
		}
		if err := j.step(ctx, st); err != nil {
			fmt.Fprintf(&j.log, "%s: %s: %v\n", name, st.Name, err)
			ok = ok && st.ContinueOnError
		}
	}
	return ok
}

// inJob resolves a step's path as Actions does: relative to the
// workspace.
func (j *runJob) inJob(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(j.dir, p)
}

func (j *runJob) step(ctx context.Context, st gateStep) error {
	with := map[string]string{}
	for k, v := range st.With {
		x, err := j.expand(v)
		if err != nil {
			return err
		}
		with[k] = x
	}
	action, _, _ := strings.Cut(st.Uses, "@")
	switch {
	case action == "actions/setup-go":
		return nil // the machine's Go
	case action == "actions/create-github-app-token":
		return j.createAppToken(ctx, st.ID, with)
	case action == "actions/checkout":
		return j.clone(ctx, with["ref"])
	case action == "actions/upload-artifact":
		return j.upload(with["name"], j.inJob(with["path"]), with["retention-days"])
	case action == "actions/attest":
		return j.attest(st, with)
	case action == "actions/download-artifact":
		b, ok := j.artifacts[with["name"]]
		if !ok {
			return fmt.Errorf("no artifact %s was uploaded in this run", with["name"])
		}
		return unzipTo(b, j.inJob(with["path"]))
	case st.Uses != "":
		return fmt.Errorf("the sandbox runner does not emulate %s", st.Uses)
	case strings.HasPrefix(strings.TrimSpace(st.Run), "go install"):
		return nil // aayu is already on PATH
	}
	env := map[string]string{}
	for k, v := range j.env {
		env[k] = v
	}
	for k, v := range st.Env {
		x, err := j.expand(v)
		if err != nil {
			return err
		}
		env[k] = x
	}
	if strings.Contains(st.Run, "${{") {
		return errors.New("the step expands an expression inside its run script")
	}
	ghEnv := filepath.Join(j.env["RUNNER_TEMP"], "github_env")
	_ = os.WriteFile(ghEnv, nil, 0o644)
	env["GITHUB_ENV"] = ghEnv
	ghOut := filepath.Join(j.env["RUNNER_TEMP"], "github_output")
	_ = os.WriteFile(ghOut, nil, 0o644)
	env["GITHUB_OUTPUT"] = ghOut
	cmd := exec.CommandContext(ctx, "sh", "-e", "-c", st.Run)
	cmd.Dir = j.dir
	if st.WorkingDirectory != "" {
		wd, err := j.expand(st.WorkingDirectory)
		if err != nil {
			return err
		}
		cmd.Dir = j.inJob(wd)
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdout, cmd.Stderr = &j.log, &j.log
	cmd.WaitDelay = 5 * time.Second // a leftover process holding the output does not hold the job
	endGroup := ownGroup(cmd)
	err := cmd.Run()
	endGroup()
	if b, rerr := os.ReadFile(ghEnv); rerr == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				j.env[k] = v
			}
		}
	}
	if b, rerr := os.ReadFile(ghOut); rerr == nil && st.ID != "" {
		// A step's outputs are kept only when it has an id, as on Actions.
		out := map[string]string{}
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				out[k] = v
			}
		}
		j.outputs[st.ID] = out
	}
	return err
}

// upload stores a folder as the run's artifact of that name, listed on
// the run at once, as actions/upload-artifact does: kept retentionDays
// (its retention-days input) when given, never longer than the
// repository's artifact retention, which is also the default.
func (j *runJob) upload(name, dir, retentionDays string) error {
	if name == "" {
		name = "artifact"
	}
	if _, dup := j.artifacts[name]; dup {
		return fmt.Errorf("an artifact named %s was already uploaded in this run", name)
	}
	b, err := zipFolder(dir)
	if err != nil {
		return err
	}
	j.artifacts[name] = b
	s := j.s
	s.inRepoLocked(j.repo, func() {
		now, days := s.now(), s.st.Retention
		if n, perr := strconv.Atoi(strings.TrimSpace(retentionDays)); perr == nil && n >= 1 && n < days {
			days = n
		}
		s.st.Artifacts = append(s.st.Artifacts, &artifactRec{ID: s.st.newID(), RunID: j.run.ID, Name: name, Zip: b,
			CreatedAt: now, ExpiresAt: now.Add(time.Duration(days) * 24 * time.Hour)})
		err = s.save()
	})
	return err
}

// reportSkipped records a job that did not run as a skipped check run.
func (j *runJob) reportSkipped(id, name string) {
	cr := j.startCheck(id, name)
	j.s.inRepoLocked(j.repo, func() {
		j.s.completeCheckRun(cr, "skipped", "", "")
		_ = j.s.save()
	})
}

// startCheck opens the job's check run, named as Actions names it: the
// job's name:, else its id.
func (j *runJob) startCheck(id, name string) *checkRunRec {
	if name == "" {
		name = id
	}
	var cr *checkRunRec
	j.s.inRepoLocked(j.repo, func() {
		cr = j.s.addCheckRun(j.suite, name, "in_progress", "", fmt.Sprintf("%s/%s/%s/actions/runs/%d", j.url, RepoOwner, j.repo, j.run.ID))
		_ = j.s.save()
	})
	return cr
}

func (j *runJob) endCheck(cr *checkRunRec, ok bool) {
	concl := "failure"
	if ok {
		concl = "success"
	}
	j.s.inRepoLocked(j.repo, func() {
		j.s.completeCheckRun(cr, concl, "", "")
		_ = j.s.save()
	})
}

// clone makes the fresh clone a checkout step gives: the repository over
// smart HTTP with the job's token, at ref, keeping no credential.
func (j *runJob) clone(ctx context.Context, ref string) error {
	run := func(args ...string) error {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "http.extraHeader=Authorization: Bearer " + j.token}, args...)...)
		cmd.Dir = j.dir
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
		cmd.Stdout, cmd.Stderr = &j.log, &j.log
		return cmd.Run()
	}
	if err := run("clone", "-q", j.url+"/"+RepoOwner+"/"+j.repo+".git", "."); err != nil {
		return err
	}
	return run("checkout", "-q", ref)
}

func zipFolder(dir string) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	return buf.Bytes(), err
}

func unzipTo(b []byte, dir string) error {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return err
	}
	for _, f := range zr.File {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if !strings.HasPrefix(p, filepath.Clean(dir)+string(os.PathSeparator)) {
			return fmt.Errorf("the artifact holds a path outside its folder: %s", f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		_, err = buf.ReadFrom(rc)
		rc.Close()
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
