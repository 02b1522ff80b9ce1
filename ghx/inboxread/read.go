package inboxread

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
)

// Read reads everything the inbox judges, cheaply: the viewer; the
// settings; the open issues and pull requests (one list, split by its
// pull_request field) and the open pull requests' heads and bases (one
// list); only the closed items that can still make a step — issues that
// replace an open one, pull requests merged into the integration branch
// since the oldest open Story or Bug was opened, pull requests labelled
// aayu:audit with the ledger's audit entries; and per-item details only
// for items that can become a step (a Decision's comments, an open pull
// request's status, comments, reviews and merge-gate run).
func (r *Reader) Read(ctx context.Context) (inbox.Snapshot, error) {
	readAt := r.opts.Now().UTC().Truncate(time.Second)
	viewer, _, err := r.gh.Users.Get(ctx, "")
	if err != nil {
		return inbox.Snapshot{}, fmt.Errorf("reading who you are on GitHub: %w", err)
	}
	s := r.newSession(ctx, nil)
	settings, err := s.settings()
	if err != nil {
		return inbox.Snapshot{}, err
	}
	s.bots = settings.BotLogins
	snap := inbox.Snapshot{
		Viewer:            viewer.GetLogin(),
		Approver:          settings.Approver,
		IntegrationBranch: settings.IntegrationBranch,
		SoloMode:          settings.SoloMode,
		BotLogins:         settings.BotLogins,
		PRFacts:           map[int]inbox.PRFacts{},
		IssueComments:     map[int][]identity.Comment{},
		AuditEntries:      map[int]bool{},
	}
	// Ask the refresh's question once now, for this moment: the first
	// Refresh asks the same one and is answered 304.
	if _, err := s.changedSince(readAt); err != nil {
		return inbox.Snapshot{}, fmt.Errorf("reading what changed on GitHub: %w", err)
	}
	if err := s.readItems(&snap); err != nil {
		return inbox.Snapshot{}, err
	}
	r.mu.Lock()
	r.readAt = readAt
	r.mu.Unlock()
	r.remember(s.seen)
	return snap, nil
}

func (s *session) readItems(snap *inbox.Snapshot) error {
	open, err := s.listIssues(github.IssueListByRepoOptions{State: "open", Sort: "updated", Direction: "desc"})
	if err != nil {
		return fmt.Errorf("reading the open issues and pull requests: %w", err)
	}
	openPRs := map[int]bool{}
	for _, is := range open {
		s.note(is)
		if is.IsPullRequest() {
			openPRs[is.GetNumber()] = true
			continue
		}
		snap.Issues = append(snap.Issues, issueFrom(is))
	}
	for _, step := range []func(*inbox.Snapshot) error{
		func(sn *inbox.Snapshot) error { return s.readOpenPulls(sn, openPRs) },
		s.readReplacers, s.readMergedPulls, s.readAudits, s.readDetails,
		func(sn *inbox.Snapshot) error { return s.readShipRecords(sn, nil) },
	} {
		if err := step(snap); err != nil {
			return err
		}
	}
	sortSnapshot(snap)
	return nil
}

// readOpenPulls takes heads and bases from one pulls list; a pull request
// the issues list showed open but this list missed (it closed in between)
// is read on its own.
func (s *session) readOpenPulls(snap *inbox.Snapshot, want map[int]bool) error {
	if len(want) == 0 {
		return nil
	}
	list, err := listPulls(s, &github.PullRequestListOptions{State: "open", Sort: "updated", Direction: "desc"}, time.Time{})
	if err != nil {
		return fmt.Errorf("reading the open pull requests: %w", err)
	}
	got := map[int]bool{}
	for _, pr := range list {
		got[pr.GetNumber()] = true
		s.created[pr.GetNumber()] = timeOf(pr.CreatedAt)
		snap.PullRequests = append(snap.PullRequests, pullFrom(pr))
	}
	for n := range want {
		if got[n] {
			continue
		}
		pr, err := s.getPull(n)
		if err != nil {
			return err
		}
		snap.PullRequests = append(snap.PullRequests, pullFrom(pr))
	}
	return nil
}

