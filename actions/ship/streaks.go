package ship

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/aayudha/aayu/ghx"
)

// SamplesPath is the ledger's audit samples, one JSON object a line.
const SamplesPath = "autonomy/samples.jsonl"

// sample is the part of a samples.jsonl line the streak reads. A line that
// names no layers counts for none.
type sample struct {
	PR         int      `json:"pr"`
	Correction bool     `json:"correction"`
	Layers     []string `json:"layers"`
}

// streaks reads the correction-free streak of each layer from the ledger:
// the clean samples since that layer's last correction. No file means no
// streak anywhere, so nothing merges unreviewed on one.
func (r *run) streaks() (map[string]int, error) {
	b, err := r.readFile(LedgerBranch, SamplesPath)
	if ghx.IsNotFound(err) {
		return map[string]int{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s on the ledger: %s", SamplesPath, ghx.Describe(err))
	}
	return countStreaks(b), nil
}

func countStreaks(b []byte) map[string]int {
	out := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var s sample
		if json.Unmarshal(sc.Bytes(), &s) != nil {
			out = map[string]int{} // a line ship cannot read might be a correction
			continue
		}
		for _, l := range s.Layers {
			if s.Correction {
				out[l] = 0
			} else {
				out[l]++
			}
		}
	}
	return out
}

// CountStreaks is the streak rule itself, for the loops that land it on the
// ledger: each layer's clean samples since its last correction, in the
// order samples.jsonl holds them. One rule: ship merges by exactly what the
// loops record.
func CountStreaks(samples []byte) map[string]int { return countStreaks(samples) }
