package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The demo repository.
const (
	RepoOwner   = "acme"
	RepoName    = "benefits"
	RepoID      = 70001
	ownerID     = 900
	workflowID  = 161335
	GateFile    = "aayudha-merge-gate.yml"
	gatePath    = ".github/workflows/" + GateFile
	repoPath    = "/repos/" + RepoOwner + "/" + RepoName
	htmlRepo    = "/" + RepoOwner + "/" + RepoName
	nodePrefixI = "I_kwDOsandbox"
)

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func tsPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return ts(*t)
}

func nodeID(kind string, id int64) string { return fmt.Sprintf("%s_kwDOsb%08d", kind, id) }

// userJSON is GitHub's simple-user for a sandbox login (or the acme org).
func userJSON(base, login string) map[string]any {
	id, typ := int64(ownerID), "Organization"
	if a, ok := accountByLogin(login); ok {
		id, typ = a.ID, a.Type
	} else if login == ActionsBotLogin {
		id, typ = actionsBot.ID, actionsBot.Type
	}
	api := base + "/users/" + login
	return map[string]any{
		"login": login, "id": id, "node_id": nodeID("U", id),
		"avatar_url":          fmt.Sprintf("%s/avatars/u/%d?v=4", base, id),
		"gravatar_id":         "",
		"url":                 api,
		"html_url":            base + "/" + login,
		"followers_url":       api + "/followers",
		"following_url":       api + "/following{/other_user}",
		"gists_url":           api + "/gists{/gist_id}",
		"starred_url":         api + "/starred{/owner}{/repo}",
		"subscriptions_url":   api + "/subscriptions",
		"organizations_url":   api + "/orgs",
		"repos_url":           api + "/repos",
		"events_url":          api + "/events{/privacy}",
		"received_events_url": api + "/received_events",
		"type":                typ,
		"user_view_type":      "public",
		"site_admin":          false,
	}
}

func userOrNil(base, login string) any {
	if login == "" {
		return nil
	}
	return userJSON(base, login)
}

func association(login string) string {
	a, ok := accountByLogin(login)
	switch {
	case !ok:
		return "NONE"
	case a.Permission == "admin":
		return "OWNER"
	case a.Permission == "write":
		return "COLLABORATOR"
	}
	return "CONTRIBUTOR"
}

// repoJSON is the repository object; full adds the full-repository fields
// and the caller's own permissions.
func (s *Server) repoJSON(base string, c caller, full bool) map[string]any {
	api := base + repoPath
	st := s.st
	open := 0
	for _, is := range st.Issues {
		if is.State == "open" {
			open++
		}
	}
	m := map[string]any{
		"id": s.repoID(), "node_id": s.repoNodeID(), "name": RepoName, "full_name": RepoOwner + "/" + RepoName,
		"owner": userJSON(base, RepoOwner), "private": false, "visibility": "public",
		"html_url": base + htmlRepo, "description": "Demo benefits service for the aayu sandbox", "fork": false,
		"url": api, "archive_url": api + "/{archive_format}{/ref}", "assignees_url": api + "/assignees{/user}",
		"blobs_url": api + "/git/blobs{/sha}", "branches_url": api + "/branches{/branch}",
		"collaborators_url": api + "/collaborators{/collaborator}", "comments_url": api + "/comments{/number}",
		"commits_url": api + "/commits{/sha}", "compare_url": api + "/compare/{base}...{head}",
		"contents_url": api + "/contents/{+path}", "contributors_url": api + "/contributors",
		"deployments_url": api + "/deployments", "downloads_url": api + "/downloads", "events_url": api + "/events",
		"forks_url": api + "/forks", "git_commits_url": api + "/git/commits{/sha}", "git_refs_url": api + "/git/refs{/sha}",
		"git_tags_url": api + "/git/tags{/sha}", "git_url": "git://sandbox/acme/benefits.git",
		"issue_comment_url": api + "/issues/comments{/number}", "issue_events_url": api + "/issues/events{/number}",
		"issues_url": api + "/issues{/number}", "keys_url": api + "/keys{/key_id}", "labels_url": api + "/labels{/name}",
		"languages_url": api + "/languages", "merges_url": api + "/merges", "milestones_url": api + "/milestones{/number}",
		"notifications_url": api + "/notifications{?since,all,participating}", "pulls_url": api + "/pulls{/number}",
		"releases_url": api + "/releases{/id}", "ssh_url": "git@sandbox:acme/benefits.git",
		"stargazers_url": api + "/stargazers", "statuses_url": api + "/statuses/{sha}",
		"subscribers_url": api + "/subscribers", "subscription_url": api + "/subscription", "tags_url": api + "/tags",
		"teams_url": api + "/teams", "trees_url": api + "/git/trees{/sha}", "clone_url": base + htmlRepo + ".git",
		"mirror_url": nil, "hooks_url": api + "/hooks", "svn_url": base + htmlRepo, "homepage": nil, "language": "Go",
		"forks_count": 0, "forks": 0, "stargazers_count": 0, "watchers_count": 0, "watchers": 0, "size": 64,
		"default_branch": "main", "open_issues_count": open, "open_issues": open,
		"is_template": false, "topics": []string{}, "has_issues": true, "has_projects": false, "has_wiki": false,
		"has_pages": false, "has_downloads": true, "has_discussions": false, "archived": false, "disabled": false,
		"pushed_at": ts(st.PushedAt), "created_at": ts(st.RepoCreated), "updated_at": ts(st.PushedAt),
		"license": nil, "allow_forking": true, "web_commit_signoff_required": false,
	}
	if full {
		ms := s.st.mergeSettings()
		m["allow_squash_merge"] = ms.Squash
		m["allow_merge_commit"] = ms.Merge
		m["allow_rebase_merge"] = ms.Rebase
		m["allow_auto_merge"] = false
		m["delete_branch_on_merge"] = false
		m["network_count"] = 0
		m["subscribers_count"] = 1
		if !c.anonymous {
			p := c.Permission
			m["permissions"] = map[string]any{
				"admin": p == "admin", "maintain": p == "admin", "push": p == "admin" || p == "write",
				"triage": true, "pull": true,
			}
		}
	}
	s.renameCurrent(m, base)
	return m
}

