package cli

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/google/go-github/v66/github"

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

// ciCommentGate is the rule every refusal of the comment's token names.
const ciCommentGate = "the merge gate's comment is written only by this run's own Actions token"

// actionsTokenUserRefusal is the first half of ciRunRefusal: an Actions
// token cannot read /user (403), so a token that can is some account's,
// and one GitHub does not accept (401) is no live token; "" with no error
// when /user answers 403, as a run's own token does.
func actionsTokenUserRefusal(ctx context.Context, gh *github.Client) (refusal string, err error) {
	u, resp, uerr := gh.Users.Get(ctx, "")
	switch {
	case uerr == nil:
		kind := "an account"
		if u.GetType() == "User" {
			kind = "a person's account"
		}
		return fmt.Sprintf("aayu comment refuses GITHUB_TOKEN: it acts as @%s, %s, not this run's Actions token (which cannot read /user); %s.",
			tui.SanitizeLine(u.GetLogin()), kind, ciCommentGate), nil
	case resp != nil && resp.StatusCode == http.StatusUnauthorized:
		return "aayu comment refuses GITHUB_TOKEN: GitHub does not accept it (401), so it is not a live Actions token — a job's token ends with its job; " + ciCommentGate + ".", nil
	case resp == nil || resp.StatusCode != http.StatusForbidden:
		return "", fmt.Errorf("asking GitHub which account the token acts as: %s", ghx.Describe(uerr))
	}
	return "", nil
}

// ciRunRefusal asks GitHub whether tok is this run's Actions token before
// anything is written: GitHub's workflow token is an installation token,
// which cannot read /user (403) — a person's or a bot account's token can,
// and is refused with the account it acts as; it reads the run GITHUB_RUN_ID
// names, which must exist in GITHUB_REPOSITORY (and --repo) and be in
// progress, since a job's token ends with its job. refusal is "" when it
// is, else the reason in words; err is for GitHub not answering.
func ciRunRefusal(ctx context.Context, gh *github.Client, owner, repo string, getenv func(string) string) (refusal string, err error) {
	if refusal, err := actionsTokenUserRefusal(ctx, gh); refusal != "" || err != nil {
		return refusal, err
	}
	id, _ := strconv.ParseInt(getenv("GITHUB_RUN_ID"), 10, 64)
	run, resp, rerr := gh.Actions.GetWorkflowRunByID(ctx, owner, repo, id)
	switch {
	case rerr != nil && resp != nil && (resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusForbidden):
		return fmt.Sprintf("aayu comment refuses GITHUB_TOKEN: with it GitHub shows no run %d in %s/%s (%d), so it is not this run's Actions token; %s.",
			id, tui.SanitizeLine(owner), tui.SanitizeLine(repo), resp.StatusCode, ciCommentGate), nil
	case rerr != nil:
		return "", fmt.Errorf("reading run %d: %s", id, ghx.Describe(rerr))
	}
	full := run.GetRepository().GetFullName()
	if want := getenv("GITHUB_REPOSITORY"); !strings.EqualFold(full, owner+"/"+repo) || (want != "" && !strings.EqualFold(full, want)) {
		return fmt.Sprintf("aayu comment refuses: run %d belongs to %s, not %s/%s; %s.", id, tui.SanitizeLine(full),
			tui.SanitizeLine(owner), tui.SanitizeLine(repo), ciCommentGate), nil
	}
	if st := run.GetStatus(); st != "in_progress" {
		return fmt.Sprintf("aayu comment refuses: run %d is %s, not in progress, so this is not its job's live token; %s.", id, tui.SanitizeLine(st), ciCommentGate), nil
	}
	return "", nil
}
