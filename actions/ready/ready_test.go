package ready_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/ready"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/proof"
)

func founder(t *testing.T) *github.Client {
	t.Helper()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{})
	c := github.NewClient(nil).WithAuthToken("sandbox-founder")
	c.BaseURL, _ = url.Parse(base + "/")
	return c
}

func openStory(t *testing.T, gh *github.Client, repo, title, body string, labels ...string) int {
	t.Helper()
	is, _, err := gh.Issues.Create(context.Background(), "acme", repo, &github.IssueRequest{Title: &title, Body: &body, Labels: &labels})
	if err != nil {
		t.Fatal(err)
	}
	return is.GetNumber()
}

var frozenAt = func() time.Time { return time.Date(2026, 10, 12, 7, 30, 0, 0, time.UTC) }

// TestReadyOnAFreshRepositoryStartsTheLedger: on a repository that aayu
// init just set up (no ledger branch yet), the snapshot starts the ledger,
// reads back self-consistent, and a second Apply writes no second commit.
func TestReadyOnAFreshRepositoryStartsTheLedger(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gh := founder(t)
	story := openStory(t, gh, "fresh", "First story", "## Completion Goal\n1. It works\n2. It is tested\n", "type:story")
	o := ready.Options{Client: gh, Owner: "acme", Repo: "fresh", Story: story, Now: frozenAt}
	p, err := ready.Read(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ready.Apply(ctx, gh, p, nil)
	if err != nil || res.Commit == "" || !res.Labelled {
		t.Fatalf("apply: %v, %+v", err, res)
	}
	b, err := ghx.ReadFile(ctx, gh, "acme", "fresh", ready.LedgerBranch, ready.Path(story))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(p.Snapshot) {
		t.Errorf("the ledger holds\n%s\nnot the snapshot shown\n%s", b, p.Snapshot)
	}
	if _, err := ready.Apply(ctx, gh, p, nil); err != nil {
		t.Fatalf("a second apply: %v", err)
	}
	ref, _, err := gh.Git.GetRef(ctx, "acme", "fresh", "heads/"+ready.LedgerBranch)
	if err != nil || ref.GetObject().GetSHA() != res.Commit {
		t.Errorf("a second apply moved the ledger (%v)", err)
	}
	again, err := ready.Read(ctx, o)
	if err != nil || !again.Same || len(again.Writes()) != 0 {
		t.Errorf("read after the freeze: %v, same %v, writes %v", err, again.Same, again.Writes())
	}
}

// TestReadyWritesUntrustedTextAsNeutralLines: escape sequences, bidi
// overrides and carriage returns in the issue's title and criteria reach
// neither the plan nor ready.md raw, and the snapshot still reads back.
func TestReadyWritesUntrustedTextAsNeutralLines(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gh := founder(t)
	story := openStory(t, gh, "benefits", "evil \x1b]52;c;aGk=\x07 title",
		"## Completion Goal\n1. red \x1b[31mtext\x1b[0m \u202eflipped\n2. carriage\rreturn\n", "type:story")
	p, err := ready.Read(ctx, ready.Options{Client: gh, Owner: "acme", Repo: "benefits", Story: story, Now: frozenAt})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append([]string{p.Title, string(p.Snapshot)}, p.Criteria...) {
		if strings.ContainsAny(s, "\x1b\x07\r\u202e") {
			t.Errorf("untrusted text kept a control character: %q", s)
		}
	}
	r, err := proof.ParseReady(p.Snapshot)
	if err != nil || !r.SelfConsistent() || len(r.Criteria) != 2 || r.RecordedHash != p.Hash {
		t.Fatalf("the snapshot does not read back: %v %+v\n%s", err, r, p.Snapshot)
	}
}

// TestReadyRefusesWhatIsNotAStory: a pull request and an issue without
// type:story or type:bug are refused, and a Bug is frozen like a Story.
func TestReadyRefusesWhatIsNotAStory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gh := founder(t)
	decision := openStory(t, gh, "benefits", "A decision", "## Completion Goal\n1. a\n", "type:decision")
	_, err := ready.Read(ctx, ready.Options{Client: gh, Owner: "acme", Repo: "benefits", Story: decision})
	var refusal *ready.Refusal
	if !errors.As(err, &refusal) || !strings.Contains(refusal.Reason, "not a Story") {
		t.Errorf("a decision: %v", err)
	}
	if _, err := ready.Read(ctx, ready.Options{Client: gh, Owner: "acme", Repo: "benefits", Story: 4}); !errors.As(err, &refusal) || !strings.Contains(refusal.Reason, "is a pull request") {
		t.Errorf("pull request #4: %v", err)
	}
	bug := openStory(t, gh, "benefits", "A bug", "## Completion Goal\n1. fixed\n", "type:bug")
	p, err := ready.Read(ctx, ready.Options{Client: gh, Owner: "acme", Repo: "benefits", Story: bug})
	if err != nil || p.Kind != "Bug" {
		t.Errorf("a bug: %v, kind %q", err, p.Kind)
	}
}

// TestReadyRefusesASnapshotThatChangedWhileDeciding: a snapshot someone
// else landed between the read and the yes is neither overwritten nor
// labelled over; the person is told to run aayu ready again.
func TestReadyRefusesASnapshotThatChangedWhileDeciding(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gh := founder(t)
	story := openStory(t, gh, "fresh", "First story", "## Completion Goal\n1. It works\n", "type:story")
	p, err := ready.Read(ctx, ready.Options{Client: gh, Owner: "acme", Repo: "fresh", Story: story, Now: frozenAt})
	if err != nil {
		t.Fatal(err)
	}
	other := proof.RenderReady(story, "First story", frozenAt(), []string{"Something else"})
	theirs, err := ghx.CommitFiles(ctx, gh, "acme", "fresh", ready.LedgerBranch, map[string][]byte{ready.Path(story): other}, "another freeze", ghx.CommitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ready.Apply(ctx, gh, p, nil)
	if err == nil || !strings.Contains(err.Error(), "changed on the ledger while you decided") {
		t.Fatalf("apply over a newer snapshot: %v", err)
	}
	ref, _, err := gh.Git.GetRef(ctx, "acme", "fresh", "heads/"+ready.LedgerBranch)
	if err != nil || ref.GetObject().GetSHA() != theirs {
		t.Errorf("the ledger moved past the other freeze (%v)", err)
	}
	is, _, err := gh.Issues.Get(ctx, "acme", "fresh", story)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range is.Labels {
		if l.GetName() == ready.StatusReady {
			t.Errorf("the refused apply labelled the Story %s", ready.StatusReady)
		}
	}
}
