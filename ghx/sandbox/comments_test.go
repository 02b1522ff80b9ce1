package sandbox_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// ticking is a clock that moves one second each time it is read, so an
// edit is always later than what it edits.
func ticking() func() time.Time {
	var n atomic.Int64
	return func() time.Time { return demoNow.Add(time.Duration(n.Add(1)) * time.Second) }
}

// TestUpdateComment: the author or a write collaborator edits a comment in
// place; a reader gets 403, an unknown id 404, an empty body 422; an edit
// moves updated_at and the comments list's ETag.
func TestUpdateComment(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true, Now: ticking()})
	ctx := context.Background()
	founder := client(t, base, "sandbox-founder")
	writer := client(t, base, "sandbox-writer")
	reader := client(t, base, "sandbox-reader")
	const pr = sandbox.DemoPRReady

	gate, _, err := founder.Issues.CreateComment(ctx, "acme", "benefits", pr, &github.IssueComment{Body: github.String("first verdict")})
	if err != nil {
		t.Fatalf("founder's comment: %v", err)
	}
	own, _, err := reader.Issues.CreateComment(ctx, "acme", "benefits", pr, &github.IssueComment{Body: github.String("a reader's note")})
	if err != nil {
		t.Fatalf("reader's comment: %v", err)
	}
	listURL := base + "/repos/acme/benefits/issues/4/comments"
	etagBefore := get(t, listURL, "token sandbox-founder", nil).Header.Get("ETag")

	cases := []struct {
		name   string
		gh     *github.Client
		id     int64
		body   string
		status int // 0: the edit succeeds
	}{
		{"the author edits", founder, gate.GetID(), "second verdict", 0},
		{"a write collaborator edits another's", writer, gate.GetID(), "third verdict", 0},
		{"a reader edits their own", reader, own.GetID(), "a reader's corrected note", 0},
		{"a reader edits another's", reader, gate.GetID(), "planted verdict", 403},
		{"an unknown id", founder, own.GetID() + 1000, "anything", 404},
		{"an empty body", founder, gate.GetID(), "", 422},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			edited, _, err := c.gh.Issues.EditComment(ctx, "acme", "benefits", c.id, &github.IssueComment{Body: github.String(c.body)})
			if c.status != 0 {
				if statusOf(err) != c.status {
					t.Fatalf("got %v, want %d", err, c.status)
				}
				return
			}
			if err != nil {
				t.Fatalf("edit: %v", err)
			}
			if edited.GetID() != c.id || edited.GetBody() != c.body || !edited.GetUpdatedAt().After(edited.GetCreatedAt().Time) {
				t.Errorf("edited comment: id %d body %q created %v updated %v", edited.GetID(), edited.GetBody(), edited.GetCreatedAt(), edited.GetUpdatedAt())
			}
		})
	}

	list, _, err := founder.Issues.ListComments(ctx, "acme", "benefits", pr, nil)
	if err != nil {
		t.Fatal(err)
	}
	bodies := map[int64]string{}
	for _, c := range list {
		bodies[c.GetID()] = c.GetBody()
	}
	if bodies[gate.GetID()] != "third verdict" || bodies[own.GetID()] != "a reader's corrected note" {
		t.Errorf("the list does not show the edits in place: %v", bodies)
	}
	if len(list) != 3 {
		t.Errorf("edits must not add comments: %d comments, want 3", len(list))
	}
	if after := get(t, listURL, "token sandbox-founder", map[string]string{"If-None-Match": etagBefore}); after.StatusCode != 200 {
		t.Errorf("the comments list answered %d to the ETag from before the edits, want 200", after.StatusCode)
	}
}
