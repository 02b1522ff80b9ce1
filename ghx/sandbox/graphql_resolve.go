package sandbox

import (
	"fmt"

	"github.com/vektah/gqlparser/v2/ast"
	"slices"
	"strings"
	"time"
)

// The GraphQL fields the sandbox serves, resolved from its state: enough
// for a page of issues or pull requests with their heads, labels, comments,
// reviews and commit statuses, the viewer and the rate limit.

type repoNode struct{}

type commitRef struct{ sha string }

type statusRef struct{ sha string }

type rateRef struct{}

// gqlIndex groups comments, reviews and statuses once per query, so a page
// of 100 items does not walk the whole state 100 times.
type gqlIndex struct {
	comments map[int][]any
	reviews  map[int][]any
	statuses map[string][]*statusRec // newest first
}

func (e *gqlExec) idx() *gqlIndex {
	if e.index != nil {
		return e.index
	}
	x := &gqlIndex{comments: map[int][]any{}, reviews: map[int][]any{}, statuses: map[string][]*statusRec{}}
	for _, c := range e.s.st.Comments {
		x.comments[c.Issue] = append(x.comments[c.Issue], c)
	}
	for _, rv := range e.s.st.Reviews {
		x.reviews[rv.PR] = append(x.reviews[rv.PR], rv)
	}
	for i := len(e.s.st.Statuses) - 1; i >= 0; i-- {
		st := e.s.st.Statuses[i]
		x.statuses[st.SHA] = append(x.statuses[st.SHA], st)
	}
	e.index = x
	return x
}

func (e *gqlExec) resolve(typ string, v any, f *ast.Field, args map[string]any) (any, error) {
	name := f.Name
	var (
		val any
		ok  bool
	)
	switch {
	case typ == "StatusCheckRollupContextConnection":
		val, ok = rollupConnField(v.(*rollupConn), name)
	case strings.HasSuffix(typ, "Connection"):
		val, ok = connectionField(v.(*connection), name)
	case strings.HasSuffix(typ, "Edge"):
		ed := v.(edge)
		val, ok = map[string]any{"cursor": ed.cursor, "node": ed.node}[name], name == "cursor" || name == "node"
	case typ == "PageInfo":
		val, ok = pageInfoField(v.(*connection), name)
	case typ == "Query":
		return e.query(name, args)
	case typ == "Repository":
		return e.repository(name, args)
	case typ == "PullRequest" || typ == "Issue":
		return e.item(v.(*issueRec), name, args)
	case typ == "IssueComment":
		val, ok = e.comment(v.(*commentRec), name)
	case typ == "PullRequestReview":
		val, ok = e.review(v.(*reviewRec), name)
	case typ == "User" || typ == "Bot" || typ == "Organization":
		val, ok = actorField(typ, v.(string), name)
	case typ == "Label":
		val, ok = e.label(v.(string), name)
	case typ == "PullRequestChangedFile":
		val, ok = changedFileField(v.(fileDiff), name)
	case typ == "PullRequestCommit":
		val, ok = v.(commitRef), name == "commit"
	case typ == "Commit":
		return e.commit(v.(commitRef), name, args)
	case typ == "Status":
		return e.status(v.(statusRef), name, args)
	case (typ == "StatusContext" || typ == "CheckRun") && name == "isRequired":
		return e.isRequired(v, args)
	case typ == "StatusContext":
		val, ok = statusContextField(v.(*statusRec), name)
	case typ == "StatusCheckRollup":
		return e.rollup(v.(rollupRef), name, args)
	case typ == "CheckRun":
		val, ok = e.checkRun(v.(*checkRunRec), name)
	case typ == "CheckSuite":
		return e.checkSuiteField(v.(*checkSuiteRec), name, args)
	case typ == "App":
		val, ok = e.app(v.(string), name)
	case typ == "WorkflowRun":
		val, ok = e.workflowRun(v.(*runRec), name)
	case typ == "Workflow":
		val, ok = e.workflow(v.(workflowRef), name)
	case typ == "RateLimit":
		val, ok = e.rateLimit(name)
	case typ == "Ref":
		val, ok = map[string]any{"name": v.(string), "prefix": "refs/heads/"}[name], name == "name" || name == "prefix"
	case typ == "__Type":
		val, ok = introspectType(v.(*ast.Definition), name, args)
	case typ == "__Field":
		val, ok = v.(*ast.FieldDefinition).Name, name == "name"
	}
	if !ok {
		return nil, fmt.Errorf("the sandbox does not serve %s.%s", typ, name)
	}
	return val, nil
}

