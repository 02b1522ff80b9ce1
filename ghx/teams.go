package ghx

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-github/v66/github"
)

// TeamMember says whether login is an active member of team, a CODEOWNERS
// owner "@org/team-slug" (GET /orgs/{org}/teams/{team_slug}/memberships/
// {username}). GitHub answers 404 for anyone who is not a member, and for a
// team the token cannot see: both read as not a member, since an unknown
// membership grants nothing. A pending invitation is not membership.
func TeamMember(ctx context.Context, c *github.Client, team, login string) (bool, error) {
	org, slug, ok := strings.Cut(strings.TrimPrefix(team, "@"), "/")
	if !ok || org == "" || slug == "" || login == "" {
		return false, fmt.Errorf("%q is not a team as @org/team", team)
	}
	m, _, err := c.Teams.GetTeamMembershipBySlug(ctx, org, slug, login)
	if IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return m.GetState() == "active", nil
}
