package tui

import (
	"strings"
	"testing"
)

// TestConfirmFlowPlainHelpRefusesFullScreenKeys: the plain ? of a
// read → ask → write screen lists, in each phase, only what a typed line
// can be then: y or anything else at the question (never enter, esc or n,
// which plain mode takes as a no or cannot type), nothing while writing or
// once ended.
func TestConfirmFlowPlainHelpRefusesFullScreenKeys(t *testing.T) {
	f, _ := testFlow(Common{Plain: true})
	words := func() string {
		var out []string
		for _, b := range f.PlainKeys() {
			h := b.Help()
			out = append(out, h.Key+": "+h.Desc)
		}
		return strings.Join(out, "\n")
	}
	check := func(phase string, want ...string) {
		t.Helper()
		got := words()
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the plain ? lacks %q:\n%s", phase, w, got)
			}
		}
		for _, full := range []string{"enter", "esc", "n/", "q:"} {
			if strings.Contains(got, full) {
				t.Errorf("%s: the plain ? offers the full-screen key %q:\n%s", phase, full, got)
			}
		}
	}
	check("reading", "y: yes, write these, if it asks", "anything else: no, write nothing")
	f.Ask([]string{"write?"}, "Type y.")
	check("asking", "y: yes, write these", "anything else: no, write nothing")
	f.Update(LineMsg{Line: "y"})
	check("writing", "nothing: the writes under way land")
	f.Finish(ExitOK)
	check("ended", "nothing: this screen has ended")
}
