// Package loops is `aayu loops --ci`: what CI, as the bot App, computes and
// writes on a schedule (seed 001). It recomputes each layer's
// correction-free streak from the ledger's audit samples by ship's own
// rule (ship.CountStreaks), lists the housekeeping the inbox shows for
// merges into the integration branch (a Story merged without ship, a Bug
// whose fix merged) by the inbox's own rule (inbox.Derive), and lands both
// on the ledger as the bot. Ship makes no write for either kind, so the
// loops make none on the issues: they record and report. They take no
// human-only step: they merge, approve, close, label and promote nothing.
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
	// Housekeeping is what waits for the inbox's housekeeping now.
	Housekeeping []HousekeepingItem
	// Commit is the ledger commit that landed what changed; "" when the
	// ledger already held the same streaks from the same samples and the
	// same housekeeping.
	Commit string
	// Wrote names the ledger files that commit changed.
	Wrote []string
}

// Run recomputes the streaks from the ledger's samples and lists the
// housekeeping the inbox shows for merges into the integration branch, and
// lands, as by (the bot) and in one ledger commit, each of the two files
// whose content differs from what the ledger holds. It writes nothing
// else: the housekeeping's own writes (a Story marked merged, a Bug
// closed) stay the inbox's, made by the person who chooses them.
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
	items, err := housekeepingItems(ctx, c, owner, repo, by)
	if err != nil {
		return Result{}, err
	}
	res := Result{Streaks: st, Housekeeping: items}
	files := map[string][]byte{}
	old, err := ghx.ReadFile(ctx, c, owner, repo, ship.LedgerBranch, StreaksPath)
	var prev Streaks
	switch {
	case err == nil && json.Unmarshal(old, &prev) == nil && prev.SamplesSHA256 == st.SamplesSHA256 && maps.Equal(prev.Layers, st.Layers):
	case err != nil && !ghx.IsNotFound(err):
		return res, fmt.Errorf("reading %s on the ledger: %s", StreaksPath, ghx.Describe(err))
	default:
		if files[StreaksPath], err = encode(st); err != nil {
			return res, err
		}
	}
	old, err = ghx.ReadFile(ctx, c, owner, repo, ship.LedgerBranch, HousekeepingPath)
	var prevHK Housekeeping
	switch {
	case err == nil && json.Unmarshal(old, &prevHK) == nil && sameItems(prevHK.Items, items):
	case ghx.IsNotFound(err) && len(items) == 0:
		// Nothing waits and nothing was ever listed: no file to write.
	case err != nil && !ghx.IsNotFound(err):
		return res, fmt.Errorf("reading %s on the ledger: %s", HousekeepingPath, ghx.Describe(err))
	default:
		hk := Housekeeping{Items: items, ComputedAt: st.ComputedAt, By: by}
		if hk.Items == nil {
			hk.Items = []HousekeepingItem{}
		}
		if files[HousekeepingPath], err = encode(hk); err != nil {
			return res, err
		}
	}
	if len(files) == 0 {
		return res, nil
	}
	for _, p := range []string{StreaksPath, HousekeepingPath} {
		if _, ok := files[p]; ok {
			res.Wrote = append(res.Wrote, p)
		}
	}
	sha, err := ghx.CommitFiles(ctx, c, owner, repo, ship.LedgerBranch, files,
		fmt.Sprintf("ledger: streaks recomputed from %d samples, %d housekeeping items listed (aayu loops, as %s)", st.Samples, len(items), by), ghx.CommitOptions{})
	if err != nil {
		return res, fmt.Errorf("writing %v on the ledger: %s", res.Wrote, ghx.Describe(err))
	}
	res.Commit = sha
	return res, nil
}

// encode is a ledger file's bytes: indented JSON and a final newline.
func encode(v any) ([]byte, error) {
	body, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding %T: %w", v, err)
	}
	return append(body, '\n'), nil
}
