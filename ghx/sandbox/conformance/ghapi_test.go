package conformance_test

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
)

// apiCall is one `gh api` call of the conformance run: which operation it
// exercises (GitHub's operationId, which the full description must route
// the request to), as whom, and what the answer must say. Path and body
// take {name} from the run's values, and check may save new ones.
type apiCall struct {
	op     string
	as     string // account key; founder when ""
	method string // GET when ""
	path   string
	body   string   // JSON sent with --input -
	flags  []string // more gh api flags
	status int      // as gh shows it (after following a redirect)
	check  func(c *callCtx)
}

// callCtx is what a check sees: the responses gh printed (one a page) and
// their JSON values (arrays of all pages joined), and the run's values.
type callCtx struct {
	t    *testing.T
	g    *ghEnv
	vars map[string]string
	res  []ghResponse
	vals []any
	seen []exchange // what the sandbox served for this call
}

func (c *callCtx) obj() any {
	if len(c.vals) != 1 {
		c.t.Fatalf("want one JSON value, got %d", len(c.vals))
	}
	return c.vals[0]
}

// want fails unless the field at path (dotted, with indexes) of v prints as
// want.
func (c *callCtx) want(v any, path string, want any) {
	c.t.Helper()
	if got := fmt.Sprint(field(v, path)); got != fmt.Sprint(want) {
		c.t.Errorf("%s = %q, want %q", path, got, fmt.Sprint(want))
	}
}

// save keeps the field at path of v as the run's value name.
func (c *callCtx) save(name string, v any, path string) {
	c.t.Helper()
	f := field(v, path)
	if f == nil {
		c.t.Fatalf("no %s to keep as {%s}", path, name)
	}
	if n, ok := f.(float64); ok {
		c.vars[name] = strconv.FormatFloat(n, 'f', -1, 64)
		return
	}
	c.vars[name] = fmt.Sprint(f)
}

func field(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	if n, ok := v.(float64); ok && n == float64(int64(n)) {
		return int64(n)
	}
	return v
}

// find returns the first element of the array vals whose field key prints
// as want.
func find(vals []any, key string, want any) any {
	for _, v := range vals {
		if fmt.Sprint(field(v, key)) == fmt.Sprint(want) {
			return v
		}
	}
	return nil
}

