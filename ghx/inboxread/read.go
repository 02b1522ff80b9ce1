package inboxread

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
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
	s := r.newSession(ctx, nil)
	// What depends on nothing else is asked at once, beside the lists:
	// at most three requests in flight, within GitHub's guidance.
	if !r.opts.PerItem {
		s.future = startPullFacts(s)
		defer s.future.wait()
	}
	s.gateFirst = startGateRuns(s)
	defer s.gateFirst.wait()
	var (
		viewer  *github.User
		errUser error
		errMark error
		asked   = make(chan struct{})
	)
	go func() {
		defer close(asked)
		if r.opts.Viewer != "" {
			viewer = &github.User{Login: github.String(r.opts.Viewer)}
		} else {
			viewer, _, errUser = r.gh.Users.Get(ctx, "")
		}
		if errUser != nil {
			return
		}
		// Ask the refresh's question once now, for this moment: the first
		// Refresh asks the same one and is answered 304; and the workflow
		// runs' page they ask beside it, so the next asks (this process's
		// or the next one's) are 304s too.
		if _, err := s.changedSince(readAt); err != nil {
			errMark = fmt.Errorf("reading what changed on GitHub: %w", err)
		} else if _, err := s.readRunsPage(); err != nil {
			errMark = fmt.Errorf("reading which workflows ran: %w", err)
		}
	}()
	// Which repository this is, so a refresh can tell it from one created
	// again under the same name (see Refresh).
	ident := startIdentity(s)
	snap, err := r.readAll(s)
	<-asked
	repoID, errRepo := ident.wait()
	switch {
	case errUser != nil:
		return inbox.Snapshot{}, fmt.Errorf("reading who you are on GitHub: %w", errUser)
	case errMark != nil:
		return inbox.Snapshot{}, errMark
	case err != nil:
		return inbox.Snapshot{}, err
	case errRepo != nil:
		return inbox.Snapshot{}, errRepo
	}
	snap.Viewer = viewer.GetLogin()
	snap.Repository = repoID
	r.mu.Lock()
	r.readAt = readAt
	r.mu.Unlock()
	r.remember(s.seen, s.readAt())
	return snap, nil
}

// readAll reads the settings beside the open issues, then the rest of the
// items and their details.
func (r *Reader) readAll(s *session) (inbox.Snapshot, error) {
	var (
		settings    Settings
		errSettings error
		got         = make(chan struct{})
	)
	go func() {
		defer close(got)
		settings, errSettings = s.settings()
	}()
	snap := inbox.Snapshot{
		PRFacts:       map[int]inbox.PRFacts{},
		IssueComments: map[int][]identity.Comment{},
		AuditEntries:  map[int]bool{},
	}
	withSettings := func() error {
		<-got
		if errSettings != nil {
			return errSettings
		}
		s.bots = settings.BotLogins
		snap.Approver, snap.IntegrationBranch = settings.Approver, settings.IntegrationBranch
		snap.SoloMode, snap.BotLogins = settings.SoloMode, settings.BotLogins
		return nil
	}
	if err := s.readItems(&snap, withSettings); err != nil {
		<-got
		return inbox.Snapshot{}, err
	}
	return snap, nil
}

func (s *session) readItems(snap *inbox.Snapshot, withSettings func() error) error {
	// The lists that need no bound start beside the open issues.
	var (
		l         lists
		errsEarly [2]error
		early     sync.WaitGroup
	)
	early.Add(2)
	go func() {
		defer early.Done()
		// The GraphQL pages hold the open pull requests themselves too;
		// REST's list is the way when GraphQL is not to be had.
		if s.future != nil {
			if pulls, err := s.future.wait(); err == nil {
				l.openGraph = pulls
				return
			}
		}
		l.openPulls, errsEarly[0] = listPulls(s, &github.PullRequestListOptions{State: "open", Sort: "updated", Direction: "desc"}, time.Time{})
		errsEarly[0] = wrapErr(errsEarly[0], "reading the open pull requests")
	}()
	go func() {
		defer early.Done()
		l.labelled, errsEarly[1] = s.listIssues(github.IssueListByRepoOptions{State: "closed", Labels: []string{inbox.LabelAudit}})
		errsEarly[1] = wrapErr(errsEarly[1], "reading the pull requests waiting for an audit")
	}()
	defer early.Wait()
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
		snap.Issues = append(snap.Issues, s.issue(is))
	}
	if err := withSettings(); err != nil {
		return err
	}
	if err := s.readLists(snap, &l); err != nil {
		return err
	}
	early.Wait()
	for _, err := range errsEarly {
		if err != nil {
			return err
		}
	}
	if err := s.applyOpenPulls(snap, openPRs, l); err != nil {
		return err
	}
	if err := s.readBasePolicies(snap); err != nil {
		return err
	}
	s.applyReplacers(snap, l.closed)
	s.applyMergedPulls(snap, l.merged)
	// The audits' reads overlap the issues' details: neither needs the
	// other, and the pull requests' details need neither.
	audits := s.startAudits(snap, l.labelled)
	s.progress(snap)
	errIssues := s.issueDetailsAll(snap)
	errAudits := audits.apply(s, snap)
	if err := errors.Join(errIssues, errAudits); err != nil {
		return err
	}
	s.progress(snap)
	var numbers []int
	for _, pr := range snap.PullRequests {
		numbers = append(numbers, pr.Number)
	}
	if err := s.pullDetails(snap, numbers); err != nil {
		return err
	}
	if err := s.readShipRecords(snap, nil); err != nil {
		return err
	}
	if err := s.readReviewRecords(snap, nil); err != nil {
		return err
	}
	if err := s.readStoryLoop(snap, nil); err != nil {
		return err
	}
	sortSnapshot(snap)
	return nil
}

