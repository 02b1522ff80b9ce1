package ship

import (
	"path"
	"strings"
	"unicode/utf8"

	"github.com/aayudha/aayu/internal/lazyre"
)

// isWorkflow says whether p is a GitHub Actions workflow file.
func isWorkflow(p string) bool {
	if path.Dir(p) != ".github/workflows" {
		return false
	}
	return strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml")
}

var (
	writePermission = lazyre.New(`(?m)^\s+[a-z-]+:\s*write\s*(#.*)?$|write-all`)
	environmentKey  = lazyre.New(`(?m)^\s+environment:`)
	topPermissions  = lazyre.New(`(?m)^permissions:`)
	jobKey          = lazyre.New(`(?m)^  [A-Za-z0-9_-]+:\s*$`)
	jobPermissions  = lazyre.New(`(?m)^    permissions:`)
)

// holdsCredential says why a workflow holds a credential, or "" when it
// does not: it reads a secret or the workflow token, names an environment,
// grants a write permission, or leaves a job to the default permissions. It
// reads the text conservatively; a workflow it cannot follow (missing,
// empty, not UTF-8, tab-indented, flow-style, or with no jobs) counts as one
// that holds a credential, so ship fails closed.
func holdsCredential(text []byte) string {
	s := string(text)
	switch {
	case len(strings.TrimSpace(s)) == 0:
		return "cannot be read, so it counts as holding a credential"
	case !utf8.ValidString(s), strings.Contains(s, "\t"), strings.Contains(s, "\r"):
		return "cannot be parsed, so it counts as holding a credential"
	case strings.Contains(s, "secrets."), strings.Contains(s, "github.token"), strings.Contains(s, "GITHUB_TOKEN"):
		return "reads a secret or the workflow token"
	case environmentKey().MatchString(s):
		return "names an environment"
	case writePermission().MatchString(s):
		return "grants a write permission"
	}
	jobs := strings.Index(s, "\njobs:")
	if jobs < 0 || strings.Contains(s[jobs:], "{") {
		return "cannot be parsed, so it counts as holding a credential"
	}
	if !topPermissions().MatchString(s) {
		body := s[jobs:]
		if len(jobPermissions().FindAllString(body, -1)) < len(jobKey().FindAllString(body, -1)) {
			return "leaves a job to the default permissions"
		}
	}
	return ""
}
