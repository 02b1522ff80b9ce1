package sandbox

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

const gitDocs = "https://docs.github.com/rest/git/refs#update-a-reference"

func (s *Server) routeGit(m *http.ServeMux) {
	m.HandleFunc("GET /repos/{owner}/{repo}/git/ref/{ref...}", s.getRef)
	m.HandleFunc("GET /repos/{owner}/{repo}/git/matching-refs/{ref...}", s.matchingRefs)
	m.HandleFunc("POST /repos/{owner}/{repo}/git/refs", s.createRef)
	m.HandleFunc("PATCH /repos/{owner}/{repo}/git/refs/{ref...}", s.updateRef)
	m.HandleFunc("DELETE /repos/{owner}/{repo}/git/refs/{ref...}", s.deleteRef)
	m.HandleFunc("GET /repos/{owner}/{repo}/git/commits/{sha}", s.getGitCommit)
	m.HandleFunc("POST /repos/{owner}/{repo}/git/commits", s.createGitCommit)
	m.HandleFunc("GET /repos/{owner}/{repo}/git/blobs/{sha}", s.getBlob)
	m.HandleFunc("POST /repos/{owner}/{repo}/git/blobs", s.createBlob)
	m.HandleFunc("GET /repos/{owner}/{repo}/git/trees/{sha}", s.getTree)
	m.HandleFunc("POST /repos/{owner}/{repo}/git/trees", s.createTree)
}

// gitWriteOK refuses callers without push access.
func gitWriteOK(w http.ResponseWriter, r *http.Request) bool {
	if !repoOK(w, r) {
		return false
	}
	if !callerOf(r).canPush() {
		writeError(w, http.StatusForbidden, "Resource not accessible by personal access token")
		return false
	}
	return true
}

func refJSON(base, name string, h plumbing.Hash) map[string]any {
	return map[string]any{
		"ref": "refs/" + name, "node_id": "REF_kwDOsb" + strings.ReplaceAll(name, "/", "_"),
		"url":    base + repoPath + "/git/refs/" + name,
		"object": map[string]any{"type": "commit", "sha": h.String(), "url": base + repoPath + "/git/commits/" + h.String()},
	}
}