// lists are what a full read lists besides the open issues: the
// open pull requests (heads and bases); the closed issues that may replace
// an open one (an issue can only say "Replaces #N" once #N exists, so only
// those updated since the oldest open issue was opened); the pull requests
// merged into the integration branch, newest update first, until older
// than the oldest open Story or Bug; the closed items labelled aayu:audit.
// None depends on another, so they are read side by side; the closed
// issues and merged pull requests wait only for the open issues' bound.
type lists struct {
	openPulls, merged []*github.PullRequest
	openGraph         map[int]gqlPull // the open pull requests from GraphQL, when it answered
	closed, labelled  []*github.Issue
}

func (s *session) readLists(snap *inbox.Snapshot, l *lists) error {
	var (
		errs [2]error
		wg   sync.WaitGroup
	)
	if bound, ok := oldestOpen(snap); ok {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.closed, errs[0] = s.listIssues(github.IssueListByRepoOptions{State: "closed", Since: bound, Sort: "updated", Direction: "desc"})
			errs[0] = wrapErr(errs[0], "reading the closed issues")
		}()
	}
	if bound, ok := oldestOpen(snap, inbox.LabelStory, inbox.LabelBug); ok {
		l.merged, errs[1] = listPulls(s, &github.PullRequestListOptions{State: "closed", Base: integrationOf(snap), Sort: "updated", Direction: "desc"}, bound)
		errs[1] = wrapErr(errs[1], "reading the pull requests merged into "+integrationOf(snap))
	}
	wg.Wait()
	return errors.Join(errs[:]...)
}

func wrapErr(err error, doing string) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", doing, err)
}

