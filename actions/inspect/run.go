// Package inspect is the merge gate's inspect job (`aayu inspect PR --ci`):
// it reads the pack job's artifact, the Ready snapshot on the ledger, and
// the pull request's evidence map, go.mod and test files at its head
// through the API — never a working tree of the pull request, never its
// code run — judges each criterion (model/inspect), asks the base policy's
// [inspect] reviewer, when there is one, per criterion, and returns the
// judgement. It writes nothing to GitHub: the comment job posts the
// judgement in the gate's one comment and the aayudha/inspect status.
package inspect

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/checks"
	"github.com/aayudha/aayu/model/inbox"
	model "github.com/aayudha/aayu/model/inspect"
	"github.com/aayudha/aayu/proof"
)

// File is the judgement's name in the inspect job's artifact.
const File = "judgement.json"

// Artifact is the run artifact the inspect job uploads and the comment job
// reads.
const Artifact = "aayudha-inspect"

// Reply is one answer of a reviewer model and what it cost.
type Reply struct {
	Text                string
	TokensIn, TokensOut int64
	USD                 float64
}

// Reviewer asks a model. Its reply is only ever parsed as an Answer
// (model/inspect.ParseAnswer): it chooses a rung and reasons and nothing
// else.
type Reviewer interface {
	Name() string
	Ask(ctx context.Context, system, prompt string) (Reply, error)
}

// Settings are the base policy's [inspect] table.
type Settings struct {
	Reviewer, Endpoint, Model string
}

// Config is what `aayu inspect PR --ci` needs.
type Config struct {
	Client      *github.Client
	Owner, Repo string
	PR          int
	Dir         string // the pack folder the pack job uploaded
	Ledger      string // "" is "ledger"
	// NewReviewer builds the reviewer the base policy names; nil, or a
	// policy naming none, leaves the judgement at the human rung.
	NewReviewer func(Settings) (Reviewer, error)
	// Timeout bounds each question to the reviewer; 0 is two minutes.
	Timeout time.Duration
}

// maxTestFiles and maxTestFileBytes bound what is read of a package's
// test files at the head.
const (
	maxTestFiles     = 200
	maxTestFileBytes = 1 << 20
)

// Run judges the pull request's head. err is set only when GitHub or the
// pack folder could not be read; every finding about the evidence is in
// the judgement.
func Run(ctx context.Context, cfg Config) (model.Judgement, error) {
	var j model.Judgement
	if cfg.Client == nil || cfg.Owner == "" || cfg.Repo == "" || cfg.PR <= 0 {
		return j, errors.New("aayu inspect --ci needs a repository (--repo OWNER/NAME) and a pull request number")
	}
	ledger := cfg.Ledger
	if ledger == "" {
		ledger = "ledger"
	}
	pull, _, err := cfg.Client.PullRequests.Get(ctx, cfg.Owner, cfg.Repo, cfg.PR)
	if err != nil {
		return j, fmt.Errorf("reading pull request #%d: %s", cfg.PR, ghx.Describe(err))
	}
	head := pull.GetHead().GetSHA()
	pack, _, err := proof.ReadPackDir(cfg.Dir, proof.Limits{})
	if err != nil {
		return j, fmt.Errorf("reading the pack job's pack in %s: %w", cfg.Dir, err)
	}
	if !strings.EqualFold(pack.PRHeadSHA, head) {
		return j, fmt.Errorf("the pack is of head %s, not the pull request's head %s; no judgement", pack.PRHeadSHA, head)
	}
	j = model.Judgement{Version: model.Version, PR: cfg.PR, Head: head, Story: pack.Story, Builder: pack.Model}
	r := reader{ctx: ctx, gh: cfg.Client, owner: cfg.Owner, repo: cfg.Repo, head: head}
	facts, err := r.facts(pull, pack, cfg.Dir, ledger)
	if err != nil {
		return j, err
	}
	j.Bug = facts.Bug
	j.Criteria = model.Judge(facts)

	pol, err := ghx.ReadBasePolicy(ctx, cfg.Client, cfg.Owner, cfg.Repo, pull.GetBase().GetRef())
	if err != nil {
		return j, err
	}
	var set Settings
	if c := pol.Config(); c != nil {
		set = Settings{Reviewer: c.String("inspect.reviewer"), Endpoint: c.String("inspect.endpoint"), Model: c.String("inspect.model")}
	}
	reviewed, why := false, ""
	if set.Reviewer != "" && cfg.NewReviewer != nil {
		rv, err := cfg.NewReviewer(set)
		if err != nil {
			why = "the [inspect] reviewer could not be used: " + err.Error()
		} else {
			j.Reviewer, j.ReviewerModel = rv.Name(), set.Model
			reviewed, why = Review(ctx, rv, cfg.Timeout, &j, facts)
		}
	}
	prior := 0
	if reviewed {
		if prior, err = r.priorRounds(pull); err != nil {
			return j, err
		}
	}
	j.Decide(reviewed, why, prior)
	return j, nil
}

