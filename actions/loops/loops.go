// Package loops is `aayu loops --ci`: what CI, as the bot App, computes and
// writes on a schedule (seed 001). It recomputes each layer's
// correction-free streak from the ledger's audit samples by ship's own
// rule (ship.CountStreaks) and lands it on the ledger as the bot. It takes
// no human-only step: it merges, approves and promotes nothing.
package loops

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/ghx"
)

// StreaksPath is where the loops land the streaks on the ledger.
const StreaksPath = "autonomy/streaks.json"

// Streaks is autonomy/streaks.json: each layer's correction-free streak,
// the samples it was counted from (their count and the file's sha256), and
// who counted it when.
type Streaks struct {
	Layers        map[string]int `json:"layers"`
	Samples       int            `json:"samples"`
	SamplesSHA256 string         `json:"samples_sha256"`
	ComputedAt    string         `json:"computed_at"`
	By            string         `json:"by"`
}

// Result is what one run of the loops did.
type Result struct {
	Streaks Streaks
	// Commit is the ledger commit that landed the streaks; "" when the
	// ledger already held the same streaks from the same samples.
	Commit string
}

// Run recomputes the streaks from the ledger's samples and lands them as
// by (the bot) when they differ from what the ledger holds.
func Run(ctx context.Context, c *github.Client, owner, repo, by string, now time.Time) (Result, error) {
	samples, err := ghx.ReadFile(ctx, c, owner, repo, ship.LedgerBranch, ship.SamplesPath)
	if err != nil && !ghx.IsNotFound(err) {
		return Result{}, fmt.Errorf("reading %s on the ledger: %s", ship.SamplesPath, ghx.Describe(err))
	}
	// The bot logins ship judges a sample's author by: the default
	// branch's policy, never the checkout's or this machine's config.
	r, _, err := c.Repositories.Get(ctx, owner, repo)
	if err != nil {
		return Result{}, fmt.Errorf("reading %s/%s: %s", owner, repo, ghx.Describe(err))
	}
	pol, err := ghx.ReadBasePolicy(ctx, c, owner, repo, r.GetDefaultBranch())
	if err != nil {
		return Result{}, err
	}
	sum := sha256.Sum256(samples)
	st := Streaks{Layers: ship.CountStreaks(samples, pol.Identity().BotLogins), Samples: bytes.Count(samples, []byte("\n")), SamplesSHA256: hex.EncodeToString(sum[:]),
		ComputedAt: now.UTC().Format(time.RFC3339), By: by}
	if len(samples) > 0 && samples[len(samples)-1] != '\n' {
		st.Samples++
	}
	res := Result{Streaks: st}
	old, err := ghx.ReadFile(ctx, c, owner, repo, ship.LedgerBranch, StreaksPath)
	switch {
	case err == nil:
		var prev Streaks
		if json.Unmarshal(old, &prev) == nil && prev.SamplesSHA256 == st.SamplesSHA256 && maps.Equal(prev.Layers, st.Layers) {
			return res, nil
		}
	case !ghx.IsNotFound(err):
		return res, fmt.Errorf("reading %s on the ledger: %s", StreaksPath, ghx.Describe(err))
	}
	body, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return res, fmt.Errorf("encoding the streaks: %w", err)
	}
	sha, err := ghx.CommitFiles(ctx, c, owner, repo, ship.LedgerBranch, map[string][]byte{StreaksPath: append(body, '\n')},
		fmt.Sprintf("ledger: streaks recomputed from %d samples (aayu loops, as %s)", st.Samples, by), ghx.CommitOptions{})
	if err != nil {
		return res, fmt.Errorf("writing %s on the ledger: %s", StreaksPath, ghx.Describe(err))
	}
	res.Commit = sha
	return res, nil
}
