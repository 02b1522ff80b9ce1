package gatecomment_test

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestGateRefusesAPullRequestCarryingALocalPack: an agent's git add -A put
// a local pack (.aayudha/proof/3/) into the pull request; the gate's
// comment names the files and the verdict is 4, whatever the gate's own
// pack says, and the commit status it sets is a failure naming them too.
func TestGateRefusesAPullRequestCarryingALocalPack(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	agent := client(t, strings.TrimSuffix(f.bot.BaseURL.String(), "/"), "agent-bot")
	if _, err := ghx.CommitFiles(f.ctx, agent, owner, repo, "story/3-remaining-deductible", map[string][]byte{
		".aayudha/proof/3/pack.json":                            []byte("{}\n"),
		".aayudha/proof/3/artifacts/evidence/criterion-1.jsonl": []byte("{}\n"),
	}, "Add the story's pack", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	code, body, err := gatecomment.Run(f.ctx, gatecomment.Config{Client: f.bot, Owner: owner, Repo: repo, PR: sandbox.DemoPRReady,
		Dir: f.gatePack(sandbox.RunQualifying, nil), SetStatus: true})
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(body), " ")
	if code != gatecomment.ExitRefused || !strings.Contains(flat, "adds files under .aayudha/proof/") ||
		!strings.Contains(flat, "pack.json") || !strings.Contains(flat, "never passes as proof") {
		t.Fatalf("exit %d, want 4 naming the local pack's files:\n%s", code, body)
	}
	st, _, err := f.bot.Repositories.GetCombinedStatus(f.ctx, owner, repo, f.srv.HeadSHA(sandbox.DemoPRReady), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st.Statuses {
		if s.GetContext() == "aayudha/merge-gate" && s.GetState() != "failure" {
			t.Errorf("aayudha/merge-gate is %s on a head carrying a local pack", s.GetState())
		}
	}
}
