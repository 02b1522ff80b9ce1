package gatecomment

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
)

// ActionsBot is the account GITHUB_TOKEN writes as. The workflow token
// cannot read /user, so when the login cannot be read this is who the gate
// is taken to be.
const ActionsBot = "github-actions[bot]"

// Upserted says what Upsert did.
type Upserted struct {
	ID        int64
	URL       string
	Created   bool // a new comment; false: an existing one was updated or already said this
	Unchanged bool // the existing comment already had this body; nothing was written
}

// Upsert keeps one comment on pull request pr: the first comment written
// by login whose lines include marker is edited to body (or left alone when
// it already says exactly that); when there is none, one is created. A
// comment by anyone else that carries the marker is never touched and never
// counts, so nobody can plant a fake gate comment for aayu to adopt.
// body must contain marker as one of its lines. A write whose answer was
// lost is never repeated blindly: the comments are read again, and what is
// there decides (so a lost create never becomes two comments).
func Upsert(ctx context.Context, client *github.Client, owner, repo string, pr int, marker, body, login string) (Upserted, error) {
	body = actions.Neutralize(body)
	if !hasMarkerLine(body, marker) {
		return Upserted{}, fmt.Errorf("the comment for #%d does not carry its marker line; nothing was written", pr)
	}
	var out Upserted
	// Each try reads the comments first (upsertOnce), which is the re-read
	// ghx.WriteAgain asks for: what is there decides whether to write.
	err := ghx.Steps{Attempts: 3}.Retry(ctx, func(err error) bool { return errors.Is(err, ghx.ErrMayHaveLanded) }, func() (err error) {
		out, err = upsertOnce(ctx, client, owner, repo, pr, marker, body, login)
		return err
	})
	if errors.Is(err, ghx.ErrMayHaveLanded) {
		return Upserted{}, fmt.Errorf("writing the comment on #%d: %s", pr, ghx.Describe(err))
	}
	return out, err
}

func upsertOnce(ctx context.Context, client *github.Client, owner, repo string, pr int, marker, body, login string) (Upserted, error) {
	comments, err := ghx.ListAll(ctx, func(o *github.ListOptions) ([]*github.IssueComment, *github.Response, error) {
		return client.Issues.ListComments(ctx, owner, repo, pr, &github.IssueListCommentsOptions{ListOptions: *o})
	})
	if err != nil {
		return Upserted{}, fmt.Errorf("reading the comments of #%d: %s Nothing was written", pr, ghx.Describe(err))
	}
	for _, c := range comments {
		if !strings.EqualFold(c.GetUser().GetLogin(), login) || !hasMarkerLine(c.GetBody(), marker) {
			continue
		}
		if c.GetBody() == body {
			return Upserted{ID: c.GetID(), URL: c.GetHTMLURL(), Unchanged: true}, nil
		}
		edited, _, err := client.Issues.EditComment(ctx, owner, repo, c.GetID(), &github.IssueComment{Body: github.String(body)})
		if errors.Is(err, ghx.ErrMayHaveLanded) {
			return Upserted{}, err
		}
		if err != nil {
			return Upserted{}, fmt.Errorf("updating comment %d on #%d: %s", c.GetID(), pr, ghx.Describe(err))
		}
		return Upserted{ID: edited.GetID(), URL: edited.GetHTMLURL()}, nil
	}
	made, _, err := client.Issues.CreateComment(ctx, owner, repo, pr, &github.IssueComment{Body: github.String(body)})
	if errors.Is(err, ghx.ErrMayHaveLanded) {
		return Upserted{}, err
	}
	if err != nil {
		return Upserted{}, fmt.Errorf("commenting on #%d: %s", pr, ghx.Describe(err))
	}
	return Upserted{ID: made.GetID(), URL: made.GetHTMLURL(), Created: true}, nil
}

// hasMarkerLine reports whether one line of body is exactly marker, so the
// gate's marker inside an advisory comment's text (or the other way round)
// never matches by accident.
func hasMarkerLine(body, marker string) bool {
	for _, l := range strings.Split(body, "\n") {
		if strings.TrimRight(l, "\r ") == marker {
			return true
		}
	}
	return false
}

// Login is the account the client writes as: /user's login, or ActionsBot
// when GitHub forbids the token to read /user (the workflow token gets 403
// "Resource not accessible by integration").
func Login(ctx context.Context, client *github.Client) (string, error) {
	login, _, err := writer(ctx, client)
	return login, err
}

// writer is Login that also says whether the account is a person's (a
// User, not a Bot): the workflow's own token never is.
func writer(ctx context.Context, client *github.Client) (login string, person bool, err error) {
	u, resp, err := client.Users.Get(ctx, "")
	switch {
	case err != nil && resp != nil && resp.StatusCode == http.StatusForbidden:
		return ActionsBot, false, nil
	case err != nil:
		return "", false, fmt.Errorf("reading which account this token writes as: %s", ghx.Describe(err))
	case u.GetLogin() == "":
		return ActionsBot, false, nil
	}
	return u.GetLogin(), u.GetType() == "User", nil
}
