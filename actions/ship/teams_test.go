package ship

import (
	"testing"
)

// TestShipCountsATeamOwnersApprovalOnlyForAMember: a never-layer path
// owned by @acme/policy-owners is passed by an approver GitHub says is a
// member of that team, and by no one else.
func TestShipCountsATeamOwnersApprovalOnlyForAMember(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.commit("dev", map[string]string{"CODEOWNERS": "* @founder\n/policy/ @acme/policy-owners\n"})
	pr := f.writerPR("story/3-policy-team", map[string]string{"policy/limits.md": "# Limits\n"})
	f.planReviewed("founder", 3, "L04")
	f.review("founder", pr, "APPROVE", "")
	const needsOwner = "policy/limits.md is in never layer L04 and needs a pass of head"
	res, events, err := f.ship(f.config("founder"), pr)
	if err != nil || res.Merged || !mentions(res, events, needsOwner) {
		t.Fatalf("a team nobody is known to be in passed: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
	if err := f.srv.SetTeam("policy-owners", "writer"); err != nil {
		t.Fatal(err)
	}
	if res, events, err = f.ship(f.config("founder"), pr); err != nil || res.Merged || !mentions(res, events, needsOwner) {
		t.Fatalf("an approver outside the team passed: err %v, merged %v, refusals %q", err, res.Merged, res.Refusals)
	}
	if err := f.srv.SetTeam("policy-owners", "founder"); err != nil {
		t.Fatal(err)
	}
	if res, events, err = f.ship(f.config("founder"), pr); err != nil || mentions(res, events, needsOwner) {
		t.Fatalf("a member of the owning team did not pass the path: err %v, refusals %q", err, res.Refusals)
	}
}
