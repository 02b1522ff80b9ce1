package audit

import (
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func TestReconcile(t *testing.T) {
	f := Facts{
		Ships: []ShipRecord{
			{PR: 4, Story: 3, Kind: "solo-bypass", Login: "founder", Comment: "https://github.com/acme/benefits/pull/4#issuecomment-77", Commit: "abc"},
			{PR: 15, Story: 14, Kind: "proof", Login: "founder"},
			{PR: 20, Story: 19, Kind: "review", Login: "writer", Plan: &PlanBypass{RecordedBy: "founder", RecordedAt: t0, Comment: "https://x/issues/19#issuecomment-5"}},
		},
		Merged: map[int]MergedPR{
			4:  {Number: 4, MergedAt: t0, Bypasses: []Comment{{ID: 77, Login: "founder", CreatedAt: t0.Add(-time.Minute)}}},
			15: {Number: 15, MergedAt: t0},
			// An admin merge whose only bypass comment came after it.
			30: {Number: 30, MergedAt: t0, Bypasses: []Comment{{ID: 9, Login: "founder", CreatedAt: t0.Add(3 * time.Minute)}}},
		},
		Commits: []LedgerCommit{
			{SHA: "111", Message: "ledger: agent note\n\n" + FallbackTrailer + "\n", When: t0},
			{SHA: "222", Message: "ledger: ship story 3\n\nAayudha-Identity: human (founder, aayu ship)\n", When: t0},
			{SHA: "333", Message: "mentions " + FallbackTrailer + " in its subject only\n", When: t0},
		},
	}
	r := Reconcile(f)
	if len(r.Bypasses) != 3 {
		t.Fatalf("bypasses %+v, want PR 4's ship, PR 20's plan and PR 30's admin merge", r.Bypasses)
	}
	if b := r.Bypasses[0]; b.PR != 4 || b.Via != "aayu ship --solo-bypass" || b.Comment == nil || b.Comment.ID != 77 || b.Late {
		t.Errorf("PR 4: %+v", b)
	}
	if b := r.Bypasses[1]; b.PR != 20 || b.Via != "the plan review" {
		t.Errorf("PR 20: %+v", b)
	}
	if b := r.Bypasses[2]; b.PR != 30 || b.Via != "an admin merge without aayu ship" || !b.Late {
		t.Errorf("PR 30: %+v", b)
	}
	if len(r.Late) != 1 || r.Late[0].PR != 30 {
		t.Errorf("late %+v, want PR 30 only", r.Late)
	}
	if len(r.Fallbacks) != 1 || r.Fallbacks[0].SHA != "111" || r.Fallbacks[0].Subject != "ledger: agent note" {
		t.Errorf("fallbacks %+v, want commit 111 only", r.Fallbacks)
	}
}

func TestReconcileBypassWithoutItsComment(t *testing.T) {
	r := Reconcile(Facts{
		Ships:  []ShipRecord{{PR: 4, Kind: "solo-bypass", Login: "founder", Comment: "https://x/pull/4#issuecomment-1"}},
		Merged: map[int]MergedPR{4: {Number: 4, MergedAt: t0}},
	})
	if len(r.Bypasses) != 1 || r.Bypasses[0].Comment != nil || r.Bypasses[0].Late {
		t.Fatalf("%+v", r.Bypasses)
	}
}

// TestReconcileListsUnusedBypasses: a bypass comment ship marked as not
// used is in the report, by pull request, and never counts as a bypass.
func TestReconcileListsUnusedBypasses(t *testing.T) {
	at := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	r := Reconcile(Facts{Unused: []Unused{
		{PR: 9, Comment: Comment{ID: 3, Login: "founder", CreatedAt: at}},
		{PR: 4, Comment: Comment{ID: 2, Login: "founder", CreatedAt: at}},
		{PR: 4, Comment: Comment{ID: 1, Login: "founder", CreatedAt: at}},
	}})
	if len(r.Bypasses) != 0 {
		t.Errorf("an unused bypass counted as a bypass: %+v", r.Bypasses)
	}
	if len(r.Unused) != 3 || r.Unused[0].Comment.ID != 1 || r.Unused[1].Comment.ID != 2 || r.Unused[2].PR != 9 {
		t.Errorf("Unused = %+v, want by pull request then oldest first", r.Unused)
	}
}

// TestReconcileListsPlanBypassesNotShippedYet: a plan bypass aayu plan
// recorded is counted at once, by its Story; once a ship carries it into
// its record it is listed there, once.
func TestReconcileListsPlanBypassesNotShippedYet(t *testing.T) {
	f := Facts{
		Ships: []ShipRecord{{PR: 20, Story: 19, Kind: "review", Login: "writer", Plan: &PlanBypass{RecordedBy: "founder", RecordedAt: t0, Comment: "https://x/issues/19#issuecomment-5"}}},
		Plans: []PlanRecord{
			{Story: 19, RecordedBy: "founder", RecordedAt: t0, Comment: "https://x/issues/19#issuecomment-5"},
			{Story: 21, RecordedBy: "founder", RecordedAt: t0, Comment: "https://x/issues/21#issuecomment-6"},
		},
	}
	r := Reconcile(f)
	if len(r.Bypasses) != 2 {
		t.Fatalf("bypasses %+v, want Story 21's plan and PR 20's shipped plan", r.Bypasses)
	}
	if b := r.Bypasses[0]; b.PR != 0 || b.Story != 21 || b.Login != "founder" || !strings.Contains(b.Via, "not shipped yet") || b.Comment == nil || b.Comment.URL != "https://x/issues/21#issuecomment-6" {
		t.Errorf("Story 21: %+v", b)
	}
	if b := r.Bypasses[1]; b.PR != 20 || b.Via != "the plan review" {
		t.Errorf("PR 20: %+v", b)
	}
}
