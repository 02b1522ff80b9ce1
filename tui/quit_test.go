package tui

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// writingScreen quits safely: a quit request is noted and the screen
// finishes only once its write under way lands (writeLanded), as the
// inbox does. write, when set, is the write's command, started by Init.
type writingScreen struct {
	fakeScreen
	write tea.Cmd
}

type writeLanded struct{}

func (s writingScreen) QuitsSafely() {}

func (s writingScreen) Init() tea.Cmd { return s.write }

func (s writingScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	s.lines = append([]string(nil), s.lines...)
	switch msg := msg.(type) {
	case QuitRequestMsg:
		s.lines = append(s.lines, fmt.Sprintf("quit request %s force=%v", msg.Why, msg.Force))
		return s, nil
	case writeLanded:
		s.lines = append(s.lines, "write landed")
		for _, l := range s.lines {
			if strings.HasPrefix(l, "quit request") {
				s.done, s.code = true, ExitOK
			}
		}
		return s, nil
	}
	next, cmd := s.fakeScreen.Update(msg)
	s.fakeScreen = next.(fakeScreen)
	return s, cmd
}

func linesOf(s Screen) string { return strings.Join(s.Transcript(), "|") }

func TestCtrlCWaitsForTheWriteUnderWayThenForcesThenLeaves(t *testing.T) {
	s := NewStack(writingScreen{})
	send(t, s, QuitRequestMsg{Why: "ctrl+c"})
	if done, _ := s.Done(); done || s.Interrupted() {
		t.Fatal("the first ctrl+c stopped a screen whose write was under way")
	}
	send(t, s, QuitRequestMsg{Why: "ctrl+c"})
	if got := linesOf(s.Bottom()); !strings.Contains(got, "quit request ctrl+c force=false|quit request ctrl+c force=true") {
		t.Errorf("the screen was not asked to quit, then to force: %s", got)
	}
	if s.Interrupted() {
		t.Fatal("the second ctrl+c left at once; it must let the screen record what it stops")
	}
	send(t, s, QuitRequestMsg{Why: "ctrl+c"})
	if !s.Interrupted() {
		t.Error("a third ctrl+c did not leave at once")
	}
}

func TestQuitRequestFinishesOnceTheWriteLands(t *testing.T) {
	s := NewStack(writingScreen{})
	send(t, s, QuitRequestMsg{Why: "SIGTERM"})
	send(t, s, writeLanded{})
	if done, code := s.Done(); !done || code != ExitOK || s.Interrupted() {
		t.Errorf("after the write landed the stack is done=%v code=%d interrupted=%v; want it finished safely", done, code, s.Interrupted())
	}
}

func TestCtrlCClosesAScreenThatWritesNothingAndAsksTheOneUnder(t *testing.T) {
	closes := 0
	child := closingScreen{fakeScreen: fakeScreen{}, closes: &closes}
	bottom := writingScreen{}
	s := NewStack(bottom)
	s.screens[0] = bottom
	// Open the child by hand: writingScreen opens nothing itself.
	drive(t, s, s.push(child))
	key := tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	q, _ := ctrlC(key)
	send(t, s, q)
	if s.Depth() != 1 || closes != 1 {
		t.Fatalf("the screen that writes nothing was not closed on ctrl+c (depth %d, closes %d)", s.Depth(), closes)
	}
	if s.Interrupted() {
		t.Fatal("ctrl+c left at once although the screen under it quits safely")
	}
	if got := linesOf(s.Bottom()); !strings.Contains(got, "quit request ctrl+c force=false") {
		t.Errorf("the request did not reach the screen under the closed one: %s", got)
	}
}

