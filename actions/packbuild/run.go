package packbuild

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/proof"
)

// Run verifies the checkout: it runs every floor, builds the pack and
// writes it to Dir/.aayudha/proof/STORY, then verifies what it wrote.
// emit hears every step as it starts and ends, each test as it starts and
// each line of output; it is called from this goroutine only and must not
// block for long. The error is for git, go or the file system failing
// (exit 1); everything else is in the Outcome.
func Run(ctx context.Context, t Tools, req Request, emit func(Event)) (*Outcome, error) {
	if emit == nil {
		emit = func(Event) {}
	}
	r := &runner{t: t, req: req, emit: emit}
	out, err := r.run(ctx)
	if err != nil {
		if r.step != "" {
			emit(StepEnded{Step: r.step, Result: proof.ResultFail, Detail: "could not run: " + err.Error()})
		}
		return nil, err
	}
	return out, nil
}

type runner struct {
	t    Tools
	req  Request
	emit func(Event)
	step string // the step under way, for the failure event

	head, base, modulePath string
	ready                  *proof.Ready
	evidenceMap            proof.EvidenceMap
	set                    settings
	prefix                 []string
	network, goVersion     string
	raw                    *rawOutputs // the tests job's outputs, with Request.FromRaw
	// testEvents and coverageReport are the pack's own copies of what the
	// tests and coverage floors counted (proof.TestsEventsPath,
	// proof.CoverageReportPath), so verification recounts them.
	testEvents, coverageReport []byte
	// scanReports are the scanners' reports by artifact path
	// (proof.ScannerReportPath), recounted the same way.
	scanReports map[string][]byte
	// warnings go in the pack for a person to read (framing.go).
	warnings []proof.Warning
}

func (r *runner) start(step, what string) {
	r.step = step
	r.emit(StepStarted{Step: step, What: what})
}

func (r *runner) end(result, detail string) {
	r.emit(StepEnded{Step: r.step, Result: result, Detail: detail})
	r.step = ""
}

