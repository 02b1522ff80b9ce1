package sandbox

import "net/http"

// getAppBySlug is GET /apps/{app_slug} ("Get an app"): a private App is
// readable with a personal access token or an installation token, and
// its permissions are what each installation token can be given at most.
func (s *Server) getAppBySlug(w http.ResponseWriter, r *http.Request) {
	if c := callerOf(r); c.anonymous {
		notFound(w)
		return
	}
	slug := r.PathValue("app_slug")
	s.apps.mu.Lock()
	var found *appRec
	for _, a := range s.apps.apps {
		if a.Slug == slug {
			found = a
		}
	}
	s.apps.mu.Unlock()
	if found == nil {
		notFound(w)
		return
	}
	out := s.appJSON(found)
	base, created := baseURL(r), ts(s.st.RepoCreated)
	out["owner"] = userJSON(base, found.Owner)
	out["node_id"] = nodeID("A", found.ID)
	out["description"] = nil
	out["external_url"] = base + "/" + found.Owner
	out["html_url"] = base + "/apps/" + found.Slug
	out["created_at"], out["updated_at"] = created, created
	writeJSON(w, http.StatusOK, out)
}
