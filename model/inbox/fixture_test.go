package inbox

import (
	"time"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/model/untrusted"
)

const (
	headA    = "b046d1a1d113339eb80e130c9dc0008fa223e76f"
	headB    = "c157e2b2e224440fc91f241d0ed1119fb334f870"
	headC    = "d268f3c3f335551ad02a352e1fe222a1c445a981"
	mergeSHA = "f56dc67169f8fe1716d37f16703548bc0f44eef6"
)

var (
	t0      = time.Date(2026, 10, 12, 7, 0, 0, 0, time.UTC)
	founder = identity.Account{Login: "founder", Permission: "admin"}
	bot     = identity.Account{Login: "aayudha[bot]", Bot: true, Permission: "write"}
	agent   = identity.Account{Login: "agent-author", Permission: "write"}
	outside = identity.Account{Login: "stranger", Permission: "read"}
)

func base() Snapshot {
	return Snapshot{Viewer: "founder", Approver: "founder", IntegrationBranch: "dev",
		PRFacts: map[int]PRFacts{}, IssueComments: map[int][]identity.Comment{}, AuditEntries: map[int]bool{}}
}

// Each with* adds one kind's facts; withAll adds all of them.
func withDecision(s *Snapshot) {
	s.Issues = append(s.Issues, Issue{Number: 324, Title: "Production Engineer seat", State: "open", Labels: []untrusted.Label{LabelDecision}, Body: seatDecision, Author: agent})
}

func withOneWayDecision(s *Snapshot) {
	s.Issues = append(s.Issues, Issue{Number: 283, Title: "Queue", State: "open", Labels: []untrusted.Label{LabelDecision}, Author: agent,
		Body: "## Options\n1. Keep the queue (recommended)\n2. Move it\n3. Drop it\n\nDoor: one-way\n"})
}

func withReadyToShip(s *Snapshot) {
	s.Issues = append(s.Issues, Issue{Number: 131, Title: "Dental cap", State: "open", Labels: []untrusted.Label{LabelStory, LabelLease}})
	s.PullRequests = append(s.PullRequests, PullRequest{Number: 148, Title: "Dental cap rule", HeadRef: "story/131-dental-cap", HeadSHA: headA, BaseRef: "dev", State: "open", Author: agent})
	s.PRFacts[148] = PRFacts{MergeGate: "success", Comments: []identity.Comment{
		{ID: 1, Author: founder, CreatedAt: t0, Body: "Ready to ship: every gate passed on head " + headA + "; only the human pass is missing."},
	}}
}

func withNeedsReview(s *Snapshot) {
	s.PullRequests = append(s.PullRequests, PullRequest{Number: 150, Title: "Claims export", HeadRef: "story/140-export", HeadSHA: headB, BaseRef: "dev", State: "open", Author: agent})
	s.PRFacts[150] = PRFacts{Statuses: []Status{{Context: InspectContext, State: "pending", Description: "human rung: no reviewer could review it", FromGate: true}},
		Reviews: []pass.Review{{ID: 1, Author: founder, State: "COMMENTED", CommitID: headB}}}
}

func withReviewStopped(s *Snapshot) {
	s.PullRequests = append(s.PullRequests, PullRequest{Number: 151, Title: "Refactor eligibility", HeadRef: "story/141-elig", HeadSHA: headC, BaseRef: "dev", State: "open", Author: agent})
	s.PRFacts[151] = PRFacts{Statuses: []Status{{Context: InspectContext, State: "failure", Description: "stopped after 3 rounds", FromGate: true}}}
}

func withMergedWithoutShip(s *Snapshot) {
	s.Issues = append(s.Issues, Issue{Number: 120, Title: "Vision benefit", State: "open", Labels: []untrusted.Label{LabelStory, "status:in-progress", LabelLease}})
	s.PullRequests = append(s.PullRequests, PullRequest{Number: 122, Title: "Vision benefit", HeadRef: "story/120-vision", BaseRef: "dev", State: "closed", Merged: true, MergedAt: t0, Author: agent})
}

func withBugFixMerged(s *Snapshot) {
	s.Issues = append(s.Issues, Issue{Number: 170, Title: "Marker ignored", State: "open", Labels: []untrusted.Label{LabelBug}})
	s.PullRequests = append(s.PullRequests, PullRequest{Number: 171, Title: "Honour markers", HeadRef: "fix/marker", Body: "Fixes #170", BaseRef: "dev", State: "closed", Merged: true, MergedAt: t0, Author: agent})
}

func withReplaced(s *Snapshot) {
	s.Issues = append(s.Issues,
		Issue{Number: 90, Title: "Old intake form", State: "open"},
		Issue{Number: 95, Title: "New intake form", State: "open", Body: "Replaces #90 with a simpler form.", Author: founder})
}

func withAudit(s *Snapshot) {
	s.PullRequests = append(s.PullRequests, PullRequest{Number: 160, Title: "Docs typo", HeadRef: "docs/typo", BaseRef: "dev", State: "closed", Merged: true, MergedAt: t0, MergeCommitSHA: mergeSHA, Labels: []untrusted.Label{LabelAudit}, Author: agent})
	s.AuditEntries[160] = true
}

func withAll(s *Snapshot) {
	for _, add := range []func(*Snapshot){withAudit, withReplaced, withBugFixMerged, withMergedWithoutShip, withReviewStopped, withNeedsReview, withReadyToShip, withDecision} {
		add(s)
	}
}