func (s *Server) getRef(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	name := strings.TrimPrefix(r.PathValue("ref"), "refs/")
	h := s.git.ref(name)
	if h.IsZero() {
		writeErrorDoc(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest/git/refs#get-a-reference")
		return
	}
	if c, err := s.git.commit(h); err == nil {
		setLastModified(w, c.Committer.When)
	}
	writeJSON(w, http.StatusOK, refJSON(baseURL(r), name, h))
}

func (s *Server) matchingRefs(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	prefix := "refs/" + strings.TrimPrefix(r.PathValue("ref"), "refs/")
	iter, err := s.git.st.IterReferences()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "Server Error")
		return
	}
	var names []string
	_ = iter.ForEach(func(ref *plumbing.Reference) error {
		n := ref.Name().String()
		if ref.Type() == plumbing.HashReference && strings.HasPrefix(n, prefix) {
			names = append(names, n)
		}
		return nil
	})
	sort.Strings(names)
	out := []any{}
	for _, n := range names {
		short := strings.TrimPrefix(n, "refs/")
		out = append(out, refJSON(baseURL(r), short, s.git.ref(short)))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) createRef(w http.ResponseWriter, r *http.Request) {
	if !gitWriteOK(w, r) {
		return
	}
	var req struct {
		Ref string `json:"ref"`
		SHA string `json:"sha"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	if !strings.HasPrefix(req.Ref, "refs/") || strings.Count(req.Ref, "/") < 2 {
		writeErrorDoc(w, http.StatusUnprocessableEntity, "Reference name is invalid: it must start with 'refs' and have at least two slashes.", gitDocs)
		return
	}
	if !validRefName(req.Ref) {
		writeErrorDoc(w, http.StatusUnprocessableEntity, "Reference name is invalid: git check-ref-format refuses it.", gitDocs)
		return
	}
	name := strings.TrimPrefix(req.Ref, "refs/")
	if !s.git.ref(name).IsZero() {
		writeErrorDoc(w, http.StatusUnprocessableEntity, "Reference already exists", gitDocs)
		return
	}
	h, ok := s.commitHash(req.SHA)
	if !ok {
		writeErrorDoc(w, http.StatusUnprocessableEntity, "Object does not exist", gitDocs)
		return
	}
	if s.refuseRefByRules(w, callerOf(r), name, plumbing.ZeroHash, h) || s.refuseWorkflowChange(w, callerOf(r), s.git, plumbing.ZeroHash, h) {
		return
	}
	if err := s.git.setRef(name, h); err != nil {
		writeError(w, http.StatusInternalServerError, "Server Error")
		return
	}
	s.notePush(name, callerOf(r).Login)
	s.st.PushedAt = s.now()
	w.Header().Set("Location", baseURL(r)+repoPath+"/git/refs/"+name)
	writeJSON(w, http.StatusCreated, refJSON(baseURL(r), name, h))
}

func (s *Server) commitHash(sha string) (plumbing.Hash, bool) {
	if len(sha) != 40 || !plumbing.IsHash(sha) {
		return plumbing.ZeroHash, false
	}
	h := plumbing.NewHash(sha)
	_, err := s.git.commit(h)
	return h, err == nil
}

// updateRef moves a ref; without force only a fast-forward is allowed.
func (s *Server) updateRef(w http.ResponseWriter, r *http.Request) {
	if !gitWriteOK(w, r) {
		return
	}
	var req struct {
		SHA   string `json:"sha"`
		Force bool   `json:"force"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	name := strings.TrimPrefix(r.PathValue("ref"), "refs/")
	cur := s.git.ref(name)
	if cur.IsZero() {
		writeErrorDoc(w, http.StatusUnprocessableEntity, "Reference does not exist", gitDocs)
		return
	}
	h, ok := s.commitHash(req.SHA)
	if !ok {
		writeErrorDoc(w, http.StatusUnprocessableEntity, "Object does not exist", gitDocs)
		return
	}
	if !req.Force && !s.git.isAncestor(cur, h) {
		writeErrorDoc(w, http.StatusUnprocessableEntity, "Update is not a fast forward", gitDocs)
		return
	}
	if s.refuseRefByRules(w, callerOf(r), name, cur, h) || s.refuseWorkflowChange(w, callerOf(r), s.git, cur, h) {
		return // git/update-ref's repository-rule-violation-error, or a workflow file without the permission
	}
	if err := s.git.setRef(name, h); err != nil {
		writeError(w, http.StatusInternalServerError, "Server Error")
		return
	}
	s.notePush(name, callerOf(r).Login)
	s.branchMoved(name)
	writeJSON(w, http.StatusOK, refJSON(baseURL(r), name, h))
}

// branchMoved touches the open pull requests whose head is that branch,
// as a push does on GitHub.
func (s *Server) branchMoved(ref string) {
	now := s.now()
	s.st.PushedAt = now
	branch, ok := strings.CutPrefix(ref, "heads/")
	if !ok {
		return
	}
	for _, is := range s.st.Issues {
		if is.PR != nil && is.State == "open" && (is.PR.Head == branch || is.PR.Base == branch) {
			is.UpdatedAt = now
		}
	}
}

func (s *Server) deleteRef(w http.ResponseWriter, r *http.Request) {
	if !gitWriteOK(w, r) {
		return
	}
	name := strings.TrimPrefix(r.PathValue("ref"), "refs/")
	cur := s.git.ref(name)
	if cur.IsZero() {
		writeErrorDoc(w, http.StatusUnprocessableEntity, "Reference does not exist", gitDocs)
		return
	}
	if s.refuseRefByRules(w, callerOf(r), name, cur, plumbing.ZeroHash) {
		return // a deletion rule
	}
	_ = s.git.st.RemoveReference(plumbing.ReferenceName("refs/" + name))
	w.WriteHeader(http.StatusNoContent)
}

func gitCommitJSON(base string, c *object.Commit) map[string]any {
	parents := []any{}
	for _, p := range c.ParentHashes {
		parents = append(parents, map[string]any{"sha": p.String(), "url": base + repoPath + "/git/commits/" + p.String(),
			"html_url": base + htmlRepo + "/commit/" + p.String()})
	}
	sig := func(x object.Signature) map[string]any {
		return map[string]any{"name": x.Name, "email": x.Email, "date": ts(x.When)}
	}
	return map[string]any{
		"sha": c.Hash.String(), "node_id": "C_" + c.Hash.String()[:20], "url": base + repoPath + "/git/commits/" + c.Hash.String(),
		"html_url": base + htmlRepo + "/commit/" + c.Hash.String(), "author": sig(c.Author), "committer": sig(c.Committer),
		"tree":    map[string]any{"sha": c.TreeHash.String(), "url": base + repoPath + "/git/trees/" + c.TreeHash.String()},
		"message": c.Message, "parents": parents, "verification": unsigned(),
	}
}

func (s *Server) getGitCommit(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	h, ok := s.commitHash(r.PathValue("sha"))
	if !ok {
		writeErrorDoc(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest/git/commits#get-a-commit-object")
		return
	}
	c, _ := s.git.commit(h)
	writeJSON(w, http.StatusOK, gitCommitJSON(baseURL(r), c))
}

type gitSig struct {
	Name  string     `json:"name"`
	Email string     `json:"email"`
	Date  *time.Time `json:"date"`
}

func (s *Server) createGitCommit(w http.ResponseWriter, r *http.Request) {
	if !gitWriteOK(w, r) {
		return
	}
	var req struct {
		Message   *string  `json:"message"`
		Tree      string   `json:"tree"`
		Parents   []string `json:"parents"`
		Author    *gitSig  `json:"author"`
		Committer *gitSig  `json:"committer"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	if req.Message == nil {
		writeValidation(w, fieldError{Resource: "Commit", Field: "message", Code: "missing_field"})
		return
	}
	if _, err := s.git.tree(plumbing.NewHash(req.Tree)); err != nil || !plumbing.IsHash(req.Tree) {
		writeErrorDoc(w, http.StatusUnprocessableEntity, "Tree SHA does not exist", "https://docs.github.com/rest/git/commits#create-a-commit")
		return
	}
	var parents []plumbing.Hash
	for _, p := range req.Parents {
		h, ok := s.commitHash(p)
		if !ok {
			writeErrorDoc(w, http.StatusUnprocessableEntity, "Parent SHA does not exist or is not a commit object", "https://docs.github.com/rest/git/commits#create-a-commit")
			return
		}
		parents = append(parents, h)
	}
	now := s.now()
	author := accountSignature(callerOf(r).Login, now)
	if req.Author != nil {
		author = signature{Name: req.Author.Name, Email: req.Author.Email, When: now}
		if req.Author.Date != nil {
			author.When = *req.Author.Date
		}
	}
	committer := author
	if req.Committer != nil {
		committer = signature{Name: req.Committer.Name, Email: req.Committer.Email, When: now}
		if req.Committer.Date != nil {
			committer.When = *req.Committer.Date
		}
	}
	h, err := s.git.writeCommit(plumbing.NewHash(req.Tree), parents, *req.Message, author, committer)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "Server Error")
		return
	}
	c, _ := s.git.commit(h)
	w.Header().Set("Location", baseURL(r)+repoPath+"/git/commits/"+h.String())
	writeJSON(w, http.StatusCreated, gitCommitJSON(baseURL(r), c))
}

func (s *Server) getBlob(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	sha := r.PathValue("sha")
	b, err := s.git.blob(plumbing.NewHash(sha))
	if err != nil || !plumbing.IsHash(sha) {
		notFound(w)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"sha": sha, "node_id": "B_" + sha[:20], "size": len(b), "url": baseURL(r) + repoPath + "/git/blobs/" + sha,
		"content": wrap60(base64.StdEncoding.EncodeToString(b)), "encoding": "base64",
	})
}

func (s *Server) createBlob(w http.ResponseWriter, r *http.Request) {
	if !gitWriteOK(w, r) {
		return
	}
	var req struct {
		Content  *string `json:"content"`
		Encoding string  `json:"encoding"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	if req.Content == nil {
		writeValidation(w, fieldError{Resource: "Blob", Field: "content", Code: "missing_field"})
		return
	}
	data := []byte(*req.Content)
	switch req.Encoding {
	case "", "utf-8":
	case "base64":
		d, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(*req.Content, "\n", ""))
		if err != nil {
			writeValidation(w, fieldError{Resource: "Blob", Field: "content", Code: "invalid", Message: "content is not valid Base64"})
			return
		}
		data = d
	default:
		writeValidation(w, fieldError{Resource: "Blob", Field: "encoding", Code: "invalid"})
		return
	}
	h, err := s.git.writeBlob(data)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "Server Error")
		return
	}
	url := baseURL(r) + repoPath + "/git/blobs/" + h.String()
	w.Header().Set("Location", url)
	writeJSON(w, http.StatusCreated, map[string]any{"sha": h.String(), "url": url})
}

