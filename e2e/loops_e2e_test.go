package e2e

import (
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions/loops"
	"github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/tui"
)

// demoSamples are audit samples as the inbox's audit card appends them
// for the demo's merges on proof: clean ones, a correction that resets the
// layers it touched, and a rung-C merge and the person's own PR, which
// never count.
const demoSamples = `{"pr":15,"merge_commit":"m15","at":"2026-11-01T10:00:00Z","by":"founder","correction":false,"layers":["L05"],"rung":"A","author":"agent-bot[bot]"}
{"pr":21,"merge_commit":"m21","at":"2026-11-02T10:00:00Z","by":"founder","correction":false,"layers":["L05","L06"],"rung":"B","author":"agent-bot[bot]"}
{"pr":22,"merge_commit":"m22","at":"2026-11-03T10:00:00Z","by":"founder","correction":true,"layers":["L06"],"rung":"A","author":"agent-bot[bot]"}
{"pr":23,"merge_commit":"m23","at":"2026-11-04T10:00:00Z","by":"founder","correction":false,"layers":["L05"],"rung":"A","author":"agent-bot[bot]"}
{"pr":24,"merge_commit":"m24","at":"2026-11-05T10:00:00Z","by":"founder","correction":false,"layers":["L05"],"rung":"C","author":"agent-bot[bot]"}
{"pr":25,"merge_commit":"m25","at":"2026-11-06T10:00:00Z","by":"founder","correction":false,"layers":["L05"],"rung":"A","author":"founder"}
`

// TestLoopsStreakMatchesShipsOnTheDemosSamples: aayu loops --ci, as the
// bot App, lands on the ledger exactly the streaks ship's own rule counts
// from the demo's samples, and writes nothing when they have not changed.
func TestLoopsStreakMatchesShipsOnTheDemosSamples(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	c := sandboxAs(t, home, "founder")
	ctx := context.Background()
	if _, err := ghx.CommitFiles(ctx, c, "acme", "benefits", "ledger", map[string][]byte{ship.SamplesPath: []byte(demoSamples)}, "ledger: audit samples", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	closeSandboxes(t)
	vars := map[string]string{"HOME": home, "AAYU_AGENT": "1", "AAYU_BOT_TOKEN": "sandbox-agent-bot"}
	code, out, errOut := runAayuEnv(t, vars, "--sandbox", "--ci", "loops")
	if code != tui.ExitOK || !strings.Contains(out, "wrote autonomy/streaks.json") || !strings.Contains(out, "as agent-bot[bot]") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	c = sandboxState(t, home)
	b, err := ghx.ReadFile(ctx, c, "acme", "benefits", "ledger", loops.StreaksPath)
	if err != nil {
		t.Fatal(err)
	}
	var got loops.Streaks
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	samples, err := ghx.ReadFile(ctx, c, "acme", "benefits", "ledger", ship.SamplesPath)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := ghx.ReadBasePolicy(ctx, c, "acme", "benefits", "dev")
	if err != nil {
		t.Fatal(err)
	}
	want := ship.CountStreaks(samples, pol.Identity().BotLogins)
	if !maps.Equal(got.Layers, want) || got.Layers["L05"] != 3 || got.Layers["L06"] != 0 || got.Samples != 6 || got.By != "agent-bot[bot]" {
		t.Errorf("the loops landed %+v; ship's rule counts %v", got, want)
	}
	// The ledger's tip is the loops' commit, made as the bot.
	tip, _, err := c.Git.GetRef(ctx, "acme", "benefits", "heads/ledger")
	if err != nil {
		t.Fatal(err)
	}
	cm, _, err := c.Repositories.GetCommit(ctx, "acme", "benefits", tip.GetObject().GetSHA(), nil)
	if err != nil || cm.GetAuthor().GetLogin() != "agent-bot[bot]" || !strings.Contains(cm.GetCommit().GetMessage(), "streaks recomputed") {
		t.Errorf("the ledger's tip is not the bot's streaks commit (%v)", err)
	}
	closeSandboxes(t)
	code, out, _ = runAayuEnv(t, vars, "--sandbox", "--ci", "loops")
	if code != tui.ExitOK || !strings.Contains(out, "nothing written") {
		t.Errorf("a second run with the same samples: exit %d:\n%s", code, out)
	}
}

// TestLoopsRefusesWithoutTheApp: the loops write only as the bot App, and
// only in CI; a person's run or a run without the App's token writes
// nothing.
func TestLoopsRefusesWithoutTheApp(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	code, _, errOut := runAayuEnv(t, map[string]string{"HOME": home}, "--sandbox", "--ci", "loops")
	if code != tui.ExitRefused || !strings.Contains(errOut, "no App token in AAYU_BOT_TOKEN") {
		t.Errorf("without the App: exit %d: %s", code, errOut)
	}
	code, _, errOut = runAayuEnv(t, map[string]string{"HOME": home, "AAYU_BOT_TOKEN": "sandbox-agent-bot"}, "--sandbox", "loops")
	if code != tui.ExitRefused || !strings.Contains(errOut, "the loops run in CI as the bot App") {
		t.Errorf("without --ci: exit %d: %s", code, errOut)
	}
	c := sandboxState(t, home)
	if _, err := ghx.ReadFile(context.Background(), c, "acme", "benefits", "ledger", loops.StreaksPath); !ghx.IsNotFound(err) {
		t.Errorf("a refused loop wrote the streaks: %v", err)
	}
}