// Write keeps the judgement as File in dir, for the inspect job's artifact.
func Write(dir string, j model.Judgement) error {
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("making %s: %w", dir, err)
	}
	return os.WriteFile(filepath.Join(dir, File), append(b, '\n'), 0o644)
}

// Read reads a judgement File from dir and checks it is of pr's head.
func Read(dir string, pr int, head string) (model.Judgement, error) {
	var j model.Judgement
	b, err := os.ReadFile(filepath.Join(dir, File))
	if err != nil {
		return j, err
	}
	return Decode(b, pr, head)
}

// Decode reads a judgement strictly and checks it is of pr's head.
func Decode(b []byte, pr int, head string) (model.Judgement, error) {
	var j model.Judgement
	if len(b) > 4<<20 {
		return j, errors.New("the judgement is more than 4 MiB")
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&j); err != nil {
		return j, fmt.Errorf("the judgement does not decode: %w", err)
	}
	return j, j.Validate(pr, head)
}

type reader struct {
	ctx         context.Context
	gh          *github.Client
	owner, repo string
	head        string
}

// facts reads what the judge needs.
func (r reader) facts(pull *github.PullRequest, pack *proof.Pack, dir, ledger string) (model.Facts, error) {
	f := model.Facts{Outcome: map[string]model.Outcome{}, TestFiles: map[string]map[string][]byte{}, RedOnBase: redOnBase(pack)}
	story := pack.Story
	b, err := ghx.ReadFile(r.ctx, r.gh, r.owner, r.repo, ledger, fmt.Sprintf("specs/%d/ready.md", story))
	if err != nil && !ghx.IsNotFound(err) {
		return f, fmt.Errorf("reading the Ready snapshot of story %d: %s", story, ghx.Describe(err))
	}
	if err == nil {
		if ready, perr := proof.ParseReady(b); perr == nil {
			for _, c := range ready.Criteria {
				f.Goals = append(f.Goals, model.Goal{ID: c.ID, Text: c.Text})
			}
		}
	}
	is, _, err := r.gh.Issues.Get(r.ctx, r.owner, r.repo, story)
	if err != nil {
		return f, fmt.Errorf("reading story #%d: %s", story, ghx.Describe(err))
	}
	for _, l := range is.Labels {
		f.Bug = f.Bug || l.GetName() == inbox.LabelBug
	}
	f.Bug = f.Bug || strings.HasPrefix(pull.GetHead().GetRef(), "fix/")

	mapPath := fmt.Sprintf(".aayudha/evidence/%d.toml", story)
	raw, err := ghx.ReadFile(r.ctx, r.gh, r.owner, r.repo, r.head, mapPath)
	switch {
	case ghx.IsNotFound(err):
		f.MapWhy = mapPath + " is not at the head"
	case err != nil:
		return f, fmt.Errorf("reading %s at the head: %s", mapPath, ghx.Describe(err))
	default:
		m, lerr := proof.LoadEvidenceMap(raw)
		if lerr != nil {
			f.MapWhy = lerr.Error()
			break
		}
		f.Mapped = true
		for _, c := range m {
			mc := model.Mapping{ID: c.ID}
			for _, t := range c.Tests {
				mc.Tests = append(mc.Tests, t.String())
			}
			f.Map = append(f.Map, mc)
		}
	}
	module := ""
	if gomod, err := ghx.ReadFile(r.ctx, r.gh, r.owner, r.repo, r.head, "go.mod"); err == nil {
		module = proof.ModulePathOf(gomod)
	}
	r.outcomes(f.Outcome, dir, pack, module)
	for _, m := range f.Map {
		for _, t := range m.Tests {
			pkg, _, _ := strings.Cut(t, ":")
			if _, done := f.TestFiles[pkg]; done {
				continue
			}
			files, err := r.testFiles(pkg)
			if err != nil {
				return f, err
			}
			f.TestFiles[pkg] = files
		}
	}
	return f, nil
}

