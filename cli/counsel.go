package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/exitcode"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// counselCommand is aayu counsel's table entry and run.
func counselCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "counsel",
			Group: "daily",
			Arg:   "DECISION",
			Short: "counsel for a Decision; --post puts it on the Decision's card",
			Long: "Counsel for a Decision, from --text or standard input: advice, never an approval. Without --post it prints the counsel and writes nothing. " +
				"--post posts it as a comment on the Decision from an account with write access; the inbox's card shows the newest such comment, cut to 75 words.",
			Example: "aayu counsel 7 --text \"Option 1 is the cheapest to reverse.\"\necho \"Option 2: the data layer is already tested.\" | aayu counsel 7 --post",
			Flags: []tui.FlagDef{
				{Name: "post", Usage: "post the counsel as a comment on the Decision (needs write access)"},
				{Name: "text", Value: "T", Usage: "the counsel's words (else read from standard input)"},
			},
		},
		run: wiring.runCounsel,
	}
}

// runCounsel is `aayu counsel DECISION [--post] [--text T]`. Counsel is
// advice, so any lane may write it, an agent's too (the seed's twin's
// counsel): without --post nothing is written; --post posts it under this
// run's write token (an agent lane's is the bot's, or the person's in solo
// mode) only when that account has write access, since the inbox counts
// counsel from no one else (model/inbox.decisionCounsel).
func (w wiring) runCounsel() int {
	e, inv, sess := w.e, w.inv, w.sess
	n, err := strconv.Atoi(strings.TrimPrefix(inv.Args[0], "#"))
	if err != nil || n <= 0 {
		fmt.Fprintf(e.stderr, "aayu counsel: %q is not a Decision's number. Nothing was done.\n", tui.SanitizeLine(inv.Args[0]))
		return tui.ExitUsage
	}
	if sess.owner == "" {
		fmt.Fprintln(e.stderr, "aayu counsel: "+whichRepository)
		return tui.ExitUsage
	}
	text, given := inv.Flags["text"]
	if !given {
		if e.stdinIsTerminal {
			fmt.Fprintln(e.stderr, "aayu counsel: no counsel given. Give its words with --text T or on standard input (no reviewer is configured to write it). Nothing was done.")
			return tui.ExitUsage
		}
		in := e.stdin
		if in == nil {
			in = strings.NewReader("")
		}
		// Read past the limit, so counsel that is too long is refused by
		// inbox.CounselBody rather than cut without a word.
		b, err := io.ReadAll(io.LimitReader(in, 4*inbox.CounselMaxBytes))
		if err != nil {
			fmt.Fprintf(e.stderr, "aayu counsel: reading the counsel from standard input: %v\nNothing was done.\n", err)
			return tui.ExitFailed
		}
		text = string(b)
	}
	post := inv.Flags["post"] == "true"
	res, err := w.counsel(n, text, post, post && !inv.Global.DryRun)
	var refusal *exitcode.Refusal
	switch {
	case errors.As(err, &refusal):
		fmt.Fprintf(e.stderr, "aayu counsel: refused: %s.\nNothing was posted.\n", tui.SanitizeLine(refusal.Reason))
		return tui.ExitRefused
	case err != nil:
		fmt.Fprintf(e.stderr, "aayu counsel: %s\nNothing was posted.\n", tui.SanitizeLine(err.Error()))
		return tui.ExitFailed
	}
	fmt.Fprintf(e.stdout, "Counsel for Decision #%d (%s), as its card shows it:\n%s\n", n, res.title, res.card)
	switch {
	case res.url != "":
		fmt.Fprintf(e.stdout, "posted: a comment on #%d as @%s, %s\n", n, tui.SanitizeLine(res.poster), tui.SanitizeLine(res.url))
	case post:
		fmt.Fprintf(e.stdout, "--dry-run: nothing was posted; without it, this posts a comment on #%d.\n", n)
	default:
		fmt.Fprintf(e.stdout, "Nothing was posted. aayu counsel %d --post posts it as a comment on the Decision (it needs write access).\n", n)
	}
	return tui.ExitOK
}

// counselResult is what runCounsel prints: the Decision's title, the
// counsel as its card shows it, and the posted comment's author and link.
type counselResult struct {
	title, card string
	poster, url string
}

