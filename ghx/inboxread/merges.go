package inboxread

import (
	"context"
	"fmt"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
)

// ReadMerges reads only what the inbox's merge housekeeping judges (a
// Story merged without ship, a Bug whose fix merged): the settings, the
// open issues, the pull requests merged into the integration branch since
// the oldest open Story or Bug was opened (Read's own bound), and which of
// them a ship record or ship's trailers cover. It is Read's code for those
// facts, without the rest: no workflow runs and no GraphQL, so a token
// with contents, issues and pull requests read (the loops' App token)
// reads it. inbox.Derive on the snapshot finds those cards exactly as the
// inbox does; every other kind it finds is not read here and means
// nothing.
func (r *Reader) ReadMerges(ctx context.Context) (inbox.Snapshot, error) {
	s := r.newSession(ctx, nil)
	settings, err := s.settings()
	if err != nil {
		return inbox.Snapshot{}, err
	}
	snap := inbox.Snapshot{
		PRFacts:       map[int]inbox.PRFacts{},
		IssueComments: map[int][]identity.Comment{},
		AuditEntries:  map[int]bool{},
		Viewer:        r.opts.Viewer,
	}
	s.bots = settings.BotLogins
	snap.Approver, snap.IntegrationBranch = settings.Approver, settings.IntegrationBranch
	snap.SoloMode, snap.BotLogins = settings.SoloMode, settings.BotLogins
	open, err := s.listIssues(github.IssueListByRepoOptions{State: "open", Sort: "updated", Direction: "desc"})
	if err != nil {
		return inbox.Snapshot{}, fmt.Errorf("reading the open issues: %w", err)
	}
	for _, is := range open {
		s.note(is)
		if !is.IsPullRequest() {
			snap.Issues = append(snap.Issues, s.issue(is))
		}
	}
	if bound, ok := oldestOpen(&snap, inbox.LabelStory, inbox.LabelBug); ok {
		merged, err := listPulls(s, &github.PullRequestListOptions{State: "closed", Base: integrationOf(&snap), Sort: "updated", Direction: "desc"}, bound)
		if err != nil {
			return inbox.Snapshot{}, fmt.Errorf("reading the pull requests merged into %s: %w", integrationOf(&snap), err)
		}
		s.applyMergedPulls(&snap, merged)
	}
	if err := s.readShipRecords(&snap, nil); err != nil {
		return inbox.Snapshot{}, err
	}
	sortSnapshot(&snap)
	return snap, nil
}
