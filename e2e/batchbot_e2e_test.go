package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestBatchPostedWithTheBrokersTokenNotThePersons: an agent lane with no
// AAYU_BOT_TOKEN, on a repository whose [identity] names the App and its
// broker, posts the batch with the App's token the broker mints
// (Resolver.Bot), so the comment's author is the bot, never the person
// whose token only dispatched the broker.
func TestBatchPostedWithTheBrokersTokenNotThePersons(t *testing.T) {
	t.Parallel()
	_, url, _ := runnerSandbox(t, sandbox.Options{BotApp: true, BotIdentity: true, Device: &sandbox.DeviceOptions{Interval: 0, Expiry: 5 * 60e9}})
	vars := map[string]string{"HOME": t.TempDir(), "CLAUDECODE": "1", "AAYU_GITHUB_TOKEN": sandbox.TokenPrefix + "founder"}
	at := []string{"--api-url", url + "/", "--oauth-url", url, "--repo", "acme/benefits", "--plain",
		"--set", "identity.app_slug=" + sandbox.BotAppSlug, "--set", "identity.broker=aayudha-token.yml"}
	a := startAayu(t, vars, append(at, "decide", "1", "--accept", "1")...)
	m := a.waitFor(`Batch ([0-9a-f]{12}): 1 human-only step for @founder, posted as @(\S+) on #1|aayu decide: .*`)
	if len(m) < 3 || m[1] == "" {
		t.Fatalf("no batch:\n%s", a.out.String())
	}
	if m[2] != sandbox.BotAppSlug+"[bot]" {
		t.Errorf("the batch was posted as @%s, want the App %s[bot]", m[2], sandbox.BotAppSlug)
	}
	cs, _, err := clientAt(t, url, "founder").Issues.ListComments(context.Background(), "acme", "benefits", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if approve.MarkerIn(c.GetBody()) == m[1] && !strings.EqualFold(c.GetUser().GetLogin(), sandbox.BotAppSlug+"[bot]") {
			t.Errorf("the batch comment's author is @%s, want the App", c.GetUser().GetLogin())
		}
	}
	if strings.Contains(a.out.String(), "ghs_") {
		t.Errorf("a token reached the output:\n%s", a.out.String())
	}
}
