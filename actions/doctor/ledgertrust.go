package doctor

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
)

// ledgerHistoryName is the row on the ledger's own history (SPEC §11, "The
// ledger is append-only").
const ledgerHistoryName = "ledger history"

// ledgerHistoryRow judges the ledger branch's history through the one
// reader the inbox, plan and ship use (ghx.CheckLedger): a commit that
// deleted or rewrote a record outside aayu's own updates fails the row,
// named by commit, author and path.
func ledgerHistoryRow(ctx context.Context, gh *github.Client, owner, repo string) Row {
	h, err := ghx.CheckLedger(ctx, gh, owner, repo, "ledger", "")
	if err != nil {
		return Row{ledgerHistoryName, Warn, "could not be read: " + ghx.Describe(err), "check your token's access (aayu auth), then run aayu doctor again"}
	}
	if n := len(h.Findings); n > 0 {
		lines := make([]string, 0, min(n, 3))
		for _, f := range h.Findings[:min(n, 3)] {
			lines = append(lines, f.Line())
		}
		more := ""
		if n > 3 {
			more = fmt.Sprintf(" (and %d more)", n-3)
		}
		return Row{ledgerHistoryName, Fail, strings.Join(lines, "; ") + more,
			"read each commit on GitHub and ask who made it; aayu's readers never trust the rewritten record, and a ruleset on ledger (non_fast_forward, deletion) stops a force-push but not an ordinary commit"}
	}
	if h.Partial {
		return Row{ledgerHistoryName, Warn, fmt.Sprintf("%d commits checked so far, none deleted or rewrote a record; the rest are checked by the next runs", h.Commits),
			"run aayu doctor again"}
	}
	return Row{ledgerHistoryName, OK, fmt.Sprintf("%d commits, none deleted or rewrote a record outside aayu's own updates", h.Commits), ""}
}