// counsel neutralises the text into the comment (inbox.CounselBody) and
// reads the Decision (open, a Decision); with post it reads which account
// the write token acts as and its access (counselPoster), and with write
// it posts. Every reason it stops is an exitcode.Refusal in words.
func (w wiring) counsel(n int, text string, post, write bool) (counselResult, error) {
	ctx, sess := w.ctx, w.sess
	body, err := inbox.CounselBody(text)
	if err != nil {
		return counselResult{}, err
	}
	res := counselResult{card: tui.Sanitize(inbox.CounselShown(body))}
	var tok ghx.Token
	if post {
		tok, err = w.writeToken(ctx)
	} else {
		tok, _, err = sess.resolve(ctx)
	}
	if err != nil {
		return res, err
	}
	gh, err := sess.client(tok)
	if err != nil {
		return res, err
	}
	if res.title, err = decisionTitle(ctx, gh, sess.owner, sess.repo, n); err != nil {
		return res, err
	}
	if !post {
		return res, nil
	}
	if res.poster, err = counselPoster(ctx, gh, sess.owner, sess.repo, identityConfig(w.cfg).BotLogins); err != nil {
		return res, err
	}
	if !write {
		return res, nil
	}
	c, _, err := gh.Issues.CreateComment(ctx, sess.owner, sess.repo, n, &github.IssueComment{Body: github.String(body)})
	if err != nil {
		return res, fmt.Errorf("posting the counsel on #%d: %s", n, ghx.Describe(err))
	}
	res.url = c.GetHTMLURL()
	return res, nil
}

// decisionTitle reads issue n and refuses anything that is not an open
// Decision: only an open Decision has a card that shows counsel.
func decisionTitle(ctx context.Context, gh *github.Client, owner, repo string, n int) (string, error) {
	is, _, err := gh.Issues.Get(ctx, owner, repo, n)
	switch {
	case ghx.IsNotFound(err):
		return "", exitcode.Refuse("#%d is no issue of %s/%s that this token can see", n, owner, repo)
	case err != nil:
		return "", fmt.Errorf("reading #%d of %s/%s: %s", n, owner, repo, ghx.Describe(err))
	case is.IsPullRequest():
		return "", exitcode.Refuse("#%d is a pull request, not a Decision: counsel goes on a Decision's card", n)
	}
	title := tui.SanitizeLine(is.GetTitle())
	decision := false
	for _, l := range is.Labels {
		decision = decision || strings.EqualFold(l.GetName(), inbox.LabelDecision)
	}
	if !decision {
		return "", exitcode.Refuse("#%d (%s) is not a Decision: it has no %s label", n, title, inbox.LabelDecision)
	}
	if is.GetState() != "open" {
		return "", exitcode.Refuse("Decision #%d (%s) is closed: no card shows counsel for it", n, title)
	}
	return title, nil
}

// counselPoster is the login the token posts as, once it is known to be
// an account the inbox counts counsel from: not a bot (no rule counts a
// bot's comment) and with write access to the repository, as GitHub's
// collaborator permission says (repoPermission). GitHub lets anyone who can
// read a repository comment on its issues (a public repository's every
// signed-in account), so this is aayu's own rule, and the inbox applies the
// same one when it reads the comment back.
func counselPoster(ctx context.Context, gh *github.Client, owner, repo string, botLogins []string) (string, error) {
	u, resp, err := gh.Users.Get(ctx, "")
	switch {
	case resp != nil && resp.StatusCode == http.StatusForbidden:
		// An App's installation token cannot read /user.
		return "", exitcode.Refuse("this token cannot say which account it acts as (an App's installation token cannot), so its write access cannot be shown; the inbox counts counsel only from an account with write access")
	case err != nil:
		return "", fmt.Errorf("asking GitHub which account the token acts as: %s", ghx.Describe(err))
	}
	login := u.GetLogin()
	if identity.IsBot(identity.Account{Login: login, Bot: u.GetType() == "Bot"}, botLogins) {
		return "", exitcode.Refuse("@%s is a bot, and the inbox counts no bot's comment as counsel", login)
	}
	perm, err := repoPermission(ctx, gh, owner, repo, login)
	if err != nil {
		return "", err
	}
	if identity.ParseAccess(perm) < identity.AccessWrite {
		return "", exitcode.Refuse("@%s has %s access to %s/%s, and counsel counts only from an account with write access (the inbox ignores any other)", login, perm, owner, repo)
	}
	return login, nil
}
