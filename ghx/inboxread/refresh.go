package inboxread

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/inbox"
)

// Refresh asks GitHub only what changed since the last read: one
// issues?state=all&since= query through the client's ETag cache (with
// nothing changed, a request that GitHub answers 304), then the details
// of the changed items only, merged into prev. since is the moment prev
// was read (LastReadAt, or the time LoadCache returned); zero means
// LastReadAt. Keeping since at the last full read, rather than moving it
// on each refresh, is what lets an unchanged answer be a 304.
//
// Beside that question it asks page 1 of the repository's workflow runs
// (also conditional), for what does not move an updated_at: the merge
// gate finishing, the inspect workflow setting its status, a workflow
// writing the ledger. Only when that page changed are the open pull
// requests' facts and the audit entries read again. A commit status set
// outside any workflow is seen by the next Read or by Reread, never here.
// prev must be the snapshot the last Read or Refresh returned: what the
// reader saw of pull requests is remembered with it.
//
// The same page says which repository this is: each run names its
// repository's id. When that is not the repository prev was read from —
// deleted and created again, or the sandbox reset — nothing "since" says
// can be trusted against prev (the new repository's items may be older
// than the last read and reuse its numbers), so Refresh reads everything
// instead. Only when no workflow ran in the repository yet is the
// repository itself read to tell (see isRepositoryOf).
func (r *Reader) Refresh(ctx context.Context, prev inbox.Snapshot, since time.Time) (inbox.Snapshot, Stats, error) {
	ctx, count := withCounter(ctx)
	if since.IsZero() {
		since = r.LastReadAt()
	}
	s := r.newSession(ctx, prev.BotLogins)
	s.rememberPermissions(prev)
	snap, err := r.refresh(s, prev, since)
	if errors.Is(err, errReplaced) {
		snap, err = r.readAgain(ctx, prev)
	}
	return snap, count.stats(), err
}

// readAgain is the full read that replaces prev when the repository was
// replaced under it; prev on error.
func (r *Reader) readAgain(ctx context.Context, prev inbox.Snapshot) (inbox.Snapshot, error) {
	r.mu.Lock()
	r.seen = map[int]seenVersion{} // the old repository's items say nothing of the new one's
	r.mu.Unlock()
	r.logf("inbox: %s/%s is not the repository the last read saw (created again, or reset); reading it all", r.owner, r.repo)
	snap, err := r.Read(ctx)
	if err != nil {
		return prev, err
	}
	return snap, nil
}

// refresh is Refresh within a session: prev on any error, errReplaced when
// the repository is not the one prev was read from.
func (r *Reader) refresh(s *session, prev inbox.Snapshot, since time.Time) (inbox.Snapshot, error) {
	// The two questions are asked side by side: one round trip.
	runs := startRuns(s)
	changed, err := s.changedSince(since)
	page, errRuns := runs.wait()
	if err != nil {
		return prev, fmt.Errorf("asking GitHub what changed: %w", err)
	}
	if errRuns != nil {
		return prev, errRuns
	}
	same, err := s.isRepositoryOf(prev.Repository, page)
	if err != nil {
		return prev, err
	}
	if !same {
		return prev, errReplaced
	}
	snap, err := r.applyChanged(s, prev, changed)
	if err != nil {
		return prev, err
	}
	if page.changed {
		snap = cloneSnapshot(snap)
		if err := s.rereadFacts(&snap); err != nil {
			return prev, err
		}
	} else if half := halfReviewed(snap); len(half) > 0 {
		snap = cloneSnapshot(snap)
		if err := s.readReviewRecords(&snap, half); err != nil {
			return prev, err
		}
	}
	return snap, nil
}

