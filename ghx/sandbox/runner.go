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
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// RunnerOptions switch on the sandbox's Actions runner: when an open pull
// request's head changes, it runs the base branch's merge-gate workflow the
// way Actions runs pull_request_target — the base branch's file, bound to
// the head — executing its run: steps (the aayu commands) in a fresh clone,
// and emulating the actions it names (checkout, upload and download of the
// artifact). setup-go and `go install` steps are skipped: Aayu is on PATH.
type RunnerOptions struct {
	Aayu  string // the aayu binary the workflow's aayu commands run
	Token string // the workflow token; default sandbox-agent-bot
}

type runnerKey struct {
	pr   int
	head string
}

// startRunner watches the open pull requests of the demo; heads present at
// start are taken as already run, so only new pushes and new pull requests
// start a run.
func (s *Server) startRunner(url string) {
	ro := s.opts.Runner
	if ro == nil || ro.Aayu == "" || s.opts.StateDir == "" {
		return
	}
	if ro.Token == "" {
		ro.Token = TokenPrefix + "agent-bot"
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.stopRunner = cancel
	seen := map[runnerKey]bool{}
	for _, k := range s.openHeads() {
		seen[k] = true
	}
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
					s.runGate(ctx, url, *ro, k.pr)
				}
			}
		}
	}()
}

func (s *Server) openHeads() []runnerKey {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []runnerKey
	for _, is := range s.st.Issues {
		if is.PR != nil && is.State == "open" {
			out = append(out, runnerKey{is.Number, s.headSHA(is).String()})
		}
	}
	return out
}

