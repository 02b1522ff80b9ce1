package packbuild

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/proof"
)

// The merge gate's cut between running the pull request's code and
// building the pack (issue 24): RunRaw runs the pull request's tests, go
// vet and red on base, and writes only what they said — the raw outputs —
// into a folder; it needs no GitHub and no token, so the job that runs it
// holds none. Run with Request.FromRaw then builds, hashes and verifies the
// pack from that folder in another job, on another machine, where none of
// the pull request's code runs and none of its processes is left: git
// reads the pull request's commits from a bare repository, with no working
// tree of them (bare.go), and nothing of them is executed.
//
// The raw outputs are the pull request's word: its code ran in the same
// process tree that wrote them. What the split guarantees is that the pack
// is assembled and hashed by the base branch's workflow from those words,
// with no credential the code could use and no process that could change
// the pack after it was hashed.

// Files of a raw-output folder.
const (
	RawManifest  = "aayudha-raw.json"
	rawTests     = "tests.jsonl"
	rawCover     = "cover.out"
	rawRedOnBase = "red-on-base.jsonl"
	rawSchema    = "aayudha-raw/1"
)

// Caps on what the assembling job reads of the raw outputs.
const (
	maxRawManifest = 1 << 20
	maxRawCover    = 64 << 20
)

// rawManifest says what the tests job ran and how each command ended.
type rawManifest struct {
	Schema string `json:"schema"`
	Story  int    `json:"story"`
	Head   string `json:"head"`
	// Dir is the tests job's checkout, which go vet's words name paths in.
	Dir       string `json:"dir"`
	GoVersion string `json:"go_version"`
	Network   string `json:"network"`
	// TestsExit is go test's exit status; TestsError says why it did not
	// run at all.
	TestsExit   int    `json:"tests_exit"`
	TestsStderr string `json:"tests_stderr"`
	TestsError  string `json:"tests_error,omitempty"`
	VetExit     int    `json:"vet_exit"`
	VetStderr   string `json:"vet_stderr"`
	// RedOnBase is "ran", or why the mapped tests did not run on base.
	RedOnBase string `json:"red_on_base"`
	// RedOnBaseDir is the temporary folder red on base's output names
	// paths in, so the assembler can drop it from details.
	RedOnBaseDir string `json:"red_on_base_dir,omitempty"`
	// Web is the web floor's run (web.go), its captures in screens/; nil
	// when the evidence map names no screenshot.
	Web *webRun `json:"web,omitempty"`
	// Scans are the scanner runs the base branch's [verify] scanners
	// named, each report in its raw file (rawScanFile).
	Scans map[string]rawScan `json:"scans,omitempty"`
}

// RawRequest is one raw run: the checkout of the pull request's head, the
// story, the base branch's name (GITHUB_BASE_REF) and the folder to write.
type RawRequest struct {
	Dir, BaseBranch, Out string
	Story                int
	// Config holds the layers above the repository's, as Request.Config;
	// the repository layer is the base branch's .aayudha/config.toml,
	// which names the scanners to run.
	Config config.Sources
}

// RunRaw runs the pull request's go test, go vet and (when the checkout
// has the story's evidence map and the base branch) its mapped tests on
// the base commit, and writes what they said into req.Out, which must not
// exist yet. A command that fails is recorded, not an error: the error is
// for git or the file system failing.
func RunRaw(ctx context.Context, t Tools, req RawRequest, emit func(Event)) error {
	if emit == nil {
		emit = func(Event) {}
	}
	if req.Story <= 0 {
		return errors.New("no story was named")
	}
	head, err := t.git(ctx, req.Dir, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return fmt.Errorf("%s is not a git checkout with a commit: %w", req.Dir, err)
	}
	if err := os.Mkdir(req.Out, 0o755); err != nil {
		return fmt.Errorf("the raw-output folder: %w", err)
	}
	m := rawManifest{Schema: rawSchema, Story: req.Story, Head: strings.TrimSpace(string(head)), Dir: req.Dir}
	var prefix []string
	prefix, m.Network = t.isolation(ctx)
	if m.GoVersion, err = t.goVersion(ctx, req.Dir); err != nil {
		return err
	}

	// The scanners run first, before any of the pull request's code has
	// run here (they only read it), so the scanner binary and the files it
	// reads are not ones its tests could have planted; what its code does
	// to the raw outputs afterwards is the pull request's word, as above.
	set, err := t.rawSettings(ctx, req, m.Head)
	if err != nil {
		return err
	}
	if err := t.rawScanners(ctx, req.Dir, req.Out, set, prefix, m.Network, emit, &m); err != nil {
		return err
	}

	emit(StepStarted{Step: StepTests, What: "go test -json -coverprofile ./... (" + m.Network + "), raw"})
	run, err := t.goTest(ctx, req.Dir, filepath.Join(req.Out, rawCover), prefix, emit, StepTests)
	switch {
	case err != nil && ctx.Err() != nil:
		return err
	case err != nil:
		m.TestsExit, m.TestsError = -1, err.Error()
	default:
		m.TestsExit, m.TestsStderr = run.exitCode, run.stderr
		if err := os.WriteFile(filepath.Join(req.Out, rawTests), run.stream, 0o644); err != nil {
			return err
		}
	}
	emit(StepEnded{Step: StepTests, Result: proof.ResultPass, Detail: "recorded, judged when the pack is assembled"})

	emit(StepStarted{Step: StepVet, What: "go vet ./..., raw"})
	if m.VetExit, m.VetStderr, err = t.runGo(ctx, req.Dir, prefix, []string{"vet", "./..."}, func(l []byte) {
		emit(Output{Step: StepVet, Line: string(l)})
	}); err != nil {
		return err
	}
	emit(StepEnded{Step: StepVet, Result: proof.ResultPass, Detail: "recorded"})

	m.RedOnBase = t.rawRedOnBase(ctx, req, m.Head, prefix, emit, &m)
	m.Web = t.rawWeb(ctx, req, m.Head, emit)
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(req.Out, RawManifest), append(b, '\n'), 0o644)
}

