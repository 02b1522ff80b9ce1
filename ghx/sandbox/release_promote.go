package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// GitHub releases, as `aayu release` creates and reads them. What GitHub
// enforces and the sandbox holds it to (docs.github.com/rest/releases/
// releases, "Create a release" and "Get a release by tag name"; the
// repository's releases are not in github-api/openapi-subset.json, so the
// docs' own words are cited here):
//   - "Users with push access to the repository can create a release":
//     a caller without push access gets 403 "Resource not accessible by
//     personal access token", as every git write here does.
//   - tag_name is required; a second release for the same tag is 422
//     Validation Failed with errors[] {resource: Release, code:
//     already_exists, field: tag_name} (the shape of the recorded
//     release-assets-conflict fixture, github-api/REFERENCE.md §10).
//   - "Unless the tag_name exists, the tag is created from
//     target_commitish" (default: the default branch); a target that is
//     neither a branch nor a commit is 422.
//   - GET /releases/tags/{tag} is 404 for a tag no release names.

type releaseRec struct {
	ID         int64     `json:"id"`
	Tag        string    `json:"tag_name"`
	Target     string    `json:"target_commitish"`
	Name       string    `json:"name"`
	Body       string    `json:"body"`
	Draft      bool      `json:"draft"`
	Prerelease bool      `json:"prerelease"`
	Author     string    `json:"author"`
	CreatedAt  time.Time `json:"created_at"`
}

func (s *Server) routeReleases(m *http.ServeMux) {
	m.HandleFunc("POST /repos/{owner}/{repo}/releases", s.createRelease)
	m.HandleFunc("GET /repos/{owner}/{repo}/releases/tags/{tag...}", s.getReleaseByTag)
}

func releaseJSON(base string, rel *releaseRec) map[string]any {
	html := base + htmlRepo + "/releases/tag/" + rel.Tag
	return map[string]any{
		"id": rel.ID, "node_id": fmt.Sprintf("RE_kwDOsb%d", rel.ID), "tag_name": rel.Tag, "target_commitish": rel.Target,
		"name": rel.Name, "body": rel.Body, "draft": rel.Draft, "prerelease": rel.Prerelease,
		"url": fmt.Sprintf("%s%s/releases/%d", base, repoPath, rel.ID), "html_url": html,
		"created_at": rel.CreatedAt.UTC().Format(time.RFC3339), "published_at": rel.CreatedAt.UTC().Format(time.RFC3339),
		"author": map[string]any{"login": rel.Author}, "assets": []any{},
	}
}

func (s *Server) createRelease(w http.ResponseWriter, r *http.Request) {
	if !gitWriteOK(w, r) {
		return
	}
	var req struct {
		Tag        string `json:"tag_name"`
		Target     string `json:"target_commitish"`
		Name       string `json:"name"`
		Body       string `json:"body"`
		Draft      bool   `json:"draft"`
		Prerelease bool   `json:"prerelease"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	if req.Tag == "" || !validRefName("refs/tags/"+req.Tag) {
		writeValidation(w, fieldError{Resource: "Release", Field: "tag_name", Code: "invalid"})
		return
	}
	for _, rel := range s.st.Releases {
		if rel.Tag == req.Tag {
			writeValidation(w, fieldError{Resource: "Release", Field: "tag_name", Code: "already_exists"})
			return
		}
	}
	if s.git.ref("tags/" + req.Tag).IsZero() {
		target := req.Target
		if target == "" {
			target = "main"
		}
		h, ok := s.git.resolve(target)
		if !ok {
			writeValidation(w, fieldError{Resource: "Release", Field: "target_commitish", Code: "invalid"})
			return
		}
		if err := s.git.setRef("tags/"+req.Tag, h); err != nil {
			writeError(w, http.StatusInternalServerError, "Server Error")
			return
		}
	}
	rel := &releaseRec{ID: s.st.newID(), Tag: req.Tag, Target: req.Target, Name: req.Name, Body: req.Body, Draft: req.Draft,
		Prerelease: req.Prerelease, Author: callerOf(r).Login, CreatedAt: s.now()}
	s.st.Releases = append(s.st.Releases, rel)
	w.Header().Set("Location", fmt.Sprintf("%s%s/releases/%d", baseURL(r), repoPath, rel.ID))
	writeJSON(w, http.StatusCreated, releaseJSON(baseURL(r), rel))
}

func (s *Server) getReleaseByTag(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	tag := strings.TrimPrefix(r.PathValue("tag"), "refs/tags/")
	for _, rel := range s.st.Releases {
		if rel.Tag == tag {
			writeJSON(w, http.StatusOK, releaseJSON(baseURL(r), rel))
			return
		}
	}
	writeErrorDoc(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest/releases/releases#get-a-release-by-tag-name")
}

// workflowOnMain says the workflow file name (e.g. aayudha-release.yml) is
// on the default branch, as Actions registers a workflow: "List workflow
// runs for a workflow" answers 404 for one that is not, and lists only
// that workflow's runs for one that is.
func (s *Server) workflowOnMain(name string) bool {
	if strings.Contains(name, "/") {
		return false
	}
	id, ok := s.git.resolve("main")
	if !ok {
		return false
	}
	c, err := s.git.commit(id)
	if err != nil {
		return false
	}
	_, err = s.lookup(c.TreeHash, ".github/workflows/"+name)
	return err == nil
}
