package cli

import (
	"fmt"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/ghx"
)

// answerWithoutTheApp answers a batch reply on its thread when the run
// could not mint the aayudha App's token: the reply is refused, and
// without an answer the person who replied from a phone hears nothing.
// The answer goes out with the job's own GITHUB_TOKEN (issues: write, the
// one write aayudha-approve.yml grants it), which never applies anything,
// and says so. The reply is read again through the API (the event file
// only says which comment); a comment that is no batch reply gets no
// answer, so the workflow's own answers never start a loop.
func (w wiring) answerWithoutTheApp(ev commentEvent) {
	ctx, e, sess := w.ctx, w.e, w.sess
	jobTok := strings.TrimSpace(e.getenv("GITHUB_TOKEN"))
	if jobTok == "" {
		fmt.Fprintln(e.stderr, "aayu approve --ci: no GITHUB_TOKEN either, so the refusal is not answered on the thread.")
		return
	}
	gh, err := sess.client(ghx.NewToken(jobTok, "GITHUB_TOKEN"))
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu approve --ci: %v\n", err)
		return
	}
	comments, err := listComments(ctx, gh, sess.owner, sess.repo, ev.Issue.Number)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu approve --ci: reading the comments of #%d: %s\n", ev.Issue.Number, ghx.Describe(err))
		return
	}
	var c *github.IssueComment
	for _, cm := range comments {
		if cm.GetID() == ev.Comment.ID {
			c = cm
		}
	}
	if c == nil {
		fmt.Fprintf(e.stderr, "aayu approve --ci: comment %d is not on #%d\n", ev.Comment.ID, ev.Issue.Number)
		return
	}
	if _, hash, ok := approve.ParseReply(c.GetBody()); ok {
		body := noAppAnswer(c.GetUser().GetLogin(), hash)
		if _, _, err := gh.Issues.CreateComment(ctx, sess.owner, sess.repo, ev.Issue.Number, &github.IssueComment{Body: github.String(actions.Neutralize(body))}); err != nil {
			fmt.Fprintf(e.stderr, "aayu approve --ci: answering on #%d: %s\n", ev.Issue.Number, ghx.Describe(err))
		}
	}
}

// noAppAnswer is the answer to a batch reply a run without the App's
// token refuses: the reason, that the job's own token posted it, and the
// next step.
func noAppAnswer(login, hash string) string {
	return fmt.Sprintf("@%s batch %s was not applied: this run could not mint the aayudha App's token "+
		"(the variable AAYUDHA_APP_CLIENT_ID or the secret AAYUDHA_APP_PRIVATE_KEY is missing, or the App is not installed on this repository), "+
		"and no reply is applied without the App. This answer is posted with the workflow job's own GITHUB_TOKEN, which applies nothing.\n\n"+
		"Next: approve the device code in the batch comment, or run `aayu approve %s` at your own terminal; "+
		"to approve by reply, create and install the App with `aayu init --identity --bot-app`.", login, hash, hash)
}
