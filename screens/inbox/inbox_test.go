package inbox

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"

	"github.com/aayudha/aayu/internal/syncbuf"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// plainSession runs the inbox's plain twin through the real shell, typing
// lines only when the screen has asked for them.
type plainSession struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *syncbuf.Buffer
	done chan int
}

func startPlain(t *testing.T, deps Deps, opts Options) *plainSession {
	t.Helper()
	pr, pw := io.Pipe()
	s := &plainSession{t: t, in: pw, out: &syncbuf.Buffer{}, done: make(chan int, 1)}
	m := New(context.Background(), tui.Common{Plain: true}, deps, opts)
	go func() {
		code, _ := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, In: pr, Out: s.out})
		s.done <- code
	}()
	t.Cleanup(func() { _ = pw.Close() })
	return s
}

func (s *plainSession) waitFor(text string) {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.out.String(), text) {
		if time.Now().After(deadline) {
			s.t.Fatalf("the plain inbox never said %q; it said:\n%s", text, s.out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (s *plainSession) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatal(err)
	}
}

func (s *plainSession) exit() int {
	s.t.Helper()
	_ = s.in.Close()
	select {
	case code := <-s.done:
		return code
	case <-time.After(10 * time.Second):
		s.t.Fatalf("the inbox did not stop:\n%s", s.out.String())
		return -1
	}
}

func TestInboxPlainAcceptsADecision(t *testing.T) {
	f := newFake()
	s := startPlain(t, f.deps(), Options{})
	s.waitFor("card 1 of 5: Decision #1")
	s.send("1")
	s.waitFor("done: Decision #1")
	reqs := f.requests()
	if len(reqs) != 1 || reqs[0].Step.Item.Number != 1 || reqs[0].Choice.Key != "1" {
		t.Fatalf("executed %+v", reqs)
	}
	if code := s.exit(); code != tui.ExitOK {
		t.Fatalf("exit %d", code)
	}
	out := s.out.String()
	if !strings.HasPrefix(out, legend) {
		t.Errorf("the plain twin does not start with the key legend:\n%s", out)
	}
	if strings.Count(out, legend) != 1 {
		t.Errorf("the legend was said more than once")
	}
	if strings.ContainsRune(out, '\x1b') {
		t.Error("plain output holds an escape sequence")
	}
}

func TestDecisionConfirmationsInPlainMode(t *testing.T) {
	f := newFake()
	s := startPlain(t, f.deps(), Options{})
	s.waitFor("card 1 of 5: Decision #1")
	s.send("2") // not the recommendation
	s.waitFor("not the recommendation")
	s.send("n") // anything but y cancels
	s.waitFor("Cancelled; nothing was written.")
	if n := len(f.requests()); n != 0 {
		t.Fatalf("a cancelled confirmation wrote %d times", n)
	}
	s.send("2")
	s.waitFor("(y applies it; anything else cancels)")
	s.send("y")
	s.waitFor("done: Decision #1")
	if reqs := f.requests(); len(reqs) != 1 || reqs[0].Choice.Key != "2" {
		t.Fatalf("executed %+v", reqs)
	}
	s.send("1") // card 2 is the one-way door: even its recommendation asks first
	s.waitFor("a one-way door")
	s.send("y")
	s.waitFor("done: Decision #2")
	s.exit()
}

func TestSelectionRules(t *testing.T) {
	f := newFake()
	s := startPlain(t, f.deps(), Options{})
	s.waitFor("card 1 of 5")
	s.send("x 1")
	s.waitFor("refused: Decision #1 needs you: it is never selected or done in bulk")
	s.send("X")
	s.waitFor("Selected all 2 housekeeping cards")
	s.send("enter")
	s.waitFor("Each is written as @founder and is not undone later.")
	if n := len(f.requests()); n != 0 {
		t.Fatalf("bulk wrote before its confirmation: %d", n)
	}
	s.send("y")
	s.waitFor("Job well done: the housekeeping is clear.")
	for _, r := range f.requests() {
		if r.Step.Group != model.Housekeeping {
			t.Fatalf("bulk did a step that needs the person: %+v", r.Step.Kind)
		}
	}
	if n := len(f.requests()); n != 2 {
		t.Fatalf("bulk did %d steps, want 2", n)
	}
	s.exit()
}

func TestInboxFailureCards(t *testing.T) {
	f := newFake()
	f.fail["decision#1"] = &Failure{
		What:      "The comment on Decision #1 was not posted: GitHub had a server error.",
		Changed:   "Nothing changed on GitHub.",
		Next:      "Press Enter to try again.",
		Details:   []string{"step: comment", "POST /repos/acme/benefits/issues/1/comments: 502 Bad Gateway"},
		Retryable: true,
	}
	s := startPlain(t, f.deps(), Options{})
	s.waitFor("card 1 of 5")
	s.send("1")
	s.waitFor("Press Enter to try again.")
	out := s.out.String()
	failure := out[strings.Index(out, "not done: Decision #1"):]
	lines := strings.Split(strings.TrimSpace(failure), "\n")
	if len(lines) < 4 {
		t.Fatalf("failure card too short:\n%s", failure)
	}
	for _, l := range lines[1:4] {
		if regexp.MustCompile(`https?://|\b(POST|GET|PATCH|PUT|DELETE)\b|\b[1-5]\d\d\b|[0-9a-f]{40}`).MatchString(l) {
			t.Errorf("a failure line names a link, method, status or commit: %q", l)
		}
	}
	if strings.Contains(out, "502 Bad Gateway") {
		t.Error("details were shown without d")
	}
	s.send("q")
	if code := s.exit(); code != tui.ExitFailed {
		t.Fatalf("a session that ends with a failed write standing exits %d, want %d", code, tui.ExitFailed)
	}
	if !strings.Contains(s.out.String(), "log: Decision #1 failed: step: comment; POST /repos/acme/benefits/issues/1/comments: 502 Bad Gateway") {
		t.Errorf("the log printed on quit lacks the details:\n%s", s.out.String())
	}
}

func TestInboxFailedChoiceLeaves(t *testing.T) {
	f := newFake()
	f.fail["decision#1"] = &Failure{What: "GitHub refused the comment on Decision #1.", Changed: "Nothing changed on GitHub.", Next: "Open #1 on GitHub to act on it by hand.", Retryable: false}
	m := loaded(t, f, 100, 24, Options{})
	settle(m, press(m, "1"))
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Open #1 on GitHub to act on it by hand.") || !strings.Contains(v, "unavailable: it failed in a way Enter cannot fix") {
		t.Fatalf("the failed choice does not leave the card:\n%s", v)
	}
	m.Update(tea.KeyPressMsg{Code: '1', Text: "1"})
	if !strings.HasPrefix(m.status.message, "refused: this action failed in a way pressing Enter again cannot fix") {
		t.Fatalf("the failed choice was offered again: %q", m.status.message)
	}
	if n := len(f.requests()); n != 1 {
		t.Fatalf("%d executions, want 1", n)
	}
}

