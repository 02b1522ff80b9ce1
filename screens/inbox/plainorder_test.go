package inbox

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	xgolden "github.com/charmbracelet/x/exp/golden"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// plainDriver drives the plain inbox on its stack by messages alone, with
// no program and no goroutine: the test decides when a background write
// lands, so the order of the page is the same on every run.
type plainDriver struct {
	t     *testing.T
	f     *fakeGitHub
	m     *Model
	st    *tui.Stack
	typed int // how many lines were typed
}

func newPlainDriver(t *testing.T, deps Deps, f *fakeGitHub) *plainDriver {
	t.Helper()
	m := New(context.Background(), tui.Common{Plain: true, Width: 80, Height: 24}, deps, Options{})
	st := tui.NewStack(m)
	st.Init()
	st.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	d := &plainDriver{t: t, f: f, m: m, st: st}
	d.read()
	return d
}

// read lands a read of what the fake GitHub holds now.
func (d *plainDriver) read() {
	snap, _ := d.f.deps().Read(context.Background(), nil, t0)
	d.st.Update(readMsg{snap: snap, at: t0})
}

// page is every line printed so far.
func (d *plainDriver) page() []string { return d.st.Transcript() }

// typeLine is the person typing a line; before it, the last line printed
// must be the question it answers (asked says which).
func (d *plainDriver) typeLine(line, asked string) {
	d.t.Helper()
	d.questionIsLast(asked)
	d.typed++
	d.st.Update(tui.LineMsg{Line: line})
}

// questionIsLast fails unless the page's last line is the question asked
// (a prefix of it).
func (d *plainDriver) questionIsLast(asked string) {
	d.t.Helper()
	p := d.page()
	if len(p) == 0 || !strings.HasPrefix(p[len(p)-1], asked) {
		d.t.Fatalf("the page does not end on the question %q the next line answers:\n%s", asked, strings.Join(p, "\n"))
	}
}

// land is a background write ending with o, as the write queue's command
// would deliver it.
func (d *plainDriver) land(kind model.Kind, n int, o Outcome) {
	if o.Done {
		d.f.mu.Lock()
		d.f.remove(n)
		d.f.mu.Unlock()
	}
	d.st.Update(jobDoneMsg{id: fmt.Sprintf("%s#%d", kind, n), outcome: o})
}

// TestInboxPlainResultBeforeQuestionGolden: writes that land while the
// person is at the next question (a card's, a confirmation) print their
// result, then the question again, so every result comes before the
// question being answered; a read landing after says nothing and asks
// nothing; a read asked for with r is waited for, its line before the
// question; and every card keeps its number (list, copy) although cards
// left.
func TestInboxPlainResultBeforeQuestionGolden(t *testing.T) {
	f := newFake()
	deps := f.deps()
	deps.URL = func(n int) string { return fmt.Sprintf("https://github.com/acme/benefits/issues/%d", n) }
	d := newPlainDriver(t, deps, f)
	d.typeLine("1", "card 1 of 5: Decision #1.") // write A starts in the background
	d.typeLine("1", "card 2 of 5: Decision #2.") // a one-way door: asks to confirm
	// Write A lands while the confirmation waits.
	d.land(model.KindDecision, 1, Outcome{Done: true, Wrote: []string{`comment on #1: "Accepted option 1 (Add the seat) by @founder"`}})
	d.typeLine("y", "Accept option 1: Keep the queue on Decision #2") // write B starts
	// A read lands (the one write A started): nothing to say, nothing asked again.
	before := len(d.page())
	d.read()
	if got := d.page()[before:]; len(got) != 0 {
		t.Errorf("a read landing printed %q; it should say nothing and ask nothing again", got)
	}
	d.typeLine("list", "card 3 of 5: PR that needs your review #6.")
	// Write B fails while card 3 is asked about.
	d.land(model.KindDecision, 2, Outcome{Failure: &Failure{What: "GitHub refused the label: 403 Forbidden.", Changed: "Nothing was written.", Next: "Check the token's scopes, then press enter on the card again.",
		Details: []string{"POST /repos/acme/benefits/issues/2/labels answered 403"}, Retryable: true}})
	d.typeLine("copy 5", "card 3 of 5: PR that needs your review #6.")
	d.read() // the read write B started lands: nothing said
	// r: the question waits for the read the person asked for, since the
	// cards it is about may change with it; then it comes under the
	// read's line.
	d.typeLine("r", "card 3 of 5: PR that needs your review #6.")
	if p := d.page(); p[len(p)-1] != "Refreshing from GitHub…" {
		t.Errorf("r asked again before its read landed:\n%s", strings.Join(p, "\n"))
	}
	d.read()
	if p := d.page(); !strings.HasPrefix(p[len(p)-2], "Refreshed: ") {
		t.Errorf("the question after r does not come under the read's line:\n%s", strings.Join(p, "\n"))
	}
	d.typeLine("q", "card 3 of 5: PR that needs your review #6.")
	page := strings.Join(d.page(), "\n") + "\n"

	// Every result line comes before the question the person then answers.
	for _, result := range []string{"done: Decision #1", "not done: Decision #2"} {
		i := strings.Index(page, result)
		if i < 0 {
			t.Fatalf("the page lacks %q:\n%s", result, page)
		}
		if !strings.Contains(page[i:], "\ncard 3 of 5: ") && !strings.Contains(page[i:], "(y applies it; anything else cancels)") {
			t.Errorf("no question is asked again after %q:\n%s", result, page[i:])
		}
	}
	// The list printed after Decision #1 left keeps every number.
	if !strings.Contains(page, "card 2: Decision #2 (needs you)") || strings.Contains(page, "card 1: Decision #2") {
		t.Errorf("the list printed again renumbered the cards:\n%s", page)
	}
	if !strings.Contains(page, "The link to #11, to copy:") {
		t.Errorf("copy 5 does not mean the card listed as 5 (Bug #11):\n%s", page)
	}
	xgolden.RequireEqual(t, page)
}

