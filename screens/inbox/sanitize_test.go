package inbox

import (
	"context"
	"strings"
	"testing"
	"unicode"

	tea "charm.land/bubbletea/v2"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// hostileAnswer is what a hostile or broken server could put in an error
// answer that a failure quotes: a screen clear, an OSC 52 clipboard write,
// a C1 CSI, a bidi override and a zero-width space.
const hostileAnswer = "502\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b6n\u202eyawetaG\u200b"

// assertInert fails when s holds a rune a terminal would obey or that would
// reorder or hide text.
func assertInert(t *testing.T, where, s string) {
	t.Helper()
	for i, r := range s {
		if r != '\n' && !unicode.IsPrint(r) {
			t.Fatalf("%s holds %U at byte %d:\n%q", where, r, i, s)
		}
	}
}

func TestInboxCleanShowsControlsVisibly(t *testing.T) {
	got := clean(hostileAnswer + "\nsecond line")
	assertInert(t, "clean", got)
	if want := "502^[[2J^[]52;c;cm0gLXJmIH4=^G^[[6n<U+202E>yawetaG<U+200B>⏎second line"; got != want {
		t.Fatalf("clean = %q\nwant    %q", got, want)
	}
}

// TestInboxFailureQuotingGitHubIsNeutralised: a failed write's words and
// details quote GitHub's answer; the card shows its controls, obeys none.
func TestInboxFailureQuotingGitHubIsNeutralised(t *testing.T) {
	f := newFake()
	d := f.deps()
	d.Execute = func(ctx context.Context, req Request) Outcome {
		return Outcome{Failure: &Failure{
			What:    "The comment on #1 was not posted: GitHub answered " + hostileAnswer,
			Changed: "Nothing was written " + hostileAnswer,
			Next:    "Press Enter to try again " + hostileAnswer,
			Details: []string{"GitHub's answer: " + hostileAnswer},
		}}
	}
	m := New(context.Background(), tui.Common{Width: 120, Height: 40, Styles: tui.NewStyles(true)}, d, Options{})
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(readMsg{snap: demoSnapshot(), at: t0})
	m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	m.Update(m.waitJobs()())
	m.details = true
	st, ok := model.Find(m.steps, "decision#1")
	if !ok {
		t.Fatal("Decision #1 left the inbox")
	}
	lines := strings.Join(m.cardLines(st), "\n")
	assertInert(t, "the failure card", lines)
	for _, want := range []string{"GitHub answered 502^[[2J^[]52;c;", "Nothing was written 502^[[2J", "try again 502^[[2J", "details: GitHub's answer: 502^[[2J", "<U+202E>yawetaG<U+200B>"} {
		if !strings.Contains(lines, want) {
			t.Errorf("the card does not show %q:\n%s", want, lines)
		}
	}
}
