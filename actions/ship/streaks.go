package ship

import (
	"fmt"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/pass"
)

// SamplesPath is the ledger's audit samples, one JSON object a line.
const SamplesPath = "autonomy/samples.jsonl"

// streaks reads the correction-free streak of each layer from the ledger:
// the clean samples that count (pass.SampleCounts: an agent's pull request
// judged at rung A or B) since that layer's last correction, judged with the
// base branch's bot logins. No file means no
// streak anywhere, so nothing merges unreviewed on one.
func (r *run) streaks() (map[string]int, error) {
	b, err := r.readFile(LedgerBranch, SamplesPath)
	if ghx.IsNotFound(err) {
		return map[string]int{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s on the ledger: %s", SamplesPath, ghx.Describe(err))
	}
	return pass.Streaks(b, r.evidence.base.policy.BotLogins), nil
}

// CountStreaks is the streak rule itself, for the loops that land it on the
// ledger: each layer's clean samples since its last correction, in the
// order samples.jsonl holds them, judged with the base branch's bot logins
// (pass.Streaks). One rule: ship merges by exactly what the loops record.
func CountStreaks(samples []byte, botLogins []string) map[string]int {
	return pass.Streaks(samples, botLogins)
}
