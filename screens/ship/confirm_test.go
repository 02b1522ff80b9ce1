package ship

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"

	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/internal/syncbuf"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// demoPlan's title is hostile (a screen clear, OSC 52, a C1 CSI, a bidi
// override, a zero-width space): every golden shows it neutralised.
var demoPlan = core.Plan{PR: 4, Title: "Show the remaining\u202e deductible\u200b\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b6n", Head: "d113e1271f68a3f3737a0bcbff3c306e1417ea61", Base: "dev",
	Story: 3, Viewer: "founder", PassKind: "solo-bypass", PassBy: "founder", Bypass: true,
	Writes: []string{
		"posts your Solo-mode bypass: comment on #4 for head d113e1271f68",
		"squash-merges #4 into dev at head d113e1271f68",
		"lands the pack and ship.json on the ledger (proof/3/d113e1271f68a3f3737a0bcbff3c306e1417ea61/authoritative)",
		"updates Story #3: status:merged, a comment naming the pack, the ship record and the pass, aayu:lease removed",
	}}

// asking is a Runner that passes the read-only gates, asks for the
// confirmation, and reports what the answer led to.
func asking(answers chan<- bool) Runner {
	return func(ctx context.Context, pr int, out chan<- core.Event, ask Ask) (core.Result, error) {
		for _, g := range core.Gates() {
			out <- core.Event{Gate: g, State: core.Waiting}
		}
		out <- core.Event{Gate: core.GatePR, State: core.Passed, Words: "#4 is open into dev at head d113e1271f68"}
		out <- core.Event{Gate: core.GateHumanPass, State: core.Passed, Words: "solo-mode bypass by @founder for head d113e1271f68"}
		out <- core.Event{Gate: core.GateConfirm, State: core.Running}
		yes, err := ask.Confirm(ctx, demoPlan)
		if answers != nil {
			answers <- yes
		}
		if err != nil || !yes {
			out <- core.Event{Gate: core.GateConfirm, State: core.Refused, Words: "you did not answer yes; nothing was written"}
			return core.Result{ExitCode: core.ExitRefused}, err
		}
		out <- core.Event{Gate: core.GateConfirm, State: core.Passed, Words: "yes, by @founder: 4 writes"}
		return core.Result{Merged: true, Shipped: true, MergeCommit: "3543d4864c49", LedgerDir: "proof/3/d113e1271f68/authoritative"}, nil
	}
}

// untilAsked drives the screen until the confirmation shows.
func untilAsked(t *testing.T, c tui.Common, run Runner) (*Model, func(tea.Msg)) {
	t.Helper()
	m := New(context.Background(), c, Options{PR: 4, Run: run})
	m.Update(tea.WindowSizeMsg{Width: c.Width, Height: c.Height})
	msgs := make(chan tea.Msg, 64)
	var runCmds func(tea.Cmd)
	runCmds = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		go func() {
			msg := cmd()
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, c := range b {
					runCmds(c)
				}
				return
			}
			if msg != nil {
				msgs <- msg
			}
		}()
	}
	runCmds(m.Init())
	deadline := time.After(10 * time.Second)
	for m.question.confirm == nil {
		select {
		case msg := <-msgs:
			_, next := m.Update(msg)
			runCmds(next)
		case <-deadline:
			t.Fatal("the confirmation never showed")
		}
	}
	send := func(msg tea.Msg) {
		_, next := m.Update(msg)
		runCmds(next)
		end := time.After(10 * time.Second)
		for m.run.result == nil {
			select {
			case msg := <-msgs:
				_, next := m.Update(msg)
				runCmds(next)
			case <-end:
				t.Fatal("the run did not finish after the answer")
			}
		}
	}
	return m, send
}

func TestShipConfirmationGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m, _ := untilAsked(t, tui.Common{Width: w, Height: 30, Styles: tui.NewStyles(true)}, asking(nil))
			view := m.View().Content
			tuitest.AssertFits(t, view, w, 30)
			plain := ansi.Strip(view)
			for _, want := range []string{"Solo-mode bypass", "squash-merges #4", "ship.json", "Story #3", "yes: write all of these", "no: write nothing"} {
				if !strings.Contains(strings.Join(strings.Fields(plain), " "), want) {
					t.Errorf("the confirmation does not show %q:\n%s", want, plain)
				}
			}
			xgolden.RequireEqual(t, plain)
		})
	}
}