func (s *Server) labelJSON(base, name string) map[string]any {
	l := s.findLabel(name)
	if l == nil {
		return nil
	}
	var desc any
	if l.Description != "" {
		desc = l.Description
	}
	return map[string]any{
		"id": l.ID, "node_id": nodeID("LA", l.ID), "url": base + repoPath + "/labels/" + strings.ReplaceAll(l.Name, " ", "%20"),
		"name": l.Name, "color": l.Color, "description": desc, "default": false,
	}
}

func (s *Server) findLabel(name string) *labelRec {
	for _, l := range s.st.Labels {
		if strings.EqualFold(l.Name, name) {
			return l
		}
	}
	return nil
}

func (s *Server) labelsJSON(base string, names []string) []any {
	out := []any{}
	for _, n := range names {
		if l := s.labelJSON(base, n); l != nil {
			out = append(out, l)
		}
	}
	return out
}

func (s *Server) commentCount(n int) int {
	k := 0
	for _, c := range s.st.Comments {
		if c.Issue == n {
			k++
		}
	}
	return k
}

// commentCounts counts every issue's comments in one pass, for the list
// endpoints: counting per issue walks all comments once for each item.
func (s *Server) commentCounts() map[int]int {
	counts := make(map[int]int)
	for _, c := range s.st.Comments {
		counts[c.Issue]++
	}
	return counts
}

// issueJSON is GitHub's issue object; a pull request carries pull_request.
func (s *Server) issueJSON(base string, is *issueRec) map[string]any {
	return s.issueJSONCounted(base, is, s.commentCount(is.Number))
}

// issueJSONCounted is issueJSON with the issue's comment count given.
func (s *Server) issueJSONCounted(base string, is *issueRec, comments int) map[string]any {
	api := fmt.Sprintf("%s%s/issues/%d", base, repoPath, is.Number)
	kind := "issues"
	if is.PR != nil {
		kind = "pull"
	}
	var reason any
	if is.StateReason != "" {
		reason = is.StateReason
	}
	m := map[string]any{
		"id": is.ID, "node_id": nodeID("I", is.ID), "url": api, "repository_url": base + repoPath,
		"labels_url": api + "/labels{/name}", "comments_url": api + "/comments", "events_url": api + "/events",
		"html_url": fmt.Sprintf("%s%s/%s/%d", base, htmlRepo, kind, is.Number), "number": is.Number,
		"state": is.State, "state_reason": reason, "title": is.Title, "body": nilIfEmpty(is.Body),
		"user": userJSON(base, is.User), "labels": s.labelsJSON(base, is.Labels), "assignee": nil,
		"assignees": []any{}, "milestone": nil, "locked": false, "active_lock_reason": nil,
		"comments": comments, "closed_at": tsPtr(is.ClosedAt),
		"created_at": ts(is.CreatedAt), "updated_at": ts(is.UpdatedAt), "closed_by": userOrNil(base, is.ClosedBy),
		"author_association": association(is.User), "timeline_url": api + "/timeline",
		"performed_via_github_app": nil,
		"reactions": map[string]any{"url": api + "/reactions", "total_count": 0, "+1": 0, "-1": 0, "laugh": 0,
			"hooray": 0, "confused": 0, "heart": 0, "rocket": 0, "eyes": 0},
	}
	if is.PR != nil {
		pr := fmt.Sprintf("%s%s/pull/%d", base, htmlRepo, is.Number)
		var mergedAt any
		if is.PR.MergedAt != nil {
			mergedAt = ts(*is.PR.MergedAt)
		}
		m["pull_request"] = map[string]any{
			"url": fmt.Sprintf("%s%s/pulls/%d", base, repoPath, is.Number), "html_url": pr,
			"diff_url": pr + ".diff", "patch_url": pr + ".patch", "merged_at": mergedAt,
		}
		m["draft"] = is.PR.Draft
	}
	return m
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// commentJSON is GitHub's issue-comment object.
func commentJSON(base string, c *commentRec) map[string]any {
	return map[string]any{
		"id": c.ID, "node_id": nodeID("IC", c.ID),
		"url":      fmt.Sprintf("%s%s/issues/comments/%d", base, repoPath, c.ID),
		"html_url": fmt.Sprintf("%s%s/issues/%d#issuecomment-%d", base, htmlRepo, c.Issue, c.ID),
		"body":     c.Body, "user": userJSON(base, c.User),
		"created_at": ts(c.CreatedAt), "updated_at": ts(c.UpdatedAt),
		"issue_url":          fmt.Sprintf("%s%s/issues/%d", base, repoPath, c.Issue),
		"author_association": association(c.User), "performed_via_github_app": nil,
	}
}

// repo checks {owner}/{repo} and writes 404 for anything but the demo.
func repoOK(w http.ResponseWriter, r *http.Request) bool {
	if !knownRepo(r.PathValue("owner"), r.PathValue("repo")) {
		notFound(w)
		return false
	}
	return true
}