// applyChanged reads again the items the since question named whose
// version prev does not hold, with what their steps depend on.
func (r *Reader) applyChanged(s *session, prev inbox.Snapshot, changed []*github.Issue) (inbox.Snapshot, error) {
	known := map[int]inbox.Issue{}
	for _, is := range prev.Issues {
		known[is.Number] = is
	}
	var todo []*github.Issue
	for _, is := range changed {
		held, inPrev := known[is.GetNumber()]
		if inPrev && held.UpdatedAt.Equal(timeOf(is.UpdatedAt)) && settled(held.UpdatedAt, held.ReadAt) {
			continue // prev already holds this version
		}
		if !inPrev && !r.unseen(is.GetNumber(), timeOf(is.UpdatedAt)) {
			continue // read before, and nothing a step needs from it changed
		}
		todo = append(todo, is)
	}
	if len(todo) == 0 {
		return prev, nil
	}
	snap := cloneSnapshot(prev)
	var issues, pulls []int
	for _, is := range todo {
		s.note(is)
		if !is.IsPullRequest() {
			upsertIssue(&snap, s.issue(is))
			issues = append(issues, is.GetNumber())
			continue
		}
		if is.GetState() == "closed" && is.GetPullRequestLinks().GetMergedAt().IsZero() {
			removePull(&snap, is.GetNumber()) // closed without merging: no step left
			continue
		}
		pr, err := s.getPull(is.GetNumber())
		if err != nil {
			return prev, err
		}
		upsertPull(&snap, pullFrom(pr))
		pulls = append(pulls, is.GetNumber())
	}
	if err := s.settle(&snap, issues, pulls); err != nil {
		return prev, err
	}
	if newBase(prev, snap) {
		// A pull request into a base no earlier read judged: its policy
		// is read now, as ship would read it, not at the next full read.
		if err := s.readBasePolicies(&snap); err != nil {
			return prev, err
		}
	}
	changedPRs := map[int]bool{}
	for _, n := range pulls {
		changedPRs[n] = true
	}
	for _, pr := range snap.PullRequests {
		for _, n := range inbox.LinkedIssues(pr.HeadRef.Raw(), pr.Body.Raw()) {
			if slices.Contains(issues, n) {
				changedPRs[pr.Number] = true
			}
		}
	}
	if err := s.readShipRecords(&snap, changedPRs); err != nil {
		return prev, err
	}
	// A Story frozen or a plan reviewed moves its Story's updated_at (the
	// label, the comment), a push its pull request's: the story loop's
	// facts are read again when one of them changed, never for a comment.
	if again, read := storyLoopChanged(prev, snap, issues, pulls); read {
		if prev.ReadySnapshots == nil {
			again = nil // a read kept before these facts were: read them all
		}
		if err := s.readStoryLoop(&snap, again); err != nil {
			return prev, err
		}
	}
	r.remember(s.seen, s.readAt())
	return snap, nil
}

