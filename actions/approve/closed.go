package approve

import (
	"context"
	"fmt"
	"strings"
)

// VoidedChanged is what became of a batch whose comment was changed after
// it was posted (CheckEditedBatch, CheckRendered): the comment cannot show
// the steps again, so it is marked void, by the device code's path and the
// reply's alike, and no code or instruction in it may look live.
const VoidedChanged = "voided: its comment was changed after it was posted, so approving it applies nothing; ask the agent for a new batch."

// OutcomeVoided is the applied record's outcome for a batch that can never
// apply (a Decision edited after it, a head or base that moved): landed so
// a later approve refuses at once, and the comment stops looking live.
const OutcomeVoided = "voided"

// VoidedWords is what a voided batch's comment says, why included.
func VoidedWords(why string) string {
	return "voided: " + why + ", so approving it applies nothing; ask the agent for a new batch."
}

// IsVoided says the applied record closed the batch without applying it.
func (a Applied) IsVoided() bool { return a.Outcome == OutcomeVoided }

// Closed is how a batch stopped waiting, read from the ledger: applied or
// rejected (its applied record), or superseded by a later batch of its
// session. A process waiting for the batch's device code reads it to stop,
// truthfully, the moment the batch is closed by any way (SPEC §11).
type Closed struct {
	Applied    *Applied
	Superseded *Superseded
}

// Words say what became of the batch, for the waiting process's output.
func (c Closed) Words(hash string) string {
	switch {
	case c.Applied != nil && c.Applied.IsVoided():
		return fmt.Sprintf("Batch %s was voided (%s); nothing of it is applied, and the agent starts a new batch.", hash, inline(strings.Join(c.Applied.Results, "; ")))
	case c.Applied != nil && c.Applied.Outcome == "rejected":
		return fmt.Sprintf("Batch %s was rejected by @%s; nothing of it is applied.", hash, inline(c.Applied.By))
	case c.Applied != nil:
		return fmt.Sprintf("Batch %s was %s elsewhere, on @%s's approval (%s); nothing more is done here.", hash, inline(c.Applied.Outcome), inline(c.Applied.By), inline(c.Applied.Method))
	case c.Superseded != nil:
		return fmt.Sprintf("Batch %s was superseded by batch %s (on #%d), which holds its steps; nothing was applied here, and that batch is the one to approve.", hash, c.Superseded.By, c.Superseded.Issue)
	}
	return fmt.Sprintf("Batch %s still waits.", hash)
}

// ClosedAt reads whether batch hash is closed; found is false while it
// still waits.
func (l Ledger) ClosedAt(ctx context.Context, hash string) (Closed, bool, error) {
	if a, found, err := l.Applied(ctx, hash); err != nil {
		return Closed{}, false, err
	} else if found {
		return Closed{Applied: &a}, true, nil
	}
	var sup Superseded
	if found, err := l.readJSON(ctx, SupersededPath(hash), &sup); err != nil {
		return Closed{}, false, err
	} else if found {
		return Closed{Superseded: &sup}, true, nil
	}
	return Closed{}, false, nil
}
