package pass

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/identity"
)

// Codeowners is a parsed CODEOWNERS file.
type Codeowners struct {
	rules []ownerRule
}

type ownerRule struct {
	line     int
	pattern  string
	glob     glob
	dirOnly  bool // a trailing "/": only what lies under a directory of that name
	prefixOK bool // a match on a leading directory covers everything under it
	owners   []string
}

var ownerForm = lazyre.New(`^(@[A-Za-z0-9][A-Za-z0-9-]*(\[bot\])?(/[A-Za-z0-9._-]+)?|[^@\s]+@[^@\s]+\.[^@\s]+)$`)

// ParseCodeowners reads a CODEOWNERS file with GitHub's semantics: one rule
// a line, a pattern then owners (@user, @org/team, or an email), "#" starting
// a comment, the last matching rule winning. A pattern GitHub's syntax does
// not support (a "!" negation, a [ ] range, a backslash escape) or an owner
// that is not one of the three forms is an error, so a gate built on it fails
// closed rather than guessing.
func ParseCodeowners(text string) (Codeowners, error) {
	var c Codeowners
	for i, raw := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		pattern := fields[0]
		if strings.HasPrefix(pattern, "!") {
			return Codeowners{}, fmt.Errorf("CODEOWNERS line %d: %q negates a pattern, which GitHub does not support", i+1, pattern)
		}
		r := ownerRule{line: i + 1, pattern: pattern}
		p := pattern
		if strings.HasSuffix(p, "/") {
			r.dirOnly = true
			p = strings.TrimSuffix(p, "/")
		}
		anchored := strings.HasPrefix(p, "/") || strings.Contains(p, "/")
		p = strings.TrimPrefix(p, "/")
		if p == "" {
			return Codeowners{}, fmt.Errorf("CODEOWNERS line %d: %q names no path", i+1, pattern)
		}
		if !anchored {
			p = "**/" + p
		}
		g, err := compileGlob(p)
		if err != nil {
			return Codeowners{}, fmt.Errorf("CODEOWNERS line %d: %w", i+1, err)
		}
		r.glob = g
		last := g[len(g)-1]
		// GitHub: "docs/*" owns docs/a.md but not docs/sub/b.md, so a
		// wildcard in the last element matches files, not directories.
		r.prefixOK = last == "**" || !strings.ContainsAny(last, "*?")
		for _, o := range fields[1:] {
			if strings.HasPrefix(o, "#") {
				break
			}
			if !ownerForm().MatchString(o) {
				return Codeowners{}, fmt.Errorf("CODEOWNERS line %d: owner %q is not @user, @org/team or an email", i+1, o)
			}
			r.owners = append(r.owners, o)
		}
		c.rules = append(c.rules, r)
	}
	return c, nil
}

func (r ownerRule) matches(p string) bool {
	elems := strings.Split(p, "/")
	for k := 1; k <= len(elems); k++ {
		whole := k == len(elems)
		if whole && r.dirOnly {
			continue
		}
		if !whole && !r.prefixOK {
			continue
		}
		if matchElems(r.glob, elems[:k]) {
			return true
		}
	}
	return false
}

// Owners returns the owners of the last rule matching p; none when no rule
// matches or the last match lists no owners.
func (c Codeowners) Owners(p string) []string {
	for i := len(c.rules) - 1; i >= 0; i-- {
		if c.rules[i].matches(p) {
			return append([]string(nil), c.rules[i].owners...)
		}
	}
	return nil
}

// IsOwner says whether login is among owners, directly or through a team
// whose members the caller listed (teams maps "@org/team" to logins). An
// email or a team without listed members never matches: unknown grants
// nothing.
func IsOwner(owners []string, login string, teams map[string][]string) bool {
	for _, o := range owners {
		if !strings.HasPrefix(o, "@") {
			continue
		}
		if strings.Contains(o, "/") {
			for team, members := range teams {
				if !strings.EqualFold(team, o) {
					continue
				}
				for _, m := range members {
					if identity.SameLogin(m, login) {
						return true
					}
				}
			}
			continue
		}
		if identity.SameLogin(o, login) {
			return true
		}
	}
	return false
}
