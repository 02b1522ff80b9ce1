package sandbox

import (
	"crypto/rand"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Workflow tokens, as GitHub Actions hands one to each job: an
// installation token (ghs_…) that acts as github-actions[bot], holds
// exactly the job's permissions: and stops working when the job ends
// (docs.github.com/actions/security-for-github-actions/security-guides/
// automatic-token-authentication). A request the token's permissions do
// not cover gets GitHub's 403 "Resource not accessible by integration".

// ActionsBotLogin is the account every workflow token acts as.
const ActionsBotLogin = "github-actions[bot]"

// actionsBot is github-actions[bot]; it has no token of its own, only the
// per-job tokens the runner mints.
var actionsBot = Account{Login: ActionsBotLogin, ID: 41898282, Name: "github-actions[bot]", Type: "Bot", Permission: "read"}

// maxJobTokenLife is GitHub's ceiling on a job token's life when the job
// does not end first.
const maxJobTokenLife = 24 * time.Hour

const notAccessible = "Resource not accessible by integration"

// jobToken is one job's workflow token.
type jobToken struct {
	value   string
	repo    string            // the run's repository name (benefits)
	runID   int64             // the run it belongs to
	perms   map[string]string // scope (contents, pull-requests, …) → read or write
	expires time.Time
	revoked bool
}

// jobTokens holds the live workflow tokens; its lock is its own, since
// authentication runs before the server's.
type jobTokens struct {
	mu    sync.Mutex
	byTok map[string]*jobToken
}

// mintJobToken makes the token of one job with perms (the job's
// permissions: already resolved against the workflow's).
func (s *Server) mintJobToken(repo string, runID int64, perms map[string]string) *jobToken {
	jt := &jobToken{value: newServerToken(), repo: repo, runID: runID, perms: perms, expires: s.now().Add(maxJobTokenLife)}
	s.jobs.mu.Lock()
	defer s.jobs.mu.Unlock()
	if s.jobs.byTok == nil {
		s.jobs.byTok = map[string]*jobToken{}
	}
	s.jobs.byTok[jt.value] = jt
	return jt
}

// revokeJobToken ends a token with its job, as Actions does.
func (s *Server) revokeJobToken(jt *jobToken) {
	s.jobs.mu.Lock()
	defer s.jobs.mu.Unlock()
	jt.revoked = true
}

// jobCaller answers for a workflow token: known is false for any other
// token; ok is false once the job ended or the token's life is over,
// which GitHub answers 401 "Bad credentials".
func (s *Server) jobCaller(tok string) (c caller, known, ok bool) {
	s.jobs.mu.Lock()
	defer s.jobs.mu.Unlock()
	jt := s.jobs.byTok[tok]
	if jt == nil {
		return caller{}, false, false
	}
	if jt.revoked || !s.now().Before(jt.expires) {
		return caller{}, true, false
	}
	a := actionsBot
	if jt.perms["contents"] == "write" {
		a.Permission = "write"
	}
	return caller{Account: a, job: jt}, true, true
}

// jobPermissions resolves a permissions: value (a map of scope to level,
// read-all, write-all, or {} for none) as Actions does; nil (not given)
// is dflt.
func jobPermissions(v any, dflt map[string]string) map[string]string {
	scopes := []string{"actions", "checks", "contents", "deployments", "issues", "packages", "pages", "pull-requests", "statuses"}
	switch v := v.(type) {
	case nil:
		return dflt
	case string:
		level := map[string]string{"read-all": "read", "write-all": "write"}[v]
		out := map[string]string{}
		if level != "" {
			for _, sc := range scopes {
				out[sc] = level
			}
		}
		return out
	case map[string]any:
		out := map[string]string{}
		for k, lv := range v {
			if s, _ := lv.(string); s == "read" || s == "write" {
				out[k] = s
			}
		}
		return out
	}
	return map[string]string{}
}

// jobScope names the permission a REST request needs from a workflow
// token: its scope ("" for what metadata: read, always granted, covers;
// "-" for what no workflow token may do) and whether it writes. alt is a
// second scope that also grants it (a pull request's comments take
// pull-requests as well as issues).
func (s *Server) jobScope(r *http.Request) (scope, alt string, write bool) {
	write = r.Method != http.MethodGet && r.Method != http.MethodHead
	p := r.URL.Path
	if p == "/user" || strings.HasPrefix(p, "/user/") {
		return "-", "", write // GitHub: an installation token cannot read /user
	}
	rest, ok := strings.CutPrefix(p, "/repos/")
	if !ok {
		return "", "", write
	}
	parts := strings.SplitN(rest, "/", 4)
	if len(parts) < 3 {
		return "", "", write // the repository itself
	}
	sub := parts[2]
	tail := ""
	if len(parts) == 4 {
		tail = parts[3]
	}
	switch sub {
	case "issues":
		n, _ := strconv.Atoi(strings.SplitN(tail, "/", 2)[0])
		if strings.HasPrefix(tail, "comments/") {
			id, _ := strconv.ParseInt(strings.SplitN(strings.TrimPrefix(tail, "comments/"), "/", 2)[0], 10, 64)
			for _, c := range s.st.Comments {
				if c.ID == id {
					n = c.Issue
				}
			}
		}
		if is := s.st.issue(n); is != nil && is.PR != nil {
			return "issues", "pull-requests", write
		}
		return "issues", "", write
	case "labels":
		return "issues", "pull-requests", write
	case "pulls":
		if strings.HasSuffix(tail, "/merge") && write {
			return "contents", "", true
		}
		return "pull-requests", "", write
	case "statuses":
		return "statuses", "", write
	case "check-runs", "check-suites":
		return "checks", "", write
	case "commits":
		switch {
		case strings.HasSuffix(tail, "/status"), strings.HasSuffix(tail, "/statuses"):
			return "statuses", "", write
		case strings.HasSuffix(tail, "/check-runs"), strings.HasSuffix(tail, "/check-suites"):
			return "checks", "", write
		}
		return "contents", "", write
	case "contents", "git", "compare", "merges", "branches", "tarball", "zipball":
		if sub == "branches" && strings.Contains(tail, "/protection") {
			return "-", "", write
		}
		return "contents", "", write
	case "actions":
		if strings.HasPrefix(tail, "variables") || strings.HasPrefix(tail, "permissions") {
			if write {
				return "-", "", true
			}
		}
		return "actions", "", write
	case "attestations":
		return "attestations", "", write
	case "rulesets", "rules", "collaborators":
		if write {
			return "-", "", true
		}
		return "", "", false
	}
	return "", "", write
}

// refuseJob answers a workflow token's request its permissions do not
// cover with GitHub's 403; it reports whether it did.
func (s *Server) refuseJob(w http.ResponseWriter, r *http.Request, jt *jobToken) bool {
	if name := repoOfPath(r.URL.Path); name != "" && !strings.EqualFold(name, jt.repo) {
		writeError(w, http.StatusForbidden, notAccessible) // a workflow token reaches its own repository only
		return true
	}
	scope, alt, write := s.jobScope(r)
	if scope == "" {
		return false
	}
	if jt.grants(scope, alt, write) {
		return false
	}
	writeError(w, http.StatusForbidden, notAccessible)
	return true
}

// grants says whether the token's permissions cover scope (or alt) at
// read, or write when write is set; "" is what metadata: read covers, "-"
// what no workflow token may do. REST (refuseJob) and GraphQL
// (jobForbidden) both ask it, so one rule holds on both.
func (jt *jobToken) grants(scope, alt string, write bool) bool {
	if scope == "" {
		return true
	}
	need := "read"
	if write {
		need = "write"
	}
	one := func(sc string) bool {
		have := jt.perms[sc]
		return sc != "" && sc != "-" && (have == "write" || (have == "read" && need == "read"))
	}
	return one(scope) || one(alt)
}

// WorkflowToken mints a workflow token for run runID holding perms (scope
// → read or write), as the runner does for a job, and returns it with the
// function that ends its job. For tests of what aayu does with one.
func (s *Server) WorkflowToken(runID int64, perms map[string]string) (token string, endJob func()) {
	jt := s.mintJobToken(RepoName, runID, perms)
	return jt.value, func() { s.revokeJobToken(jt) }
}

// canPush: a workflow token's writes were already held to its
// permissions, scope by scope (refuseJob, before any handler), so a
// handler's push-access check lets it through.
func (c caller) canPush() bool { return c.job != nil || c.Account.canPush() }

// newServerToken is a fresh token in GitHub's server-to-server shape
// (ghs_ and 36 characters), as Actions' job tokens and App installation
// tokens are.
func newServerToken() string {
	b := make([]byte, 36)
	_, _ = rand.Read(b)
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	var sb strings.Builder
	sb.WriteString("ghs_")
	for _, c := range b {
		sb.WriteByte(alphabet[int(c)%len(alphabet)])
	}
	return sb.String()
}
