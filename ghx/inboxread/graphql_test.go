package inboxread_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/model/inbox"
)

func TestPullFactsQueryIsValidAgainstGitHubsSchema(t *testing.T) {
	t.Parallel()
	if err := sandbox.ValidateGraphQL(inboxread.PullFactsQuery); err != nil {
		t.Fatalf("GitHub would refuse the query: %v", err)
	}
}

// The batched read must see exactly what the per-item REST read sees.
func TestGraphQLPagesReadTheSameFactsAsRESTOneByOne(t *testing.T) {
	t.Parallel()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{ShareSeed: true, Scale: 120})
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
	g, _ = json.Marshal(got.PullRequests)
	h, _ = json.Marshal(want.PullRequests)
	if !bytes.Equal(g, h) {
		t.Errorf("the GraphQL pages read other pull requests than REST:\n graphql %s\n rest    %s", g, h)
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

// A GitHub whose GraphQL API fails still gets its inbox read, through REST.
func TestReadFallsBackToRESTWhenGraphQLFails(t *testing.T) {
	t.Parallel()
	failGraphQL := func(r *http.Request) sandbox.Fault {
		if r.URL.Path == "/graphql" {
			return sandbox.FaultUnavailable
		}
		return sandbox.NoFault
	}
	_, _, base := conformance.StartSandbox(t, sandbox.Options{ShareSeed: true, FaultPlan: failGraphQL})
	var (
		mu     sync.Mutex
		logged []string
	)
	reader := inboxread.New(clientFor(t, base, "founder", nil), owner, repo, inboxread.Options{
		Logf: func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			logged = append(logged, fmt.Sprintf(format, args...))
		}})
	got := read(t, reader)
	want := read(t, inboxread.New(clientFor(t, base, "founder", nil), owner, repo, inboxread.Options{PerItem: true}))
	g, _ := json.Marshal(withoutReadTimes(got))
	h, _ := json.Marshal(withoutReadTimes(want))
	if !bytes.Equal(g, h) {
		t.Errorf("without GraphQL the read differs from REST's:\n got  %s\n want %s", g, h)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(strings.Join(logged, "\n"), "GraphQL failed") {
		t.Errorf("the fallback was not said: %q", logged)
	}
}
