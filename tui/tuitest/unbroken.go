package tuitest

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/tui"
)

// AssertUnbroken fails t when a line of view ends inside a URL or a
// command (tui.Unbreakable) that goes on at the start of the next line: a
// token the person would copy, cut in two by the wrap. A command wider than
// width could not fit any line and is let be (a URL that wide must be
// shortened instead); a token that ends a line the frame cut ("…") is
// shortened, not broken.
//
// The next line is joined with a space (the wrap dropped one) and, when
// the line ends in a breakpoint or is one word filling the width (the wrap
// cut a word too long for any line there), without one; a token found
// across the join is broken. A next line that starts with a label
// ("scopes: …") starts a line of its own, not the rest of a URL that
// ended in "/"; and after a whole URL that fills its line, a next line
// that starts with an ordinary word ("and") goes on with the sentence.
func AssertUnbroken(t testing.TB, view string, width int) {
	t.Helper()
	lines := strings.Split(ansi.Strip(view), "\n")
	for i := 0; i+1 < len(lines); i++ {
		a := strings.TrimRight(lines[i], " ")
		b := strings.TrimLeft(lines[i+1], " ")
		if a == "" || b == "" || strings.HasSuffix(a, "…") {
			continue
		}
		joins := []string{a + " " + b}
		label := strings.HasSuffix(strings.Fields(b)[0], ":")
		hard := ansi.StringWidth(a) >= width && !strings.Contains(strings.TrimSpace(a), " ") && !ordinaryWord().MatchString(strings.Fields(b)[0])
		if strings.HasSuffix(a, "-") || strings.HasSuffix(a, "/") && !label || hard {
			joins = append(joins, a+b)
		}
		for _, j := range joins {
			for _, sp := range tui.Unbreakable(j) {
				tok := j[sp[0]:sp[1]]
				url := strings.HasPrefix(tok, "http")
				if sp[0] < len(a) && sp[1] > len(a) && (url || ansi.StringWidth(tok) <= width) && !strings.Contains(tok, "…") {
					t.Errorf("lines %d and %d break %q across them at %d columns:\n%s\n%s", i+1, i+2, tok, width, lines[i], lines[i+1])
				}
			}
		}
	}
}

// ordinaryWord is a word of a sentence, which no URL's rest looks like.
var ordinaryWord = lazyre.New(`^[a-z]+[.,;:]?$`)
