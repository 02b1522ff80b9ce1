package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestNoticeLineIsNeverCut: the tmux advice after a copy is longer than a
// 40-column line; the notice wraps and keeps every word, its command whole.
func TestNoticeLineIsNeverCut(t *testing.T) {
	t.Parallel()
	c := Clipboard{InTmux: true}
	notice := c.Notice(CopiedMsg{What: "the link to #4"})
	for _, w := range []int{40, 80, 120} {
		got := ansi.Strip(NoticeLine(w, notice, NewStyles(true)))
		if strings.Join(strings.Fields(got), " ") != notice {
			t.Errorf("at %d columns the notice is not whole:\n%s", w, got)
		}
		if !strings.Contains(got, "tmux set -s set-clipboard on") {
			t.Errorf("at %d columns the tmux command is broken:\n%s", w, got)
		}
		for _, l := range strings.Split(got, "\n") {
			if ansi.StringWidth(l) > w {
				t.Errorf("at %d columns a line is wider: %q", w, l)
			}
		}
	}
}

// TestMessageLinesSendsTheRestToTheLog: a message too long for its area
// keeps its first lines and says which key shows it whole; a short one is
// left as it is.
func TestMessageLinesSendsTheRestToTheLog(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("the read from GitHub failed and nothing was written; ", 6) + "run aayu doctor"
	lines, cut := MessageLines(long, 40, MessageRows)
	if !cut || len(lines) != MessageRows || !strings.HasSuffix(lines[MessageRows-1], MoreMessages) {
		t.Errorf("a long message is not cut to %d lines ending in %q (cut %v):\n%s", MessageRows, MoreMessages, cut, strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("a line is wider than 40: %q", l)
		}
	}
	if lines, cut := MessageLines("Copied the link to #4.", 40, MessageRows); cut || len(lines) != 1 {
		t.Errorf("a short message changed: %q (cut %v)", lines, cut)
	}
	var log MessageLog
	log.Add(long)
	log.Add(long)
	log.Add("Skipped Decision #1.")
	if len(log.Entries()) != 2 {
		t.Errorf("the log holds %d entries, want 2 (a repeat is one): %q", len(log.Entries()), log.Entries())
	}
	if !log.Key(keyPress('m')) || !log.Open() {
		t.Fatal("m does not open the log")
	}
	view := ansi.Strip(log.View(NewStyles(true), 40, 24))
	if !strings.Contains(strings.Join(strings.Fields(view), " "), "run aayu doctor") {
		t.Errorf("the log does not show the whole message:\n%s", view)
	}
	if !log.Key(keyPress('m')) || log.Open() {
		t.Error("m does not close the log")
	}
}

func keyPress(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }
