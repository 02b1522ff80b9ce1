package sandbox

import (
	"net/http"
	"net/http/cgi"
	"os/exec"
	"path/filepath"
	"strings"
)

// The sandbox speaks git's smart HTTP at /acme/REPO.git, as GitHub does, so
// an agent can clone, fetch and push with `Authorization: Bearer
// sandbox-LOGIN` (or basic auth whose password is that token). Git's own
// `git http-backend` serves the bare repositories under the state folder
// through net/http/cgi; an in-memory sandbox has none and answers 404.

// isGitPath reports a smart-HTTP request: /acme/REPO.git/...
func isGitPath(p string) bool {
	rest, ok := strings.CutPrefix(p, "/"+RepoOwner+"/")
	if !ok {
		return false
	}
	name, _, ok := strings.Cut(rest, ".git/")
	return ok && knownRepo(RepoOwner, name)
}

func (s *Server) serveGit(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/"+RepoOwner+"/")
	name, sub, _ := strings.Cut(rest, ".git/")
	name = strings.ToLower(name)
	c, ok := s.gitCaller(r)
	push := sub == "git-receive-pack" || r.URL.Query().Get("service") == "git-receive-pack"
	switch {
	case !ok:
		w.Header().Set("WWW-Authenticate", `Basic realm="GitHub"`)
		http.Error(w, "Invalid username or token. Password authentication is not supported for Git operations.", http.StatusUnauthorized)
		return
	case push && c.anonymous:
		w.Header().Set("WWW-Authenticate", `Basic realm="GitHub"`)
		http.Error(w, "Authentication required to push.", http.StatusUnauthorized)
		return
	case c.job != nil && (c.job.perms["contents"] == "" || push && c.job.perms["contents"] != "write"):
		// A workflow token fetches with contents: read and pushes with
		// contents: write, nothing less.
		http.Error(w, "Permission to "+RepoOwner+"/"+name+".git denied to "+c.Login+".", http.StatusForbidden)
		return
	case push && !c.canPush():
		http.Error(w, "Permission to "+RepoOwner+"/"+name+".git denied to "+c.Login+".", http.StatusForbidden)
		return
	case s.opts.StateDir == "":
		http.Error(w, "This sandbox keeps its repositories in memory; start it with a state folder to clone it.", http.StatusNotFound)
		return
	}
	backend, err := exec.LookPath("git")
	if err != nil {
		http.Error(w, "git is not installed on the sandbox's machine", http.StatusServiceUnavailable)
		return
	}
	dir := gitDirName
	if name == FreshRepoName {
		dir = freshGitDir
	}
	env := []string{
		"GIT_PROJECT_ROOT=" + s.opts.StateDir, "GIT_HTTP_EXPORT_ALL=1",
		// Small pushes arrive as loose objects, which the API's go-git
		// storage reads at once; it indexes packfiles only when it opens.
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=receive.unpackLimit", "GIT_CONFIG_VALUE_0=1000000",
	}
	if !c.anonymous {
		env = append(env, "REMOTE_USER="+c.Login)
	}
	h := &cgi.Handler{Path: backend, Args: []string{"http-backend"}, Dir: s.opts.StateDir, Env: env}
	r2 := r.Clone(r.Context())
	r2.URL.Path = "/" + filepath.ToSlash(dir) + "/" + sub
	r2.RequestURI = r2.URL.RequestURI()
	// The API and git share the objects and refs: one at a time.
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reloadIfReset()
	if push && r.Method == http.MethodPost {
		var declined bool
		if r2, declined = s.refusePushByRules(w, r2, c, name); declined {
			s.logf("%s %s (git, %s): declined by the rulesets", r.Method, r.URL.Path, c.Login)
			return
		}
	}
	h.ServeHTTP(w, r2)
	if push && r.Method == http.MethodPost {
		if st := s.stateOf(name); st != nil {
			st.PushedAt = s.now()
		}
		if err := s.saveRepo(name); err != nil {
			s.logf("sandbox: %v", err)
		}
	}
	s.logf("%s %s (git, %s)", r.Method, r.URL.Path, c.Login)
}

// gitCaller reads the bearer token, or a basic-auth password holding it.
func (s *Server) gitCaller(r *http.Request) (caller, bool) {
	if _, pass, ok := r.BasicAuth(); ok {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "token "+pass)
	}
	return s.authenticate(r)
}

func (s *Server) stateOf(name string) *state {
	if name == FreshRepoName {
		if s.fresh == nil {
			return nil
		}
		return s.fresh.st
	}
	return s.st
}

func (s *Server) saveRepo(name string) error {
	if name == FreshRepoName {
		return s.saveFresh()
	}
	return s.save()
}
