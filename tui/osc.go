package tui

import (
	"net/url"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Hyperlink returns text as an OSC 8 hyperlink to rawURL, for full-screen
// mode only: plain mode prints the URL itself as text, since
// screen readers and dumb terminals do not announce OSC 8 targets.
//
// Both parts may come from GitHub, so both are made safe first: text is
// sanitised, and a URL that is not http(s), or that holds any control
// character or space, is not linked at all — the text is returned alone.
// That way no URL can end the escape sequence early and smuggle in another.
func Hyperlink(rawURL, text string) string {
	text = SanitizeLine(text)
	if !Linkable(rawURL) {
		return text
	}
	return ansi.SetHyperlink(rawURL) + text + ansi.ResetHyperlink()
}

// Linkable reports whether rawURL is an absolute http or https URL made only
// of printable ASCII without spaces, so that it can sit inside an OSC 8
// sequence without ending it.
func Linkable(rawURL string) bool {
	for i := 0; i < len(rawURL); i++ {
		if c := rawURL[i]; c <= ' ' || c >= 0x7f {
			return false
		}
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return false
	}
	scheme := strings.ToLower(u.Scheme)
	return scheme == "http" || scheme == "https"
}
