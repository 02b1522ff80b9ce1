package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapNeverBreaksACommand: the command the person is told to type
// moves whole to the next line at every width it fits in.
func TestWrapNeverBreaksACommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ text, cmd string }{
		{"Nothing was accepted yet: to accept the first option, run aayu decide 1,2 --accept 1,2 in this repository.", "aayu decide 1,2 --accept 1,2"},
		{"Inside tmux it reaches your clipboard only with: tmux set -s set-clipboard on", "tmux set -s set-clipboard on"},
		{"The token is refused: run `aayu auth` to see where the token comes from, then replace it.", "`aayu auth`"},
		{"Next: fix the cause above and run aayu ship 4 --solo-bypass again; what landed is not written twice.", "aayu ship 4 --solo-bypass"},
		{"Run aayu audit acme/benefits to list them.", "aayu audit acme/benefits"},
	} {
		for w := ansi.StringWidth(tc.cmd); w <= 120; w++ {
			lines := WrapLinks(tc.text, w, " ")
			if !strings.Contains(strings.Join(lines, "\n"), tc.cmd) {
				t.Fatalf("at %d columns the command %q is broken:\n%s", w, tc.cmd, strings.Join(lines, "\n"))
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > w {
					t.Fatalf("at %d columns a line is %d wide: %q", w, ansi.StringWidth(l), l)
				}
			}
		}
	}
}

// TestWrapNeverBreaksAURL: a URL moves whole to the next line, or is
// shortened in its middle with a link to the whole when wider than the line.
func TestWrapNeverBreaksAURL(t *testing.T) {
	t.Parallel()
	u := "http://127.0.0.1:8080/acme/benefits.git"
	text := "Get a clone and run it there: git clone " + u + " && cd benefits && aayu verify 3"
	for w := 20; w <= 120; w++ {
		lines := WrapLinks(text, w, " ,")
		plain := ansi.Strip(strings.Join(lines, "\n"))
		if w >= len(u) && !strings.Contains(plain, u) {
			t.Fatalf("at %d columns the URL is broken:\n%s", w, plain)
		}
		if w < len(u) && (!strings.Contains(strings.Join(lines, "\n"), ansi.SetHyperlink(u)) || !strings.Contains(plain, "…")) {
			t.Fatalf("at %d columns the URL is neither whole nor a shortened link:\n%s", w, plain)
		}
		if !strings.Contains(plain, "aayu verify 3") {
			t.Fatalf("at %d columns the command is broken:\n%s", w, plain)
		}
	}
}

// TestWrapPutsATooWideCommandOnItsOwnLine: a command wider than the line
// cannot move whole anywhere; it starts its own line.
func TestWrapPutsATooWideCommandOnItsOwnLine(t *testing.T) {
	t.Parallel()
	lines := WrapLinks("Make the App by hand and run aayu init --identity --client-id <Client ID> here.", 30, " ,")
	found := false
	for _, l := range lines {
		if strings.HasPrefix(l, "aayu init") {
			found = true
		}
	}
	if !found {
		t.Errorf("the too-wide command does not start its own line:\n%s", strings.Join(lines, "\n"))
	}
	if !strings.Contains(strings.Join(lines, "\n"), "<Client ID>") {
		t.Errorf("the too-wide command's placeholder is broken:\n%s", strings.Join(lines, "\n"))
	}
}

// TestUnbreakableLooksOnlyWhereAMatchCanBe: the check before the pattern
// (mayHoldUnbreakable) says yes to every text the pattern finds a token in,
// one of each kind, so skipping the pattern on a no never lets a wrap
// break a URL or a command; and it says no to a line with none of them.
func TestUnbreakableLooksOnlyWhereAMatchCanBe(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"see http://127.0.0.1:8080/acme/benefits/pull/4 for it",
		"see https://github.com/acme/benefits/pull/4#issuecomment-9.",
		"run `make proof` first",
		"then aayu decide 1,2 --accept 1,2 here",
		"aayu proof push 4",
		"sign in with gh auth login",
		"turn on tmux set -s set-clipboard on and try again",
		"or tmux set-option -g allow-passthrough on",
		"find it with git merge-base --fork-point",
	} {
		if len(unbreakablePattern().FindAllStringIndex(text, -1)) == 0 {
			t.Fatalf("the case %q holds no token; the pattern changed", text)
		}
		if !mayHoldUnbreakable(text) {
			t.Errorf("mayHoldUnbreakable(%q) = false, yet the pattern finds a token in it", text)
		}
		if len(Unbreakable(text)) == 0 {
			t.Errorf("Unbreakable(%q) found nothing", text)
		}
	}
	if plain := "status: not done, step 40: the check was cancelled"; mayHoldUnbreakable(plain) {
		t.Errorf("mayHoldUnbreakable(%q) = true for a line with no URL and no command", plain)
	}
}
