package pass

import (
	"bufio"
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/aayudha/aayu/model/identity"
)

// StreakSample is one line of the ledger's autonomy/samples.jsonl as the
// streak reads it: an audited unreviewed merge, clean or a correction, the
// layers it touched, inspect's rung for the head it merged and the pull
// request's author.
type StreakSample struct {
	PR         int      `json:"pr"`
	Correction bool     `json:"correction"`
	Layers     []string `json:"layers"`
	Rung       string   `json:"rung"`
	Author     string   `json:"author"`
}

// streakRungs are the inspect rungs whose clean sample counts toward a
// streak. Rung C (a reviewer of the builder's own family, or a builder
// whose family is unknown) never does (seed 001); nor does a sample with
// no rung recorded, whose review cannot be shown to be better than C.
var streakRungs = []string{"A", "B"}

// SampleCounts says whether a clean sample adds one to the streak of each
// layer it touched, and if not, why: only an agent's pull request (its
// author a bot: an App, or a login in identity.bot_logins) judged at rung A
// or B counts. A person's own pull request has no streak (seed 001): the
// streak measures how far the agents' unreviewed work can be trusted, and
// a person's merge says nothing of that. A correction always resets, so
// it is not judged here.
func SampleCounts(s StreakSample, botLogins []string) (bool, string) {
	switch {
	case s.Author == "":
		return false, "its author is not recorded, so it cannot be shown to be an agent's"
	case !identity.IsBot(identity.Account{Login: s.Author}, botLogins):
		return false, "it is @" + s.Author + "'s own pull request, and a person's pull request has no streak"
	case strings.EqualFold(s.Rung, "C"):
		return false, "inspect judged it at rung C, which never counts toward a streak"
	case !slices.Contains(streakRungs, strings.ToUpper(s.Rung)):
		return false, "no inspect rung A or B is recorded for it"
	}
	return true, ""
}

// Streaks is the correction-free streak of each layer, read from
// samples.jsonl in order: a clean sample that counts (SampleCounts) adds
// one to each layer it touched, a correction resets each to 0, whatever
// its rung or author, and a line that cannot be read resets every layer,
// since it might be a correction (so does one too long to read). A sample that names no layers counts
// for none.
func Streaks(samples []byte, botLogins []string) map[string]int {
	out := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(samples))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var s StreakSample
		if json.Unmarshal(sc.Bytes(), &s) != nil {
			out = map[string]int{}
			continue
		}
		counts, _ := SampleCounts(s, botLogins)
		for _, l := range s.Layers {
			switch {
			case s.Correction:
				out[l] = 0
			case counts:
				out[l]++
			}
		}
	}
	if sc.Err() != nil {
		return map[string]int{} // a line too long to read might be a correction
	}
	return out
}
