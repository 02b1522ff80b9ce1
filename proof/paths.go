package proof

import (
	"fmt"
	"github.com/aayudha/aayu/model/untrusted"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
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
// no leading "/" or drive letter, valid UTF-8 with no control or
// text-direction character. A path that would need rewriting is
// refused, never rewritten, so the name that was hashed is the name read.
func CheckPath(p string) error {
	refuse := func(code Code, reason string) error { return &PathError{Code: code, Path: p, Reason: reason} }
	switch {
	case p == "":
		return refuse(CodeUncleanPath, "it is empty")
	case !utf8.ValidString(p):
		return refuse(CodeUncleanPath, "it is not valid UTF-8")
	case strings.IndexFunc(p, isControlOrBidi) >= 0:
		return refuse(CodeUncleanPath, "it holds a control or text-direction character")
	case strings.Contains(p, `\`):
		return refuse(CodeBackslashPath, `it holds a backslash; pack paths are "/"-separated`)
	case strings.HasPrefix(p, "/"):
		return refuse(CodeAbsolutePath, "it is absolute; pack paths are relative to the pack")
	case hasDriveLetter(p):
		return refuse(CodeAbsolutePath, "it starts with a drive letter; pack paths are relative to the pack")
	}
	if hasElement(p, "..") {
		return refuse(CodeEscapingPath, `it has a ".." element and could leave the pack`)
	}
	if hasElement(p, ".") {
		return refuse(CodeUncleanPath, `it has a "." element`)
	}
	if path.Clean(p) != p {
		return refuse(CodeUncleanPath, fmt.Sprintf("it is not clean (clean form %q)", path.Clean(p)))
	}
	return nil
}

// isControlOrBidi reports the characters that could move the cursor, fake
// a link or reorder or hide text when a path is shown: the one rule of
// model/untrusted (C0, DEL, C1, bidirectional and zero-width format
// characters, private-use and unassigned code points).
func isControlOrBidi(r rune) bool { return untrusted.Hidden(r) }

// escapeControls makes control and text-direction characters in a message
// visible as Go escapes, so text quoted from a hostile pack cannot act on
// the terminal that shows it.
func escapeControls(s string) string {
	if utf8.ValidString(s) && strings.IndexFunc(s, isControlOrBidi) < 0 {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !utf8.ValidString(s[i:i+1]):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isControlOrBidi(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// hasElement reports whether the "/"-separated path p has the element
// elem, as ranging over strings.Split(p, "/") would find it.
func hasElement(p, elem string) bool {
	for {
		head, rest, more := strings.Cut(p, "/")
		if head == elem {
			return true
		}
		if !more {
			return false
		}
		p = rest
	}
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

// foldName is the key two paths collide under: names that differ only in
// case or in Unicode normalisation (a precomposed "é" against "e" and a
// combining accent) are one file on macOS and Windows and look the same on
// screen, so a pack may hold only one of them. NFC first so the two forms
// meet, then full case folding, then NFC again because folding can
// decompose.
//
// A name of ASCII alone, nearly every artifact path, is its own NFC form and
// folds to its ASCII lower case, so it skips both transforms (and is
// returned as it stands when it is lower case already): the same key, with
// no allocation (TestFoldNameASCIIMatchesUnicodeFold).
func foldName(s string) string {
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return foldNameUnicode(s)
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	if !upper {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}

// foldNameUnicode is foldName through the Unicode transforms, for any name.
func foldNameUnicode(s string) string {
	return norm.NFC.String(cases.Fold().String(norm.NFC.String(s)))
}
