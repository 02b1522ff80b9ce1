package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/actions/protected"
	"github.com/aayudha/aayu/tui"
)

// protectedCommand is aayu protected's table entry and run.
func protectedCommand() command {
	return command{
		def: tui.CommandDef{
			Name:    "protected",
			Group:   "ci",
			Arg:     "PR",
			Short:   "the protected-paths gate (CI)",
			Long:    "The protected-paths gate: each changed protected path needs its CODEOWNER's approval of the head. Run with --ci.",
			Example: "aayu protected 148 --ci",
		},
		run: wiring.runProtected,
	}
}

// runProtected is `aayu protected PR --ci`: the protected-paths gate's step
// in the workflow init proposes. Like comment, it is CI's, never a person's.
func (w wiring) runProtected() int {
	ctx, inv, e, sess := w.ctx, w.inv, w.e, w.sess
	pr, err := strconv.Atoi(strings.TrimPrefix(inv.Args[0], "#"))
	if err != nil || pr <= 0 || sess.owner == "" || !inv.Global.CI {
		fmt.Fprintln(e.stderr, "aayu protected PR --ci --repo OWNER/NAME: the protected-paths gate's step; it needs --ci, a repository and a pull request number. Nothing was done.")
		return tui.ExitUsage
	}
	tok, _, err := sess.resolve(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu protected: %v\n", err)
		return tui.ExitFailed
	}
	gh, err := sess.client(tok)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu protected: %v\n", err)
		return tui.ExitFailed
	}
	code, lines, err := protected.Check(ctx, gh, sess.owner, sess.repo, pr)
	for _, l := range lines {
		fmt.Fprintln(e.stdout, tui.SanitizeLine(l))
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu protected: %s\n", tui.SanitizeLine(err.Error()))
	}
	return code
}