// outcomes reads what each test did in the pack's events: the run's
// top-level tests (evidence/tests.jsonl) and each criterion's evidence.
func (r reader) outcomes(out map[string]model.Outcome, dir string, pack *proof.Pack, module string) {
	files := []string{proof.TestsEventsPath}
	for _, c := range pack.Criteria {
		files = append(files, proof.EvidencePath(c.ID))
	}
	rank := map[model.Outcome]int{"": 0, model.Skipped: 1, model.Passed: 2, model.Failed: 3}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return
	}
	defer root.Close()
	for _, name := range files {
		fh, err := root.Open(path.Join("artifacts", name)) // the pack folder's layout: pack.json beside artifacts/P
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			var ev struct{ Action, Package, Test string }
			if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Test == "" || strings.Contains(ev.Test, "/") {
				continue
			}
			o := model.Outcome(ev.Action)
			if _, known := rank[o]; !known || o == "" {
				continue
			}
			key := packageDir(ev.Package, module) + ":" + ev.Test
			if rank[o] > rank[out[key]] {
				out[key] = o
			}
		}
		fh.Close()
	}
}

// packageDir is an import path as the evidence map names a package: the
// directory under the module root, "." for the root.
func packageDir(importPath, module string) string {
	switch {
	case module == "":
		return importPath
	case importPath == module:
		return "."
	}
	return strings.TrimPrefix(importPath, strings.TrimSuffix(module, "/")+"/")
}

// testFiles reads pkg's _test.go files at the head through the contents
// API.
func (r reader) testFiles(pkg string) (map[string][]byte, error) {
	out := map[string][]byte{}
	dir := pkg
	if dir == "." {
		dir = ""
	}
	entries, err := ghx.ListTree(r.ctx, r.gh, r.owner, r.repo, r.head, dir)
	if ghx.IsNotFound(err) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing %s at the head: %s", pkg, ghx.Describe(err))
	}
	for _, e := range entries {
		if e.Type != "file" || !strings.HasSuffix(e.Name, "_test.go") || e.Size > maxTestFileBytes || len(out) >= maxTestFiles {
			continue
		}
		b, err := ghx.ReadFile(r.ctx, r.gh, r.owner, r.repo, r.head, path.Join(dir, e.Name))
		if err != nil {
			return nil, fmt.Errorf("reading %s at the head: %s", path.Join(dir, e.Name), ghx.Describe(err))
		}
		out[e.Name] = b
	}
	return out, nil
}

var redOnBaseItem = lazyre.New(`criterion ([0-9]+): (red on base|green on base|inconclusive|not classified)`)

// redOnBase reads the red-on-base floor's class of each criterion from the
// pack's check.
func redOnBase(pack *proof.Pack) map[int]string {
	out := map[int]string{}
	for _, c := range pack.Checks {
		if c.Floor != proof.FloorRedOnBase {
			continue
		}
		for _, m := range redOnBaseItem().FindAllStringSubmatch(c.Detail, -1) {
			if id, err := strconv.Atoi(m[1]); err == nil && m[2] != "not classified" {
				out[id] = m[2]
			}
		}
	}
	return out
}

