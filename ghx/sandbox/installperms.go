package sandbox

import (
	"net/http"
	"strings"
)

// refuseInstall answers an installation token's request that its
// permissions do not cover with GitHub's 403, as it answers a workflow
// token's (refuseJob): "Installation access tokens … have the permissions
// that the app was granted, limited by the permissions parameter"
// (docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app),
// and a request outside them is refused with "Resource not accessible by
// integration". The scope a request needs is jobScope's, the one table both
// kinds of App token are judged by; an App's permissions spell the scope
// with an underscore (pull_requests) where a workflow's permissions: use a
// hyphen. It reports whether it refused.
//
// Reads are not refused: the sandbox's repositories are public (render.go),
// and GitHub's reads of a public repository need no permission ("Anyone
// with read access to the repository can use this endpoint", e.g.
// actions/get-workflow in openapi-subset.json; "can be used without
// authentication or the aforementioned permissions if only public
// resources are requested"). A write always needs its permission.
//
// /user is refused to an installation token, read or write, as GitHub
// refuses it: the token acts as the App's installation, not as a user
// ("Resource not accessible by integration"), so a client learns its bot's
// login from the App's slug (ghx.Writer), never from /user.
func (s *Server) refuseInstall(w http.ResponseWriter, r *http.Request, it *installToken) bool {
	scope, alt, write := s.jobScope(r)
	if scope == "-" && (r.URL.Path == "/user" || strings.HasPrefix(r.URL.Path, "/user/")) {
		writeError(w, http.StatusForbidden, notAccessible)
		return true
	}
	if !write || scope == "" || scope == "-" {
		return false
	}
	perms := it.perms
	if perms == nil {
		perms = it.app.Permissions
	}
	grants := func(sc string) bool {
		return sc != "" && perms[strings.ReplaceAll(sc, "-", "_")] == "write"
	}
	if grants(scope) || grants(alt) {
		return false
	}
	writeError(w, http.StatusForbidden, notAccessible)
	return true
}