// rawRedOnBase runs the mapped tests on the base commit and writes their
// stream; it returns "ran" or why it did not.
func (t Tools) rawRedOnBase(ctx context.Context, req RawRequest, head string, prefix []string, emit func(Event), m *rawManifest) string {
	if req.BaseBranch == "" {
		return "the base branch is not known (GITHUB_BASE_REF is empty)"
	}
	baseRef, err := t.baseRef(ctx, req.Dir, req.BaseBranch)
	if err != nil {
		return err.Error()
	}
	base, err := t.git(ctx, req.Dir, "merge-base", baseRef, head)
	if err != nil {
		return err.Error()
	}
	raw, err := proof.ReadFileCapped(filepath.Join(req.Dir, ".aayudha", "evidence", strconv.Itoa(req.Story)+".toml"), proof.MaxEvidenceMapBytes)
	if err != nil {
		return "no evidence map: " + err.Error()
	}
	em, err := proof.LoadEvidenceMap(raw)
	if err != nil {
		return "the evidence map is not usable: " + err.Error()
	}
	emit(StepStarted{Step: StepRedOnBase, What: "mapped tests on the base commit, raw"})
	run, dir, err := t.redOnBaseRun(ctx, req.Dir, strings.TrimSpace(string(base)), head, em, prefix, emit)
	emit(StepEnded{Step: StepRedOnBase, Result: proof.ResultPass, Detail: "recorded"})
	if err != nil {
		return err.Error()
	}
	if err := os.WriteFile(filepath.Join(req.Out, rawRedOnBase), run.stream, 0o644); err != nil {
		return err.Error()
	}
	m.RedOnBaseDir = dir
	return "ran"
}

// rawSettings are the settings of the base branch's config (under the
// request's layers), for the scanners it names. No base branch known, or
// no config on it, means the defaults: no scanner. A config that cannot be
// used is an error: the scanners it names would silently not run.
func (t Tools) rawSettings(ctx context.Context, req RawRequest, head string) (settings, error) {
	var baseConfig []byte
	if ref, err := t.baseRef(ctx, req.Dir, req.BaseBranch); err == nil {
		if base, err := t.git(ctx, req.Dir, "merge-base", ref, head); err == nil {
			baseConfig, _ = t.git(ctx, req.Dir, "show", strings.TrimSpace(string(base))+":.aayudha/config.toml")
		}
	}
	set, err := loadSettings(req.Config, baseConfig)
	if err != nil {
		return settings{}, fmt.Errorf("the configuration cannot be used: %w", err)
	}
	return set, nil
}

// rawOutputs is a raw-output folder as the assembling run reads it.
type rawOutputs struct {
	dir string
	m   rawManifest
}

var goVersionShape = lazyre.New(`^go[0-9][0-9a-z.+-]{0,30}$`)

