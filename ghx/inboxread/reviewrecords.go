package inboxread

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/pass"
)

// reviewRecordFile is the part of a ledger review record
// (reviews/PR/HEAD.json, actions.ReviewRecord) the inbox judges by.
type reviewRecordFile struct {
	PR    int    `json:"pr"`
	Login string `json:"login"`
	Head  string `json:"head"`
}

// readReviewRecords reads the ledger's review record of each open pull
// request's current head waiting at inspect's human rung, so a head the
// person approved in an earlier session is not offered again. only, when
// not nil, limits it to those pull requests (Warm's). A refresh keeps the
// records it had: Derive compares each with the current head. Every
// request is conditional, and a record is read only when its pull
// request's folder is there.
func (s *session) readReviewRecords(snap *inbox.Snapshot, only map[int]bool) error {
	if snap.ReviewRecords == nil {
		snap.ReviewRecords = map[int]inbox.ReviewRecord{}
	}
	var todo []inbox.PullRequest
	for _, pr := range snap.PullRequests {
		if only != nil && !only[pr.Number] {
			continue
		}
		delete(snap.ReviewRecords, pr.Number)
		if pr.Open() && pr.HeadSHA != "" && inbox.AtHumanRung(snap.PRFacts[pr.Number]) {
			todo = append(todo, pr)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	// The ledger's root first: a conditional request GitHub answers 304
	// while the ledger is unchanged, where asking for a reviews folder that
	// is not there would cost a counted 404 on every read.
	root, err := ghx.ListTree(s.ctx, s.r.gh, s.r.owner, s.r.repo, LedgerBranch, "")
	if ghx.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the %s branch: %w", LedgerBranch, err)
	}
	if !slices.ContainsFunc(root, func(e ghx.TreeEntry) bool { return e.Name == "reviews" }) {
		return nil
	}
	entries, err := ghx.ListTree(s.ctx, s.r.gh, s.r.owner, s.r.repo, LedgerBranch, "reviews")
	if ghx.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the review records on the %s branch: %w", LedgerBranch, err)
	}
	folders := map[string]bool{}
	for _, e := range entries {
		folders[e.Name] = true
	}
	for _, pr := range todo {
		if !folders[strconv.Itoa(pr.Number)] {
			continue
		}
		path := fmt.Sprintf("reviews/%d/%s.json", pr.Number, pr.HeadSHA)
		b, err := ghx.ReadFile(s.ctx, s.r.gh, s.r.owner, s.r.repo, LedgerBranch, path)
		if ghx.IsNotFound(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("reading %s on the %s branch: %w", path, LedgerBranch, err)
		}
		var rec reviewRecordFile
		if json.Unmarshal(b, &rec) != nil || rec.PR != pr.Number || !strings.EqualFold(rec.Head, pr.HeadSHA) || rec.Login == "" {
			continue // a record of another head, or not one at all, approves nothing
		}
		snap.ReviewRecords[pr.Number] = inbox.ReviewRecord{Head: rec.Head, Login: rec.Login}
	}
	return nil
}

// halfReviewed names the open pull requests at inspect's human rung whose
// current head carries an approving review but whose review record snap
// does not hold: "approve its head" landed in part, and the record that
// finishes it is a ledger write that moves no updated_at. A refresh reads
// their records again (a conditional request, free while the ledger is
// unchanged), so a record written by this or another session is seen.
func halfReviewed(snap inbox.Snapshot) map[int]bool {
	half := map[int]bool{}
	for _, pr := range snap.PullRequests {
		facts := snap.PRFacts[pr.Number]
		if !pr.Open() || pr.HeadSHA == "" || !inbox.AtHumanRung(facts) {
			continue
		}
		if rec, ok := snap.ReviewRecords[pr.Number]; ok && strings.EqualFold(rec.Head, pr.HeadSHA) {
			continue
		}
		if slices.ContainsFunc(facts.Reviews, func(r pass.Review) bool {
			return strings.EqualFold(r.State, pass.StateApproved) && strings.EqualFold(r.CommitID, pr.HeadSHA)
		}) {
			half[pr.Number] = true
		}
	}
	return half
}
