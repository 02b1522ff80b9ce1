package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// demoIdentity is what one seeding of the demo says about who agents are.
type demoIdentity struct {
	config       string // dev's .aayudha/config.toml
	authors      []string
	commitMsg    string // PR 4's head commit message
	commitAuthor string
	body         string // PR 4's body
	packIdentity string // story 3's advisory pack's identity
	packWriter   string
	ledgerMsg    string // the agent's last ledger commit
}

func readDemoIdentity(t *testing.T, opts sandbox.Options) demoIdentity {
	t.Helper()
	s, _, base := startValidated(t, opts)
	gh := client(t, base, "sandbox-reader")
	ctx := context.Background()
	var out demoIdentity
	fc, _, _, err := gh.Repositories.GetContents(ctx, "acme", "benefits", ".aayudha/config.toml", &github.RepositoryContentGetOptions{Ref: "dev"})
	if err != nil {
		t.Fatal(err)
	}
	out.config, _ = fc.GetContent()
	for _, n := range []int{sandbox.DemoPRReady, sandbox.DemoPRReview, sandbox.DemoPRStopped, sandbox.DemoPRAudit} {
		pr, _, err := gh.PullRequests.Get(ctx, "acme", "benefits", n)
		if err != nil {
			t.Fatal(err)
		}
		out.authors = append(out.authors, pr.GetUser().GetLogin())
		if n == sandbox.DemoPRReady {
			out.body = pr.GetBody()
		}
	}
	c, _, err := gh.Git.GetCommit(ctx, "acme", "benefits", s.HeadSHA(sandbox.DemoPRReady))
	if err != nil {
		t.Fatal(err)
	}
	out.commitMsg, out.commitAuthor = c.GetMessage(), c.GetAuthor().GetName()
	path := fmt.Sprintf("proof/3/%s/advisory/pack.json", s.HeadSHA(sandbox.DemoPRReady))
	fc, _, _, err = gh.Repositories.GetContents(ctx, "acme", "benefits", path, &github.RepositoryContentGetOptions{Ref: "ledger"})
	if err != nil {
		t.Fatal(err)
	}
	text, _ := fc.GetContent()
	var pack struct {
		Identity  string `json:"identity"`
		Authority struct {
			Writer string `json:"writer"`
		} `json:"authority"`
	}
	if err := json.Unmarshal([]byte(text), &pack); err != nil {
		t.Fatal(err)
	}
	out.packIdentity, out.packWriter = pack.Identity, pack.Authority.Writer
	// The ledger's newest commits are the founder's Ready snapshots (the
	// Bugs', then Story 19's); below them is the agent's last write there,
	// story 7's advisory pack.
	tip, _, err := gh.Git.GetCommit(ctx, "acme", "benefits", s.BranchSHA("ledger"))
	for err == nil && strings.HasPrefix(tip.GetMessage(), "ledger: Ready snapshot") && len(tip.Parents) == 1 {
		tip, _, err = gh.Git.GetCommit(ctx, "acme", "benefits", tip.Parents[0].GetSHA())
	}
	if err != nil || !strings.HasPrefix(tip.GetMessage(), "ledger: advisory pack for story 7") {
		t.Fatalf("the ledger's newest commit below the Ready snapshots is not the agent's advisory pack: %q, %v", tip.GetMessage(), err)
	}
	out.ledgerMsg = tip.GetMessage()
	return out
}

// TestSoloDemoAgentsWriteAsTheFounderTaggedHumanFallback is seed 001's
// case with no bot identity: the config has no [identity] table, so agents
// write under the founder's token and every write says so; the founder is
// then the author of every agent pull request and cannot review it.
func TestSoloDemoAgentsWriteAsTheFounderTaggedHumanFallback(t *testing.T) {
	t.Parallel()
	got := readDemoIdentity(t, sandbox.Options{ShareSeed: true})
	if !strings.Contains(got.config, sandbox.SoloConfigLine) || strings.Contains(got.config, "\n[identity]") {
		t.Errorf("the solo demo's config sets a bot identity:\n%s", got.config)
	}
	for i, a := range got.authors {
		if a != "founder" {
			t.Errorf("agent pull request %d is authored by %s, want founder (agents use the founder's token in solo mode)", i, a)
		}
	}
	for what, text := range map[string]string{"commit": got.commitMsg, "PR body": got.body, "ledger commit": got.ledgerMsg} {
		if !strings.HasSuffix(strings.TrimSpace(text), sandbox.HumanFallbackTrailer) {
			t.Errorf("the agent's %s does not end with %q:\n%s", what, sandbox.HumanFallbackTrailer, text)
		}
	}
	if got.commitAuthor != "Demo Founder" || got.packIdentity != "human-fallback" || got.packWriter != "founder (aayu proof push)" {
		t.Errorf("agent writes are not the founder's under human-fallback: commit by %q, pack identity %q by %q", got.commitAuthor, got.packIdentity, got.packWriter)
	}
}

// TestBotDemoAgentsWriteAsTheBotUntagged is the other case: a bot identity
// in [identity], agents write as agent-bot[bot], and nothing carries the
// human-fallback trailer.
func TestBotDemoAgentsWriteAsTheBotUntagged(t *testing.T) {
	t.Parallel()
	got := readDemoIdentity(t, sandbox.Options{ShareSeed: true, BotIdentity: true})
	if !strings.Contains(got.config, sandbox.BotIdentityTable) || strings.Contains(got.config, sandbox.SoloConfigLine) {
		t.Errorf("the bot demo's config has no bot identity:\n%s", got.config)
	}
	for i, a := range got.authors {
		if a != sandbox.BotLogin {
			t.Errorf("agent pull request %d is authored by %s, want %s", i, a, sandbox.BotLogin)
		}
	}
	for what, text := range map[string]string{"commit": got.commitMsg, "PR body": got.body, "ledger commit": got.ledgerMsg} {
		if strings.Contains(text, "human-fallback") {
			t.Errorf("the bot's %s carries the human-fallback trailer:\n%s", what, text)
		}
	}
	if got.packIdentity != "bot" || got.packWriter != sandbox.BotLogin+" (aayu proof push)" {
		t.Errorf("advisory pack identity %q by %q, want bot by %s", got.packIdentity, got.packWriter, sandbox.BotLogin)
	}
}
