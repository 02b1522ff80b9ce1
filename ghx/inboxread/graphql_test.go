package inboxread_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/model/inbox"
)

func TestPullFactsQueryIsValidAgainstGitHubsSchema(t *testing.T) {
	if err := sandbox.ValidateGraphQL(inboxread.PullFactsQuery); err != nil {
		t.Fatalf("GitHub would refuse the query: %v", err)
	}
}

// The batched read must see exactly what the per-item REST read sees.
func TestGraphQLPagesReadTheSameFactsAsRESTOneByOne(t *testing.T) {
	_, _, base := conformance.StartSandbox(t, sandbox.Options{Scale: 120})
	// A review on the pull request waiting at the human rung: reviews are
	// read only while inspect is pending.
	if _, _, err := writer(t, base).PullRequests.CreateReview(context.Background(), owner, repo, sandbox.DemoPRReview,
		&github.PullRequestReviewRequest{Event: github.String("COMMENT"), Body: github.String("Looked at it.")}); err != nil {
		t.Fatal(err)
	}
	batched := newProcess(t, base, t.TempDir())
	w := &wire{next: http.DefaultTransport}
	perItem := inboxread.New(clientFor(t, base, "founder", w), owner, repo, inboxread.Options{PerItem: true})

	got := read(t, batched.reader)
	want := read(t, perItem)
	g, _ := json.Marshal(got.PRFacts)
	h, _ := json.Marshal(want.PRFacts)
	if !bytes.Equal(g, h) {
		t.Errorf("the GraphQL pages read other facts than REST:\n graphql %s\n rest    %s", g, h)
	}
	comments, reviews, statuses := 0, 0, 0
	for _, f := range got.PRFacts {
		comments, reviews, statuses = comments+len(f.Comments), reviews+len(f.Reviews), statuses+len(f.Statuses)
	}
	if comments == 0 || reviews == 0 || statuses == 0 {
		t.Errorf("the comparison holds no comments (%d), reviews (%d) or statuses (%d): it tests nothing", comments, reviews, statuses)
	}
	if len(inbox.Derive(got)) != len(inbox.Derive(want)) {
		t.Errorf("%d cards from GraphQL pages, %d from REST", len(inbox.Derive(got)), len(inbox.Derive(want)))
	}
	gotN, _, paths := batched.wire.take()
	wantN, _, _ := w.take()
	if byEndpoint(paths)["POST /graphql"] == 0 {
		t.Fatalf("the read sent no GraphQL query: %v", byEndpoint(paths))
	}
	if gotN*3 > wantN {
		t.Errorf("the batched read cost %d requests, REST one by one %d: it should be a fraction", gotN, wantN)
	}
	t.Logf("requests: %d batched, %d one by one", gotN, wantN)
}
