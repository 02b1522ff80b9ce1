package sandbox

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// What a device-flow token may do, as GitHub decides it. The device flow
// mints the token of the client that asked for the code, and the client's
// kind sets its power:
//
//   - A GitHub App's user access token (ghu_…) has no scopes: "A user
//     access token only has permissions that both the user and the app
//     have", and "can only access resources that both the user and app can
//     access" (docs.github.com/apps/creating-github-apps/
//     authenticating-with-a-github-app/
//     generating-a-user-access-token-for-a-github-app). An App with no
//     permissions yields a token that reads /user and what anyone may read
//     of a public repository, and writes nothing: a request its
//     permissions do not cover answers 403 "Resource not accessible by
//     integration". The `scope` a device-code request names is ignored for
//     an App, as GitHub ignores it.
//   - An OAuth App's token (gho_…) holds the scopes the code asked for and
//     the person approved (docs.github.com/apps/oauth-apps/
//     building-oauth-apps/scopes-for-oauth-apps): `repo` writes whatever
//     the person may write; no scope reads public data only, and a write
//     it does not cover answers 404, as GitHub answers "requests that
//     require authentication" it will not serve.
//
// So a presence client that is an App with no permissions makes a code an
// agent starts with its public client ID worth nothing but the approving
// account's name (SPEC §6).

// Client IDs of the sandbox's presence Apps: GitHub App client IDs start
// Iv1. (older) or Iv23 (current); OAuth Apps' start Ov23.
const (
	// PresenceAppSlug is the demo's presence App, whose client ID is
	// DeviceClientID: a GitHub App with no permissions, public so any of
	// the repository's approvers may authorize it.
	PresenceAppSlug = "aayu-presence-acme-benefits"
	// ownClientSlug is OwnClientID's App, the sandbox's own presence App.
	ownClientSlug = "aayu-sandbox"
)

// deviceClient is the App or OAuth App a client ID names.
type deviceClient struct {
	app   bool              // a GitHub App (else an OAuth App)
	perms map[string]string // the App's permissions on the sandbox's repositories (nil: none, or not installed)
}

// deviceClientOf finds the client a device code names: the two presence
// Apps (no permissions), an App the sandbox holds (the bot App, one the
// manifest flow made), or an OAuth App a test named.
func (s *Server) deviceClientOf(id string) (deviceClient, bool) {
	switch {
	case id == "":
		return deviceClient{}, false
	case id == DeviceClientID || id == OwnClientID:
		return deviceClient{app: true}, true
	}
	s.apps.mu.Lock()
	defer s.apps.mu.Unlock()
	for _, a := range s.apps.apps {
		if a.ClientID == id {
			// An App reaches only the repositories it is installed on; a
			// manifest-made App the person has not installed reaches none.
			// (GitHub's manifest cannot switch the device flow on: the
			// person ticks "Enable Device Flow" on the App's page, which the
			// sandbox does not have, so it takes the flow as enabled.)
			c := deviceClient{app: true}
			if a.InstallationID != 0 {
				c.perms = a.Permissions
			}
			return c, true
		}
	}
	if slices.Contains(s.opts.Device.ClientIDs, id) || slices.Contains(s.opts.Device.DisabledClientIDs, id) {
		return deviceClient{}, true
	}
	return deviceClient{}, false
}

// oauthScopes are the scopes an OAuth App may be granted (GitHub's list);
// any other word in a request's scope is dropped.
var oauthScopes = []string{"repo", "repo:status", "repo_deployment", "public_repo", "repo:invite", "security_events",
	"admin:repo_hook", "write:repo_hook", "read:repo_hook", "admin:org", "write:org", "read:org",
	"admin:public_key", "write:public_key", "read:public_key", "admin:org_hook", "gist", "notifications",
	"user", "read:user", "user:email", "user:follow", "project", "read:project", "delete_repo",
	"write:packages", "read:packages", "delete:packages", "admin:gpg_key", "write:gpg_key", "read:gpg_key",
	"codespace", "workflow"}

