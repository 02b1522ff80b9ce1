package proof

import (
	"fmt"
	"path"
	"strings"
)

// PathError says why an artifact path is refused.
type PathError struct {
	Code   Code
	Path   string
	Reason string
}

func (e *PathError) Error() string {
	return fmt.Sprintf("artifact path %q is refused: %s", e.Path, e.Reason)
}

// CheckPath accepts only a path that is already clean, relative and
// "/"-separated: path.Clean(p) == p, no "." or ".." element, no backslash,
// no leading "/" or drive letter, no NUL. A path that would need rewriting is
// refused, never rewritten, so the name that was hashed is the name read.
func CheckPath(p string) error {
	refuse := func(code Code, reason string) error { return &PathError{Code: code, Path: p, Reason: reason} }
	switch {
	case p == "":
		return refuse(CodeUncleanPath, "it is empty")
	case strings.ContainsRune(p, 0):
		return refuse(CodeUncleanPath, "it holds a NUL byte")
	case strings.Contains(p, `\`):
		return refuse(CodeBackslashPath, `it holds a backslash; pack paths are "/"-separated`)
	case strings.HasPrefix(p, "/"):
		return refuse(CodeAbsolutePath, "it is absolute; pack paths are relative to the pack")
	case hasDriveLetter(p):
		return refuse(CodeAbsolutePath, "it starts with a drive letter; pack paths are relative to the pack")
	}
	for _, elem := range strings.Split(p, "/") {
		if elem == ".." {
			return refuse(CodeEscapingPath, `it has a ".." element and could leave the pack`)
		}
	}
	for _, elem := range strings.Split(p, "/") {
		if elem == "." {
			return refuse(CodeUncleanPath, `it has a "." element`)
		}
	}
	if path.Clean(p) != p {
		return refuse(CodeUncleanPath, fmt.Sprintf("it is not clean (clean form %q)", path.Clean(p)))
	}
	return nil
}

// hasDriveLetter reports a Windows volume such as "C:" at the start, which
// would make the path absolute there.
func hasDriveLetter(p string) bool {
	if len(p) < 2 || p[1] != ':' {
		return false
	}
	c := p[0]
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
