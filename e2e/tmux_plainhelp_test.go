package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestTmuxPlainHelpOffersNoFullScreenKey: aayu decide in plain mode on the
// sandbox, in tmux, at its question: a typed ? lists y and "anything else"
// (what a typed line can be there), never y/enter or n/esc/q, which plain
// mode takes as a no or cannot type; the n that follows writes nothing.
func TestTmuxPlainHelpOffersNoFullScreenKey(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	s := newTmux(t, 120, 50, humanEnv(t.TempDir())+" "+bin+" --sandbox --plain decide 2 --accept 2")
	s.waitFor("Type y and Enter to accept")
	s.keys("?", "Enter")
	scr := s.waitFor("?: these lines again")
	help := scr[strings.LastIndex(scr, "Type y and Enter to accept"):]
	for _, want := range []string{"what you can type now, one per line:", "  y: yes, accept these", "  anything else: no, write nothing"} {
		if !strings.Contains(help, want) {
			t.Errorf("the plain ? lacks %q:\n%s", want, help)
		}
	}
	if regexp.MustCompile(`enter|esc|n/`).MatchString(help) {
		t.Errorf("the plain ? offers a full-screen key:\n%s", help)
	}
	s.keys("n", "Enter")
	s.waitFor("AAYU-EXIT=4")
}