// Reread reads one item again, bypassing nothing but staleness (every GET
// is a conditional request; a 304 means unchanged), with what its step
// depends on: a Decision's comments; a pull request's head, status,
// comments, reviews, merge gate and the issues it links; the merged pull
// requests that link a Story or Bug; the issues that replace one; an
// audit's ledger entry. It returns prev with those replaced, so the caller
// can Derive it and compare the card with inbox.Reread before writing.
func (r *Reader) Reread(ctx context.Context, kind inbox.Kind, number int, prev inbox.Snapshot) (inbox.Snapshot, error) {
	s := r.newSession(ctx, prev.BotLogins)
	snap := cloneSnapshot(prev)
	var issues, pulls []int
	readIssue := func(n int) error {
		is, _, err := r.gh.Issues.Get(ctx, r.owner, r.repo, n)
		if err != nil {
			return fmt.Errorf("reading #%d again: %w", n, err)
		}
		s.note(is)
		if is.IsPullRequest() {
			return fmt.Errorf("#%d is a pull request, not an issue", n)
		}
		upsertIssue(&snap, s.issue(is))
		issues = append(issues, n)
		return nil
	}
	readPull := func(n int) error {
		pr, err := s.getPull(n)
		if err != nil {
			return err
		}
		upsertPull(&snap, pullFrom(pr))
		pulls = append(pulls, n)
		return nil
	}
	var err error
	switch kind {
	case inbox.KindDecision:
		err = readIssue(number)
	case inbox.KindMergedWithoutShip, inbox.KindBugFixMerged:
		err = readIssue(number)
		for _, pr := range prev.PullRequests {
			if err == nil && pr.Merged && slices.Contains(inbox.LinkedIssues(pr.HeadRef.Raw(), pr.Body.Raw()), number) {
				err = readPull(pr.Number)
			}
		}
	case inbox.KindReplaced:
		err = readIssue(number)
		for _, is := range prev.Issues {
			if err == nil && is.Number != number && slices.Contains(inbox.ReplacedIssues(is.Body.Raw()), number) {
				err = readIssue(is.Number)
			}
		}
	case inbox.KindNeedsReady:
		err = readIssue(number)
	case inbox.KindReadyToShip, inbox.KindShipStopped, inbox.KindNeedsReview, inbox.KindReviewStopped, inbox.KindAudit, inbox.KindNeedsPlanReview:
		err = readPull(number)
		if err == nil && kind != inbox.KindAudit {
			i, _ := findPull(snap, number)
			pr := snap.PullRequests[i]
			for _, n := range inbox.LinkedIssues(pr.HeadRef.Raw(), pr.Body.Raw()) {
				if _, known := findIssue(snap, n); known && err == nil {
					err = readIssue(n)
				}
			}
		}
	default:
		err = fmt.Errorf("the inbox has no step of kind %q", kind)
	}
	if err == nil {
		err = s.settle(&snap, issues, pulls)
	}
	if err == nil && (kind == inbox.KindNeedsReady || kind == inbox.KindNeedsPlanReview) {
		err = s.readStoryLoop(&snap, setOf(pulls)) // the ledger's specs, and the files of a plan card's pull request
	}
	if err != nil {
		return prev, err
	}
	// What was read here is not remembered: the next Refresh reads these
	// items again whether or not the caller kept this snapshot.
	return snap, nil
}

// settle reads the details of the issues and pull requests just replaced
// in snap, and of the open pull requests that link a replaced issue (a
// Story reopening can make its pull request ready to ship).
func (s *session) settle(snap *inbox.Snapshot, issues, pulls []int) error {
	changed := map[int]bool{}
	for i, is := range snap.Issues {
		if slices.Contains(issues, is.Number) {
			changed[is.Number] = true
			if err := s.issueDetails(snap, i); err != nil {
				return fmt.Errorf("reading issue #%d: %w", is.Number, err)
			}
		}
	}
	audit := false
	for _, pr := range snap.PullRequests {
		linked := false
		for _, n := range inbox.LinkedIssues(pr.HeadRef.Raw(), pr.Body.Raw()) {
			linked = linked || changed[n]
		}
		if linked && pr.Open() && !slices.Contains(pulls, pr.Number) {
			pulls = append(pulls, pr.Number)
		}
		if slices.Contains(pulls, pr.Number) && pr.Merged && (pr.HasLabel(inbox.LabelAudit) || snap.AuditEntries[pr.Number]) {
			audit = true
		}
	}
	if err := s.pullDetails(snap, pulls); err != nil {
		return err
	}
	// A review record is a ledger write, which moves no updated_at: the
	// records of the pull requests read again here are read again with
	// them, or a head approved and recorded would keep its card.
	if err := s.readReviewRecords(snap, setOf(pulls)); err != nil {
		return err
	}
	if !audit {
		return nil
	}
	entries, tampered, err := s.auditEntries()
	if err != nil {
		return err
	}
	snap.AuditTampering = tampered
	for _, n := range pulls {
		delete(snap.AuditEntries, n)
		if entries[n] {
			snap.AuditEntries[n] = true
		}
	}
	return nil
}

