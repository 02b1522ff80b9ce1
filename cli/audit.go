package cli

import (
	"context"
	"fmt"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/auditread"
	core "github.com/aayudha/aayu/model/audit"
	"github.com/aayudha/aayu/screens/audit"
	"github.com/aayudha/aayu/tui"
)

// auditScreen wires `aayu audit` to the ledger and GitHub. It only reads,
// so it asks for no presence check and agents may run it.
func (w wiring) auditScreen() (tui.Screen, error) {
	ctx, sess, common := w.ctx, w.sess, w.common
	if sess.owner == "" {
		return nil, openErr(tui.ExitUsage, whichRepository)
	}
	owner, repo := sess.owner, sess.repo
	return audit.New(ctx, common, audit.Deps{
		Repo: owner + "/" + repo,
		Read: func(ctx context.Context) (core.Report, error) {
			tok, _, err := sess.resolve(ctx)
			if err != nil {
				return core.Report{}, err
			}
			client, err := sess.client(tok)
			if err != nil {
				return core.Report{}, err
			}
			facts, err := auditread.Read(ctx, client, owner, repo, actions.LedgerBranch)
			if err != nil {
				// Words a person reads; the request and its answer stay out.
				return core.Report{}, fmt.Errorf("%s", ghx.Describe(err))
			}
			return core.Reconcile(facts), nil
		},
	}), nil
}

// auditCommand is aayu audit's table entry and run.
func auditCommand() command {
	return command{
		def: tui.CommandDef{
			Name:    "audit",
			Group:   "setup",
			Short:   "every Solo-mode bypass and human-fallback write, from the ledger",
			Long:    "Every Solo-mode bypass, human-fallback write and bypass recorded late, read from the ledger (read-only).",
			Example: "aayu audit",
		},
		run: screenRun(wiring.auditCommandScreen),
	}
}

// auditCommandScreen is aayu audit's screen; a failure to open it is the
// command line's (exit 2).
func (w wiring) auditCommandScreen() (tui.Screen, error) {
	s, err := w.auditScreen()
	if err != nil {
		return nil, openErr(tui.ExitUsage, "%v\nNothing was done.", err)
	}
	return s, nil
}