func (e *gqlExec) query(name string, args map[string]any) (any, error) {
	switch name {
	case "repository":
		owner, _ := args["owner"].(string)
		repo, _ := args["name"].(string)
		if !strings.EqualFold(owner, RepoOwner) || !strings.EqualFold(repo, RepoName) {
			return nil, githubf("Could not resolve to a Repository with the name '%s/%s'.", owner, repo)
		}
		if err := e.jobForbidden("", ""); err != nil {
			return nil, err
		}
		return repoNode{}, nil
	case "viewer":
		if err := e.jobForbidden("-", ""); err != nil {
			return nil, err // REST's /user refuses a workflow token too
		}
		return e.c.Login, nil
	case "rateLimit":
		return rateRef{}, nil
	case "node":
		// An issue's or pull request's global id, as gh looks a pull
		// request up again by the id it read (gh pr checks).
		id, _ := args["id"].(string)
		for _, is := range e.s.st.Issues {
			if nodeID(map[bool]string{true: "PR", false: "I"}[is.PR != nil], is.ID) == id {
				if err := e.jobForbidden(itemScope(is)); err != nil {
					return nil, err
				}
				return typed{itemType(is), is}, nil
			}
		}
		return nil, githubf("Could not resolve to a node with the global id of '%s'", id)
	case "__type":
		// Introspection of one type's fields, which gh asks before it
		// lists issues to learn what the server's schema has.
		n, _ := args["name"].(string)
		if def := e.schema.Types[n]; def != nil {
			return def, nil
		}
		return nil, nil
	}
	return nil, fmt.Errorf("the sandbox does not serve Query.%s", name)
}

// label answers a label's fields from the repository's labels, as gh's
// issue list asks them (id, name, description, color).
func (e *gqlExec) label(labelName, name string) (any, bool) {
	l := e.s.findLabel(labelName)
	if l == nil {
		l = &labelRec{Name: labelName, Color: "ededed"}
	}
	switch name {
	case "name":
		return l.Name, true
	case "id":
		return nodeID("LA", l.ID), true
	case "color":
		return l.Color, true
	case "description":
		if l.Description == "" {
			return nil, true
		}
		return l.Description, true
	}
	return nil, false
}

// isRequired says whether a status context or check run is one the pull
// request's base requires to pass (its rulesets' required status checks),
// as gh pr checks asks with isRequired(pullRequestId:).
func (e *gqlExec) isRequired(v any, args map[string]any) (any, error) {
	id, _ := args["pullRequestId"].(string)
	var pr *issueRec
	for _, is := range e.s.st.Issues {
		if is.PR != nil && nodeID("PR", is.ID) == id {
			pr = is
		}
	}
	if pr == nil {
		return nil, githubf("Could not resolve to a PullRequest with the global id of '%s'", id)
	}
	name := ""
	switch x := v.(type) {
	case *statusRec:
		name = x.Context
	case *checkRunRec:
		name = x.Name
	}
	return slices.Contains(e.s.requiredContexts(pr.PR.Base), name), nil
}

// introspectType answers the parts of __Type the sandbox serves: name,
// kind and fields (without deprecated ones unless includeDeprecated).
func introspectType(def *ast.Definition, name string, args map[string]any) (any, bool) {
	switch name {
	case "name":
		return def.Name, true
	case "kind":
		return string(def.Kind), true
	case "fields":
		if def.Kind != ast.Object && def.Kind != ast.Interface {
			return nil, true
		}
		withDeprecated, _ := args["includeDeprecated"].(bool)
		var out []any
		for _, f := range def.Fields {
			if strings.HasPrefix(f.Name, "__") || (!withDeprecated && f.Directives.ForName("deprecated") != nil) {
				continue
			}
			out = append(out, f)
		}
		return out, true
	}
	return nil, false
}

