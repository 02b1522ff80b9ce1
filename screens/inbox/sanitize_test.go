package inbox

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// hostileAnswer is what a hostile or broken server could put in an error
// answer that a failure quotes: a screen clear, an OSC 52 clipboard write,
// a C1 CSI, a bidi override and a zero-width space.
const hostileAnswer = "502\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b6n\u202eyawetaG\u200b"

func TestInboxCleanShowsControlsVisibly(t *testing.T) {
	got := tui.SanitizeLine(hostileAnswer + "\nsecond line")
	tuitest.AssertInert(t, "clean", got)
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
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	settle(m, cmd)
	m.pane.details = true
	st, ok := model.Find(m.list.steps, "decision#1")
	if !ok {
		t.Fatal("Decision #1 left the inbox")
	}
	lines := strings.Join(m.cardLines(st), "\n")
	tuitest.AssertInert(t, "the failure card", lines)
	m.sayDetails()
	tuitest.AssertInert(t, "the transcript", strings.Join(m.Transcript(), "\n"))
	tuitest.AssertInert(t, "the epilogue", strings.Join(m.Epilogue(), "\n"))
	if got := strings.Join(m.Transcript(), "\n"); !strings.Contains(got, "details: GitHub's answer: 502^[[2J") || !strings.Contains(got, "Nothing was written 502^[[2J") {
		t.Errorf("the transcript does not show the failure neutralised:\n%s", got)
	}
	if got := strings.Join(m.Epilogue(), "\n"); !strings.Contains(got, "failed: GitHub's answer: 502^[[2J") {
		t.Errorf("the epilogue's log line does not show the details neutralised:\n%s", got)
	}
	for _, want := range []string{"GitHub answered 502^[[2J^[]52;c;", "Nothing was written 502^[[2J", "try again 502^[[2J", "details: GitHub's answer: 502^[[2J", "<U+202E>yawetaG<U+200B>"} {
		if !strings.Contains(lines, want) {
			t.Errorf("the card does not show %q:\n%s", want, lines)
		}
	}
}

// TestInboxReadErrorQuotingGitHubIsNeutralised: an error from the read can
// quote GitHub's answer; the screen's own transcript (before any shell
// sanitises it again) and its full-screen view show it neutralised, both on
// a first read and when it leaves stale cards standing.
func TestInboxReadErrorQuotingGitHubIsNeutralised(t *testing.T) {
	readErr := errors.New("GET /repos/acme/benefits/issues: " + hostileAnswer)
	plain := New(context.Background(), tui.Common{Plain: true}, newFake().deps(), Options{List: true})
	plain.Update(readMsg{err: readErr, at: t0})
	tuitest.AssertInert(t, "the plain transcript", strings.Join(plain.Transcript(), "\n"))
	if got := strings.Join(plain.Transcript(), "\n"); !strings.Contains(got, "502^[[2J^[]52;c;") {
		t.Fatalf("the transcript does not show the answer neutralised:\n%s", got)
	}

	full := loaded(t, newFake(), 120, 30, Options{})
	full.Update(readMsg{err: readErr, at: t0})
	tuitest.AssertInert(t, "the stale-cards transcript", strings.Join(full.Transcript(), "\n"))
	view := ansi.Strip(full.View().Content)
	tuitest.AssertInert(t, "the full-screen view", view)
	if !strings.Contains(view, "<U+202E>yawetaG") {
		t.Fatalf("the view does not show the answer neutralised:\n%s", view)
	}
	first := New(context.Background(), tui.Common{Width: 120, Height: 30, Styles: tui.NewStyles(true)}, newFake().deps(), Options{})
	first.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	first.Update(readMsg{err: readErr, at: t0})
	tuitest.AssertInert(t, "the failed first read's view", ansi.Strip(first.View().Content))
}