// applyOpenPulls takes heads and bases from the GraphQL pages or the pulls
// list; a pull request the issues list showed open but these missed (it
// closed in between, or it has more labels than a page) is read on its own.
func (s *session) applyOpenPulls(snap *inbox.Snapshot, want map[int]bool, l lists) error {
	got := map[int]bool{}
	for n, g := range l.openGraph {
		pr, whole := g.pull()
		if !whole {
			continue // read on its own below
		}
		got[n] = true
		s.seen[n] = g.UpdatedAt.UTC()
		s.created[n] = g.CreatedAt.UTC()
		snap.PullRequests = append(snap.PullRequests, pr)
	}
	for _, pr := range l.openPulls {
		got[pr.GetNumber()] = true
		s.seen[pr.GetNumber()] = timeOf(pr.UpdatedAt)
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

// applyReplacers keeps the closed issues that replace an open one.
func (s *session) applyReplacers(snap *inbox.Snapshot, closed []*github.Issue) {
	open := openIssues(snap)
	for _, is := range closed {
		s.note(is)
		if is.IsPullRequest() {
			continue
		}
		for _, n := range inbox.ReplacedIssues(is.GetBody()) {
			if _, ok := open[n]; ok && n != is.GetNumber() {
				snap.Issues = append(snap.Issues, s.issue(is))
				break
			}
		}
	}
}

// applyMergedPulls keeps the merged pull requests that link an open Story
// or Bug.
func (s *session) applyMergedPulls(snap *inbox.Snapshot, list []*github.PullRequest) {
	open := openIssues(snap)
	for _, gpr := range list {
		s.seen[gpr.GetNumber()] = timeOf(gpr.UpdatedAt)
		pr := pullFrom(gpr)
		if pr.Merged && linksOpen(open, pr, inbox.LabelStory, inbox.LabelBug) {
			snap.PullRequests = append(snap.PullRequests, pr)
		}
	}
}

// auditsFuture reads, beside the issues' details, the merged pull
// requests labelled aayu:audit that no list brought and, when there are
// any such pull requests, the ledger's audit entries.
type auditsFuture struct {
	done     chan struct{}
	pulls    []*github.PullRequest
	entries  map[int]bool
	tampered map[int]string
	err      error
}

func (s *session) startAudits(snap *inbox.Snapshot, labelled []*github.Issue) *auditsFuture {
	have := map[int]bool{}
	for _, pr := range snap.PullRequests {
		have[pr.Number] = true
	}
	var missing []int
	for _, is := range labelled {
		s.note(is)
		if !is.IsPullRequest() || is.GetPullRequestLinks().MergedAt == nil {
			continue
		}
		if !have[is.GetNumber()] {
			missing = append(missing, is.GetNumber())
			have[is.GetNumber()] = true
		}
	}
	f := &auditsFuture{done: make(chan struct{})}
	go func() {
		defer close(f.done)
		get := func(n int) (*github.PullRequest, error) {
			pr, _, err := s.r.gh.PullRequests.Get(s.ctx, s.r.owner, s.r.repo, n)
			if err != nil {
				return nil, fmt.Errorf("reading pull request #%d: %w", n, err)
			}
			return pr, nil
		}
		for _, n := range missing {
			pr, err := get(n)
			if err != nil {
				f.err = err
				return
			}
			f.pulls = append(f.pulls, pr)
		}
		// The ledger entry, not the label, keeps an audit on the inbox (a
		// look removes it last), so a merge whose label is gone but whose
		// entry stays is read too. Listing the folder is one conditional
		// request.
		f.entries, f.tampered, f.err = s.auditEntries()
		if f.err != nil {
			return
		}
		for n := range f.entries {
			if have[n] {
				continue
			}
			pr, err := get(n)
			if ghx.IsNotFound(err) {
				continue
			}
			if err != nil {
				f.err = err
				return
			}
			if pr.GetMerged() || pr.MergedAt != nil {
				f.pulls = append(f.pulls, pr)
			}
		}
	}()
	return f
}

// apply waits for the reads and keeps what they found.
func (f *auditsFuture) apply(s *session, snap *inbox.Snapshot) error {
	<-f.done
	if f.err != nil {
		return f.err
	}
	for _, pr := range f.pulls {
		s.seen[pr.GetNumber()] = timeOf(pr.UpdatedAt)
		s.comments[pr.GetNumber()] = pr.GetComments()
		s.created[pr.GetNumber()] = timeOf(pr.CreatedAt)
		snap.PullRequests = append(snap.PullRequests, pullFrom(pr))
	}
	for n := range f.entries {
		snap.AuditEntries[n] = true
	}
	snap.AuditTampering = f.tampered
	return nil
}

// issueDetailsAll reads the details of every issue that can become a step.
func (s *session) issueDetailsAll(snap *inbox.Snapshot) error {
	for i, is := range snap.Issues {
		if err := s.issueDetails(snap, i); err != nil {
			return fmt.Errorf("reading issue #%d: %w", is.Number, err)
		}
	}
	return nil
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
	if len(inbox.ReplacedIssues(is.Body.Raw())) > 0 {
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
	batch := s.batchFacts(index, numbers)
	heads := map[int]string{}
	for _, n := range numbers {
		pr, ok := index[n]
		delete(snap.PRFacts, n)
		if !ok || !pr.Open() {
			continue
		}
		facts, needGate, fromBatch, err := inbox.PRFacts{}, false, false, error(nil)
		if g, inBatch := batch[n]; inBatch {
			facts, needGate, fromBatch, err = s.factsFrom(open, pr, g)
		}
		if !fromBatch && err == nil {
			facts, needGate, err = s.pullFacts(open, pr)
		}
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

// batchFacts reads the facts of many open pull requests through GraphQL,
// a page of 100 per request; nil for a few, or when GraphQL fails (REST,
// item by item, then reads them).
func (s *session) batchFacts(index map[int]inbox.PullRequest, numbers []int) map[int]gqlPull {
	n := 0
	for _, num := range numbers {
		if pr, ok := index[num]; ok && pr.Open() {
			n++
		}
	}
	if n < batchFrom || s.r.opts.PerItem {
		return nil
	}
	var (
		batch map[int]gqlPull
		err   error
	)
	if s.future != nil {
		batch, err = s.future.wait()
	} else {
		batch, err = s.openPullFacts()
	}
	if err != nil {
		s.r.logf("reading the pull requests' facts in pages through GraphQL failed (%v); reading them one by one", err)
		return nil
	}
	return batch
}

// listPulls pages a pulls list; with a bound, it ends at the first pull
// request updated before it (the list is sorted by update, newest first),
// the pages down to it read side by side as listPages reads a whole list.
func listPulls(s *session, opts *github.PullRequestListOptions, bound time.Time) ([]*github.PullRequest, error) {
	var stop func(*github.PullRequest) bool
	if !bound.IsZero() {
		stop = func(pr *github.PullRequest) bool { return timeOf(pr.UpdatedAt).Before(bound) }
	}
	return listPagesUntil(s.ctx, func(ctx context.Context, lo *github.ListOptions) ([]*github.PullRequest, *github.Response, error) {
		o := *opts
		o.ListOptions = *lo
		return s.r.gh.PullRequests.List(ctx, s.r.owner, s.r.repo, &o)
	}, stop)
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
