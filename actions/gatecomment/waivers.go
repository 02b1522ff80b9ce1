package gatecomment

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/model/waiver"
	"github.com/aayudha/aayu/proof"
)

// Waivers are the gate's reading of the ledger's floor waivers for a pack
// that verifies but whose floors do not all hold: each failing floor's
// verdict by ship's own rule (model/waiver.Judge, read through
// ship.FloorWaivers), so the gate's status is green exactly where ship
// would take the pack. Nil when no floor failed or the pack does not
// verify: nothing stands in for a pack that does not verify.
type Waivers struct {
	// Floors are the failing floors, in the pack's order.
	Floors []string
	// Verdicts is each failing floor's verdict: waived by an accepted
	// Decision, or why not, in words.
	Verdicts map[string]waiver.Verdict
}

// All reports whether every failing floor is waived (and at least one
// failed: a pack that lists no checks is not waived by anything).
func (w *Waivers) All() bool {
	if w == nil || len(w.Floors) == 0 {
		return false
	}
	for _, f := range w.Floors {
		if !w.Verdicts[f].Waived {
			return false
		}
	}
	return true
}

// readWaivers judges each floor that does not hold in a pack that
// verifies against the ledger's waivers of pull request pr at head, with
// the base branch's bot logins (a waiver a bot accepted waives nothing),
// reading the ledger and each Decision as ship does. The ledger can be
// appended to by any account that can push, an agent's too, so a record
// alone waives nothing: the rule takes it only with its Decision, a
// floor-waiver Decision for this pull request, head and floor, closed as
// accepted, its waiving option accepted in a comment by the person the
// record names.
func readWaivers(ctx context.Context, client *github.Client, owner, repo string, pr int, head string, r *proof.Report, bots []string) (*Waivers, error) {
	if !r.Verified() || r.FloorsHold {
		return nil, nil
	}
	w := &Waivers{Verdicts: map[string]waiver.Verdict{}}
	for _, c := range r.FailedFloors {
		w.Floors = append(w.Floors, c.Floor)
	}
	if len(w.Floors) == 0 {
		return w, nil
	}
	vs, err := ship.FloorWaivers(ctx, client, owner, repo, pr, head, w.Floors, bots)
	if err != nil {
		return nil, fmt.Errorf("reading the ledger's floor waivers of #%d: %w; nothing was written", pr, err)
	}
	w.Verdicts = vs
	return w, nil
}

// gateCode is the gate's verdict: the report's (0, 3 or 4), but 0 for a
// pack that verifies whose every failing floor an accepted waiver for
// this head waives.
func gateCode(r *proof.Report, w *Waivers) int {
	code := ExitCode(r)
	if code == ExitFloor && w.All() {
		return ExitOK
	}
	return code
}

// waivedWords names each waived floor and its Decision, for the status's
// description and the comment's verdict.
func (w *Waivers) waivedWords() string {
	var parts []string
	for _, f := range w.Floors {
		if v := w.Verdicts[f]; v.Waived {
			parts = append(parts, fmt.Sprintf("%s by Decision #%d", f, v.Decision))
		}
	}
	return strings.Join(parts, ", ")
}

// writeWaivers says, under the floors, how each failing floor stands
// against the ledger's waivers: waived, naming the Decision and who
// accepted it, or why not, with the command that opens one.
func writeWaivers(b *strings.Builder, w *Waivers) {
	if w == nil || len(w.Floors) == 0 {
		return
	}
	fmt.Fprintf(b, "### Floor waivers\n\n")
	for _, f := range w.Floors {
		v := w.Verdicts[f]
		if v.Waived {
			fmt.Fprintf(b, "- %s: `waived`, %s\n", inline(f), inline(v.Words()))
			continue
		}
		fmt.Fprintf(b, "- %s: not waived: %s\n", inline(f), inline(v.Words()))
	}
	b.WriteString("\n")
}
