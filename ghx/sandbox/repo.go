package sandbox

import (
	"encoding/base64"
	"net/http"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

func (s *Server) routeRepo(m *http.ServeMux) {
	m.HandleFunc("GET /repos/{owner}/{repo}", s.getRepo)
	m.HandleFunc("GET /repos/{owner}/{repo}/collaborators/{username}/permission", s.getPermission)
	m.HandleFunc("GET /repos/{owner}/{repo}/contents/{path...}", s.getContent)
	m.HandleFunc("GET /repos/{owner}/{repo}/compare/{basehead...}", s.compare)
	m.HandleFunc("GET /repos/{owner}/{repo}/commits", s.listCommits)
	m.HandleFunc("GET /repos/{owner}/{repo}/commits/{ref...}", s.commitSubresource)
	m.HandleFunc("POST /repos/{owner}/{repo}/statuses/{sha}", s.createStatus)
}

func (s *Server) getRepo(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	setLastModified(w, s.st.PushedAt)
	writeJSON(w, http.StatusOK, s.repoJSON(baseURL(r), callerOf(r), true))
}

func (s *Server) handleUser(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	if c.anonymous {
		writeError(w, http.StatusUnauthorized, "Requires authentication")
		return
	}
	m := userJSON(baseURL(r), c.Login)
	created := s.st.RepoCreated.AddDate(-1, 0, 0)
	for k, v := range map[string]any{
		"user_view_type": "private", "name": c.Name, "company": nil, "blog": "", "location": nil,
		"email": nil, "hireable": nil, "bio": nil, "twitter_username": nil, "notification_email": nil,
		"public_repos": 1, "public_gists": 0, "followers": 0, "following": 0,
		"created_at": ts(created), "updated_at": ts(created),
		"private_gists": 0, "total_private_repos": 0, "owned_private_repos": 0, "disk_usage": 0,
		"collaborators": 0, "two_factor_authentication": true,
	} {
		m[k] = v
	}
	writeJSON(w, http.StatusOK, m)
}

func (s *Server) getPermission(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	if c := callerOf(r); !c.canPush() {
		writeError(w, http.StatusForbidden, "Must have push access to view collaborator permission.")
		return
	}
	a, ok := accountByLogin(r.PathValue("username"))
	if !ok {
		a, ok = accountByKey(r.PathValue("username"))
	}
	if !ok {
		notFound(w)
		return
	}
	u := userJSON(baseURL(r), a.Login)
	p := a.Permission
	u["permissions"] = map[string]any{"admin": p == "admin", "maintain": p == "admin", "push": p != "read", "triage": true, "pull": true}
	u["role_name"] = p
	writeJSON(w, http.StatusOK, map[string]any{"permission": p, "role_name": p, "user": u})
}

// getContent serves a file (base64 wrapped every 60 characters, as GitHub
// does) or a directory listing, at ?ref= or the default branch.
func (s *Server) getContent(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	ref := r.URL.Query().Get("ref")
	if ref == "" {
		ref = "main"
	}
	commitID, ok := s.git.resolve(ref)
	if !ok {
		writeErrorDoc(w, http.StatusNotFound, "No commit found for the ref "+ref, "https://docs.github.com/rest/repos/contents#get-repository-content")
		return
	}
	c, _ := s.git.commit(commitID)
	p := strings.Trim(r.PathValue("path"), "/")
	entry, err := s.lookup(c.TreeHash, p)
	if err != nil {
		writeErrorDoc(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest/repos/contents#get-repository-content")
		return
	}
	base := baseURL(r)
	setLastModified(w, c.Committer.When)
	if entry.Mode == filemode.Dir {
		t, _ := s.git.tree(entry.Hash)
		out := []any{}
		for _, e := range t.Entries {
			out = append(out, s.contentJSON(base, ref, path.Join(p, e.Name), e, false))
		}
		writeJSON(w, http.StatusOK, out)
		return
	}
	if strings.Contains(r.Header.Get("Accept"), ".raw") {
		b, _ := s.git.blob(entry.Hash)
		w.Header().Set("Content-Type", "application/vnd.github.v3.raw; charset=utf-8")
		_, _ = w.Write(b)
		return
	}
	writeJSON(w, http.StatusOK, s.contentJSON(base, ref, p, entry, true))
}

func (s *Server) lookup(tree plumbing.Hash, p string) (object.TreeEntry, error) {
	if p == "" {
		return object.TreeEntry{Name: "", Mode: filemode.Dir, Hash: tree}, nil
	}
	t, err := s.git.tree(tree)
	if err != nil {
		return object.TreeEntry{}, err
	}
	e, err := t.FindEntry(p)
	if err != nil {
		return object.TreeEntry{}, err
	}
	return *e, nil
}

func (s *Server) contentJSON(base, ref, p string, e object.TreeEntry, withContent bool) map[string]any {
	typ, size := "file", int64(0)
	gitURL := base + repoPath + "/git/blobs/" + e.Hash.String()
	var download any
	switch e.Mode {
	case filemode.Dir:
		typ = "dir"
		gitURL = base + repoPath + "/git/trees/" + e.Hash.String()
	case filemode.Symlink:
		typ = "symlink"
	}
	var content []byte
	if typ != "dir" {
		content, _ = s.git.blob(e.Hash)
		size = int64(len(content))
		download = base + "/raw/" + RepoOwner + "/" + RepoName + "/" + ref + "/" + p
	}
	self := base + repoPath + "/contents/" + p + "?ref=" + ref
	html := base + htmlRepo + "/blob/" + ref + "/" + p
	m := map[string]any{
		"type": typ, "size": size, "name": path.Base(p), "path": p, "sha": e.Hash.String(), "url": self,
		"git_url": gitURL, "html_url": html, "download_url": download,
		"_links": map[string]any{"self": self, "git": gitURL, "html": html},
	}
	if withContent {
		m["encoding"] = "base64"
		m["content"] = wrap60(base64.StdEncoding.EncodeToString(content))
	}
	return m
}

func wrap60(s string) string {
	var b strings.Builder
	for len(s) > 60 {
		b.WriteString(s[:60])
		b.WriteByte('\n')
		s = s[60:]
	}
	b.WriteString(s)
	b.WriteByte('\n')
	return b.String()
}

// compare answers BASE...HEAD; each side arrives query-escaped from
// go-github, which PathValue has already unescaped.
func (s *Server) compare(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	bh := r.PathValue("basehead")
	baseRev, headRev, ok := strings.Cut(bh, "...")
	if !ok {
		notFound(w)
		return
	}
	baseID, ok1 := s.git.resolve(baseRev)
	headID, ok2 := s.git.resolve(headRev)
	if !ok1 || !ok2 {
		notFound(w)
		return
	}
	mb := s.git.mergeBase(baseID, headID)
	ahead := s.git.commitsBetween(baseID, headID)
	behind := s.git.commitsBetween(headID, baseID)
	status := "diverged"
	switch {
	case len(ahead) == 0 && len(behind) == 0:
		status = "identical"
	case len(behind) == 0:
		status = "ahead"
	case len(ahead) == 0:
		status = "behind"
	}
	base := baseURL(r)
	start, end := pageOf(w, r, len(ahead))
	commits := []any{}
	for _, c := range ahead[start:end] {
		commits = append(commits, commitJSON(base, c))
	}
	files := []any{}
	if start == 0 {
		mbc, err1 := s.git.commit(mb)
		hc, err2 := s.git.commit(headID)
		if err1 == nil && err2 == nil {
			diffs, _ := s.git.diffTrees(mbc.TreeHash, hc.TreeHash)
			for _, d := range diffs {
				files = append(files, diffEntryJSON(base, headID.String(), d))
			}
		}
	}
	bc, _ := s.git.commit(baseID)
	mbc, _ := s.git.commit(mb)
	html := base + htmlRepo + "/compare/" + bh
	out := map[string]any{
		"url": base + repoPath + "/compare/" + bh, "html_url": html, "permalink_url": html,
		"diff_url": html + ".diff", "patch_url": html + ".patch", "status": status,
		"ahead_by": len(ahead), "behind_by": len(behind), "total_commits": len(ahead),
		"commits": commits, "files": files, "base_commit": commitJSON(base, bc),
	}
	if mbc != nil {
		out["merge_base_commit"] = commitJSON(base, mbc)
	} else {
		out["merge_base_commit"] = commitJSON(base, bc)
	}
	writeJSON(w, http.StatusOK, out)
}

// loginFromEmail recovers a sandbox login from a noreply address.
func loginFromEmail(email string) string {
	local, _, _ := strings.Cut(email, "@")
	if _, login, ok := strings.Cut(local, "+"); ok {
		if _, known := accountByLogin(login); known {
			return login
		}
	}
	return ""
}

// commitJSON is GitHub's commit object (the REST one, not git-commit).
func commitJSON(base string, c *object.Commit) map[string]any {
	if c == nil {
		return nil
	}
	api := base + repoPath + "/commits/" + c.Hash.String()
	parents := []any{}
	for _, p := range c.ParentHashes {
		parents = append(parents, map[string]any{"sha": p.String(), "url": base + repoPath + "/commits/" + p.String(),
			"html_url": base + htmlRepo + "/commit/" + p.String()})
	}
	gitUser := func(sig object.Signature) map[string]any {
		return map[string]any{"name": sig.Name, "email": sig.Email, "date": ts(sig.When)}
	}
	return map[string]any{
		"url": api, "sha": c.Hash.String(), "node_id": "C_" + c.Hash.String()[:20], "html_url": base + htmlRepo + "/commit/" + c.Hash.String(),
		"comments_url": api + "/comments",
		"commit": map[string]any{
			"url": base + repoPath + "/git/commits/" + c.Hash.String(), "author": gitUser(c.Author), "committer": gitUser(c.Committer),
			"message": strings.TrimSuffix(c.Message, "\n"), "comment_count": 0,
			"tree":         map[string]any{"sha": c.TreeHash.String(), "url": base + repoPath + "/git/trees/" + c.TreeHash.String()},
			"verification": unsigned(),
		},
		"author": userOrNil(base, loginFromEmail(c.Author.Email)), "committer": userOrNil(base, loginFromEmail(c.Committer.Email)),
		"parents": parents,
	}
}

func unsigned() map[string]any {
	return map[string]any{"verified": false, "reason": "unsigned", "signature": nil, "payload": nil, "verified_at": nil}
}