// ghAPICalls are the REST operations aayu uses (testdata/openapi's
// operations.txt) and those the sandbox serves beyond them (described.txt),
// each driven through `gh api`. Reads come first, then writes, in an order
// where each write's inputs exist. A new endpoint is one line here.
var ghAPICalls = []apiCall{
	{op: "users/get-authenticated", path: "user", status: 200, check: func(c *callCtx) { c.want(c.obj(), "login", "founder") }},
	{op: "repos/get", path: "repos/acme/benefits", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "default_branch", "main")
		c.want(c.obj(), "permissions.admin", true)
	}},
	{op: "repos/get-collaborator-permission-level", path: "repos/acme/benefits/collaborators/writer/permission", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "permission", "write")
	}},
	{op: "rate-limit/get", path: "rate_limit", status: 200, check: func(c *callCtx) { c.want(c.obj(), "resources.core.limit", 5000) }},
	// Pagination: gh follows Link's next until there is none.
	{op: "issues/list-for-repo", path: "repos/acme/benefits/issues?state=all&per_page=4", flags: []string{"--paginate"}, status: 200, check: func(c *callCtx) {
		if len(c.res) != 5 || len(c.vals) != 20 {
			c.t.Errorf("20 issues and pull requests by 4: %d pages, %d items", len(c.res), len(c.vals))
			return
		}
		if !strings.Contains(c.res[0].Header.Get("Link"), `rel="next"`) || strings.Contains(c.res[4].Header.Get("Link"), `rel="next"`) {
			c.t.Errorf("Link: first page %q, last page %q", c.res[0].Header.Get("Link"), c.res[4].Header.Get("Link"))
		}
	}},
	{op: "pulls/list", path: "repos/acme/benefits/pulls?state=all&per_page=100", status: 200, check: func(c *callCtx) {
		c.want(find(c.vals, "number", 4), "head.sha", c.vars["head4"])
	}},
	{op: "pulls/get", path: "repos/acme/benefits/pulls/4", status: 200, check: func(c *callCtx) {
		pr := c.obj()
		c.want(pr, "head.sha", c.vars["head4"])
		c.want(pr, "head.ref", "story/3-remaining-deductible")
		c.want(pr, "base.ref", "dev")
		c.want(pr, "user.login", "founder") // the solo demo: agents write under the founder's token
		c.want(pr, "mergeable", true)
	}},
	{op: "pulls/list-files", path: "repos/acme/benefits/pulls/4/files?per_page=2", flags: []string{"--paginate"}, status: 200, check: func(c *callCtx) {
		if len(c.res) != 2 || len(c.vals) != 3 {
			c.t.Errorf("3 files by 2: %d pages, %d files", len(c.res), len(c.vals))
		}
	}},
	{op: "pulls/list-reviews", path: "repos/acme/benefits/pulls/6/reviews", status: 200},
	// ETag and 304: the ETag a read gave, sent back, is answered 304 with
	// no body (gh shows the 304 and exits 1, as for any status it does not
	// treat as success).
	{op: "issues/get", path: "repos/acme/benefits/issues/3", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "number", 3)
		c.want(c.obj(), "state", "open")
		if c.vars["etag3"] = c.res[0].Header.Get("ETag"); !strings.HasPrefix(c.vars["etag3"], `W/"`) {
			c.t.Errorf("issue 3: ETag %q", c.vars["etag3"])
		}
	}},
	{op: "issues/get", path: "repos/acme/benefits/issues/3", flags: []string{"-H", "If-None-Match: {etag3}"}, status: 304, check: func(c *callCtx) {
		if len(c.res[0].Body) != 0 || c.res[0].Header.Get("ETag") != c.vars["etag3"] {
			c.t.Errorf("304: %d bytes of body, ETag %q", len(c.res[0].Body), c.res[0].Header.Get("ETag"))
		}
	}},
	{op: "issues/get", path: "repos/acme/benefits/issues/999", status: 404, check: func(c *callCtx) { c.want(c.obj(), "message", "Not Found") }},
	{op: "issues/get", as: "nobody", path: "repos/acme/benefits/issues/3", status: 401, check: func(c *callCtx) { c.want(c.obj(), "message", "Bad credentials") }},
	{op: "issues/list-comments", path: "repos/acme/benefits/issues/4/comments", status: 200, check: func(c *callCtx) {
		if len(c.vals) != 1 || !strings.HasPrefix(fmt.Sprint(field(c.vals[0], "body")), "Ready to ship") {
			c.t.Errorf("PR 4's comments: %v", c.vals)
		}
	}},
	{op: "issues/list-labels-for-repo", path: "repos/acme/benefits/labels?per_page=100", status: 200, check: func(c *callCtx) {
		if find(c.vals, "name", "type:story") == nil {
			c.t.Errorf("labels: no type:story in %d", len(c.vals))
		}
	}},
	// aayu's own newest release, what aayu self-update reads (the sandbox
	// serves it as aayudha/aayu), and its first file's description.
	{op: "repos/get-latest-release", path: "repos/aayudha/aayu/releases/latest", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "tag_name", "v0.99.0")
	}},
	{op: "repos/get-release-asset", path: "repos/aayudha/aayu/releases/assets/8800010", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "id", 8800010)
	}},
	{op: "repos/get-content", path: "repos/acme/benefits/contents/.aayudha/config.toml?ref=dev", status: 200, check: func(c *callCtx) {
		raw, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(fmt.Sprint(field(c.obj(), "content")), "\n", ""))
		if err != nil || !strings.Contains(string(raw), `approver = "founder"`) {
			c.t.Errorf("config.toml on dev: %q, %v", raw, err)
		}
	}},
	{op: "repos/compare-commits-with-basehead", path: "repos/acme/benefits/compare/dev...story/3-remaining-deductible", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "status", "diverged")
		c.want(c.obj(), "ahead_by", 2)
	}},
	{op: "git/get-ref", path: "repos/acme/benefits/git/ref/heads/story/3-remaining-deductible", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "object.sha", c.vars["head4"])
	}},
	{op: "git/get-commit", path: "repos/acme/benefits/git/commits/{dev}", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "sha", c.vars["dev"])
		c.save("devtree", c.obj(), "tree.sha")
	}},
	{op: "git/get-tree", path: "repos/acme/benefits/git/trees/{devtree}", status: 200, check: func(c *callCtx) {
		for _, e := range field(c.obj(), "tree").([]any) {
			if field(e, "type") == "blob" {
				c.save("blob0", e, "sha")
				return
			}
		}
		c.t.Error("dev's tree has no blob")
	}},
	{op: "git/get-blob", path: "repos/acme/benefits/git/blobs/{blob0}", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "sha", c.vars["blob0"])
		c.want(c.obj(), "encoding", "base64")
	}},
	{op: "repos/get-combined-status-for-ref", path: "repos/acme/benefits/commits/{head6}/status", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "state", "pending")
	}},
	{op: "repos/list-commit-statuses-for-ref", path: "repos/acme/benefits/commits/{head4}/statuses", status: 200, check: func(c *callCtx) {
		if find(c.vals, "context", "aayudha/inspect") == nil {
			c.t.Errorf("PR 4's head has no aayudha/inspect status: %d statuses", len(c.vals))
		}
	}},
	{op: "actions/list-repo-workflows", path: "repos/acme/benefits/actions/workflows", status: 200, check: func(c *callCtx) {
		if find(field(c.obj(), "workflows").([]any), "path", ".github/workflows/"+sandbox.GateFile) == nil {
			c.t.Errorf("no %s among the workflows", sandbox.GateFile)
		}
	}},
	{op: "actions/get-workflow", path: "repos/acme/benefits/actions/workflows/" + sandbox.GateFile, status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "path", ".github/workflows/"+sandbox.GateFile)
		c.want(c.obj(), "state", "active")
	}},
	{op: "actions/list-workflow-runs", path: "repos/acme/benefits/actions/workflows/" + sandbox.GateFile + "/runs?per_page=100", status: 200, check: func(c *callCtx) {
		run := find(field(c.obj(), "workflow_runs").([]any), "id", c.vars["run"])
		c.want(run, "conclusion", "success")
		c.want(run, "event", "pull_request_target")
	}},
	{op: "actions/get-workflow-run", path: "repos/acme/benefits/actions/runs/{run}", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "conclusion", "success")
		c.want(c.obj(), "pull_requests.0.number", 4)
	}},
	{op: "actions/list-workflow-run-artifacts", path: "repos/acme/benefits/actions/runs/{run}/artifacts", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "total_count", 1)
		c.save("artifact", c.obj(), "artifacts.0.id")
	}},
	{op: "actions/get-artifact", path: "repos/acme/benefits/actions/artifacts/{artifact}", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "expired", false)
	}},
	// GitHub answers 302 to a signed URL on another host, which a client
	// fetches without the token. The sandbox's signed URL is on its own
	// host, so gh keeps the token on the redirect and the blob store
	// refuses it (400), as a signed URL on GitHub's would: the API's answer
	// is checked here, and the signed URL fetched without a token.
	{op: "actions/download-artifact", path: "repos/acme/benefits/actions/artifacts/{artifact}/zip", status: 400, check: func(c *callCtx) {
		if len(c.seen) != 1 || c.seen[0].Status != http.StatusFound || !strings.Contains(c.seen[0].Header.Get("Location"), "/_blob/") {
			c.t.Fatalf("the API's answer: %v", c.seen)
		}
		resp, err := c.g.client.Get(c.seen[0].Header.Get("Location"))
		if err != nil {
			c.t.Fatal(err)
		}
		defer resp.Body.Close()
		zip, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || !strings.HasPrefix(string(zip), "PK") {
			c.t.Errorf("the signed URL without a token: %d, %.20q", resp.StatusCode, zip)
		}
	}},
	{op: "actions/get-artifact-and-log-retention-settings-repository", path: "repos/acme/benefits/actions/permissions/artifact-and-log-retention", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "days", 30)
	}},
	{op: "actions/list-repo-variables", path: "repos/acme/benefits/actions/variables", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "variables.0.name", sandbox.DeviceClientVariable)
	}},
	{op: "actions/get-repo-variable", path: "repos/acme/benefits/actions/variables/" + sandbox.DeviceClientVariable, status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "value", sandbox.DeviceClientID)
	}},
	{op: "repos/get-branch-rules", path: "repos/acme/benefits/rules/branches/dev", status: 200},
	{op: "repos/get-branch-protection", path: "repos/acme/benefits/branches/main/protection", status: 404, check: func(c *callCtx) {
		c.want(c.obj(), "message", "Branch not protected")
	}},
	{op: "repos/get-branch", path: "repos/acme/benefits/branches/dev", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "name", "dev")
		c.want(c.obj(), "commit.sha", c.vars["dev"])
	}},
	{op: "repos/get-commit", path: "repos/acme/benefits/commits/{head4}", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "sha", c.vars["head4"])
	}},
	{op: "git/list-matching-refs", path: "repos/acme/benefits/git/matching-refs/heads/story/3-", status: 200, check: func(c *callCtx) {
		c.want(find(c.vals, "ref", "refs/heads/story/3-remaining-deductible"), "object.sha", c.vars["head4"])
	}},
	{op: "actions/list-workflow-runs-for-repo", path: "repos/acme/benefits/actions/runs?event=pull_request_target&per_page=100", status: 200, check: func(c *callCtx) {
		c.want(find(field(c.obj(), "workflow_runs").([]any), "id", c.vars["run"]), "conclusion", "success")
	}},
	// The Checks API: a check run another workflow's job reported on PR
	// 4's head (staged with ReportCheckRun), its suite, and the run by id.
	{op: "checks/list-for-ref", path: "repos/acme/benefits/commits/{head4}/check-runs", status: 200, check: func(c *callCtx) {
		cr := find(field(c.obj(), "check_runs").([]any), "id", c.vars["checkrun"])
		c.want(cr, "name", "tests")
		c.want(cr, "conclusion", "failure")
		c.want(cr, "head_sha", c.vars["head4"])
	}},
	{op: "checks/list-suites-for-ref", path: "repos/acme/benefits/commits/{head4}/check-suites", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "check_suites.0.head_sha", c.vars["head4"])
	}},
	{op: "checks/get", path: "repos/acme/benefits/check-runs/{checkrun}", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "name", "tests")
		c.want(c.obj(), "status", "completed")
	}},
	// Artifact attestations: a digest nothing attested answers 404, as
	// GitHub does (aayu reads it as "not attested").
	{op: "repos/list-attestations", path: "repos/acme/benefits/attestations/sha256:" + strings.Repeat("0", 64), status: 404},
	// CODEOWNERS teams: a member (staged with SetTeam), and anyone else.
	{op: "teams/get-membership-for-user-in-org", path: "orgs/acme/teams/reviewers/memberships/writer", status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "state", "active")
	}},
	{op: "teams/get-membership-for-user-in-org", path: "orgs/acme/teams/reviewers/memberships/reader", status: 404},

	// Writes.
	{op: "actions/create-repo-variable", method: "POST", path: "repos/acme/benefits/actions/variables", body: `{"name":"AAYU_GH_CONFORMANCE","value":"one"}`, status: 201},
	{op: "actions/create-repo-variable", method: "POST", path: "repos/acme/benefits/actions/variables", body: `{"name":"AAYU_GH_CONFORMANCE","value":"two"}`, status: 409},
	{op: "actions/update-repo-variable", method: "PATCH", path: "repos/acme/benefits/actions/variables/AAYU_GH_CONFORMANCE", body: `{"value":"two"}`, status: 204},
	{op: "issues/create-comment", as: "writer", method: "POST", path: "repos/acme/benefits/issues/3/comments", body: `{"body":"Seen from gh."}`, status: 201, check: func(c *callCtx) {
		c.want(c.obj(), "user.login", "writer")
		c.save("comment", c.obj(), "id")
	}},
	{op: "issues/update-comment", as: "writer", method: "PATCH", path: "repos/acme/benefits/issues/comments/{comment}", body: `{"body":"Seen from gh, edited."}`, status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "body", "Seen from gh, edited.")
	}},
	{op: "issues/delete-comment", as: "writer", method: "DELETE", path: "repos/acme/benefits/issues/comments/{comment}", status: 204},
	{op: "issues/add-labels", method: "POST", path: "repos/acme/benefits/issues/1/labels", body: `{"labels":["status:accepted"]}`, status: 200, check: func(c *callCtx) {
		if find(c.vals, "name", "status:accepted") == nil {
			c.t.Errorf("labels after adding: %v", c.vals)
		}
	}},
	{op: "issues/remove-label", method: "DELETE", path: "repos/acme/benefits/issues/1/labels/status:accepted", status: 200, check: func(c *callCtx) {
		if find(c.vals, "name", "status:accepted") != nil {
			c.t.Errorf("labels after removing: %v", c.vals)
		}
	}},
	{op: "issues/update", method: "PATCH", path: "repos/acme/benefits/issues/1", body: `{"state":"closed","state_reason":"completed"}`, status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "state", "closed")
		c.want(c.obj(), "state_reason", "completed")
	}},
	{op: "issues/create", as: "writer", method: "POST", path: "repos/acme/benefits/issues", body: `{"title":"Filed from gh","body":"A new issue."}`, status: 201, check: func(c *callCtx) {
		c.want(c.obj(), "state", "open")
		c.want(c.obj(), "user.login", "writer")
	}},
	{op: "issues/create-label", method: "POST", path: "repos/acme/benefits/labels", body: `{"name":"gh:conformance","color":"ededed"}`, status: 201, check: func(c *callCtx) {
		c.want(c.obj(), "name", "gh:conformance")
	}},
	{op: "repos/create-commit-status", method: "POST", path: "repos/acme/benefits/statuses/{head4}", body: `{"state":"success","context":"gh/conformance","description":"posted by gh"}`, status: 201, check: func(c *callCtx) {
		c.want(c.obj(), "context", "gh/conformance")
		c.want(c.obj(), "creator.login", "founder")
	}},
	{op: "pulls/create-review", as: "writer", method: "POST", path: "repos/acme/benefits/pulls/6/reviews", body: `{"event":"COMMENT","body":"Read it through gh."}`, status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "state", "COMMENTED")
	}},
	// The Git Data write path, as the agent's token uses it.
	{op: "git/create-blob", as: "agent-bot", method: "POST", path: "repos/acme/benefits/git/blobs", body: `{"content":"written through gh\n","encoding":"utf-8"}`, status: 201, check: func(c *callCtx) {
		c.save("blob", c.obj(), "sha")
	}},
	{op: "git/create-tree", as: "agent-bot", method: "POST", path: "repos/acme/benefits/git/trees", body: `{"base_tree":"{devtree}","tree":[{"path":"gh.txt","mode":"100644","type":"blob","sha":"{blob}"}]}`, status: 201, check: func(c *callCtx) {
		c.save("tree", c.obj(), "sha")
	}},
	{op: "git/create-commit", as: "agent-bot", method: "POST", path: "repos/acme/benefits/git/commits", body: `{"message":"Add gh.txt","tree":"{tree}","parents":["{dev}"]}`, status: 201, check: func(c *callCtx) {
		c.want(c.obj(), "parents.0.sha", c.vars["dev"])
		c.save("commit", c.obj(), "sha")
	}},
	{op: "git/create-ref", as: "agent-bot", method: "POST", path: "repos/acme/benefits/git/refs", body: `{"ref":"refs/heads/story/gh-conformance","sha":"{dev}"}`, status: 201, check: func(c *callCtx) {
		c.want(c.obj(), "object.sha", c.vars["dev"])
	}},
	{op: "git/update-ref", as: "agent-bot", method: "PATCH", path: "repos/acme/benefits/git/refs/heads/story/gh-conformance", body: `{"sha":"{commit}","force":false}`, status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "object.sha", c.vars["commit"])
	}},
	{op: "pulls/create", as: "agent-bot", method: "POST", path: "repos/acme/benefits/pulls", body: `{"title":"Add gh.txt","head":"story/gh-conformance","base":"dev","body":"Opened through gh."}`, status: 201, check: func(c *callCtx) {
		c.want(c.obj(), "head.sha", c.vars["commit"])
		c.want(c.obj(), "user.login", sandbox.BotLogin)
		c.save("pr", c.obj(), "number")
	}},
	{op: "pulls/update", as: "agent-bot", method: "PATCH", path: "repos/acme/benefits/pulls/{pr}", body: `{"title":"Add gh.txt, retitled"}`, status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "title", "Add gh.txt, retitled")
	}},
	{op: "git/create-ref", as: "agent-bot", method: "POST", path: "repos/acme/benefits/git/refs", body: `{"ref":"refs/heads/scratch/gh","sha":"{commit}"}`, status: 201},
	{op: "git/delete-ref", as: "agent-bot", method: "DELETE", path: "repos/acme/benefits/git/refs/heads/scratch/gh", status: 204},
	{op: "repos/update", method: "PATCH", path: "repos/acme/benefits", body: `{"allow_merge_commit":true}`, status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "allow_merge_commit", true)
		c.want(c.obj(), "allow_squash_merge", true)
	}},
	{op: "actions/create-workflow-dispatch", method: "POST", path: "repos/acme/benefits/actions/workflows/" + sandbox.GateFile + "/dispatches", body: `{"ref":"dev"}`, status: 204},
	// A seeded run has no runner behind it: it moves to its next attempt
	// and keeps its conclusion, so the merge below still finds it.
	{op: "actions/re-run-workflow", method: "POST", path: "repos/acme/benefits/actions/runs/{run}/rerun", status: 201, check: func(c *callCtx) {
		if m, ok := c.obj().(map[string]any); !ok || len(m) != 0 {
			c.t.Errorf("a re-run answers an empty object, got %v", c.obj())
		}
	}},
	{op: "pulls/merge", method: "PUT", path: "repos/acme/benefits/pulls/4/merge", body: `{"merge_method":"squash","sha":"{head4}"}`, status: 200, check: func(c *callCtx) {
		c.want(c.obj(), "merged", true)
	}},
}