// loadRaw reads the manifest of dir and checks it speaks of this story at
// this head; a refusal says in words why the folder cannot be used.
func loadRaw(dir string, story int, head string) (*rawOutputs, string) {
	b, err := proof.ReadFileCapped(filepath.Join(dir, RawManifest), maxRawManifest)
	if err != nil {
		return nil, fmt.Sprintf("The raw outputs in %s cannot be read (%v), so there is nothing to build the pack from.", dir, err)
	}
	var m rawManifest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil || m.Schema != rawSchema {
		return nil, fmt.Sprintf("The raw outputs' %s is not an %s manifest, so the pack is not built from it.", RawManifest, rawSchema)
	}
	switch {
	case m.Story != story:
		return nil, fmt.Sprintf("The raw outputs are of story %d, not story %d.", m.Story, story)
	case m.Head != head:
		return nil, fmt.Sprintf("The raw outputs are of commit %s, not the checkout's head %s: the tests ran on another commit.", gitsha.Short(m.Head), gitsha.Short(head))
	case m.Network != proof.NetworkIsolated && m.Network != proof.NetworkNotIsolated:
		return nil, "The raw outputs name no network isolation aayu knows."
	case !goVersionShape().MatchString(m.GoVersion):
		return nil, "The raw outputs name no Go version."
	}
	return &rawOutputs{dir: dir, m: m}, ""
}

// readStream feeds a raw go test -json stream into a testRun.
func (o *rawOutputs) readStream(name string, run *testRun, emit func(Event), step string) error {
	f, err := os.Open(filepath.Join(o.dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil // nothing ran: the floors say so
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxTestStream))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		run.read(sc.Bytes(), emit, step)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading the raw %s: %w", name, err)
	}
	return nil
}

// goTest is the tests step: go test run here, or its raw outputs read.
func (r *runner) goTest(ctx context.Context, coverProfile string) (*testRun, error) {
	if r.raw == nil {
		return r.t.goTest(ctx, r.req.Dir, coverProfile, r.prefix, r.emit, StepTests)
	}
	run := newTestRun()
	if err := r.raw.readStream(rawTests, run, r.emit, StepTests); err != nil {
		return nil, err
	}
	run.exitCode, run.stderr = r.raw.m.TestsExit, r.raw.m.TestsStderr
	if r.raw.m.TestsError != "" {
		run.stderr = r.raw.m.TestsError
	}
	cover, err := proof.ReadFileCapped(filepath.Join(r.raw.dir, rawCover), maxRawCover)
	if err == nil {
		err = os.WriteFile(coverProfile, cover, 0o600)
	} else if errors.Is(err, os.ErrNotExist) {
		err = nil // no profile: nothing is covered
	}
	return run, err
}

// runVet is go vet's exit status and standard error: run here, or read.
func (r *runner) runVet(ctx context.Context) (int, string, error) {
	if r.raw == nil {
		return r.t.runGo(ctx, r.req.Dir, r.prefix, []string{"vet", "./..."}, func(l []byte) {
			r.emit(Output{Step: StepVet, Line: string(l)})
		})
	}
	stderr := r.raw.m.VetStderr
	if d := r.raw.m.Dir; d != "" {
		// Paths in the tests job's checkout read as paths in this one, so
		// the vet floor names them relative to the module as a direct run does.
		stderr = strings.ReplaceAll(stderr, d+string(os.PathSeparator), r.req.Dir+string(os.PathSeparator))
	}
	return r.raw.m.VetExit, stderr, nil
}

// redOnBase is the red-on-base step: run here, or classified from the raw
// stream (a mapped test missing from it is inconclusive).
func (r *runner) redOnBase(ctx context.Context) ([]proof.CriterionRedOnBase, error) {
	if r.raw == nil {
		return r.t.redOnBase(ctx, r.req.Dir, r.base, r.head, r.modulePath, r.evidenceMap, r.prefix, r.emit)
	}
	run := newTestRun()
	if r.raw.m.RedOnBase == "ran" {
		if err := r.raw.readStream(rawRedOnBase, run, r.emit, StepRedOnBase); err != nil {
			return nil, err
		}
	}
	dir := r.raw.m.RedOnBaseDir
	if dir == "" {
		dir = "\x00" // no folder to drop from the details
	}
	return classify(r.evidenceMap, r.modulePath, run, dir), nil
}

// toolchain decides the isolation and reads the Go version: probed here,
// or as the tests job recorded them — the assembling job runs no go
// command in the pull request's checkout.
func (r *runner) toolchain(ctx context.Context) (*Outcome, error) {
	if r.req.FromRaw == "" {
		r.prefix, r.network = r.t.isolation(ctx)
		var err error
		r.goVersion, err = r.t.goVersion(ctx, r.req.Dir)
		return nil, err
	}
	raw, refusal := loadRaw(r.req.FromRaw, r.req.Story, r.head)
	if refusal != "" {
		return refuse("%s Nothing was built.", refusal), nil
	}
	r.raw, r.network, r.goVersion = raw, raw.m.Network, raw.m.GoVersion
	return nil, nil
}

// recorded says what a step does, and, when the pack is built from raw
// outputs, that the command ran in the tests job and is read here.
func (r *runner) recorded(what string) string {
	if r.raw == nil {
		return what
	}
	return what + ", as the tests job recorded it"
}