func (s *Server) treeJSON(base string, h plumbing.Hash, recursive bool) (map[string]any, error) {
	var entries []flatEntry
	if recursive {
		if err := s.git.walk(h, "", true, &entries); err != nil {
			return nil, err
		}
	} else {
		t, err := s.git.tree(h)
		if err != nil {
			return nil, err
		}
		for _, e := range t.Entries {
			entries = append(entries, flatEntry{Path: e.Name, Mode: e.Mode, Hash: e.Hash})
		}
	}
	list := []any{}
	for _, e := range entries {
		item := map[string]any{"path": e.Path, "mode": modeString(e.Mode), "sha": e.Hash.String()}
		switch e.Mode {
		case filemode.Dir:
			item["type"], item["url"] = "tree", base+repoPath+"/git/trees/"+e.Hash.String()
		case filemode.Submodule:
			item["type"] = "commit"
		default:
			b, _ := s.git.blob(e.Hash)
			item["type"], item["size"], item["url"] = "blob", len(b), base+repoPath+"/git/blobs/"+e.Hash.String()
		}
		list = append(list, item)
	}
	return map[string]any{"sha": h.String(), "url": base + repoPath + "/git/trees/" + h.String(), "tree": list, "truncated": false}, nil
}

func modeString(m filemode.FileMode) string {
	if m == filemode.Dir {
		return "040000"
	}
	return strings.TrimLeft(m.String(), "0")
}