// rememberPermissions reuses the permissions prev already holds, so a
// refresh asks only about logins it has not seen.
func (s *session) rememberPermissions(prev inbox.Snapshot) {
	add := func(login, permission string) {
		if login != "" && permission != "" {
			s.perms[strings.ToLower(login)] = permission
		}
	}
	for _, is := range prev.Issues {
		add(is.Author.Login, is.Author.Permission)
	}
	for _, comments := range prev.IssueComments {
		for _, c := range comments {
			add(c.Author.Login, c.Author.Permission)
		}
	}
	for _, facts := range prev.PRFacts {
		for _, c := range facts.Comments {
			add(c.Author.Login, c.Author.Permission)
		}
	}
}

// cloneSnapshot copies the slices and maps a refresh replaces entries of;
// the entries themselves are replaced whole, never changed in place.
func cloneSnapshot(prev inbox.Snapshot) inbox.Snapshot {
	snap := prev
	snap.BotLogins = slices.Clone(prev.BotLogins)
	snap.Issues = slices.Clone(prev.Issues)
	snap.PullRequests = slices.Clone(prev.PullRequests)
	snap.PRFacts = cloneMap(prev.PRFacts)
	snap.IssueComments = cloneMap(prev.IssueComments)
	snap.AuditEntries = cloneMap(prev.AuditEntries)
	snap.ShipRecords = cloneMap(prev.ShipRecords)
	snap.ShipMerges = cloneMap(prev.ShipMerges)
	snap.ReviewRecords = cloneMap(prev.ReviewRecords)
	snap.ReadySnapshots = cloneMap(prev.ReadySnapshots)
	snap.PlanRecords = cloneMap(prev.PlanRecords)
	snap.NeverLayers = cloneMap(prev.NeverLayers)
	return snap
}

// setOf is ns as a set.
func setOf(ns []int) map[int]bool {
	set := make(map[int]bool, len(ns))
	for _, n := range ns {
		set[n] = true
	}
	return set
}

func cloneMap[V any](m map[int]V) map[int]V {
	if m == nil {
		return map[int]V{}
	}
	return maps.Clone(m)
}

func upsertIssue(snap *inbox.Snapshot, is inbox.Issue) {
	if i, ok := findIssue(*snap, is.Number); ok {
		snap.Issues[i] = is
		return
	}
	snap.Issues = append(snap.Issues, is)
	sortSnapshot(snap)
}

func upsertPull(snap *inbox.Snapshot, pr inbox.PullRequest) {
	if i, ok := findPull(*snap, pr.Number); ok {
		snap.PullRequests[i] = pr
		return
	}
	snap.PullRequests = append(snap.PullRequests, pr)
	sortSnapshot(snap)
}

func removePull(snap *inbox.Snapshot, n int) {
	snap.PullRequests = slices.DeleteFunc(snap.PullRequests, func(pr inbox.PullRequest) bool { return pr.Number == n })
	delete(snap.PRFacts, n)
	delete(snap.AuditEntries, n)
	delete(snap.ReviewRecords, n)
}

func findIssue(snap inbox.Snapshot, n int) (int, bool) {
	for i, is := range snap.Issues {
		if is.Number == n {
			return i, true
		}
	}
	return -1, false
}

func findPull(snap inbox.Snapshot, n int) (int, bool) {
	for i, pr := range snap.PullRequests {
		if pr.Number == n {
			return i, true
		}
	}
	return -1, false
}

// newBase says whether snap has an open pull request into a base branch
// that none of prev's open pull requests had: its policy was never read.
func newBase(prev, snap inbox.Snapshot) bool {
	known := map[string]bool{}
	for _, pr := range prev.PullRequests {
		if pr.Open() {
			known[pr.BaseRef.Raw()] = true
		}
	}
	for _, pr := range snap.PullRequests {
		if pr.Open() && pr.BaseRef != "" && !known[pr.BaseRef.Raw()] {
			return true
		}
	}
	return false
}