func TestInboxRereadRefusesAChangedItem(t *testing.T) {
	f := newFake()
	f.changed["decision#1"] = true
	s := startPlain(t, f.deps(), Options{})
	s.waitFor("card 1 of 5")
	s.send("1")
	s.waitFor("It changed on GitHub since it was shown, so nothing was written")
	s.exit()
}

func TestInboxDryRunWritesNothing(t *testing.T) {
	f := newFake()
	s := startPlain(t, f.deps(), Options{DryRun: true})
	s.waitFor("card 1 of 5")
	s.send("1")
	s.waitFor(`dry run: Decision #1 would comment on #1: "Accepted option 1 (Add the seat) by @founder"; add the label status:accepted to #1; close #1 as completed; nothing was written.`)
	if n := len(f.requests()); n != 0 {
		t.Fatalf("dry run executed %d writes", n)
	}
	s.exit()
}

func TestInboxHumanOnlyRefusedWithoutPresence(t *testing.T) {
	f := newFake()
	d := f.deps()
	d.HumanCheck = func() string {
		return "this shell carries an agent marker (CLAUDECODE); approve from any device with aayu login"
	}
	s := startPlain(t, d, Options{})
	s.waitFor("card 1 of 5")
	s.send("1")
	s.waitFor("refused: this shell carries an agent marker (CLAUDECODE)")
	if n := len(f.requests()); n != 0 {
		t.Fatalf("an agent lane wrote %d times", n)
	}
	s.exit()
}

func TestInboxListIsReadOnly(t *testing.T) {
	f := newFake()
	var out bytes.Buffer
	m := New(context.Background(), tui.Common{Plain: true}, f.deps(), Options{List: true})
	code, err := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, Out: &out})
	if err != nil || code != tui.ExitOK {
		t.Fatalf("exit %d, %v", code, err)
	}
	xgolden.RequireEqual(t, out.String())
	if len(f.requests()) != 0 {
		t.Fatal("--list wrote")
	}
	// Under each card, the command a person runs for it.
	for _, want := range []string{"  run: aayu decide 1 --accept 1\n", "  run: aayu decide 2 --accept 1\n", "  run: aayu inbox\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--list does not say %q", want)
		}
	}
}