// grantedScopes reads a device-code request's scope (space- or
// comma-separated) as GitHub grants it: known scopes, once each, in order.
func grantedScopes(requested string) []string {
	var out []string
	for _, sc := range strings.FieldsFunc(requested, func(r rune) bool { return r == ' ' || r == ',' }) {
		if slices.Contains(oauthScopes, sc) && !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out
}

// userToken is one token the device flow minted.
type userToken struct {
	login  string
	app    bool              // a GitHub App's user access token
	perms  map[string]string // App: the App's permissions where it is installed
	scopes []string          // OAuth App: the scopes granted
	asked  []string          // "METHOD /path" of each REST request made with it (tests)
	scope  string            // the scope the code asked for, as asked
}

// userTokens holds the device flow's tokens; its lock is its own, since
// authentication runs before the server's.
type userTokens struct {
	mu    sync.Mutex
	byTok map[string]*userToken
}

// mintUserToken makes the token a device code's approval yields.
func (s *Server) mintUserToken(login string, c deviceClient, scope string) (string, *userToken) {
	u := &userToken{login: login, app: c.app, scope: scope}
	prefix := "gho_"
	if c.app {
		prefix = "ghu_"
		u.perms = c.perms
	} else {
		u.scopes = grantedScopes(scope)
	}
	tok := prefix + strings.TrimPrefix(newServerToken(), "ghs_")
	s.users.mu.Lock()
	defer s.users.mu.Unlock()
	if s.users.byTok == nil {
		s.users.byTok = map[string]*userToken{}
	}
	s.users.byTok[tok] = u
	return tok, u
}

// userCaller answers for a device-flow token: known is false for any
// other token. The account's permission is cut to what the token may do,
// so every handler's own push or admin check holds it too.
func (s *Server) userCaller(tok string) (c caller, known bool) {
	s.users.mu.Lock()
	u := s.users.byTok[tok]
	s.users.mu.Unlock()
	if u == nil {
		return caller{}, false
	}
	a, ok := accountByLogin(u.login)
	if !ok {
		return caller{}, true
	}
	a.Permission = lowerRole(a.Permission, u.ceiling())
	return caller{Account: a, user: u}, true
}

// ceiling is the most a token lets its account do on the sandbox's
// (public) repositories.
func (u *userToken) ceiling() string {
	if !u.app {
		if slices.Contains(u.scopes, "repo") || slices.Contains(u.scopes, "public_repo") {
			return "admin"
		}
		return "read"
	}
	switch {
	case u.perms["administration"] == "write":
		return "admin"
	case u.perms["contents"] == "write":
		return "write"
	}
	return "read"
}

func lowerRole(a, b string) string {
	rank := map[string]int{"read": 1, "write": 2, "admin": 3}
	if rank[b] < rank[a] {
		return b
	}
	return a
}

// refuseUser answers a device-flow token's request its App's permissions
// or its scopes do not cover, as GitHub does; it reports whether it did.
// Called with s.mu held (jobScope reads the state).
func (s *Server) refuseUser(w http.ResponseWriter, r *http.Request, u *userToken) bool {
	p := r.URL.Path
	s.users.mu.Lock()
	u.asked = append(u.asked, r.Method+" "+p)
	s.users.mu.Unlock()
	read := r.Method == http.MethodGet || r.Method == http.MethodHead
	if p == "/rate_limit" || (p == "/user" && read) {
		return false // the account itself: what a token with no permission still reads
	}
	if strings.HasPrefix(p, "/app-manifests/") {
		return false // needs no authentication at all
	}
	if !u.app {
		return refuseOAuth(w, r, u, read)
	}
	scope, alt, write := s.jobScope(r)
	perm := func(sc string) string {
		switch sc {
		case "-", "":
			return "administration"
		case "pull-requests":
			return "pull_requests"
		}
		return sc
	}
	if !strings.HasPrefix(p, "/repos/") {
		if read && scope == "" {
			return false
		}
		writeError(w, http.StatusForbidden, notAccessible)
		return true
	}
	if strings.Contains(p, "/actions/variables") || strings.Contains(p, "/actions/secrets") {
		scope, alt = "variables", "" // never public, whatever the repository's visibility
		if strings.Contains(p, "/actions/secrets") {
			scope = "secrets"
		}
	}
	if !write {
		// The sandbox's repositories are public: what anyone may read, the
		// token reads; settings and secrets take the App's permission.
		if scope != "-" && scope != "variables" && scope != "secrets" {
			return false
		}
		if have := u.perms[perm(scope)]; have == "read" || have == "write" {
			return false
		}
		writeError(w, http.StatusForbidden, notAccessible)
		return true
	}
	if u.perms[perm(scope)] == "write" || (alt != "" && u.perms[perm(alt)] == "write") {
		return false
	}
	writeError(w, http.StatusForbidden, notAccessible)
	return true
}

// refuseOAuth holds an OAuth App's token to its scopes: repo (or
// public_repo, the sandbox's repositories being public) reaches what the
// account may do; repo:status writes statuses; without a scope a token
// reads public data only.
func refuseOAuth(w http.ResponseWriter, r *http.Request, u *userToken, read bool) bool {
	if slices.Contains(u.scopes, "repo") || slices.Contains(u.scopes, "public_repo") {
		return false
	}
	p := r.URL.Path
	if read && !strings.Contains(p, "/actions/variables") && !strings.Contains(p, "/actions/secrets") {
		return false
	}
	if slices.Contains(u.scopes, "repo:status") && strings.HasPrefix(p, "/repos/") && strings.Contains(p, "/statuses/") {
		return false
	}
	w.Header().Set("X-Accepted-OAuth-Scopes", "repo")
	writeErrorDoc(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest")
	return true
}

// scopeHeader is X-OAuth-Scopes for the token: an OAuth App's granted
// scopes; a GitHub App's user token has none.
func (u *userToken) scopeHeader() string { return strings.Join(u.scopes, ", ") }

// DeviceTokenUse lists, for each token the device flow minted, the scope
// its code asked for and the REST requests made with it (tests: the
// presence check asks no scope and reads /user only).
type DeviceTokenUse struct {
	AskedScope string   // the code request's scope, as sent
	Scopes     []string // what GitHub granted (an App grants none)
	Requests   []string
}

// DeviceTokensUsed reports every device-flow token's use (tests).
func (s *Server) DeviceTokensUsed() []DeviceTokenUse {
	s.users.mu.Lock()
	defer s.users.mu.Unlock()
	var out []DeviceTokenUse
	for _, u := range s.users.byTok {
		out = append(out, DeviceTokenUse{AskedScope: u.scope, Scopes: slices.Clone(u.scopes), Requests: slices.Clone(u.asked)})
	}
	return out
}

// GET /apps/{app_slug}: a public App's configuration, readable by anyone
// (docs.github.com/rest/apps/apps#get-an-app). The presence Apps are
// public; an App the manifest flow made is private unless its manifest
// said public, and GitHub answers 404 for a private App to anyone but its
// owner's tokens.
func (s *Server) getAppBySlug(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("slug")
	var out map[string]any
	switch slug {
	case PresenceAppSlug, ownClientSlug:
		id, name, appID := DeviceClientID, "aayu presence (acme/benefits)", 9050
		if slug == ownClientSlug {
			id, name, appID = OwnClientID, "aayu sandbox", 9051
		}
		out = map[string]any{"id": appID, "slug": slug, "name": name, "client_id": id, "permissions": map[string]string{}, "events": []string{}}
	default:
		s.apps.mu.Lock()
		var app *appRec
		for _, a := range s.apps.apps {
			if a.Slug == slug {
				app = a
			}
		}
		s.apps.mu.Unlock()
		c := callerOf(r)
		if app == nil || (!app.Public && !strings.EqualFold(c.Login, app.Owner) && !c.canPush()) {
			notFound(w)
			return
		}
		out = s.appJSON(app)
	}
	base := baseURL(r)
	created := ts(s.st.RepoCreated)
	owner := RepoOwner
	if o, ok := out["owner"].(map[string]any); ok {
		owner, _ = o["login"].(string)
	}
	out["owner"] = userJSON(base, owner)
	out["node_id"] = "A_kwDOsb" + strconv.FormatInt(toInt64(out["id"]), 10)
	out["description"] = nil
	out["external_url"] = base + "/" + RepoOwner + "/" + RepoName
	out["html_url"] = base + "/apps/" + slug
	out["created_at"], out["updated_at"] = created, created
	writeJSON(w, http.StatusOK, out)
}

func toInt64(v any) int64 {
	switch n := v.(type) {
	case int:
		return int64(n)
	case int64:
		return n
	}
	return 0
}