// TestInboxMessageLineIsSanitisedWhateverSetIt: the message line is the
// full screen's last layer for what a key or a write says; a handler that
// forgot to sanitise still cannot put a control on the screen.
func TestInboxMessageLineIsSanitisedWhateverSetIt(t *testing.T) {
	m := loaded(t, newFake(), 120, 30, Options{})
	m.status.message = "refused: " + hostileAnswer
	view := ansi.Strip(m.View().Content)
	tuitest.AssertInert(t, "the view", view)
	if !strings.Contains(view, "refused: 502^[[2J^[]52;c;") {
		t.Fatalf("the message line does not show it neutralised:\n%s", view)
	}
}

// TestInboxChangedAndByHandQuotingGitHubAreNeutralised: what the re-read
// found changed, and what is left to do by hand, can quote GitHub.
func TestInboxChangedAndByHandQuotingGitHubAreNeutralised(t *testing.T) {
	for name, o := range map[string]Outcome{
		"changed": {Changed: true, ChangedWhat: "title changed to " + hostileAnswer},
		"by hand": {Done: true, Wrote: []string{"The pull request was opened"}, ByHand: "revert " + hostileAnswer + " by hand"},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFake()
			d := f.deps()
			d.Execute = func(ctx context.Context, req Request) Outcome { return o }
			m := New(context.Background(), tui.Common{Width: 120, Height: 40, Styles: tui.NewStyles(true)}, d, Options{})
			m.Init()
			m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			m.Update(readMsg{snap: demoSnapshot(), at: t0})
			_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
			settle(m, cmd)
			st, _ := model.Find(m.list.steps, "decision#1")
			all := strings.Join(append(m.Transcript(), m.cardLines(st)...), "\n")
			tuitest.AssertInert(t, "the transcript and card", all)
			if !strings.Contains(all, "502^[[2J^[]52;c;") {
				t.Fatalf("the text is not shown neutralised:\n%s", all)
			}
		})
	}
}

// TestInboxProblemAndReasonQuotingGitHubAreNeutralised: a Decision whose
// Door lines disagree is refused quoting them, and a disabled approval names
// the approver from the repository's config, and a merged pull request's
// link names the integration branch from it; all come from GitHub.
func TestInboxProblemAndReasonQuotingGitHubAreNeutralised(t *testing.T) {
	f := newFake()
	f.snap.Issues[0].Body = "## Options\n1. Add the seat (recommended)\n2. Wait\n\nDoor: two-way\nDoor: " + hostileAnswer + "\n"
	f.snap.Approver = "lead" + hostileAnswer
	f.snap.IntegrationBranch = "dev" + hostileAnswer // named by the config on GitHub
	for i := range f.snap.PullRequests {
		f.snap.PullRequests[i].BaseRef = untrusted.Ref(f.snap.IntegrationBranch)
	}
	m := loaded(t, f, 120, 40, Options{})
	for _, id := range []string{"decision#1", "needs-review#6", "merged-without-ship#9"} {
		st, ok := model.Find(m.list.steps, id)
		if !ok {
			t.Fatalf("no card %s", id)
		}
		lines := strings.Join(m.cardLines(st), "\n")
		tuitest.AssertInert(t, id, lines)
		// The Door words are read in lower case.
		if !strings.Contains(strings.ToLower(lines), "yawetag<u+200b>") {
			t.Errorf("%s does not show the text neutralised:\n%s", id, lines)
		}
	}
}

// TestInboxRefusedLineIsShownAsOutsideText: a line typed (or pasted) in
// plain mode that is no key is quoted back in caret notation, as aayu shows
// all outside text.
func TestInboxRefusedLineIsShownAsOutsideText(t *testing.T) {
	m := New(context.Background(), tui.Common{Plain: true}, newFake().deps(), Options{})
	m.Update(readMsg{snap: demoSnapshot(), at: t0})
	m.Update(tui.LineMsg{Line: "zz" + hostileAnswer})
	got := strings.Join(m.Transcript(), "\n")
	tuitest.AssertInert(t, "the transcript", got)
	if !strings.Contains(got, `refused: "zz502^[[2J^[]52;c;`) {
		t.Fatalf("the refused line is not quoted in caret notation:\n%s", got)
	}
}
