package sandbox

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// Teams of the organisation that owns the demo: a CODEOWNERS rule may name
// @acme/team, and ship asks GitHub whether an approver is one of its
// members. The demo has none; a test or a person sets them (SetTeam).

func (s *Server) routeTeams(m *http.ServeMux) {
	m.HandleFunc("GET /orgs/{org}/teams/{team_slug}/memberships/{username}", s.getTeamMembership)
}

// getTeamMembership answers as GitHub does: an active member's membership,
// or 404 for anyone else, an unknown team, or another organisation.
func (s *Server) getTeamMembership(w http.ResponseWriter, r *http.Request) {
	org, slug, login := r.PathValue("org"), strings.ToLower(r.PathValue("team_slug")), r.PathValue("username")
	if !strings.EqualFold(org, RepoOwner) || !s.isTeamMember(slug, login) {
		notFound(w)
		return
	}
	a, ok := accountByLogin(login)
	if ok {
		login = a.Login
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"url":  fmt.Sprintf("%s/teams/%d/memberships/%s", strings.TrimSuffix(baseURL(r), "/"), teamID(slug), login),
		"role": "member", "state": "active",
	})
}

func (s *Server) isTeamMember(slug, login string) bool {
	for _, m := range s.st.Teams[slug] {
		if strings.EqualFold(m, login) {
			return true
		}
	}
	return false
}

// teamID is a stable number for a team's URL.
func teamID(slug string) int {
	n := 7000
	for _, c := range slug {
		n = (n*31 + int(c)) % 1000000
	}
	return n
}

// SetTeam makes members the members of the demo organisation's team slug
// (@acme/slug in CODEOWNERS); no members removes the team.
func (s *Server) SetTeam(slug string, members ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	slug = strings.ToLower(slug)
	if s.st.Teams == nil {
		s.st.Teams = map[string][]string{}
	}
	if len(members) == 0 {
		delete(s.st.Teams, slug)
	} else {
		m := append([]string(nil), members...)
		sort.Strings(m)
		s.st.Teams[slug] = m
	}
	return s.save()
}