func (e *gqlExec) repository(name string, args map[string]any) (any, error) {
	if err := e.forbiddenRepositoryField(name); err != nil {
		return nil, err
	}
	switch name {
	case "name":
		return RepoName, nil
	case "nameWithOwner":
		return RepoOwner + "/" + RepoName, nil
	case "owner":
		return typed{"Organization", RepoOwner}, nil
	case "defaultBranchRef":
		return "main", nil
	case "object":
		// A commit by oid or by expression (a branch name); the sandbox
		// serves commits only, other objects read as null.
		ref, _ := args["oid"].(string)
		if x, ok := args["expression"].(string); ok && ref == "" {
			ref = x
		}
		if err := e.jobForbidden("contents", ""); err != nil {
			return nil, err
		}
		h, ok := e.s.git.resolve(ref)
		if !ok {
			return nil, nil
		}
		if _, err := e.s.git.commit(h); err != nil {
			return nil, nil
		}
		return typed{"Commit", commitRef{h.String()}}, nil
	case "hasIssuesEnabled":
		return true, nil
	case "pullRequests", "issues":
		scope := map[string]string{"pullRequests": "pull-requests", "issues": "issues"}[name]
		if err := e.jobForbidden(scope, ""); err != nil {
			return nil, err
		}
		return e.items(name, args)
	case "pullRequest", "issue", "issueOrPullRequest":
		n, _ := intArg(args, "number")
		is := e.s.st.issue(n)
		if is == nil || (name == "pullRequest" && is.PR == nil) || (name == "issue" && is.PR != nil) {
			return nil, githubf("Could not resolve to a %s with the number of %d.", map[bool]string{true: "PullRequest", false: "Issue"}[name == "pullRequest"], n)
		}
		if err := e.jobForbidden(itemScope(is)); err != nil {
			return nil, err
		}
		if name == "issueOrPullRequest" {
			return typed{itemType(is), is}, nil
		}
		return is, nil
	}
	return nil, fmt.Errorf("the sandbox does not serve Repository.%s", name)
}

func itemType(is *issueRec) string {
	if is.PR != nil {
		return "PullRequest"
	}
	return "Issue"
}

// items lists pull requests or issues with GitHub's filters: states,
// labels, baseRefName, headRefName, filterBy.since, orderBy.
func (e *gqlExec) items(field string, args map[string]any) (any, error) {
	states := stringList(args["states"])
	labels := stringList(args["labels"])
	base, _ := args["baseRefName"].(string)
	head, _ := args["headRefName"].(string)
	var since time.Time
	if fb, ok := args["filterBy"].(map[string]any); ok {
		if s, ok := fb["since"].(string); ok {
			since, _ = time.Parse(time.RFC3339, s)
		}
	}
	var list []*issueRec
	for _, is := range e.s.st.Issues {
		if (field == "pullRequests") != (is.PR != nil) {
			continue
		}
		if len(states) > 0 && !slices.Contains(states, itemState(is)) {
			continue
		}
		if (base != "" && is.PR.Base != base) || (head != "" && is.PR.Head != head) {
			continue
		}
		if len(labels) > 0 && !slices.ContainsFunc(is.Labels, func(l string) bool { return slices.Contains(labels, l) }) {
			continue
		}
		if !since.IsZero() && is.UpdatedAt.Before(since) {
			continue
		}
		list = append(list, is)
	}
	by, dir := "created", "asc"
	if ob, ok := args["orderBy"].(map[string]any); ok {
		if f, _ := ob["field"].(string); f == "UPDATED_AT" {
			by = "updated"
		} else if f == "COMMENTS" {
			by = "comments"
		}
		if d, _ := ob["direction"].(string); d == "DESC" {
			dir = "desc"
		}
	}
	sortIssues(list, by, dir, func(n int) int { return len(e.idx().comments[n]) })
	all := make([]any, len(list))
	for i, is := range list {
		all[i] = is
	}
	return paginate(all, args, field)
}

func stringList(v any) []string {
	var out []string
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	case string:
		out = append(out, v)
	}
	return out
}

func itemState(is *issueRec) string {
	switch {
	case is.PR != nil && is.PR.Merged:
		return "MERGED"
	case is.State == "closed":
		return "CLOSED"
	}
	return "OPEN"
}