// Review asks the reviewer about each criterion of j, with the mapped
// tests' sources from f, and records its rung and reasons on each and its
// spend on j. reviewed is true only when every criterion got a valid
// answer within timeout; otherwise why says, in words, what stopped it
// (no answer in time, an answer refused by model/inspect.ParseAnswer), and
// the human rung stands: a reviewer that fails is never a pass.
func Review(ctx context.Context, rv Reviewer, timeout time.Duration, j *model.Judgement, f model.Facts) (reviewed bool, why string) {
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	if len(j.Criteria) == 0 {
		return false, "the Ready snapshot has no criteria for a reviewer to judge"
	}
	for i := range j.Criteria {
		c := &j.Criteria[i]
		var sources []model.TestSource
		for _, t := range c.Tests {
			pkg, name, _ := strings.Cut(t, ":")
			for _, file := range sortedNames(f.TestFiles[pkg]) {
				if src := model.FuncSource(f.TestFiles[pkg][file], name); src != "" {
					sources = append(sources, model.TestSource{Test: t, Source: src})
					break
				}
			}
		}
		askCtx, cancel := context.WithTimeout(ctx, timeout)
		reply, err := rv.Ask(askCtx, model.System, model.Prompt(*c, sources))
		deadline := errors.Is(askCtx.Err(), context.DeadlineExceeded)
		cancel()
		j.Spend.TokensIn += reply.TokensIn
		j.Spend.TokensOut += reply.TokensOut
		j.Spend.USD += reply.USD
		if errors.Is(err, context.DeadlineExceeded) || (err != nil && deadline) {
			return false, fmt.Sprintf("the reviewer did not answer for criterion %d within %s, so a person reviews this head", c.ID, timeout)
		}
		if err != nil {
			return false, fmt.Sprintf("the reviewer could not be asked about criterion %d (%s), so a person reviews this head", c.ID, oneLine(err.Error()))
		}
		a, err := model.ParseAnswer(reply.Text)
		if err != nil {
			return false, fmt.Sprintf("criterion %d: %s, so a person reviews this head", c.ID, oneLine(err.Error()))
		}
		c.Rung, c.Shown, c.Reasons = a.Rung, a.Shown, a.Reasons
	}
	return true, ""
}

// priorRounds counts the earlier heads of the pull request (its commits
// since the base) whose gate judgement did not converge: the status
// aayudha/inspect the merge gate's own runs posted on them.
func (r reader) priorRounds(pull *github.PullRequest) (int, error) {
	cmp, _, err := r.gh.Repositories.CompareCommits(r.ctx, r.owner, r.repo, pull.GetBase().GetSHA(), r.head, &github.ListOptions{PerPage: 100})
	if err != nil {
		return 0, fmt.Errorf("reading the commits of #%d: %s", pull.GetNumber(), ghx.Describe(err))
	}
	var prior []model.PriorStatus
	runs := checks.RunsPath(r.owner, r.repo)
	for _, c := range cmp.Commits {
		sha := c.GetSHA()
		if strings.EqualFold(sha, r.head) {
			continue
		}
		sts, _, err := r.gh.Repositories.ListStatuses(r.ctx, r.owner, r.repo, sha, &github.ListOptions{PerPage: 100})
		if err != nil {
			return 0, fmt.Errorf("reading the statuses of %s: %s", sha, ghx.Describe(err))
		}
		// Statuses come newest first: the first of the gate's is its
		// latest judgement of that head.
		for _, st := range sts {
			ck := checks.Check{Name: st.GetContext(), Kind: "status", URL: st.GetTargetURL(), By: st.GetCreator().GetLogin()}
			if checks.InspectFromGate(ck, runs) {
				prior = append(prior, model.PriorStatus{Head: sha, State: st.GetState(), Description: st.GetDescription()})
				break
			}
		}
	}
	return model.Prior(prior, r.head), nil
}

func sortedNames(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// oneLine keeps an error to one short line for a status and a comment.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:199]) + "…"
	}
	return s
}