// TestShipConfirmationKeys: y alone answers yes; n, esc, q and Enter
// answer no (Enter alone never writes); any other key is not an answer.
func TestShipConfirmationKeys(t *testing.T) {
	cases := []struct {
		name string
		keys []tea.KeyPressMsg
		yes  bool
	}{
		{"y", []tea.KeyPressMsg{{Code: 'y', Text: "y"}}, true},
		{"enter", []tea.KeyPressMsg{{Code: tea.KeyEnter}}, false},
		{"n", []tea.KeyPressMsg{{Code: 'n', Text: "n"}}, false},
		{"esc", []tea.KeyPressMsg{{Code: tea.KeyEscape}}, false},
		{"another key first, then n", []tea.KeyPressMsg{{Code: 'x', Text: "x"}, {Code: 'n', Text: "n"}}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			answers := make(chan bool, 1)
			m, send := untilAsked(t, tui.Common{Width: 80, Height: 30, Styles: tui.NewStyles(true)}, asking(answers))
			for _, k := range tc.keys[:len(tc.keys)-1] {
				m.Update(k)
				if m.question.confirm == nil {
					t.Fatalf("%q was taken as an answer", k.Text)
				}
			}
			send(tc.keys[len(tc.keys)-1])
			if got := <-answers; got != tc.yes {
				t.Errorf("answered %v, want %v", got, tc.yes)
			}
			if tc.yes != m.run.result.Shipped {
				t.Errorf("shipped %v after the answer %v", m.run.result.Shipped, tc.yes)
			}
		})
	}
}

// TestShipConfirmationPlainGolden: the plain twin lists the same writes and
// takes only a line y as a yes; any other line, or the end of input, is no.
func TestShipConfirmationPlainGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		line  string // "" closes standard input instead
		yes   bool
		code  int
		again string
	}{
		{"yes", "y", true, tui.ExitOK, ""},
		{"no", "n", false, tui.ExitRefused, ""},
		{"another word", "ship it", false, tui.ExitRefused, ""},
		{"end of input", "", false, tui.ExitRefused, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answers := make(chan bool, 1)
			in, typed := io.Pipe()
			out := &syncbuf.Buffer{}
			m := New(context.Background(), tui.Common{Plain: true}, Options{PR: 4, Run: asking(answers)})
			go func() {
				for !strings.Contains(out.String(), "Type y and Enter") {
					time.Sleep(5 * time.Millisecond)
				}
				if tc.line == "" {
					_ = typed.Close()
					return
				}
				_, _ = io.WriteString(typed, tc.line+"\n")
			}()
			code, err := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, In: in, Out: out})
			_ = typed.Close()
			if err != nil {
				t.Fatal(err)
			}
			if got := <-answers; got != tc.yes || code != tc.code {
				t.Errorf("answered %v with exit %d, want %v and %d:\n%s", got, code, tc.yes, tc.code, out.String())
			}
			text := out.String()
			if strings.ContainsRune(text, '\x1b') {
				t.Error("escape sequence in plain output")
			}
			xgolden.RequireEqual(t, fmt.Sprintf("%sexit %d\n", text, code))
		})
	}
}

// TestShipConfirmationTooShort: on a terminal too short to show every
// write, the list scrolls, y waits until its last write has been in view,
// and scrolling to the end (by G, by that first y itself, or a taller
// terminal) lets the next y through.
func TestShipConfirmationTooShort(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reveal tea.Msg
	}{
		{"scrolled to the end", tea.KeyPressMsg{Code: 'G', Text: "G"}},
		{"y itself showed the end", tea.KeyPressMsg{Code: 'y', Text: "y"}},
		{"a taller terminal", tea.WindowSizeMsg{Width: 40, Height: 60}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answers := make(chan bool, 1)
			m, send := untilAsked(t, tui.Common{Width: 40, Height: 16, Styles: tui.NewStyles(true)}, asking(answers))
			view := ansi.Strip(m.View().Content)
			tuitest.AssertFits(t, m.View().Content, 40, 16)
			for _, want := range []string{"lines 1–", "n/esc"} {
				if !strings.Contains(view, want) {
					t.Errorf("the short confirmation does not show %q:\n%s", want, view)
				}
			}
			if _, ok := tc.reveal.(tea.KeyPressMsg); !ok {
				m.Update(tea.KeyPressMsg{Code: 'y', Text: "y"})
				m.Update(tea.KeyPressMsg{Code: 'k', Text: "k"}) // back up: the end is out of view again
			}
			if m.question.confirm == nil {
				t.Fatal("y was taken while writes were hidden")
			}
			m.Update(tc.reveal)
			if m.question.confirm == nil {
				t.Fatal("the y that showed the end was taken as a yes")
			}
			send(tea.KeyPressMsg{Code: 'y', Text: "y"})
			if !<-answers {
				t.Error("y after every write was in view was not a yes")
			}
		})
	}
}