// readReplacers reads the closed issues that may replace an open one: an
// issue can only say "Replaces #N" once #N exists, so only closed issues
// updated since the oldest open issue was opened are listed.
func (s *session) readReplacers(snap *inbox.Snapshot) error {
	bound, ok := oldestOpen(snap)
	if !ok {
		return nil
	}
	closed, err := s.listIssues(github.IssueListByRepoOptions{State: "closed", Since: bound, Sort: "updated", Direction: "desc"})
	if err != nil {
		return fmt.Errorf("reading the closed issues: %w", err)
	}
	open := openIssues(snap)
	for _, is := range closed {
		s.note(is)
		if is.IsPullRequest() {
			continue
		}
		for _, n := range inbox.ReplacedIssues(is.GetBody()) {
			if _, ok := open[n]; ok && n != is.GetNumber() {
				snap.Issues = append(snap.Issues, issueFrom(is))
				break
			}
		}
	}
	return nil
}

// readMergedPulls reads the pull requests merged into the integration
// branch that link an open Story or Bug, newest update first, only until
// they are older than the oldest open Story or Bug.
func (s *session) readMergedPulls(snap *inbox.Snapshot) error {
	bound, ok := oldestOpen(snap, inbox.LabelStory, inbox.LabelBug)
	if !ok {
		return nil
	}
	list, err := listPulls(s, &github.PullRequestListOptions{State: "closed", Base: integrationOf(snap), Sort: "updated", Direction: "desc"}, bound)
	if err != nil {
		return fmt.Errorf("reading the pull requests merged into %s: %w", integrationOf(snap), err)
	}
	open := openIssues(snap)
	for _, gpr := range list {
		pr := pullFrom(gpr)
		if pr.Merged && linksOpen(open, pr, inbox.LabelStory, inbox.LabelBug) {
			snap.PullRequests = append(snap.PullRequests, pr)
		}
	}
	return nil
}

// readAudits reads the merged pull requests labelled aayu:audit and, when
// there are any, the ledger's audit entries.
func (s *session) readAudits(snap *inbox.Snapshot) error {
	labelled, err := s.listIssues(github.IssueListByRepoOptions{State: "closed", Labels: []string{inbox.LabelAudit}})
	if err != nil {
		return fmt.Errorf("reading the pull requests waiting for an audit: %w", err)
	}
	have := map[int]bool{}
	for _, pr := range snap.PullRequests {
		have[pr.Number] = true
	}
	for _, is := range labelled {
		s.note(is)
		if !is.IsPullRequest() || is.GetPullRequestLinks().MergedAt == nil {
			continue
		}
		if have[is.GetNumber()] {
			continue
		}
		pr, err := s.getPull(is.GetNumber())
		if err != nil {
			return err
		}
		snap.PullRequests = append(snap.PullRequests, pullFrom(pr))
		have[is.GetNumber()] = true
	}
	// The ledger entry, not the label, keeps an audit on the inbox (a look
	// removes it last), so a merge whose label is gone but whose entry
	// stays is read too. Listing the folder is one conditional request.
	entries, err := s.auditEntries()
	if err != nil {
		return err
	}
	for n := range entries {
		snap.AuditEntries[n] = true
		if have[n] {
			continue
		}
		pr, err := s.getPull(n)
		if ghx.IsNotFound(err) {
			continue
		}
		if err != nil {
			return err
		}
		if p := pullFrom(pr); p.Merged {
			snap.PullRequests = append(snap.PullRequests, p)
			have[n] = true
		}
	}
	return nil
}

// readDetails reads the per-item facts of every item that can become a
// step, then the merge gate once for all pull requests that need it.
func (s *session) readDetails(snap *inbox.Snapshot) error {
	for i, is := range snap.Issues {
		if err := s.issueDetails(snap, i); err != nil {
			return fmt.Errorf("reading issue #%d: %w", is.Number, err)
		}
	}
	var numbers []int
	for _, pr := range snap.PullRequests {
		numbers = append(numbers, pr.Number)
	}
	return s.pullDetails(snap, numbers)
}

