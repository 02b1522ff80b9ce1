package sandbox_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestGraphQLTakesOneKeyOfTwoTypesFromExclusiveFragments: GitHub answers
// `state` asked on both `...on Issue` and `...on PullRequest` (IssueState!
// and PullRequestState!), as gh issue view asks it, so the sandbox does;
// one key for two different fields of the same type is still refused.
func TestGraphQLTakesOneKeyOfTwoTypesFromExclusiveFragments(t *testing.T) {
	t.Parallel()
	_, _, base := startValidated(t, sandbox.Options{ShareSeed: true})
	q := `query($n: Int!) { repository(owner: "acme", name: "benefits") {
	  item: issueOrPullRequest(number: $n) { __typename ...on Issue { state } ...on PullRequest { state } } } }`
	for n, want := range map[int]string{sandbox.DemoStoryReady: "Issue OPEN", sandbox.DemoPRAudit: "PullRequest MERGED"} {
		code, _, out := graphql(t, base, "sandbox-founder", q, map[string]any{"n": n})
		if code != http.StatusOK || out["errors"] != nil {
			t.Fatalf("#%d: status %d, errors %v", n, code, out["errors"])
		}
		item := out["data"].(map[string]any)["repository"].(map[string]any)["item"].(map[string]any)
		if got := fmt.Sprint(item["__typename"], " ", item["state"]); got != want {
			t.Errorf("#%d: %s, want %s", n, got, want)
		}
	}

	_, _, out := graphql(t, base, "sandbox-founder", `{ viewer { x: login x: databaseId } }`, nil)
	if !strings.Contains(fmt.Sprint(out["errors"]), "different fields") || out["data"] != nil {
		t.Errorf("one key for login and databaseId: %v", out)
	}
}
