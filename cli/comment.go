package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/tui"
)

// commentCommand is aayu comment's table entry and run.
func commentCommand() command {
	return command{
		def: tui.CommandDef{
			Name:    "comment",
			Group:   "ci",
			Arg:     "PR",
			Short:   "the merge gate's one comment on the pull request (CI)",
			Long:    "The merge gate's one comment on the pull request: each Ready criterion's verdict, every floor, the pack's hash. Run with --ci.",
			Example: "aayu comment 148 --ci --dir aayudha-pack",
			Flags: []tui.FlagDef{
				{Name: "dir", Value: "DIR", Usage: "the pack folder DIR the gate built"},
			},
		},
		run: wiring.runComment,
		// comment --ci takes the workflow's token only (commentci.go).
		token: never,
	}
}

// runComment is `aayu comment PR --ci`: the merge gate's one comment on the
// pull request. It writes nothing to the ledger, and refuses to run outside
// CI so a person never posts the gate's comment under their own name.
func (w wiring) runComment() int {
	ctx, inv, e, sess := w.ctx, w.inv, w.e, w.sess
	pr, err := strconv.Atoi(strings.TrimPrefix(inv.Args[0], "#"))
	if err != nil || pr <= 0 || sess.owner == "" || !inv.Global.CI {
		fmt.Fprintln(e.stderr, "aayu comment PR --ci --repo OWNER/NAME: the merge gate's step; it needs --ci, a repository and a pull request number. Nothing was done.")
		return tui.ExitUsage
	}
	gh, code, ok := w.commentClient()
	if !ok {
		return code
	}
	if !inv.Global.DryRun {
		refusal, err := ciRunRefusal(ctx, gh, sess.owner, sess.repo, e.getenv)
		if err != nil {
			fmt.Fprintf(e.stderr, "aayu comment: %s\nNothing was written.\n", tui.SanitizeLine(err.Error()))
			return tui.ExitFailed
		}
		if refusal != "" {
			fmt.Fprintf(e.stderr, "%s\nNothing was written.\n", refusal)
			return tui.ExitRefused
		}
	}
	code, body, err := gatecomment.Run(ctx, gatecomment.Config{Client: gh, Owner: sess.owner, Repo: sess.repo, PR: pr, Dir: inv.Flags["dir"],
		Getenv: e.getenv, Preview: inv.Global.DryRun, WorkflowOnly: true, SetStatus: !inv.Global.DryRun, TrustedRoot: w.trustedRoot})
	fmt.Fprint(e.stdout, body)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu comment: %v\n", err)
	}
	if inv.Global.DryRun && err == nil {
		fmt.Fprintln(e.stderr, "aayu comment --dry-run: a preview; nothing was posted.")
	}
	return code
}

// commentClient is the client the gate's comment goes out with: the
// workflow's token only (ciCommentToken), or with --dry-run the person's,
// for a preview that posts nothing. ok is false when the run ends here,
// with code.
func (w wiring) commentClient() (gh *github.Client, code int, ok bool) {
	e := w.e
	tok, refusal := ciCommentToken(w.inv, e.getenv)
	if refusal != "" {
		fmt.Fprintf(e.stderr, "%s\nNothing was sent to GitHub.\n", refusal)
		return nil, tui.ExitRefused, false
	}
	if w.inv.Global.DryRun {
		var err error
		if tok, _, err = w.sess.resolve(w.ctx); err != nil {
			fmt.Fprintf(e.stderr, "aayu comment: %v\nNothing was done.\n", err)
			return nil, tui.ExitFailed, false
		}
	}
	gh, err := w.sess.client(tok)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu comment: %v\n", err)
		return nil, tui.ExitFailed, false
	}
	return gh, 0, true
}
