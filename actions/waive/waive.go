// Package waive is the core of `aayu waive PR --floor NAME --why TEXT`:
// the person opens a floor-waiver Decision (model/waiver) for the pull
// request's current head. Opening it waives nothing: the Decision is a
// one-way door the person accepts with aayu decide (the device code by
// default), and only then does ship take the floor as waived.
package waive

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/exitcode"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/model/waiver"
)

// Refusal is a reason nothing may be written, in words (exit 4).
type Refusal = exitcode.Refusal

// Command is the command as the person types it.
func Command(pr int, floor string) string {
	return fmt.Sprintf("aayu waive %d --floor %s", pr, floor)
}

// ParsePR reads the pull request's number.
func ParsePR(arg string) (int, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(arg), "#"))
	if err != nil || n < 1 {
		return 0, fmt.Errorf("the pull request is a number of 1 or more, such as 6; got %q", arg)
	}
	return n, nil
}

// Options say what to waive and where.
type Options struct {
	Client      *github.Client
	Owner, Repo string
	PR          int
	Floor, Why  string
	// Head, when given, must be the pull request's current head: the
	// person names the head they read the failing floor of.
	Head string
}

// Plan is what Read found: the waiver to open, or the open Decision that
// already asks for it.
type Plan struct {
	Request waiver.Request
	// Existing is an open floor-waiver Decision that already waives this
	// floor of this head; then nothing is opened.
	Existing int
}

// Read reads the pull request and the open floor-waiver Decisions, and
// plans the waiver, or refuses with a *Refusal naming why.
func Read(ctx context.Context, o Options) (Plan, error) {
	pull, _, err := o.Client.PullRequests.Get(ctx, o.Owner, o.Repo, o.PR)
	if ghx.IsNotFound(err) {
		return Plan{}, exitcode.Refuse("%s/%s has no pull request #%d", o.Owner, o.Repo, o.PR)
	}
	if err != nil {
		return Plan{}, fmt.Errorf("reading pull request #%d: %s", o.PR, ghx.Describe(err))
	}
	head := pull.GetHead().GetSHA()
	switch {
	case pull.GetState() != "open":
		return Plan{}, exitcode.Refuse("pull request #%d is %s, and a waiver lets ship take an open pull request's head", o.PR, pull.GetState())
	case o.Head != "" && !strings.EqualFold(o.Head, head) && !(len(o.Head) < 40 && strings.HasPrefix(head, strings.ToLower(o.Head))):
		return Plan{}, exitcode.Refuse("--head %s is not pull request #%d's head, which is %s now; a waiver covers one head, the one whose failing floor you read", gitsha.Short(o.Head), o.PR, gitsha.Short(head))
	}
	// The reason reaches GitHub neutralised, on one line, like every text
	// aayu writes.
	q := waiver.Request{PR: o.PR, Head: head, Floor: o.Floor, Why: untrusted.Line(waiver.OneLine(o.Why))}
	if stories := inbox.LinkedIssues(pull.GetHead().GetRef(), ""); len(stories) == 1 {
		q.Story = stories[0]
	}
	if why := q.Check(); why != "" {
		return Plan{}, exitcode.Refuse("%s", why)
	}
	open, err := ghx.ListAll(ctx, func(lo *github.ListOptions) ([]*github.Issue, *github.Response, error) {
		return o.Client.Issues.ListByRepo(ctx, o.Owner, o.Repo, &github.IssueListByRepoOptions{State: "open", Labels: []string{waiver.Label}, ListOptions: *lo})
	})
	if err != nil {
		return Plan{}, fmt.Errorf("reading the open floor-waiver Decisions: %s", ghx.Describe(err))
	}
	for _, is := range open {
		if got, err := waiver.Parse(is.GetBody()); err == nil && !is.IsPullRequest() && got.PR == q.PR && got.Head == q.Head && got.Floor == q.Floor {
			return Plan{Request: q, Existing: is.GetNumber()}, nil
		}
	}
	return Plan{Request: q}, nil
}

// Open opens the waiver Decision and returns its number and link.
func Open(ctx context.Context, client *github.Client, owner, repo string, p Plan) (int, string, error) {
	labels := []string{waiver.LabelDecision, waiver.Label}
	is, _, err := client.Issues.Create(ctx, owner, repo, &github.IssueRequest{
		Title: github.String(waiver.Title(p.Request)), Body: github.String(waiver.Body(p.Request)), Labels: &labels})
	if err != nil {
		return 0, "", fmt.Errorf("opening the waiver Decision: %s", ghx.Describe(err))
	}
	have := map[string]bool{}
	for _, l := range is.Labels {
		have[strings.ToLower(l.GetName())] = true
	}
	if !have[waiver.LabelDecision] || !have[waiver.Label] {
		// GitHub drops labels it will not set on creation; add-labels
		// creates a missing one, so the Decision is never left unlabelled.
		if _, _, err := client.Issues.AddLabelsToIssue(ctx, owner, repo, is.GetNumber(), labels); err != nil {
			return is.GetNumber(), is.GetHTMLURL(), fmt.Errorf("labelling the waiver Decision #%d %s and %s: %s", is.GetNumber(), waiver.LabelDecision, waiver.Label, ghx.Describe(err))
		}
	}
	return is.GetNumber(), is.GetHTMLURL(), nil
}