func TestInboxReadFailureInWords(t *testing.T) {
	f := newFake()
	d := f.deps()
	d.Read = func(context.Context, *model.Snapshot, time.Time) (model.Snapshot, error) {
		return model.Snapshot{}, fmt.Errorf("GitHub could not be reached: %w", errOffline)
	}
	var out bytes.Buffer
	code, _ := tui.Run(context.Background(), New(context.Background(), tui.Common{Plain: true}, d, Options{List: true}), tui.RunOptions{Plain: true, Out: &out})
	if code != tui.ExitFailed || !strings.Contains(out.String(), "failed: the inbox could not be read from GitHub") {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
}

// loaded returns a full-screen inbox after its first read.
func loaded(t *testing.T, f *fakeGitHub, w, h int, opts Options) *Model {
	m := New(context.Background(), tui.Common{Width: w, Height: h, Styles: tui.NewStyles(true), Motion: true}, f.deps(), opts)
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	snap, _ := f.deps().Read(context.Background(), nil, time.Time{})
	m.Update(readMsg{snap: snap, at: t0})
	return m
}

func TestInboxGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := loaded(t, newFake(), w, 24, Options{})
			view := m.View().Content
			tuitest.AssertFits(t, view, w, 24)
			xgolden.RequireEqual(t, ansi.Strip(view))
		})
	}
}

func TestInboxCachedReadIsShownButNeverActedOn(t *testing.T) {
	f := newFake()
	m := New(context.Background(), tui.Common{Width: 100, Height: 24, Styles: tui.NewStyles(true)}, f.deps(), Options{})
	m.Update(cacheMsg{snap: demoSnapshot(), at: t0.Add(-time.Hour), ok: true})
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "cached") || !strings.Contains(v, "Decision #1") {
		t.Fatalf("the cached read is not shown, marked cached:\n%s", v)
	}
	m.Update(tea.KeyPressMsg{Code: '1', Text: "1"})
	if len(f.requests()) != 0 || !strings.Contains(m.status.message, "from the last read") {
		t.Fatalf("acted on the cache: %q", m.status.message)
	}
}

func TestInboxQuitWhileWritingAsks(t *testing.T) {
	f := newFake()
	f.block = make(chan struct{})
	m := loaded(t, f, 100, 24, Options{})
	write := press(m, "1")
	m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	if !m.quit.quitAsk || m.done {
		t.Fatal("q while a write runs did not ask")
	}
	m.Update(tea.KeyPressMsg{Code: 'a', Text: "a"})
	if m.done {
		t.Fatal("quit before the write under way finished")
	}
	close(f.block)
	settle(m, write)
	if !m.done {
		t.Fatal("did not quit once the write finished")
	}
}

func TestInboxJobWellDoneConfetti(t *testing.T) {
	for _, motion := range []bool{true, false} {
		f := newFake()
		f.snap.Issues = f.snap.Issues[:1] // one Decision, nothing else needs you
		f.snap.PullRequests = nil
		m := New(context.Background(), tui.Common{Width: 100, Height: 24, Styles: tui.NewStyles(true), Motion: motion}, f.deps(), Options{})
		m.Update(readMsg{snap: f.snap, at: t0})
		settle(m, press(m, "enter"))
		snap, _ := f.deps().Read(context.Background(), nil, time.Time{})
		m.Update(readMsg{snap: snap, at: t0})
		if !strings.Contains(m.status.message, "Job well done") {
			t.Fatalf("motion=%v: no job well done: %q", motion, m.status.message)
		}
		if got := m.pane.confetti > 0; got != motion {
			t.Fatalf("motion=%v: confetti=%d", motion, m.pane.confetti)
		}
		if m.pane.confetti*int(frameEvery) > int(1500*time.Millisecond) {
			t.Fatalf("confetti lasts %d frames, more than 1.5 s", m.pane.confetti)
		}
	}
}

