package tui

import (
	"regexp"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/internal/lazyre"
)

// urlPattern finds the URLs in a gate's words (a comment, a run). The words
// are already sanitised, so a URL holds no control character.
var urlPattern = lazyre.New(`https?://[^\s<>"')\]\x1b]+`)

// commandPattern finds a command the person is told to type: a code span
// (`aayu auth`), an aayu command with its arguments (aayu decide 1,2
// --accept 1,2; aayu ship 4 --solo-bypass; aayu audit acme/benefits), and
// the few other programs' commands the screens give (gh auth login, tmux set
// -s set-clipboard on, git merge-base). Arguments are what arguments look
// like (numbers, flags, hashes, OWNER/NAME, placeholders such as STORY or
// <Client ID>), so the sentence after a command is not taken for it.
var commandPattern = lazyre.New("`[^`\n]+`|\\baayu(?: proof (?:push|verify|comment)| token seal| auth status| [a-z][a-z-]*)(?: (?:--[a-z][a-z-]*(?:=[^\\s,;\\x1b]+)?|#?\\d+(?:,\\d+)*|[0-9a-f]{12,40}|[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+|[A-Z][A-Z0-9_]+|[A-Z]\\[[^\\]\\s]*\\]|<[^<>\\n]+>|[a-z]+=[^\\s,;\\x1b]+))*|\\bgh auth (?:login|status|token)|\\btmux set(?:-option)? -[sg] [a-z][a-z-]* (?:on|off)|\\bgit [a-z][a-z-]*(?: --?[a-z][a-z-]*)*")

// unbreakablePattern is either kind of token a wrap never cuts; the one
// that starts first wins.
var unbreakablePattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(urlPattern().String() + "|" + commandPattern().String())
})

// Unbreakable finds the URLs and commands in text that no line break may
// fall inside, as byte ranges [start, end) without trailing punctuation.
// Wrapping (WrapLinks) and the goldens' check (tuitest) both use it, so
// the rule the screens follow is the rule the tests enforce.
func Unbreakable(text string) [][2]int {
	if !mayHoldUnbreakable(text) {
		return nil
	}
	var out [][2]int
	for _, loc := range unbreakablePattern().FindAllStringIndex(text, -1) {
		tok := text[loc[0]:loc[1]]
		if !strings.HasPrefix(tok, "`") {
			tok = strings.TrimRight(tok, ".,;:")
		}
		if tok != "" {
			out = append(out, [2]int{loc[0], loc[0] + len(tok)})
		}
	}
	return out
}

// mayHoldUnbreakable says whether text holds a literal every match of
// unbreakablePattern contains ("http", a backquote, "aayu", "gh auth",
// "tmux set", "git "): most lines hold none, and scanning for six strings
// costs a fraction of running the pattern over the line.
func mayHoldUnbreakable(text string) bool {
	for _, lit := range [...]string{"http", "`", "aayu", "gh auth", "tmux set", "git "} {
		if strings.Contains(text, lit) {
			return true
		}
	}
	return false
}

// WrapLinks wraps text to w columns (at spaces and the other breakpoints)
// by the one rule every screen's text follows: a URL or a command
// (Unbreakable) is never broken across lines; it moves whole to the next
// line. Every URL is an OSC 8 link, and one wider than the room is shown
// shortened in the middle ("https://github.com/…/4#c-9") while its link
// still carries the whole of it. A command wider than the whole width
// cannot move whole anywhere: it starts its own line and breaks only at
// its spaces.
func WrapLinks(text string, w int, breakpoints string) []string {
	spans := Unbreakable(text)
	if len(spans) == 0 || w < 1 {
		return strings.Split(ansi.Wrap(text, w, breakpoints), "\n")
	}
	// Each token becomes one word of placeholders of its shown width, so
	// the wrap moves it whole to the next line instead of cutting it.
	// Tokens alternate between two placeholders so two side by side stay
	// two.
	var b strings.Builder
	var shown []string
	last := 0
	for _, sp := range spans {
		tok := text[sp[0]:sp[1]]
		b.WriteString(text[last:sp[0]])
		last = sp[1]
		s := tok
		if strings.HasPrefix(tok, "http") {
			s = Hyperlink(tok, elide(tok, w))
		} else if ansi.StringWidth(tok) > w {
			// Too wide for any line: its own line, broken at its spaces.
			pre := strings.TrimRight(b.String(), " ")
			b.Reset()
			b.WriteString(pre)
			if pre != "" && !strings.HasSuffix(pre, "\n") {
				b.WriteString("\n")
			}
			// Its words break apart, but never a placeholder such as
			// <Client ID>.
			for i, part := range argPattern().FindAllString(tok, -1) {
				if i > 0 {
					b.WriteString(" ")
				}
				if !strings.Contains(part, " ") {
					b.WriteString(part)
					continue
				}
				shown = append(shown, part)
				b.WriteString(strings.Repeat(placeholders[len(shown)%2], ansi.StringWidth(part)))
			}
			continue
		}
		shown = append(shown, s)
		b.WriteString(strings.Repeat(placeholders[len(shown)%2], ansi.StringWidth(s)))
	}
	b.WriteString(text[last:])
	var lines []string
	for _, para := range strings.Split(b.String(), "\n") {
		lines = append(lines, strings.Split(ansi.Wrap(para, w, breakpoints), "\n")...)
	}
	n := 0
	for i, l := range lines {
		for n < len(shown) {
			ph := placeholders[(n+1)%2]
			start := strings.Index(l, ph)
			if start < 0 {
				break
			}
			end := start
			for strings.HasPrefix(l[end:], ph) {
				end += len(ph)
			}
			l = l[:start] + shown[n] + l[end:]
			n++
		}
		lines[i] = l
	}
	return lines
}

// argPattern splits a command into its words, a placeholder such as
// <Client ID> being one.
var argPattern = lazyre.New(`<[^<>\n]+>|[^ ]+`)

// placeholders stand for one column of a URL or command while the text
// is wrapped: private-use characters, which sanitised text from GitHub
// shows escaped.
var placeholders = [2]string{"\ue000", "\ue001"}

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
