package sandbox_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestTeamMembershipAnswersAsGitHub: an active member's membership, and
// 404 for someone else, an unknown team and another organisation, each
// answer checked against GitHub's description.
func TestTeamMembershipAnswersAsGitHub(t *testing.T) {
	t.Parallel()
	srv, _, base := startValidated(t, sandbox.Options{ShareSeed: true, StateDir: t.TempDir()})
	if err := srv.SetTeam("Policy-Owners", "writer"); err != nil {
		t.Fatal(err)
	}
	gh := client(t, base, sandbox.TokenPrefix+"founder")
	ctx := context.Background()
	m, _, err := gh.Teams.GetTeamMembershipBySlug(ctx, "acme", "policy-owners", "writer")
	if err != nil || m.GetState() != "active" || m.GetRole() != "member" {
		t.Fatalf("writer's membership: %+v, %v", m, err)
	}
	for _, c := range []struct{ org, team, user string }{
		{"acme", "policy-owners", "reader"},
		{"acme", "nobody", "writer"},
		{"other", "policy-owners", "writer"},
	} {
		_, resp, err := gh.Teams.GetTeamMembershipBySlug(ctx, c.org, c.team, c.user)
		if err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s/%s %s: err %v, want 404", c.org, c.team, c.user, err)
		}
	}
	if err := srv.SetTeam("policy-owners"); err != nil {
		t.Fatal(err)
	}
	if _, resp, err := gh.Teams.GetTeamMembershipBySlug(ctx, "acme", "policy-owners", "writer"); err == nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("a removed team still answers: %v", err)
	}
}
