package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// personTokenPrefixes are the prefixes GitHub gives tokens that act as a
// person (classic and fine-grained personal access tokens, OAuth and
// user-to-server tokens). The workflow's own GITHUB_TOKEN is an
// installation token (ghs_), so any of these in GITHUB_TOKEN means a
// person's token was put where the workflow's belongs.
var personTokenPrefixes = []string{"ghp_", "github_pat_", "gho_", "ghu_"}

// ciCommentToken decides, before anything is sent to GitHub, whether `aayu
// comment PR --ci` may run in this process, and with which token. The
// merge gate's comment belongs to the workflow's own token in a GitHub
// Actions run: an agent lane, a person's token or a run outside Actions is
// refused in words (refusal != ""). A --dry-run preview posts nothing, so
// it may run outside Actions with the person's own token (tok is then zero
// and the caller resolves it the usual way), and it alone may take --dir.
func ciCommentToken(inv tui.Invocation, getenv func(string) string) (tok ghx.Token, refusal string) {
	const gate = "the merge gate's comment is written only by the workflow's own GITHUB_TOKEN inside a GitHub Actions run"
	if lane, marker := identity.AgentLane(getenv); lane {
		return ghx.Token{}, fmt.Sprintf("aayu comment refuses an agent lane (%s is set): %s, never by an agent.", marker, gate)
	}
	if inv.Global.DryRun {
		return ghx.Token{}, ""
	}
	if getenv("AAYU_GITHUB_TOKEN") != "" {
		return ghx.Token{}, "aayu comment refuses a person's token (AAYU_GITHUB_TOKEN is set): " + gate + ", never under a person's name. Unset AAYU_GITHUB_TOKEN in the workflow step."
	}
	if getenv("GITHUB_ACTIONS") != "true" {
		return ghx.Token{}, "aayu comment runs only inside a GitHub Actions run (GITHUB_ACTIONS is not \"true\"): " + gate + ". To see the comment locally, add --dry-run: it posts nothing."
	}
	if id, err := strconv.ParseInt(getenv("GITHUB_RUN_ID"), 10, 64); err != nil || id <= 0 {
		return ghx.Token{}, "aayu comment needs the Actions run it comments on, and GITHUB_RUN_ID does not name one: " + gate + "."
	}
	if r := getenv("GITHUB_REPOSITORY"); r != "" && inv.Global.Repo != "" && !strings.EqualFold(r, inv.Global.Repo) {
		return ghx.Token{}, fmt.Sprintf("aayu comment refuses --repo %s: this Actions run belongs to %s, and its workflow token writes there only.",
			tui.SanitizeLine(inv.Global.Repo), tui.SanitizeLine(r))
	}
	if inv.Flags["dir"] != "" {
		return ghx.Token{}, "aayu comment refuses --dir outside --dry-run: the gate's comment speaks for the pack this run built in .aayudha/proof/STORY/, and no other folder stands in for it."
	}
	value := getenv("GITHUB_TOKEN")
	if value == "" {
		return ghx.Token{}, "aayu comment needs the workflow's own token in GITHUB_TOKEN (env: GITHUB_TOKEN: ${{ github.token }}), and it is not set: " + gate + "."
	}
	for _, p := range personTokenPrefixes {
		if strings.HasPrefix(value, p) {
			return ghx.Token{}, fmt.Sprintf("aayu comment refuses GITHUB_TOKEN: it holds a person's token (it starts %s), not the workflow's own; %s.", p, gate)
		}
	}
	return ghx.NewToken(value, "the workflow's GITHUB_TOKEN"), ""
}