// issueDetails reads what an issue's step depends on beyond the issue: a
// Decision's comments (counsel counts only from write access), and the
// author's permission when the body replaces another issue.
func (s *session) issueDetails(snap *inbox.Snapshot, i int) error {
	is := &snap.Issues[i]
	delete(snap.IssueComments, is.Number)
	if is.Open() && is.HasLabel(inbox.LabelDecision) {
		comments, err := s.commentsOf(is.Number)
		if err != nil {
			return err
		}
		if len(comments) > 0 {
			snap.IssueComments[is.Number] = comments
		}
	}
	if len(inbox.ReplacedIssues(is.Body)) > 0 {
		return s.fillPermission(&is.Author)
	}
	return nil
}

// pullDetails reads the facts of the listed pull requests that are open,
// and the merge gate for those a "Ready to ship" comment waits on.
func (s *session) pullDetails(snap *inbox.Snapshot, numbers []int) error {
	open := openIssues(snap)
	index := map[int]inbox.PullRequest{}
	for _, pr := range snap.PullRequests {
		index[pr.Number] = pr
	}
	heads := map[int]string{}
	for _, n := range numbers {
		pr, ok := index[n]
		delete(snap.PRFacts, n)
		if !ok || !pr.Open() {
			continue
		}
		facts, needGate, err := s.pullFacts(open, pr)
		if err != nil {
			return err
		}
		snap.PRFacts[n] = facts
		if needGate {
			heads[n] = pr.HeadSHA
		}
	}
	gates, err := s.gateConclusions(heads)
	if err != nil {
		return err
	}
	for n, conclusion := range gates {
		facts := snap.PRFacts[n]
		facts.MergeGate = conclusion
		snap.PRFacts[n] = facts
	}
	return nil
}

// listPulls pages a pulls list; with a bound, it stops at the first pull
// request updated before it (the list is sorted by update, newest first).
func listPulls(s *session, opts *github.PullRequestListOptions, bound time.Time) ([]*github.PullRequest, error) {
	o := *opts
	o.ListOptions = github.ListOptions{PerPage: 100, Page: 1}
	var out []*github.PullRequest
	for pages := 1; ; pages++ {
		list, resp, err := s.r.gh.PullRequests.List(s.ctx, s.r.owner, s.r.repo, &o)
		if err != nil {
			return out, err
		}
		for _, pr := range list {
			if !bound.IsZero() && timeOf(pr.UpdatedAt).Before(bound) {
				return out, nil
			}
			s.seen[pr.GetNumber()] = timeOf(pr.UpdatedAt)
			out = append(out, pr)
		}
		if resp.NextPage == 0 || resp.NextPage <= o.Page {
			return out, nil
		}
		if pages >= ghx.MaxListPages {
			return out, fmt.Errorf("stopped after %d pages of pull requests: %w", pages, ghx.ErrTooManyPages)
		}
		o.Page = resp.NextPage
	}
}

// changedSince is the refresh's one question: every issue and pull
// request updated since then (less the clock skew), oldest first.
func (s *session) changedSince(since time.Time) ([]*github.Issue, error) {
	q := since.UTC().Add(-clockSkew).Truncate(time.Second)
	return s.listIssues(github.IssueListByRepoOptions{State: "all", Since: q, Sort: "updated", Direction: "asc"})
}

// oldestOpen is the creation time of the oldest open issue carrying one of
// labels (any open issue when none are given).
func oldestOpen(snap *inbox.Snapshot, labels ...string) (time.Time, bool) {
	var oldest time.Time
	found := false
	for _, is := range snap.Issues {
		if !is.Open() || (len(labels) > 0 && !anyLabel(is, labels)) {
			continue
		}
		if !found || is.CreatedAt.Before(oldest) {
			oldest, found = is.CreatedAt, true
		}
	}
	return oldest, found
}

func anyLabel(is inbox.Issue, labels []string) bool {
	for _, l := range labels {
		if is.HasLabel(l) {
			return true
		}
	}
	return false
}

func integrationOf(snap *inbox.Snapshot) string {
	if snap.IntegrationBranch == "" {
		return "dev"
	}
	return snap.IntegrationBranch
}

func sortSnapshot(snap *inbox.Snapshot) {
	sort.SliceStable(snap.Issues, func(i, j int) bool { return snap.Issues[i].Number < snap.Issues[j].Number })
	sort.SliceStable(snap.PullRequests, func(i, j int) bool { return snap.PullRequests[i].Number < snap.PullRequests[j].Number })
}