func (e *gqlExec) item(is *issueRec, name string, args map[string]any) (any, error) {
	kind := "issues"
	if is.PR != nil {
		kind = "pull"
	}
	switch name {
	case "number":
		return is.Number, nil
	case "id":
		return nodeID(map[bool]string{true: "PR", false: "I"}[is.PR != nil], is.ID), nil
	case "databaseId":
		return is.ID, nil
	case "title":
		return is.Title, nil
	case "body":
		return is.Body, nil
	case "state":
		return itemState(is), nil
	case "stateReason":
		if is.StateReason == "" {
			return nil, nil
		}
		return strings.ToUpper(is.StateReason), nil
	case "url":
		return fmt.Sprintf("%s%s/%s/%d", e.base, htmlRepo, kind, is.Number), nil
	case "createdAt":
		return ts(is.CreatedAt), nil
	case "updatedAt":
		return ts(is.UpdatedAt), nil
	case "closedAt":
		return tsPtr(is.ClosedAt), nil
	case "author":
		return actorOf(is.User), nil
	case "labels":
		all := make([]any, len(is.Labels))
		for i, l := range is.Labels {
			all[i] = l
		}
		return paginate(all, args, name)
	case "comments":
		return paginate(e.idx().comments[is.Number], args, name)
	}
	if is.PR == nil {
		return nil, fmt.Errorf("the sandbox does not serve Issue.%s", name)
	}
	return e.pull(is, name, args)
}

func (e *gqlExec) pull(is *issueRec, name string, args map[string]any) (any, error) {
	switch name {
	case "isDraft":
		return is.PR.Draft, nil
	case "merged":
		return is.PR.Merged, nil
	case "mergedAt":
		return tsPtr(is.PR.MergedAt), nil
	case "headRefName":
		return is.PR.Head, nil
	case "headRefOid":
		return e.s.headSHA(is).String(), nil
	case "baseRefName":
		return is.PR.Base, nil
	case "mergeCommit":
		if is.PR.MergeCommitSHA == "" {
			return nil, nil
		}
		return commitRef{is.PR.MergeCommitSHA}, nil
	case "reviews":
		return paginate(e.idx().reviews[is.Number], args, name)
	case "commits":
		// The head commit stands for the list: a page of the last commits
		// is what readers of statuses ask for.
		return paginate([]any{commitRef{e.s.headSHA(is).String()}}, args, name)
	case "files":
		// The same files REST's pulls/N/files lists, in its order.
		files := e.s.prFiles(is)
		all := make([]any, len(files))
		for i, f := range files {
			all[i] = f
		}
		return paginate(all, args, name)
	}
	return nil, fmt.Errorf("the sandbox does not serve PullRequest.%s", name)
}

func actorOf(login string) any {
	if login == "" {
		return nil // a deleted account: GitHub's ghost
	}
	typ := "User"
	if a, ok := accountByLogin(login); ok && a.Type == "Bot" {
		typ = "Bot"
	}
	return typed{typ, login}
}

// actorField: a GitHub App's login carries no [bot] in GraphQL.
func actorField(typ, login, name string) (any, bool) {
	switch name {
	case "login":
		if typ == "Bot" {
			return strings.TrimSuffix(login, "[bot]"), true
		}
		return login, true
	case "databaseId":
		if a, ok := accountByLogin(login); ok {
			return a.ID, true
		}
		return ownerID, true
	case "id":
		// The REST node_id of the same account (render.go's userJSON).
		id := int64(ownerID)
		if a, ok := accountByLogin(login); ok {
			id = a.ID
		}
		return nodeID("U", id), true
	case "name":
		// gh asks an author's name beside the login (issue view).
		if a, ok := accountByLogin(login); ok {
			return a.Name, true
		}
		return nil, true
	}
	return nil, false
}

func (e *gqlExec) comment(c *commentRec, name string) (any, bool) {
	switch name {
	case "id":
		return nodeID("IC", c.ID), true
	case "databaseId":
		return c.ID, true
	case "body":
		return c.Body, true
	case "createdAt":
		return ts(c.CreatedAt), true
	case "updatedAt":
		return ts(c.UpdatedAt), true
	case "url":
		return fmt.Sprintf("%s%s/issues/%d#issuecomment-%d", e.base, htmlRepo, c.Issue, c.ID), true
	case "author":
		return actorOf(c.User), true
	case "authorAssociation":
		return association(c.User), true
	}
	return nil, false
}