// TestInboxPlainTwinGolden is the plain twin of a short session: the key
// legend once, the cards line by line, a confirmation, a write, a skip.
func TestInboxPlainTwinGolden(t *testing.T) {
	f := newFake()
	s := startPlain(t, f.deps(), Options{})
	s.waitFor("card 1 of 5")
	s.send("2")
	s.waitFor("(y applies it; anything else cancels)")
	s.send("y")
	s.waitFor("done: Decision #1")
	s.send("s") // card 2, asked once: the refresh after the write asks nothing again
	s.waitFor("skipped: Decision #2.")
	s.send("q")
	code := s.exit()
	xgolden.RequireEqual(t, fmt.Sprintf("%sexit %d\n", s.out.String(), code))
}

// TestInboxPlainRefusesToAskACardTwiceOrRenumberIt: a read that lands
// after a write does not ask about the current card again, and every card
// keeps the number it was listed under, so "card 2", "x 5" and "copy 4"
// mean the cards the list showed as 2, 5 and 4 although card 1 has left.
func TestInboxPlainRefusesToAskACardTwiceOrRenumberIt(t *testing.T) {
	f := newFake()
	deps := f.deps()
	deps.URL = func(n int) string { return fmt.Sprintf("https://github.com/acme/benefits/issues/%d", n) }
	s := startPlain(t, deps, Options{})
	s.waitFor("card 1 of 5: Decision #1")
	s.send("1")
	s.waitFor("done: Decision #1")
	// r until a refresh of its own lands: the read the write started may
	// still be under way ("Already reading GitHub.").
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.out.String(), "Refreshed: ") {
		if time.Now().After(deadline) {
			t.Fatalf("no refresh landed:\n%s", s.out.String())
		}
		s.send("r")
		time.Sleep(50 * time.Millisecond)
	}
	s.send("x 5")
	s.waitFor("Selected Bug with its fix merged #11;")
	s.send("copy 4")
	s.waitFor("The link to #9, to copy:")
	s.send("x 1")
	s.waitFor("refused: x wants the number of a listed card (2, 3, 4, 5), e.g. x 2.")
	s.exit()
	out := s.out.String()
	if i := strings.LastIndex(out, "The link to #9, to copy:"); i < 0 || !strings.Contains(out[i:], "card 2 of 5: Decision #2. Choose") {
		t.Errorf("after copy 4 the question is not said again:\n%s", out)
	}
	// Asked when it was reached, and again under each line printed after
	// it (the question is the last line after anything else printed);
	// never twice in a row because a read landed saying nothing.
	lines := strings.Split(out, "\n")
	for i := 1; i < len(lines); i++ {
		if strings.Contains(lines[i], "Decision #2. Choose") && lines[i] == lines[i-1] {
			t.Errorf("card 2 was asked about twice in a row (line %d):\n%s", i, out)
		}
	}
	if !strings.Contains(out, "card 2 of 5: Decision #2. Choose") {
		t.Errorf("card 2 is not asked about under its listed number:\n%s", out)
	}
}

// TestPlainListKeepsEachCardsNumber: `list` printed again later in the
// session gives each card the number it was first listed under, so a
// number written down (x 4, copy 4) never comes to mean another card.
func TestPlainListKeepsEachCardsNumber(t *testing.T) {
	f := newFake()
	s := startPlain(t, f.deps(), Options{})
	s.waitFor("card 1 of 5")
	s.send("enter") // accept Decision #1's recommendation: the card leaves
	s.waitFor("done: Decision #1")
	before := len(s.out.String())
	s.send("list")
	s.waitFor("Decision #2")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(s.out.String()[before:], "card 5: ") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	relisted := s.out.String()[before:]
	if !strings.Contains(relisted, "card 2: Decision #2") || strings.Contains(relisted, "card 1: Decision #2") {
		t.Errorf("the list printed again renumbers the cards:\n%s", relisted)
	}
	s.exit()
}

// TestPlainQuestionComesAgainAfterHelp: after ? prints the keys (and
// after a refused line), the card's question is said again, so the last
// line is always what the inbox waits for.
func TestPlainQuestionComesAgainAfterHelp(t *testing.T) {
	f := newFake()
	s := startPlain(t, f.deps(), Options{})
	s.waitFor("card 1 of 5: Decision #1. Choose")
	for _, line := range []string{"?", "zzz"} {
		before := len(s.out.String())
		s.send(line)
		deadline := time.Now().Add(5 * time.Second)
		for !strings.Contains(s.out.String()[before:], "card 1 of 5: Decision #1. Choose") {
			if time.Now().After(deadline) {
				t.Fatalf("after %q the question was not said again:\n%s", line, s.out.String()[before:])
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	s.exit()
}