func (r *runner) run(ctx context.Context) (*Outcome, error) {
	if refusal, err := r.prepare(ctx); refusal != nil || err != nil {
		return refusal, err
	}
	tmp, err := os.MkdirTemp("", "aayu-verify-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)

	r.start(StepTests, r.recorded("go test -json -coverprofile ./... ("+r.network+")"))
	tests, err := r.goTest(ctx, filepath.Join(tmp, "cover.out"))
	if err != nil {
		return nil, err
	}
	r.testEvents = proof.RunEvents(bytes.NewReader(tests.stream))
	testsCheck := r.testsCheck(tests)
	r.end(testsCheck.Result, testsCheck.Detail)

	r.start(StepEvidence, "each criterion's mapped tests in this run")
	evidence, problems := proof.TestEvidence(r.evidenceMap, r.modulePath, bytes.NewReader(tests.stream))
	r.end(evidenceResult(len(r.evidenceMap), len(evidence), problems))

	r.start(StepCoverage, "changed lines covered, against the base commit")
	coverage, err := r.coverage(ctx, filepath.Join(tmp, "cover.out"))
	if err != nil {
		return nil, err
	}
	r.end(coverage.Result, coverage.Detail)

	r.start(StepVet, r.recorded("go vet ./..."))
	vet, err := r.vet(ctx)
	if err != nil {
		return nil, err
	}
	r.end(vet.Result, vet.Detail)

	checks := []proof.Check{testsCheck, coverage, vet}
	var shots []webArtifact
	if crits := r.evidenceMap.Screenshots(); len(crits) > 0 {
		r.start(StepWeb, r.recorded("each screenshot criterion's page in headless chromium"))
		run, dir := r.webRun(ctx, tmp)
		var c proof.Check
		c, shots = judgeWeb(crits, run, dir)
		checks = append(checks, c)
		r.end(c.Result, c.Detail)
	}
	checks = append(checks, r.scanners(ctx)...)
	if r.req.Bug {
		r.start(StepRedOnBase, r.recorded("mapped tests on the base commit with the pull request's test files"))
		results, err := r.redOnBase(ctx)
		if err != nil {
			return nil, err
		}
		c := proof.RedOnBaseCheck(results, r.set.blockingFrom, r.req.now())
		c.Network, c.Version = r.network, r.goVersion
		checks = append(checks, c)
		r.end(c.Result, c.Detail)
	}

	r.start(StepPack, "assemble, write and verify the pack")
	framing, err := r.framingWarning(ctx)
	if err != nil {
		return nil, err
	}
	if framing != nil {
		r.warnings = append(r.warnings, *framing)
		r.emit(Output{Step: StepPack, Line: "warning: " + framing.Detail})
	}
	out, err := r.pack(ctx, evidence, shots, checks)
	if err != nil {
		return nil, err
	}
	out.Evidence = problems
	r.end(packResult(out))
	return out, nil
}

// prepare finds the commits, reads the Ready snapshot, the evidence map
// and the settings, and decides the network isolation. A refusal is an
// Outcome with exit 4.
func (r *runner) prepare(ctx context.Context) (*Outcome, error) {
	req := r.req
	if req.Story <= 0 {
		return refuse("No story was named; give the story's number, e.g. aayu verify 3."), nil
	}
	head, err := r.t.git(ctx, req.Dir, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return nil, fmt.Errorf("%s is not a git checkout with a commit: %w", req.Dir, err)
	}
	r.head = strings.TrimSpace(string(head))
	if req.BaseRef == "" {
		return nil, errors.New("the pull request's base branch is not known, so there is nothing to compare the changed lines against")
	}
	base, err := r.t.git(ctx, req.Dir, "merge-base", req.BaseRef, r.head)
	if err != nil {
		return nil, fmt.Errorf("finding the base commit (merge-base of %s and the head; fetch the base branch first): %w", req.BaseRef, err)
	}
	r.base = strings.TrimSpace(string(base))
	bare := r.t.isBare(ctx, req.Dir)
	if bare {
		if why := bareRefusal(req); why != "" {
			return refuse("%s", why), nil
		}
	} else {
		dirty, err := r.t.git(ctx, req.Dir, "status", "--porcelain", "--untracked-files=no")
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(dirty)) > 0 {
			return refuse("The checkout has uncommitted changes to tracked files, so a pack for %s would not prove that commit. Commit or stash them and run aayu verify again.", gitsha.Short(r.head)), nil
		}
	}

	if len(req.Ready) == 0 {
		return refuse("Story %d has no Ready snapshot on the ledger (specs/%d/ready.md), so there are no criteria to prove. Freeze its Completion Goal first: aayu ready %d (a person's step).", req.Story, req.Story, req.Story), nil
	}
	if r.ready, err = proof.ParseReady(req.Ready); err != nil {
		return refuse("The Ready snapshot of story %d cannot be read: %v. Nothing was built.", req.Story, err), nil
	}
	mapPath := filepath.Join(".aayudha", "evidence", strconv.Itoa(req.Story)+".toml")
	var raw []byte
	if bare {
		// No working tree: the map is the one the head commit holds.
		raw, err = r.readCommitted(ctx, r.head, mapPath, proof.MaxEvidenceMapBytes)
	} else {
		raw, err = proof.ReadFileCapped(filepath.Join(req.Dir, mapPath), proof.MaxEvidenceMapBytes)
	}
	if errors.Is(err, os.ErrNotExist) {
		return refuse("The checkout has no evidence map %s, so no test is named for any criterion. The builder commits it: which tests prove which criterion.", filepath.ToSlash(mapPath)), nil
	}
	if err != nil {
		return refuse("The evidence map %s cannot be read: %v.", filepath.ToSlash(mapPath), err), nil
	}
	if r.evidenceMap, err = proof.LoadEvidenceMap(raw); err != nil {
		return refuse("The evidence map %s is not usable: %v. Nothing was built.", filepath.ToSlash(mapPath), err), nil
	}
	gomod, err := r.t.git(ctx, req.Dir, "show", r.head+":go.mod")
	if err != nil {
		return refuse("The checkout has no go.mod at its root, and verify runs Go tests only."), nil
	}
	if r.modulePath, err = readModulePath(gomod); err != nil {
		return refuse("go.mod cannot be read: %v.", err), nil
	}
	baseConfig, _ := r.t.git(ctx, req.Dir, "show", r.base+":.aayudha/config.toml")
	if r.set, err = loadSettings(req.Config, baseConfig); err != nil {
		return refuse("The configuration cannot be used: %v.", err), nil
	}
	return r.toolchain(ctx)
}
