package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTmuxInboxNoteTakesABracketedPaste: the real binary's note line takes
// typed text and a terminal's bracketed paste as one line, shows a bidi
// override neutralised, edits at home, and esc writes nothing.
func TestTmuxInboxNoteTakesABracketedPaste(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	s := newTmux(t, 120, 30, humanEnv(t.TempDir())+" "+bin+" --sandbox inbox")
	s.waitCards(8)
	s.keys("Down", "Down", "Down")
	s.waitFor("> " + "    Review #6")
	s.keys("2")
	s.waitFor("One line on what you checked:")
	s.keys("-l", "ran the copay tests")
	s.run("set-buffer", "--", "\nand read \u202ethe diff")
	s.run("paste-buffer", "-p", "-t", s.name)
	s.keys("Home")
	s.keys("-l", "I ")
	scr := s.waitFor("> I ran the copay tests and read <U+202E>the diff")
	if strings.Contains(scr, "\u202e") {
		t.Errorf("the override reached the terminal:\n%s", scr)
	}
	s.keys("Escape")
	s.waitFor("Cancelled; nothing was written.")
	s.keys("q")
	s.waitFor("AAYU-EXIT=0")
}

// TestTmuxInitQuestion: the real binary asks init's question with its
// answer at "Write nothing": enter alone writes nothing (exit 4); ← then
// enter opens the set-up pull request.
func TestTmuxInitQuestion(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	home := t.TempDir()
	cmd := humanEnv(home) + " " + bin + " --sandbox --repo acme/fresh init"
	s := newTmux(t, 100, 30, cmd)
	s.waitFor("enter now writes nothing.")
	s.keys("Enter")
	s.waitFor("Nothing was written.")
	s.keys("q")
	s.waitFor("AAYU-EXIT=4")
	git := filepath.Join(home, ".cache", "aayu", "sandbox", "fresh.git")
	if refs, _ := exec.Command("git", "--git-dir", git, "for-each-ref", "--format=%(refname)").Output(); strings.TrimSpace(string(refs)) != "refs/heads/main" {
		t.Fatalf("enter alone left refs behind:\n%s", refs)
	}

	s = newTmux(t, 100, 30, cmd)
	s.waitFor("enter now writes nothing.")
	s.keys("Left")
	s.waitFor("enter now writes them.")
	s.keys("Enter")
	s.waitFor("opened pull request #1")
	s.keys("q")
	s.waitFor("AAYU-EXIT=0")
}