// aliasOps are operation ids of operations.txt that GitHub's current
// description serves at another operation's URL: GET compare/{basehead}
// is both.
var aliasOps = map[string]string{"repos/compare-commits": "repos/compare-commits-with-basehead"}

var placeholder = regexp.MustCompile(`\{([a-z0-9]+)\}`)

func expand(t *testing.T, s string, vars map[string]string) string {
	t.Helper()
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		v, ok := vars[m[1:len(m)-1]]
		if !ok {
			t.Fatalf("no value for %s in %q", m, s)
		}
		return v
	})
}

// TestGHAPIEveryEndpoint drives every REST operation aayu uses through
// Debian's gh (`gh api`, against the sandbox laid out as GitHub Enterprise
// Server), asserts the status gh shows and the fields aayu reads, and then
// validates every response the sandbox served against GitHub's full
// OpenAPI description with kin-openapi (when AAYU_FULL_OPENAPI is set).
func TestGHAPIEveryEndpoint(t *testing.T) {
	g := startGH(t)
	vars := map[string]string{
		"head4": g.srv.HeadSHA(sandbox.DemoPRReady),
		"head6": g.srv.HeadSHA(sandbox.DemoPRReview),
		"dev":   g.srv.BranchSHA("dev"),
		"run":   strconv.FormatInt(g.srv.RunID(sandbox.RunQualifying), 10),
	}
	// Stage what the demo does not hold: a check run of another workflow
	// on PR 4's head, and a team for CODEOWNERS.
	checkRun, err := g.srv.ReportCheckRun(vars["head4"], "tests", "failure")
	if err != nil {
		t.Fatal(err)
	}
	vars["checkrun"] = strconv.FormatInt(checkRun, 10)
	if err := g.srv.SetTeam("reviewers", "writer"); err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for i, call := range ghAPICalls {
		name := fmt.Sprintf("%02d %s %d", i, call.op, call.status)
		ok := t.Run(name, func(t *testing.T) {
			method := call.method
			if method == "" {
				method = "GET"
			}
			as := call.as
			if as == "" {
				as = "founder"
			}
			args := append([]string{"api", "--include", "--method", method}, call.flags...)
			for j := range args {
				args[j] = expand(t, args[j], vars)
			}
			args = append(args, expand(t, call.path, vars))
			var stdin []byte
			if call.body != "" {
				args = append(args, "--input", "-")
				stdin = []byte(expand(t, call.body, vars))
			}
			before := len(g.rec.all())
			out, err := g.gh(as, stdin, args...)
			if err != nil && call.status < 300 {
				t.Fatalf("%v", err)
			}
			res, perr := parseIncluded(out)
			if perr != nil || len(res) == 0 {
				t.Fatalf("gh's output: %v\n%s", perr, out)
			}
			for _, r := range res {
				if r.Status != call.status {
					t.Fatalf("gh shows status %d, want %d\n%s", r.Status, call.status, out)
				}
			}
			c := &callCtx{t: t, g: g, vars: vars, res: res, seen: g.rec.all()[before:]}
			for _, r := range res {
				if len(r.Body) == 0 {
					continue
				}
				if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
					vs, err := jsonValues(r.Body)
					if err != nil {
						t.Fatalf("gh's body is not JSON: %v", err)
					}
					c.vals = append(c.vals, vs...)
				}
			}
			if len(c.seen) == 0 {
				t.Fatal("the sandbox recorded no REST request for this call")
			}
			g.rec.tag(before, call.op)
			if call.check != nil {
				call.check(c)
			}
		})
		if ok {
			covered[call.op] = true
		}
	}
	want, err := conformance.RequiredOperations()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range want {
		if !covered[op] && !covered[aliasOps[op]] {
			t.Errorf("operations.txt lists %s, which no gh api call of this test exercised", op)
		}
	}
	validateFull(t, g.rec.all())
}

// validateFull validates every recorded response against GitHub's full
// description, and checks that the description routes each request to the
// operation its call says it exercises.
func validateFull(t *testing.T, xs []exchange) {
	t.Helper()
	fs, err := loadFullSpec()
	if errors.Is(err, errNoFullSpec) {
		if os.Getenv(strictEnv) != "" {
			t.Fatalf("%s (%s is set)", noFullSpecHelp, strictEnv)
		}
		t.Logf("%s is not set: the %d responses were checked against the subset only", fullSpecEnv, len(xs))
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]bool{}
	for _, x := range xs {
		id, err := fs.validate(x)
		if err != nil {
			t.Errorf("GitHub's full description: %s: %v", x, err)
			continue
		}
		if x.op != "" && id != x.op {
			t.Errorf("%s: GitHub's description routes it to %s, the call says %s", x, id, x.op)
		}
		ops[id] = true
	}
	t.Logf("GitHub's full description (kin-openapi): %d responses of %d operations valid", len(xs), len(ops))
}
