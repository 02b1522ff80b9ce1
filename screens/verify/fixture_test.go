package verify

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
)

const (
	fakeHead = "2c1f384bfc904718d8bb3815034422f541fbad1d"
	fakeBase = "ee7e64cec3f836f2ddad3a435498c1e9704203aa"
	fakeSum  = "fd591a333fc1fd2aa5c3fb69b7e4af5327adf6098117c997c535e1545a73caf4"
	fakeDir  = "/home/dev/.cache/aayu/verify/acme+benefits/3"
)

// script is a fake run: the events it emits and how it ends.
type script struct {
	req    packbuild.Request
	events []packbuild.Event
	out    *packbuild.Outcome
	err    error
}

func (s script) deps() Deps {
	return Deps{
		Story:   s.req.Story,
		Prepare: func(context.Context) (packbuild.Request, error) { return s.req, nil },
		Run: func(_ context.Context, _ packbuild.Request, emit func(packbuild.Event)) (*packbuild.Outcome, error) {
			for _, ev := range s.events {
				emit(ev)
			}
			return s.out, s.err
		},
	}
}

func out(text string) packbuild.Output {
	return packbuild.Output{Step: packbuild.StepTests, Line: text}
}

const deductiblePkg = "example.com/benefits/deductible"

func testEvents(tests ...string) []packbuild.Event {
	evs := []packbuild.Event{packbuild.PackageStarted{Step: packbuild.StepTests, Package: deductiblePkg}}
	for _, t := range tests {
		evs = append(evs, packbuild.TestRunning{Step: packbuild.StepTests, Package: deductiblePkg, Test: t},
			out("=== RUN   "+t), out("--- PASS: "+t+" (0.00s)"),
			packbuild.TestEnded{Step: packbuild.StepTests, Package: deductiblePkg, Test: t, Result: proof.ResultPass})
	}
	return evs
}

func ended(step, result, detail string) packbuild.StepEnded {
	return packbuild.StepEnded{Step: step, Result: result, Detail: detail}
}

var story3Req = packbuild.Request{Dir: fakeDir, Repo: "acme/benefits", Story: 3, PR: 4, BaseRef: "origin/dev"}

var story3Criteria = []proof.CriterionResult{
	{ID: 1, Text: "Remaining returns the deductible minus what was paid.", Evidence: []string{"evidence/criterion-1.jsonl"}, Proven: true},
	{ID: 2, Text: "Remaining never goes below zero.", Evidence: []string{"evidence/criterion-2.jsonl"}, Proven: true},
}

// floorsHold is story 3's run, every floor holding.
func floorsHold() script {
	evs := []packbuild.Event{packbuild.StepStarted{Step: packbuild.StepTests, What: "go test -json -coverprofile ./... (isolated)"}}
	evs = append(evs, testEvents("TestApplies", "TestRemaining", "TestRemainingNeverNegative")...)
	evs = append(evs, out("ok  \texample.com/benefits/deductible\t0.004s\tcoverage: 100.0% of statements"),
		packbuild.PackageEnded{Step: packbuild.StepTests, Package: deductiblePkg, Result: proof.ResultPass, Passed: 3, Elapsed: 4 * time.Millisecond},
		packbuild.PackageStarted{Step: packbuild.StepTests, Package: "example.com/benefits/docs"},
		packbuild.PackageEnded{Step: packbuild.StepTests, Package: "example.com/benefits/docs", Result: proof.ResultSkipped, Why: "no test files"},
		ended(packbuild.StepTests, proof.ResultPass, "4 tests passed"),
		packbuild.StepStarted{Step: packbuild.StepEvidence, What: "each criterion's mapped tests in this run"},
		ended(packbuild.StepEvidence, proof.ResultPass, "2 of 2 criteria have evidence from this run"),
		packbuild.StepStarted{Step: packbuild.StepCoverage, What: "changed lines covered, against the base commit"},
		ended(packbuild.StepCoverage, proof.ResultPass, "5 of 5 changed executable lines covered (go coverprofile)"),
		packbuild.StepStarted{Step: packbuild.StepVet, What: "go vet ./..."},
		ended(packbuild.StepVet, proof.ResultPass, "go vet reported nothing"),
		packbuild.StepStarted{Step: packbuild.StepPack, What: "assemble, write and verify the pack"},
		ended(packbuild.StepPack, proof.ResultPass, "written and verified"))
	return script{req: story3Req, events: evs, out: &packbuild.Outcome{
		ExitCode: packbuild.ExitOK, Dir: fakeDir + "/.aayudha/proof/3", PackSHA256: fakeSum, Head: fakeHead, Base: fakeBase,
		Network: proof.NetworkIsolated, RetentionDays: 30, RetentionNote: "proof.retention_days is 30",
		Report: &proof.Report{Pack: &proof.Pack{Story: 3}, PackSHA256: fakeSum, Criteria: story3Criteria, FloorsHold: true},
	}}
}

// coverageFails is story 5's run: the coverage floor does not hold.
func coverageFails() script {
	s := floorsHold()
	s.req.Story, s.req.PR, s.req.Dir = 5, 6, strings.TrimSuffix(fakeDir, "3")+"5"
	detail := "5 of 7 changed executable lines covered (go coverprofile); below the threshold of 90%"
	for i, ev := range s.events {
		if e, ok := ev.(packbuild.StepEnded); ok && e.Step == packbuild.StepCoverage {
			s.events[i] = ended(packbuild.StepCoverage, proof.ResultFail, detail)
		}
	}
	s.out.ExitCode, s.out.Dir = packbuild.ExitFloor, s.req.Dir+"/.aayudha/proof/5"
	s.out.Report = &proof.Report{Pack: &proof.Pack{Story: 5}, PackSHA256: fakeSum, FloorsHold: false,
		FailedFloors: []proof.Check{{Floor: "coverage", Result: proof.ResultFail, Detail: detail}},
		Criteria: []proof.CriterionResult{
			{ID: 1, Text: "A primary-care visit costs a 20 copay.", Proven: true},
			{ID: 2, Text: "An unknown visit type costs nothing and says so.", Proven: true}}}
	return s
}

// runningScript stops inside the tests step, a test under way.
func runningScript() script {
	s := floorsHold()
	s.events = s.events[:7] // started, TestApplies ran, TestRemaining started
	return s
}

// driven returns the screen after feeding it msgs in order, without any
// goroutine: the same Update calls the program makes.
func driven(t *testing.T, c tui.Common, s script, finish bool) *Model {
	t.Helper()
	m := New(context.Background(), c, s.deps())
	m.Update(tea.WindowSizeMsg{Width: c.Width, Height: c.Height})
	m.Update(preparedMsg{req: s.req})
	for _, ev := range s.events {
		m.Update(eventMsg{ev})
	}
	if finish {
		m.Update(finishedMsg{out: s.out, err: s.err})
	}
	return m
}

var errGit = errors.New("git merge-base origin/dev HEAD: exit status 1: fatal: Not a valid object name origin/dev")