func TestQuitRequestWaitsForTheTopScreenBeforeTheOneUnder(t *testing.T) {
	s := NewStack(writingScreen{})
	drive(t, s, s.push(writingScreen{}))
	send(t, s, QuitRequestMsg{Why: "SIGTERM"})
	if got := linesOf(s.Bottom()); strings.Contains(got, "quit request") {
		t.Fatalf("the screen under was asked to quit while the top one still writes: %s", got)
	}
	send(t, s, writeLanded{}) // both screens' writes land; the top finishes first
	if s.Depth() != 1 {
		t.Fatalf("the top screen did not close once its write landed (depth %d)", s.Depth())
	}
	if got := linesOf(s.Bottom()); !strings.Contains(got, "quit request SIGTERM force=false") {
		t.Errorf("the request did not pass to the screen under once the top closed: %s", got)
	}
}

func TestCtrlCOnAScreenThatWritesNothingStillInterrupts(t *testing.T) {
	s := NewStack(fakeScreen{})
	q, _ := ctrlC(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	send(t, s, q)
	if !s.Interrupted() {
		t.Error("ctrl+c on a screen that writes nothing did not stop the program")
	}
	if got := linesOf(s); !strings.Contains(got, "key ctrl+c") {
		t.Errorf("the screen did not see the key first: %s", got)
	}
}

func TestSignalsCancelOnlyWhileNoScreenRuns(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := NewSignals(cancel)
	var got []string
	restore := sigs.route(func(sig os.Signal) { got = append(got, signalWords(sig)) })
	sigs.Deliver(syscall.SIGTERM)
	if ctx.Err() != nil || len(got) != 1 || got[0] != "SIGTERM" {
		t.Fatalf("a signal while a screen runs cancelled=%v, routed %v; want it routed, not cancelled", ctx.Err() != nil, got)
	}
	restore()
	sigs.Deliver(syscall.SIGINT)
	if ctx.Err() == nil {
		t.Error("a signal with no screen running did not cancel")
	}
}

// TestSIGTERMDuringAWriteFinishesItThroughRun runs the full screen with a
// signal router, as main does: SIGTERM arrives while the write is under
// way, and Run returns once it landed, with the screen's code and no
// interruption.
func TestSIGTERMDuringAWriteFinishesItThroughRun(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	screen := writingScreen{write: func() tea.Msg {
		close(started)
		<-release
		return writeLanded{}
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sigs := NewSignals(cancel)
	type result struct {
		code int
		err  error
	}
	done := make(chan result, 1)
	var out bytes.Buffer
	pr, pw := io.Pipe()
	defer pw.Close()
	go func() {
		code, err := Run(ctx, screen, RunOptions{Plain: true, In: pr, Out: &out, Signals: sigs})
		done <- result{code, err}
	}()
	<-started
	// Wait until the program routes signals, then send one.
	deadline := time.Now().Add(5 * time.Second)
	for {
		sigs.mu.Lock()
		routed := sigs.to != nil
		sigs.mu.Unlock()
		if routed || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	sigs.Deliver(syscall.SIGTERM)
	select {
	case r := <-done:
		t.Fatalf("Run returned (%d, %v) before the write under way landed", r.code, r.err)
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	r := <-done
	if r.code != ExitOK || r.err != nil {
		t.Errorf("Run = %d, %v; want the screen's own finish once the write landed", r.code, r.err)
	}
	if ctx.Err() != nil {
		t.Error("SIGTERM cancelled the context the writes run under")
	}
	if !strings.Contains(out.String(), "quit request SIGTERM force=false") || !strings.Contains(out.String(), "write landed") {
		t.Errorf("the page does not show the request and the landed write:\n%s", out.String())
	}
}

func TestFullScreenCtrlCLetsTheWriteUnderWayLand(t *testing.T) {
	tm := newShellTest(t, writingScreen{})
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.Send(writeLanded{})
	shell := finalShell(t, tm)
	if shell.interrupted {
		t.Error("ctrl+c stopped the program as interrupted while the screen quits safely")
	}
	if done, _ := shell.screen.Done(); !done {
		t.Error("the screen did not finish once its write landed")
	}
	got := linesOf(shell.screen)
	if q, w := strings.Index(got, "quit request ctrl+c force=false"), strings.Index(got, "write landed"); q < 0 || w < q {
		t.Errorf("the screen did not get the quit request before the write landed: %s", got)
	}
}
