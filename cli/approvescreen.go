package cli

import (
	"bytes"
	"context"
	"strings"
	"time"

	"github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/model/identity"
	approvescreen "github.com/aayudha/aayu/screens/approve"
	"github.com/aayudha/aayu/screens/login"
	"github.com/aayudha/aayu/tui"
)

// approveAsScreen says whether `aayu approve BATCH` runs as the screen (full,
// or its plain twin with --plain): only for a person at a terminal. --ci,
// an agent lane and a run without a terminal keep runApprove's lines.
func (w wiring) approveAsScreen() bool {
	lane, _ := identity.AgentLane(w.e.getenv)
	return !w.inv.Global.CI && !lane && len(w.inv.Args) > 0 && w.e.personsTerminal()
}

// approveScreen wires screens/approve to the ledger, the device flow and
// applyApproved, as runApprove does, under the person's token.
func (w wiring) approveScreen() (tui.Screen, error) {
	ctx, inv, e, sess := w.ctx, w.inv, w.e, w.sess
	if sess.owner == "" {
		return nil, openErr(tui.ExitUsage, whichRepository)
	}
	hash := strings.ToLower(strings.TrimSpace(inv.Args[0]))
	tok, _, err := sess.resolve(ctx)
	if err != nil {
		return nil, openErr(tui.ExitFailed, "%v\nNothing was done.", err)
	}
	gh, err := sess.client(tok)
	if err != nil {
		return nil, openErr(tui.ExitFailed, "%v\nNothing was done.", err)
	}
	ledger := approve.Ledger{Client: gh, Owner: sess.owner, Repo: sess.repo}
	flow := w.deviceFlow(gh)
	return approvescreen.New(ctx, w.common, approvescreen.Deps{
		Command: "aayu approve " + hash, Repo: sess.owner + "/" + sess.repo, DryRun: inv.Global.DryRun,
		Load: func(ctx context.Context) (approve.Stored, error) { return approve.Load(ctx, ledger, hash) },
		Ask:  func(ctx context.Context) (approve.Code, error) { return flow.Ask(ctx, time.Now()) },
		Wait: func(waitCtx context.Context, c approve.Code) ([]string, int) {
			// applyApproved's own lines, so the screen says exactly what
			// the plain command does; its errors go to stderr as there.
			var out bytes.Buffer
			code := w.applyApproved(waitCtx, &out, ledger, flow, c, hash, true, false)
			return strings.Split(strings.TrimRight(out.String(), "\n"), "\n"), code
		},
		OpenBrowser: login.OpenInBrowser(e.getenv),
	}), nil
}
