package pass

import (
	"fmt"
	"path"
	"strings"
)

// glob is a slash-separated pattern where "**" as a whole element matches
// zero or more elements and any other element is matched by path.Match.
type glob []string

// compileGlob checks a pattern once so matching never meets a bad one.
func compileGlob(p string) (glob, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return nil, fmt.Errorf("an empty pattern")
	}
	if strings.ContainsAny(p, "\\[]") {
		return nil, fmt.Errorf("pattern %q uses a backslash or a [ ] range, which are not supported", p)
	}
	if strings.HasSuffix(p, "/") {
		p += "**"
	}
	elems := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for _, e := range elems {
		if e == "" {
			return nil, fmt.Errorf("pattern %q has an empty path element", p)
		}
		if e == "**" {
			continue
		}
		if strings.Contains(e, "**") {
			return nil, fmt.Errorf("pattern %q uses ** inside an element; write it as a whole element (a/**/b)", p)
		}
		if _, err := path.Match(e, ""); err != nil {
			return nil, fmt.Errorf("pattern %q: %w", p, err)
		}
	}
	return elems, nil
}

func (g glob) match(name string) bool {
	return matchElems(g, strings.Split(name, "/"))
}

func matchElems(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			for i := 0; i <= len(name); i++ {
				if matchElems(rest, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}
