// Package gaterun holds the one rule for which run of the merge gate
// qualifies as proof of a pull request's head (seed 001, "The merge gate";
// SPEC §5): a pull_request_target run of exactly .github/workflows/
// aayudha-merge-gate.yml (the path must be reported and match), bound to the pull request through its
// pull_requests[] entry at exactly that head (a fork's runs, listed without
// an entry, bind by the pack alone), completed with success. The inbox's
// green mark, the pack viewer's gate artifact and ship's pack gate all ask
// this package, so the three cannot disagree.
//
// It is pure: callers read the runs (ghx.GateRunFacts turns go-github's
// record into a Run) and hand them in; it does no I/O and imports neither
// go-github nor Bubble Tea. Every reason is a phrase a person reads.
package gaterun

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/model/gitsha"
)

// The merge gate's workflow, and the one event whose runs can prove a head.
const (
	WorkflowFile = "aayudha-merge-gate.yml"
	WorkflowPath = ".github/workflows/" + WorkflowFile
	EventTarget  = "pull_request_target"
	eventPR      = "pull_request"
)

// Run is what the rule reads of a workflow run's record.
type Run struct {
	ID         int64
	Event      string // "pull_request_target", "pull_request", "push", …
	Path       string // the workflow file, maybe with "@ref"; "" when not reported
	Status     string // "completed", "in_progress", "queued", …
	Conclusion string // "success", "failure", "cancelled", …
	HeadBranch string
	// PullRequests are the run's pull_requests[] entries: the pull
	// request's number and its head at the time of the run.
	PullRequests []Entry
}

// Entry is one pull_requests[] entry of a run.
type Entry struct {
	Number  int
	HeadSHA string
}

// Target is the pull request and head a run must prove.
type Target struct {
	PR   int
	Head string
	// HeadRef is the head branch's name: a pull_request run of it with no
	// entry is still the pull request's own copy, and named as such.
	HeadRef string
	// Fork says the head lives in another repository; GitHub lists a
	// fork's pull_request_target runs without an entry.
	Fork bool
}

// stage orders the checks, so callers can tell how far a run got.
type stage int

const (
	stageOther   stage = iota // not a merge-gate run of this head
	stageRunning              // this head's gate run, not finished
	stageFailed               // this head's gate run, finished without success
	stageOK                   // qualifies
)

// Judge says whether run r is about target at all (ours), and when it is,
// why it does not qualify, or "" when it does. A run of another pull
// request is not ours and needs no reason.
func Judge(r Run, t Target) (ours bool, reason string) {
	ours, _, reason = judge(r, t)
	return ours, reason
}

// Qualifies reports whether r proves target's head.
func Qualifies(r Run, t Target) bool {
	ours, st, _ := judge(r, t)
	return ours && st == stageOK
}

// Decides reports whether r is a finished merge-gate run of exactly
// target's head, whatever its conclusion: the run whose conclusion says
// whether the head is green. A run still in progress decides nothing, so it
// does not undo the last finished one.
func Decides(r Run, t Target) bool {
	ours, st, _ := judge(r, t)
	return ours && st >= stageFailed
}

func judge(r Run, t Target) (bool, stage, string) {
	entry, ours := bind(r, t)
	if !ours {
		return false, stageOther, ""
	}
	switch {
	case r.Event == eventPR:
		return true, stageOther, "the pull request's own copy of the gate (pull_request)"
	case r.Event != EventTarget:
		return true, stageOther, fmt.Sprintf("a %s run, not %s", r.Event, EventTarget)
	case r.Path == "":
		return true, stageOther, "the run does not say which workflow it ran, so it cannot be the merge gate's"
	case !IsGatePath(r.Path):
		return true, stageOther, fmt.Sprintf("a run of %s, not the merge gate", r.Path)
	case entry != nil && !strings.EqualFold(entry.HeadSHA, t.Head):
		return true, stageOther, "proves another commit " + gitsha.Short(entry.HeadSHA)
	case r.Status != "completed":
		return true, stageRunning, "still running"
	case r.Conclusion != "success":
		if c := r.Conclusion; c != "failure" && c != "" {
			return true, stageFailed, "failed (" + c + ")"
		}
		return true, stageFailed, "failed"
	}
	return true, stageOK, ""
}

// IsGatePath reports whether a run's path names exactly the merge gate's
// workflow: the file itself, or the file at a ref ("…merge-gate.yml@refs/
// heads/dev", as GitHub reports some runs). A prefix is not enough: a
// workflow named "aayudha-merge-gate.yml-evil.yml" is another file.
func IsGatePath(path string) bool {
	if path == WorkflowPath {
		return true
	}
	ref, ok := strings.CutPrefix(path, WorkflowPath+"@")
	return ok && ref != ""
}

// bind finds the run's entry for the target. A run with entries is ours
// only through one naming the pull request; with none, a pull_request run
// of the head branch is its own copy, and a pull_request_target run counts
// only for a fork.
func bind(r Run, t Target) (*Entry, bool) {
	for i := range r.PullRequests {
		if r.PullRequests[i].Number == t.PR {
			return &r.PullRequests[i], true
		}
	}
	if len(r.PullRequests) > 0 {
		return nil, false
	}
	switch r.Event {
	case eventPR:
		return nil, t.HeadRef != "" && r.HeadBranch == t.HeadRef
	case EventTarget:
		return nil, t.Fork
	}
	return nil, false
}
