package actions

import (
	"context"
	"fmt"
	"strings"

	"github.com/aayudha/aayu/model/inbox"
)

// Outcomes an executed request is logged with.
const (
	OutcomeDone    = "done"
	OutcomeFailed  = "failed"
	OutcomeChanged = "changed"
	OutcomeRefused = "refused"
	// OutcomeInterrupted is a request stopped part-way by the person (a
	// second ctrl+c or quit signal): Writes lists what landed, Detail the
	// write it stopped at. The next run shows the item as half done.
	OutcomeInterrupted = "interrupted"
)

// record appends the request's Record to the actions log: every request
// that was tried, whatever became of it. A dry run is never logged.
func (e *Executor) record(ctx context.Context, req Request, out *Outcome) {
	if e.cfg.Log == nil {
		return
	}
	command := req.Command
	if command == "" {
		command = InboxCommand(req.Step, req.Choice)
	}
	rec := Record{
		Command: command,
		Note:    oneLine(req.Note),
		Repo:    e.cfg.Owner + "/" + e.cfg.Repo,
		Item:    fmt.Sprintf("#%d", req.Step.Item.Number),
		Who:     e.cfg.Viewer,
		Writes:  out.Wrote,
	}
	switch {
	case out.Changed:
		rec.Outcome, rec.Detail = OutcomeChanged, out.ChangedWhat
	case out.Failure != nil && ctx.Err() != nil:
		rec.Outcome = OutcomeInterrupted
		rec.Detail = strings.Join(append(out.Failure.Lines(), out.Failure.Details...), " | ")
	case out.Failure != nil:
		rec.Outcome = OutcomeFailed
		if out.Failure.Details == nil {
			rec.Outcome = OutcomeRefused
		}
		rec.Detail = strings.Join(append(out.Failure.Lines(), out.Failure.Details...), " | ")
	default:
		rec.Outcome = OutcomeDone
		rec.Detail = out.ByHand
	}
	if err := e.cfg.Log.Append(rec); err != nil {
		out.LogError = "The actions log could not be written; the writes on GitHub stand. " + err.Error()
	}
}

// InboxCommand names a request as the actions log records it, in the
// words of the verb that owns the step: "inbox: decide 1 --accept 1",
// "inbox: inspect 6 --approve", "inbox: audit 15 --correction".
func InboxCommand(st inbox.Step, c inbox.Choice) string {
	n := st.Item.Number
	switch {
	case st.Kind == inbox.KindDecision:
		return fmt.Sprintf("inbox: decide %d --accept %s", n, c.Key)
	case st.Kind == inbox.KindNeedsReview && (hasWrite(c, inbox.WriteReview) || hasWrite(c, inbox.WriteLedgerPut)):
		// Both ways of approving a head are the seed's `inspect N --approve`:
		// a GitHub review, or in solo mode the review record on the ledger.
		return fmt.Sprintf("inbox: inspect %d --approve", n)
	case st.Kind == inbox.KindAudit && hasWrite(c, inbox.WriteRevertPR):
		return fmt.Sprintf("inbox: audit %d --correction", n)
	case st.Kind == inbox.KindAudit:
		return fmt.Sprintf("inbox: audit %d --looks-right", n)
	}
	return fmt.Sprintf("inbox: %s %d --accept %s", st.Kind, n, c.Key)
}

func hasWrite(c inbox.Choice, k inbox.WriteKind) bool {
	for _, w := range c.Writes {
		if w.Kind == k {
			return true
		}
	}
	return false
}
