package inbox

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/aayudha/aayu/model/identity"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/untrusted"
)

const (
	headA = "b046d1a1d113339eb80e130c9dc0008fa223e76f"
	headB = "c157e2b2e224440fc91f241d0ed1119fb334f870"
)

// Decision #1 is the hostile item every golden shows: its title and its
// second option carry a screen clear, an OSC 52 clipboard write, a C1 CSI
// (U+009B), a bidi override and a zero-width space, as a hostile writer
// could put them in an issue.
const (
	hostileTitle  = "Production\u202e Engineer\u200b seat\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b6n"
	hostileOption = "Wait\x1b[2J a quarter\u202e\u009b6n\x1b]52;c;cm0gLXJmIH4=\x07\u200b"
)

var (
	t0     = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	agent  = identity.Account{Login: "agent-bot[bot]", Bot: true, Permission: "write"}
	writer = identity.Account{Login: "writer", Permission: "write"}
)

// demoSnapshot holds one step of most kinds, as the inbox reads them.
func demoSnapshot() model.Snapshot {
	s := model.Snapshot{Viewer: "founder", Approver: "founder", IntegrationBranch: "dev",
		PRFacts: map[int]model.PRFacts{}, IssueComments: map[int][]identity.Comment{}, AuditEntries: map[int]bool{}}
	s.Issues = append(s.Issues,
		model.Issue{Number: 1, Title: hostileTitle, State: "open", Labels: []untrusted.Label{model.LabelDecision}, Author: writer,
			Body: "We need on-call cover.\x1b[2J\u202e\n\n## Options\n1. Add the seat (recommended)\n2. " + hostileOption + "\n\nDoor: two-way\n"},
		model.Issue{Number: 2, Title: "Drop the queue", State: "open", Labels: []untrusted.Label{model.LabelDecision}, Author: writer,
			Body: "## Options\n1. Keep the queue (recommended)\n2. Drop it\n\nDoor: one-way\n"},
		model.Issue{Number: 9, Title: "Vision benefit", State: "open", Labels: []untrusted.Label{model.LabelStory, model.LabelLease}},
		model.Issue{Number: 11, Title: "Applies ignores case", State: "open", Labels: []untrusted.Label{model.LabelBug}},
	)
	s.IssueComments[1] = []identity.Comment{{ID: 7, Author: writer, CreatedAt: t0, Body: model.CounselMarker + "\nAdd the seat: on-call gaps cost more than the seat."}}
	s.PullRequests = append(s.PullRequests,
		model.PullRequest{Number: 6, Title: "Claims export", HeadRef: "story/5-export", HeadSHA: headB, BaseRef: "dev", State: "open", Author: agent},
		model.PullRequest{Number: 10, Title: "Vision benefit", HeadRef: "story/9-vision", BaseRef: "dev", State: "closed", Merged: true, MergedAt: t0, Author: agent},
		model.PullRequest{Number: 12, Title: "Match service names in any case", HeadRef: "fix/case", Body: "Fixes #11", BaseRef: "dev", State: "closed", Merged: true, MergedAt: t0, Author: agent},
	)
	s.PRFacts[6] = model.PRFacts{Statuses: []model.Status{{Context: model.InspectContext, State: "pending", Description: "human rung: no reviewer could review it", FromGate: true}}}
	return s
}

// fakeGitHub serves reads of a snapshot and records executed choices; it
// stands in for ghx/inboxread and actions in screen tests, which the
// sandbox tests of those packages cover end to end.
type fakeGitHub struct {
	mu       sync.Mutex
	snap     model.Snapshot
	reads    int
	executed []Request
	fail     map[string]*Failure // step ID -> the failure to report
	changed  map[string]bool     // step ID -> the re-read finds it changed
	block    chan struct{}       // when set, Execute waits on it
}

func newFake() *fakeGitHub {
	return &fakeGitHub{snap: demoSnapshot(), fail: map[string]*Failure{}, changed: map[string]bool{}}
}

func (f *fakeGitHub) deps() Deps {
	return Deps{
		Repo: "acme/benefits",
		Now:  func() time.Time { return t0 },
		Read: func(ctx context.Context, prev *model.Snapshot, since time.Time) (model.Snapshot, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.reads++
			return f.snap, nil
		},
		Execute: func(ctx context.Context, req Request) Outcome {
			if f.block != nil {
				<-f.block
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			f.executed = append(f.executed, req)
			id := req.Step.ID()
			if f.changed[id] {
				return Outcome{Changed: true}
			}
			if fl := f.fail[id]; fl != nil {
				return Outcome{Failure: fl}
			}
			// The write lands: the item leaves the inbox on the next read.
			f.remove(req.Step.Item.Number)
			var wrote []string
			for _, w := range req.Choice.Writes {
				wrote = append(wrote, w.String())
			}
			return Outcome{Done: true, Wrote: wrote}
		},
		Open: func(int) error { return nil },
	}
}

func (f *fakeGitHub) remove(n int) {
	var issues []model.Issue
	for _, is := range f.snap.Issues {
		if is.Number != n {
			issues = append(issues, is)
		}
	}
	f.snap.Issues = issues
	var prs []model.PullRequest
	for _, pr := range f.snap.PullRequests {
		if pr.Number != n && !(n == 9 && pr.Number == 10) && !(n == 11 && pr.Number == 12) {
			prs = append(prs, pr)
		}
	}
	f.snap.PullRequests = prs
}

func (f *fakeGitHub) requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.executed...)
}

var errOffline = errors.New("dial tcp: connection refused")
