package sandbox_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// graphql posts one query as token ("" for none) and decodes the answer.
func graphql(t *testing.T, base, token, query string, vars map[string]any) (int, http.Header, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, base+"/graphql", bytes.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, resp.Header, out
}

func TestGraphQLAnswersInTheShapeOfTheQuery(t *testing.T) {
	t.Parallel()
	// With a bot identity the demo's pull requests are the bot's.
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true, BotIdentity: true})
	q := `query($n: Int!) { repository(owner: "acme", name: "benefits") {
	  pr: pullRequest(number: $n) { number headRefOid author { __typename login }
	    commits(last: 1) { nodes { commit { status { contexts { context state } } } } }
	    comments(first: 2) { totalCount pageInfo { hasNextPage endCursor } nodes { body } } } } }`
	code, h, out := graphql(t, base, "sandbox-founder", q, map[string]any{"n": sandbox.DemoPRReady})
	if code != http.StatusOK || out["errors"] != nil {
		t.Fatalf("status %d, errors %v", code, out["errors"])
	}
	pr := out["data"].(map[string]any)["repository"].(map[string]any)["pr"].(map[string]any)
	keys := []string{}
	for k := range pr {
		keys = append(keys, k)
	}
	if len(pr) != 5 || pr["number"] != float64(sandbox.DemoPRReady) || len(pr["headRefOid"].(string)) != 40 {
		t.Errorf("the answer is not shaped by the query: %v", keys)
	}
	if a := pr["author"].(map[string]any); a["__typename"] != "Bot" || strings.HasSuffix(a["login"].(string), "[bot]") {
		t.Errorf("a GitHub App's login in GraphQL is a Bot without [bot]: %v", a)
	}
	comments := pr["comments"].(map[string]any)
	if n := len(comments["nodes"].([]any)); n > 2 || n == 0 {
		t.Errorf("comments(first: 2) gave %d nodes", n)
	}
	if h.Get("X-RateLimit-Resource") != "graphql" || h.Get("X-RateLimit-Used") != "1" {
		t.Errorf("rate limit headers: resource %q used %q, want graphql 1", h.Get("X-RateLimit-Resource"), h.Get("X-RateLimit-Used"))
	}
}

func TestGraphQLRefusesAQueryGitHubsSchemaRefuses(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	code, h, out := graphql(t, base, "sandbox-founder", `{ repository(owner: "acme", name: "benefits") { pullRequests(first: 1) { nodes { headSha } } } }`, nil)
	errs, _ := out["errors"].([]any)
	if code != http.StatusOK || len(errs) == 0 || out["data"] != nil {
		t.Fatalf("status %d, body %v: want GitHub's 200 with errors and no data", code, out)
	}
	if msg := errs[0].(map[string]any)["message"].(string); !strings.Contains(msg, "headSha") {
		t.Errorf("the refusal does not name the field: %q", msg)
	}
	if h.Get("X-RateLimit-Used") != "0" {
		t.Errorf("a query that does not validate cost %s points", h.Get("X-RateLimit-Used"))
	}
}

func TestGraphQLRefusesAConnectionWithoutFirstOrLast(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	_, _, out := graphql(t, base, "sandbox-founder", `{ repository(owner: "acme", name: "benefits") { pullRequests { totalCount } } }`, nil)
	errs, _ := out["errors"].([]any)
	if len(errs) == 0 || !strings.Contains(errs[0].(map[string]any)["message"].(string), "first") {
		t.Fatalf("want GitHub's refusal to paginate without first or last, got %v", out)
	}
}

func TestGraphQLRefusesAnAnonymousCaller(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	code, _, _ := graphql(t, base, "", `{ viewer { login } }`, nil)
	if code != http.StatusUnauthorized {
		t.Fatalf("anonymous GraphQL: status %d, want 401", code)
	}
}

func TestGraphQLPointsAreNotTheRESTLimit(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	q := `{ repository(owner: "acme", name: "benefits") { pullRequests(first: 100) { nodes { number comments(last: 100) { totalCount } } } } rateLimit { cost } }`
	_, _, out := graphql(t, base, "sandbox-founder", q, nil)
	cost := out["data"].(map[string]any)["rateLimit"].(map[string]any)["cost"].(float64)
	if cost != 1 {
		t.Errorf("a page of 100 with 100 comments each is 101 requests, 1 point on GitHub; the sandbox says %v", cost)
	}
	c := client(t, base, "sandbox-founder")
	limits, _, err := c.RateLimit.Get(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	gqlUsed, coreUsed := limits.GraphQL.Limit-limits.GraphQL.Remaining, limits.Core.Limit-limits.Core.Remaining
	if gqlUsed != 1 || coreUsed != 0 {
		t.Errorf("GraphQL used %d, core used %d: want 1 and 0", gqlUsed, coreUsed)
	}
}

// TestGraphQLAnswersDataWithAForbiddenField: a reader asking for the
// repository's collaborators gets GitHub's partial answer: the rest of the
// data, the field null, and a FORBIDDEN error whose path names it.
func TestGraphQLAnswersDataWithAForbiddenField(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	q := `{ repository(owner: "acme", name: "benefits") { nameWithOwner collaborators(first: 10) { totalCount } } }`
	code, _, out := graphql(t, base, "sandbox-reader", q, nil)
	errs, _ := out["errors"].([]any)
	data, _ := out["data"].(map[string]any)
	repo, _ := data["repository"].(map[string]any)
	if code != http.StatusOK || len(errs) != 1 || repo == nil || repo["nameWithOwner"] != "acme/benefits" || repo["collaborators"] != nil {
		t.Fatalf("status %d, body %v: want the data with collaborators null and one error", code, out)
	}
	e := errs[0].(map[string]any)
	path, _ := e["path"].([]any)
	if e["type"] != "FORBIDDEN" || len(path) != 2 || path[0] != "repository" || path[1] != "collaborators" ||
		!strings.Contains(e["message"].(string), "push access") {
		t.Errorf("the error: %v", e)
	}
}
