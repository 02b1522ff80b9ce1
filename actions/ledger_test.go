package actions

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

// hookOn runs do once, just before the first request match accepts.
type hookOn struct {
	next  http.RoundTripper
	match func(*http.Request) bool
	do    func()
	once  sync.Once
}

func (h *hookOn) RoundTrip(req *http.Request) (*http.Response, error) {
	if h.match(req) {
		h.once.Do(h.do)
	}
	return h.next.RoundTrip(req)
}

func TestInboxSampleAppendSurvivesAMovingLedger(t *testing.T) {
	t.Parallel()
	// Another writer appends a sample between aayu's read of samples.jsonl
	// and its move of the ledger: the move is refused as not a fast
	// forward, aayu reads again and appends to their version.
	var f *fixture
	theirs := `{"pr":99,"merge_commit":"","at":"2026-10-01T00:00:00Z","by":"writer","correction":false}` + "\n"
	hook := &hookOn{match: methodPath(http.MethodPatch, "/git/refs/heads/ledger"), do: func() {
		if _, err := ghx.CommitFiles(context.Background(), f.writer, owner, repo, "ledger",
			map[string][]byte{inbox.SamplesPath: []byte(theirs)}, "ledger: another sample", ghx.CommitOptions{}); err != nil {
			t.Errorf("the other writer: %v", err)
		}
	}}
	f = newFixture(t, func(next http.RoundTripper) http.RoundTripper { hook.next = next; return hook })
	st := f.step(inbox.KindAudit, sandbox.DemoPRAudit)
	out := f.exec.Execute(context.Background(), request(t, st, "1", ""))
	if !out.Done {
		t.Fatalf("outcome %+v %+v", out, out.Failure)
	}
	samples := f.samples()
	if len(samples) != 2 || samples[0].PR != 99 || samples[1].PR != 15 {
		t.Errorf("samples %+v, want theirs and then #15's", samples)
	}
}

func TestRemovingAMissingLabelCountsAsRemoved(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	_, err := f.gh.Issues.RemoveLabelForIssue(context.Background(), owner, repo, 1, "status:never-there")
	if !labelMissing(err) {
		t.Fatalf("GitHub's answer to removing a missing label (%v) is not read as already removed", err)
	}
	_, err = f.gh.Issues.RemoveLabelForIssue(context.Background(), owner, repo, 9999, "status:never-there")
	if err == nil || labelMissing(err) {
		t.Fatalf("a missing issue (%v) was read as a removed label", err)
	}
	r := &run{e: f.exec, req: Request{Step: inbox.Step{Item: inbox.Item{Number: 1}}}}
	was, err := r.apply(context.Background(), inbox.Write{Kind: inbox.WriteRemoveLabel, Number: 1, Label: "aayu:lease"})
	if err != nil || !was {
		t.Fatalf("removing a label #1 does not carry: was %v, %v", was, err)
	}
	if !strings.Contains(r.words(inbox.Write{Kind: inbox.WriteRemoveLabel, Number: 1, Label: "aayu:lease"}, already), "already gone") {
		t.Error("an absent label is not said to be already gone")
	}
}