type gateStep struct {
	Name             string            `yaml:"name"`
	If               string            `yaml:"if"`
	Uses             string            `yaml:"uses"`
	Run              string            `yaml:"run"`
	With             map[string]string `yaml:"with"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
}

type gateWorkflow struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Name  string     `yaml:"name"`
		Steps []gateStep `yaml:"steps"`
	} `yaml:"jobs"`
}

// runJob is one pull_request_target run in progress.
type runJob struct {
	s                         *Server
	opts                      RunnerOptions
	url, dir                  string
	pr                        int
	headRef, headSHA, baseRef string
	run                       *runRec
	suite                     *checkSuiteRec
	env                       map[string]string
	artifact                  []byte
	log                       bytes.Buffer
}

// runGate runs the merge gate for one head; its record shows as GitHub's.
func (s *Server) runGate(ctx context.Context, url string, ro RunnerOptions, pr int) {
	s.mu.Lock()
	is := s.st.issue(pr)
	head := s.headSHA(is)
	baseSHA := s.git.branch(is.PR.Base)
	wfText, err := s.fileAt(baseSHA.String(), gatePath)
	j := &runJob{s: s, opts: ro, url: url, pr: pr, headRef: is.PR.Head, headSHA: head.String(), baseRef: is.PR.Base}
	if err == nil {
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
	s.mu.Unlock()
	if err != nil {
		return // the base branch has no merge gate: Actions runs nothing
	}
	ok := j.execute(ctx, wfText)
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if j.artifact != nil {
		s.st.Artifacts = append(s.st.Artifacts, &artifactRec{ID: s.st.newID(), RunID: j.run.ID, Name: "aayudha-pack", Zip: j.artifact,
			CreatedAt: now, ExpiresAt: now.Add(time.Duration(s.st.Retention) * 24 * time.Hour)})
	}
	j.run.Status, j.run.Conclusion, j.run.UpdatedAt = "completed", "failure", now
	desc := "the merge gate failed on this head"
	if ok {
		j.run.Conclusion, desc = "success", "the proof pack verifies and every floor holds"
	}
	s.st.Statuses = append(s.st.Statuses, &statusRec{ID: s.st.newID(), SHA: j.headSHA, Context: "aayudha/merge-gate",
		State: j.run.Conclusion, Description: desc, Creator: BotLogin, CreatedAt: now,
		TargetURL: fmt.Sprintf("%s/%s/%s/actions/runs/%d", url, RepoOwner, RepoName, j.run.ID)})
	_ = s.save()
	s.logf("runner: run %d for #%d at %s: %s\n%s", j.run.ID, pr, short(j.headSHA), j.run.Conclusion, j.log.String())
}

func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
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

// execute runs the verify job, then the comment job; it reports whether
// every job passed.
func (j *runJob) execute(ctx context.Context, text []byte) bool {
	var wf gateWorkflow
	if err := yaml.Unmarshal(text, &wf); err != nil {
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
	j.env = map[string]string{
		"PATH": bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME": filepath.Join(tmp, "home"),
		"XDG_CACHE_HOME": filepath.Join(tmp, "cache"), "XDG_CONFIG_HOME": filepath.Join(tmp, "config"),
		"GOCACHE": goEnv("GOCACHE"), "GOMODCACHE": goEnv("GOMODCACHE"), "GOFLAGS": "-mod=mod", "GOTOOLCHAIN": "local",
		"RUNNER_TEMP": tmp, "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request_target",
		"GITHUB_REPOSITORY": RepoOwner + "/" + RepoName, "GITHUB_RUN_ID": fmt.Sprint(j.run.ID),
		"GITHUB_WORKFLOW_REF": RepoOwner + "/" + RepoName + "/" + gatePath + "@refs/heads/" + j.baseRef,
		"GITHUB_SERVER_URL":   j.url, "GITHUB_RETENTION_DAYS": "30",
		"AAYU_GITHUB_API_URL": j.url + "/", "AAYU_GITHUB_OAUTH_URL": j.url,
	}
	for k, v := range wf.Env {
		j.env[k] = v
	}
	ok := true
	for _, job := range []string{"verify", "comment"} {
		j.dir = filepath.Join(tmp, job)
		_ = os.MkdirAll(j.dir, 0o755)
		cr := j.startCheck(job, wf.Jobs[job].Name)
		jobOK := j.job(ctx, job, wf.Jobs[job].Steps, ok)
		j.endCheck(cr, jobOK)
		if !jobOK {
			ok = false
		}
	}
	return ok
}

// startCheck opens the job's check run, named as Actions names it: the
// job's name:, else its id.
func (j *runJob) startCheck(id, name string) *checkRunRec {
	if name == "" {
		name = id
	}
	j.s.mu.Lock()
	defer j.s.mu.Unlock()
	cr := j.s.addCheckRun(j.suite, name, "in_progress", "", fmt.Sprintf("%s%s/actions/runs/%d", j.url, htmlRepo, j.run.ID))
	_ = j.s.save()
	return cr
}

func (j *runJob) endCheck(cr *checkRunRec, ok bool) {
	j.s.mu.Lock()
	defer j.s.mu.Unlock()
	concl := "failure"
	if ok {
		concl = "success"
	}
	j.s.completeCheckRun(cr, concl, "", "")
	_ = j.s.save()
}

func goEnv(name string) string {
	out, _ := exec.Command("go", "env", name).Output()
	return strings.TrimSpace(string(out))
}

var expr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// expand replaces the expressions the gate uses; any other fails the step.
func (j *runJob) expand(s string) (string, error) {
	var bad error
	out := expr.ReplaceAllStringFunc(s, func(m string) string {
		e := expr.FindStringSubmatch(m)[1]
		switch {
		case e == "github.token":
			return j.opts.Token
		case e == "github.event.pull_request.head.ref":
			return j.headRef
		case e == "github.event.pull_request.head.sha":
			return j.headSHA
		case e == "github.event.pull_request.number":
			return fmt.Sprint(j.pr)
		case e == "runner.temp":
			return j.env["RUNNER_TEMP"]
		case strings.HasPrefix(e, "env."):
			return j.env[strings.TrimPrefix(e, "env.")]
		}
		bad = fmt.Errorf("the sandbox runner does not know ${{ %s }}", e)
		return ""
	})
	return out, bad
}

// job runs one job's steps; a failed step skips the rest but those marked
// to run anyway.
func (j *runJob) job(ctx context.Context, name string, steps []gateStep, prevOK bool) bool {
	ok := prevOK
	for _, st := range steps {
		always := strings.Contains(st.If, "!cancelled()") || strings.Contains(st.If, "always()")
		if !ok && !always {
			continue
		}
		if err := j.step(ctx, st); err != nil {
			fmt.Fprintf(&j.log, "%s: %s: %v\n", name, st.Name, err)
			ok = false
		}
	}
	return ok
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
	case action == "actions/checkout":
		return j.clone(ctx, with["ref"])
	case action == "actions/upload-artifact":
		b, err := zipFolder(filepath.Join(j.dir, with["path"]))
		j.artifact = b
		return err
	case action == "actions/download-artifact":
		if j.artifact == nil {
			return fmt.Errorf("no artifact %s was uploaded", with["name"])
		}
		return unzipTo(j.artifact, filepath.Join(j.dir, with["path"]))
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
	cmd := exec.CommandContext(ctx, "sh", "-e", "-c", st.Run)
	cmd.Dir = j.dir
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdout, cmd.Stderr = &j.log, &j.log
	err := cmd.Run()
	if b, rerr := os.ReadFile(ghEnv); rerr == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				j.env[k] = v
			}
		}
	}
	return err
}

// clone makes the fresh clone a checkout step gives: the repository over
// smart HTTP with the workflow token, at ref.
func (j *runJob) clone(ctx context.Context, ref string) error {
	run := func(args ...string) error {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "http.extraHeader=Authorization: Bearer " + j.opts.Token}, args...)...)
		cmd.Dir = j.dir
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
		cmd.Stdout, cmd.Stderr = &j.log, &j.log
		return cmd.Run()
	}
	if err := run("clone", "-q", j.url+"/"+RepoOwner+"/"+RepoName+".git", "."); err != nil {
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