// TestInboxPlainHoldsResultsWhileAnotherScreenAsks: a write that lands
// while the pack viewer (opened with p) is on top prints nothing between
// that screen's question and its answer; its result comes when the inbox
// is back, before the inbox's question.
func TestInboxPlainHoldsResultsWhileAnotherScreenAsks(t *testing.T) {
	f := newFake()
	deps := f.deps()
	deps.OpenPack = func(story int) (tui.Screen, error) {
		return &plainStub{lines: []string{fmt.Sprintf("pack of Story #%d. q closes it.", story)}}, nil
	}
	d := newPlainDriver(t, deps, f)
	d.typeLine("1", "card 1 of 5: Decision #1.") // write A starts
	d.typeLine("s", "card 2 of 5: Decision #2.")
	d.typeLine("s", "card 3 of 5: PR that needs your review #6.")
	d.typeLine("p", "card 4 of 5: Story merged without ship #9.")
	if d.st.Depth() != 2 {
		t.Fatalf("p did not open the pack viewer:\n%s", strings.Join(d.page(), "\n"))
	}
	d.land(model.KindDecision, 1, Outcome{Done: true, Wrote: []string{"close #1 as completed"}})
	d.questionIsLast("pack of Story #9. q closes it.")
	d.typeLine("q", "pack of Story #9. q closes it.")
	if d.st.Depth() != 1 {
		t.Fatal("q did not close the pack viewer")
	}
	page := d.page()
	d.questionIsLast("card 4 of 5: Story merged without ship #9.")
	joined := strings.Join(page, "\n")
	if i, j := strings.Index(joined, "pack of Story #9. q closes it."), strings.Index(joined, "done: Decision #1"); i < 0 || j < i {
		t.Errorf("the result landed on the page before the pack viewer's question, not after its answer:\n%s", joined)
	}
}

// plainStub is a screen opened on top in plain mode: it asks one line and
// finishes on q.
type plainStub struct {
	lines []string
	done  bool
}

func (s *plainStub) Init() tea.Cmd { return nil }
func (s *plainStub) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if l, ok := msg.(tui.LineMsg); ok && l.Line == "q" {
		s.lines = append(s.lines, "result: exit 0")
		s.done = true
	}
	return s, nil
}
func (s *plainStub) View() tea.View       { return tea.NewView("stub") }
func (s *plainStub) Transcript() []string { return s.lines }
func (s *plainStub) Done() (bool, int)    { return s.done, tui.ExitOK }
func (s *plainStub) Keys() []key.Binding  { return nil }

// TestInboxPlainQuitQuestionComesAgainUnderAResult: q while a write runs
// asks how to quit; the write landing prints its result, then that
// question again, word for word; and "not quitting" is followed by the
// card's question.
func TestInboxPlainQuitQuestionComesAgainUnderAResult(t *testing.T) {
	f := newFake()
	d := newPlainDriver(t, f.deps(), f)
	d.typeLine("1", "card 1 of 5: Decision #1.") // write A starts
	d.typeLine("q", "card 2 of 5: Decision #2.")
	quitAsk := d.page()[len(d.page())-1]
	d.land(model.KindDecision, 1, Outcome{Done: true, Wrote: []string{"close #1 as completed"}})
	p := d.page()
	if p[len(p)-1] != quitAsk || !strings.HasPrefix(p[len(p)-2], "done: Decision #1") {
		t.Fatalf("the quit question is not said again under the result:\n%s", strings.Join(p, "\n"))
	}
	d.typeLine("stay", quitAsk)
	d.questionIsLast("card 2 of 5: Decision #2.")
}