// getTree serves a tree by SHA or by branch name, with ?recursive=1.
func (s *Server) getTree(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	sha := r.PathValue("sha")
	h := plumbing.NewHash(sha)
	if c, ok := s.git.resolve(sha); ok {
		cc, _ := s.git.commit(c)
		h = cc.TreeHash
	}
	rec := r.URL.Query().Get("recursive")
	out, err := s.treeJSON(baseURL(r), h, rec != "" && rec != "0" && rec != "false")
	if err != nil {
		notFound(w)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

type treeEntryReq struct {
	Path    string           `json:"path"`
	Mode    string           `json:"mode"`
	Type    string           `json:"type"`
	SHA     *json.RawMessage `json:"sha"`
	Content *string          `json:"content"`
}

// createTree builds a tree from base_tree plus entries; "sha": null deletes.
func (s *Server) createTree(w http.ResponseWriter, r *http.Request) {
	if !gitWriteOK(w, r) {
		return
	}
	var req struct {
		BaseTree string         `json:"base_tree"`
		Tree     []treeEntryReq `json:"tree"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	base := plumbing.ZeroHash
	if req.BaseTree != "" {
		base = plumbing.NewHash(req.BaseTree)
		if _, err := s.git.tree(base); err != nil || !plumbing.IsHash(req.BaseTree) {
			writeValidation(w, fieldError{Resource: "Tree", Field: "base_tree", Code: "invalid", Message: "base_tree is not a valid tree oid"})
			return
		}
	}
	var changes []treeChange
	for i, e := range req.Tree {
		ch, msg := s.treeEntryChange(e)
		if msg != "" {
			writeValidation(w, fieldError{Resource: "Tree", Field: "tree[" + strconv.Itoa(i) + "]", Code: "invalid", Message: msg})
			return
		}
		changes = append(changes, ch)
	}
	h, err := s.git.applyTree(base, changes)
	if err != nil {
		writeValidation(w, fieldError{Resource: "Tree", Field: "tree", Code: "invalid", Message: err.Error()})
		return
	}
	out, _ := s.treeJSON(baseURL(r), h, false)
	w.Header().Set("Location", baseURL(r)+repoPath+"/git/trees/"+h.String())
	writeJSON(w, http.StatusCreated, out)
}

func (s *Server) treeEntryChange(e treeEntryReq) (treeChange, string) {
	modes := map[string]filemode.FileMode{"100644": filemode.Regular, "100755": filemode.Executable,
		"040000": filemode.Dir, "160000": filemode.Submodule, "120000": filemode.Symlink}
	mode, ok := modes[e.Mode]
	switch {
	case e.Path == "" || strings.HasPrefix(e.Path, "/") || strings.Contains(e.Path, "//"):
		return treeChange{}, "path is invalid"
	case !ok:
		return treeChange{}, "mode must be one of 100644, 100755, 040000, 160000, 120000"
	}
	var sha *string
	isNull := e.SHA != nil && string(*e.SHA) == "null"
	if e.SHA != nil && !isNull {
		var v string
		if err := json.Unmarshal(*e.SHA, &v); err != nil {
			return treeChange{}, "sha must be a string or null"
		}
		sha = &v
	}
	switch {
	case sha != nil && e.Content != nil:
		return treeChange{}, "Must supply either tree.sha or tree.content, not both"
	case e.Content != nil:
		h, err := s.git.writeBlob([]byte(*e.Content))
		if err != nil {
			return treeChange{}, err.Error()
		}
		return treeChange{Path: e.Path, Mode: mode, Hash: h}, ""
	case sha != nil:
		if !plumbing.IsHash(*sha) || len(*sha) != 40 {
			return treeChange{}, "sha is not a valid object id"
		}
		h := plumbing.NewHash(*sha)
		if _, err := s.git.st.EncodedObject(plumbing.AnyObject, h); err != nil {
			return treeChange{}, "Object does not exist: " + *sha
		}
		return treeChange{Path: e.Path, Mode: mode, Hash: h}, ""
	case isNull || (e.SHA == nil && e.Content == nil):
		return treeChange{Path: e.Path, Delete: true}, ""
	}
	return treeChange{}, "entry is invalid"
}
