package inboxread

import (
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/checks"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/pass"

	"github.com/aayudha/aayu/model/untrusted"
)

// The conversions from go-github's types to the model's facts. Text stays
// untrusted.Text, which renders only sanitised; permissions are filled in
// later, only where a rule reads them.

func accountFrom(u *github.User) identity.Account {
	return identity.Account{Login: u.GetLogin(), Bot: u.GetType() == "Bot"}
}

func timeOf(t *github.Timestamp) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.Time.UTC()
}

func labelNames(labels []*github.Label) []untrusted.Label {
	var out []untrusted.Label
	for _, l := range labels {
		out = append(out, untrusted.Label(l.GetName()))
	}
	return out
}

func issueFrom(is *github.Issue) inbox.Issue {
	return inbox.Issue{
		Number:      is.GetNumber(),
		Title:       untrusted.Text(is.GetTitle()),
		Body:        untrusted.Text(is.GetBody()),
		State:       is.GetState(),
		StateReason: is.GetStateReason(),
		Labels:      labelNames(is.Labels),
		Author:      accountFrom(is.GetUser()),
		CreatedAt:   timeOf(is.CreatedAt),
		UpdatedAt:   timeOf(is.UpdatedAt),
		ClosedAt:    timeOf(is.ClosedAt),
	}
}

// pullFrom reads a pull request from pulls/list or pulls/get. The list's
// simple form has no "merged" field, so merged_at decides.
func pullFrom(pr *github.PullRequest) inbox.PullRequest {
	return inbox.PullRequest{
		Number:         pr.GetNumber(),
		Title:          untrusted.Text(pr.GetTitle()),
		Body:           untrusted.Text(pr.GetBody()),
		HeadRef:        untrusted.Ref(pr.GetHead().GetRef()),
		HeadSHA:        pr.GetHead().GetSHA(),
		BaseRef:        untrusted.Ref(pr.GetBase().GetRef()),
		State:          pr.GetState(),
		Draft:          pr.GetDraft(),
		Merged:         pr.GetMerged() || pr.MergedAt != nil,
		MergedAt:       timeOf(pr.MergedAt),
		MergeCommitSHA: pr.GetMergeCommitSHA(),
		Labels:         labelNames(pr.Labels),
		Author:         accountFrom(pr.GetUser()),
	}
}

func commentFrom(c *github.IssueComment) identity.Comment {
	return identity.Comment{
		ID:        c.GetID(),
		Author:    accountFrom(c.GetUser()),
		Body:      untrusted.Text(c.GetBody()),
		CreatedAt: timeOf(c.CreatedAt),
		UpdatedAt: timeOf(c.UpdatedAt),
		URL:       c.GetHTMLURL(),
	}
}

func reviewFrom(r *github.PullRequestReview) pass.Review {
	return pass.Review{
		ID:          r.GetID(),
		Author:      accountFrom(r.GetUser()),
		State:       r.GetState(),
		CommitID:    r.GetCommitID(),
		SubmittedAt: timeOf(r.SubmittedAt),
		URL:         r.GetHTMLURL(),
	}
}

// statusFrom reads a commit status; runsPath is the repository's
// (checks.RunsPath), under which the merge gate's own inspect is posted.
func statusFrom(s *github.RepoStatus, runsPath string) inbox.Status {
	c := checks.FromStatus(s.GetContext(), s.GetState(), s.GetCreator().GetLogin(), s.GetTargetURL())
	return inbox.Status{Context: untrusted.Context(s.GetContext()), State: s.GetState(), Description: untrusted.Text(s.GetDescription()),
		FromGate: checks.InspectFromGate(c, runsPath)}
}
