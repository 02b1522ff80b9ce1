package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/internal/lazyre"
)

// urlPattern finds the URLs in a gate's words (a comment, a run). The words
// are already sanitised, so a URL holds no control character.
var urlPattern = lazyre.New(`https?://[^\s<>"')\]]+`)

// WrapLinks wraps text to w columns (at spaces and the other breakpoints),
// with every URL an OSC 8 link and never broken across lines: a URL wider than
// the room is shown shortened in the middle ("https://github.com/…/4#c-9")
// while its link still carries the whole of it.
func WrapLinks(text string, w int, breakpoints string) []string {
	urls := urlPattern().FindAllStringIndex(text, -1)
	if len(urls) == 0 {
		return strings.Split(ansi.Wrap(text, w, breakpoints), "\n")
	}
	// Each URL becomes one placeholder word of its shown width, so the
	// wrap moves it whole to the next line instead of cutting it.
	var b strings.Builder
	var links []string
	last := 0
	for _, loc := range urls {
		u := strings.TrimRight(text[loc[0]:loc[1]], ".,;:")
		b.WriteString(text[last:loc[0]])
		shown := elide(u, w)
		links = append(links, Hyperlink(u, shown))
		b.WriteString(strings.Repeat(placeholder, ansi.StringWidth(shown)))
		last = loc[0] + len(u)
	}
	b.WriteString(text[last:])
	lines := strings.Split(ansi.Wrap(b.String(), w, breakpoints), "\n")
	for i, l := range lines {
		for strings.Contains(l, placeholder) && len(links) > 0 {
			start := strings.Index(l, placeholder)
			end := start
			for strings.HasPrefix(l[end:], placeholder) {
				end += len(placeholder)
			}
			l = l[:start] + links[0] + l[end:]
			links = links[1:]
		}
		lines[i] = l
	}
	return lines
}

// placeholder stands for one column of a URL while the text is wrapped: a
// private-use character, which sanitised text from GitHub shows escaped.
const placeholder = "\ue000"

// elide shortens a URL wider than w in its middle, keeping the host and
// the end (the number, the comment) that tell one link from another.
func elide(u string, w int) string {
	if len(u) <= w {
		return u
	}
	keep := w - 1
	if keep < 2 {
		return u[:max(w, 1)]
	}
	head := keep / 2
	return u[:head] + "…" + u[len(u)-(keep-head):]
}