func (e *gqlExec) review(rv *reviewRec, name string) (any, bool) {
	switch name {
	case "id":
		return nodeID("PRR", rv.ID), true
	case "databaseId":
		return rv.ID, true
	case "body":
		return rv.Body, true
	case "state":
		return rv.State, true
	case "submittedAt":
		if rv.State == "PENDING" {
			return nil, true
		}
		return ts(rv.SubmittedAt), true
	case "url":
		return fmt.Sprintf("%s%s/pull/%d#pullrequestreview-%d", e.base, htmlRepo, rv.PR, rv.ID), true
	case "author":
		return actorOf(rv.User), true
	case "authorAssociation":
		return association(rv.User), true
	case "commit":
		if rv.CommitID == "" {
			return nil, true
		}
		return commitRef{rv.CommitID}, true
	}
	return nil, false
}

func (e *gqlExec) commit(c commitRef, name string, args map[string]any) (any, error) {
	switch name {
	case "oid":
		return c.sha, nil
	case "status":
		if len(e.idx().statuses[c.sha]) == 0 {
			return nil, nil // GitHub: no status on this commit
		}
		return statusRef(c), nil
	case "statusCheckRollup":
		if len(e.idx().statuses[c.sha]) == 0 && len(e.s.checkRunsFor(c.sha)) == 0 {
			return nil, nil // GitHub: nothing reported on this commit
		}
		return rollupRef(c), nil
	case "checkSuites":
		return e.checkSuitesOf(c.sha, args)
	}
	return nil, fmt.Errorf("the sandbox does not serve Commit.%s", name)
}

// status is the combined status: the newest status per context, failure
// or error first, then pending, else success.
func (e *gqlExec) status(st statusRef, name string, args map[string]any) (any, error) {
	var latest []*statusRec
	seen := map[string]bool{}
	for _, s := range e.idx().statuses[st.sha] {
		if !seen[s.Context] {
			seen[s.Context] = true
			latest = append(latest, s)
		}
	}
	switch name {
	case "contexts":
		out := make([]any, len(latest))
		for i, s := range latest {
			out[i] = s
		}
		return out, nil
	case "context":
		want, _ := args["name"].(string)
		for _, s := range latest {
			if s.Context == want {
				return s, nil
			}
		}
		return nil, nil
	case "state":
		state := "SUCCESS"
		for _, s := range latest {
			if s.State == "failure" || s.State == "error" {
				return "FAILURE", nil
			}
			if s.State == "pending" {
				state = "PENDING"
			}
		}
		return state, nil
	case "commit":
		return commitRef(st), nil
	}
	return nil, fmt.Errorf("the sandbox does not serve Status.%s", name)
}

func statusContextField(s *statusRec, name string) (any, bool) {
	switch name {
	case "context":
		return s.Context, true
	case "state":
		return strings.ToUpper(s.State), true
	case "description":
		return nilIfEmpty(s.Description), true
	case "targetUrl":
		return nilIfEmpty(s.TargetURL), true
	case "createdAt":
		return ts(s.CreatedAt), true
	case "creator":
		return actorOf(s.Creator), true
	case "commit":
		return commitRef{s.SHA}, true
	}
	return nil, false
}

func (e *gqlExec) rateLimit(name string) (any, bool) {
	b := e.s.graphqlBucket(e.c)
	switch name {
	case "cost":
		return e.cost, true
	case "limit":
		return b.limit, true
	case "remaining":
		return max(0, b.remaining()-e.cost), true
	case "used":
		return b.used + e.cost, true
	case "resetAt":
		return ts(b.reset), true
	case "nodeCount":
		return 0, true
	}
	return nil, false
}

// changedFileField serves a PullRequestChangedFile as GitHub's schema
// describes it (github-api/graphql/schema.graphql, "type
// PullRequestChangedFile": additions, changeType: PatchStatus!, deletions,
// path): its changeType one of PatchStatus's ADDED, DELETED, MODIFIED,
// RENAMED. The type has no field for a rename's old path; REST's
// previous_filename is the way to it.
func changedFileField(f fileDiff, name string) (any, bool) {
	switch name {
	case "path":
		return f.Path, true
	case "changeType":
		return map[string]string{"added": "ADDED", "removed": "DELETED", "modified": "MODIFIED", "renamed": "RENAMED"}[f.Status], true
	case "additions":
		return f.Additions, true
	case "deletions":
		return f.Deletes, true
	}
	return nil, false
}
