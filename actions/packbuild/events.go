package packbuild

import "github.com/aayudha/aayu/proof"

// The steps of a verify run, in the order they run. Each floor's check in
// the pack is named by the same word, except tests (floor "tests"),
// evidence (not a floor: a criterion without evidence makes the pack fail
// to verify) and pack.
const (
	StepTests     = "tests"
	StepEvidence  = "evidence"
	StepCoverage  = "coverage"
	StepVet       = "vet"
	StepRedOnBase = proof.FloorRedOnBase
	StepPack      = "pack"
)

// Steps lists the steps a run goes through; red on base only for a Bug.
func Steps(bug bool) []string {
	s := []string{StepTests, StepEvidence, StepCoverage, StepVet}
	if bug {
		s = append(s, StepRedOnBase)
	}
	return append(s, StepPack)
}

// Event is one piece of progress from a run, in the order it happened.
type Event interface{ isEvent() }

// StepStarted: a step began. What says in words what it does.
type StepStarted struct {
	Step string
	What string
}

// TestRunning: go test started a top-level test.
type TestRunning struct {
	Step          string
	Package, Test string
}

// Output is one line of a go command's output.
type Output struct {
	Step string
	Line string
}

// StepEnded: a step finished. Result is a check result word (pass, fail,
// skipped); Detail says why in words, always for a failure.
type StepEnded struct {
	Step   string
	Result string
	Detail string
}

func (StepStarted) isEvent() {}
func (TestRunning) isEvent() {}
func (Output) isEvent()      {}
func (StepEnded) isEvent()   {}
