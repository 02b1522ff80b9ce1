package tui

import (
	"context"
	"errors"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// countFlow is a description that reads n, asks about it and writes n+1,
// saying each step; the writes it made are counted.
func countFlow(n int, readErr error, writes *[]int) ReadAskWrite[int, int] {
	return ReadAskWrite[int, int]{
		Name: "count",
		Read: func(context.Context) (int, error) { return n, readErr },
		Ask: func(f *ConfirmFlow, r int, err error) tea.Cmd {
			if err != nil {
				return f.Stopped(err, "nothing", "next")
			}
			f.Say("read " + string(rune('0'+r)))
			return f.Ask([]string{"write?"}, "Type y.")
		},
		Write: func(_ context.Context, r int) (int, error) { *writes = append(*writes, r); return r + 1, nil },
		Wrote: func(f *ConfirmFlow, r, w int, err error) tea.Cmd {
			f.Say("wrote " + string(rune('0'+w)))
			return f.Finish(ExitOK)
		},
	}
}

// run feeds each command's message back into the screen, as Bubble Tea
// does, until none is left or the screen quits.
func run(s tea.Model, cmd tea.Cmd) {
	for cmd != nil {
		msg := cmd()
		if _, quit := msg.(tea.QuitMsg); quit || msg == nil {
			return
		}
		_, cmd = s.Update(msg)
	}
}

// TestFlowHandsTheReadToAskAndTheWritesToWrote: the read lands in Ask, a
// y runs Write on what was read, and its outcome lands in Wrote; the flow
// is named by its description.
func TestFlowHandsTheReadToAskAndTheWritesToWrote(t *testing.T) {
	var writes []int
	s := NewFlow(context.Background(), NewConfirmFlow(Common{Plain: true}, "t", "intro"), countFlow(3, nil, &writes))
	run(s, s.Init())
	_, cmd := s.Update(LineMsg{Line: "y"})
	run(s, cmd)
	if !slices.Equal(writes, []int{3}) || s.Read() != 3 || s.Name() != "count" {
		t.Fatalf("writes %v, read %d, name %q; want [3], 3, count", writes, s.Read(), s.Name())
	}
	want := []string{"intro", "read 3", "write?", "Type y.", "answer: yes", "wrote 4", "result: exit 0"}
	if got := s.Transcript(); !slices.Equal(got, want) {
		t.Errorf("transcript %q, want %q", got, want)
	}
	if done, code := s.Done(); !done || code != ExitOK {
		t.Errorf("done %v code %d, want done, exit 0", done, code)
	}
}

// TestFlowWritesNothingOnAFailedReadOrANo: a failed read stops the flow
// with its reason and a no ends it refused; neither writes.
func TestFlowWritesNothingOnAFailedReadOrANo(t *testing.T) {
	var writes []int
	s := NewFlow(context.Background(), NewConfirmFlow(Common{Plain: true}, "t", "intro"), countFlow(3, errors.New("GitHub answered 502"), &writes))
	run(s, s.Init())
	if done, code := s.Done(); !done || code != ExitFailed || !slices.Contains(s.Transcript(), "failed: GitHub answered 502.") {
		t.Errorf("a failed read: done %v code %d, transcript %q", done, code, s.Transcript())
	}
	s = NewFlow(context.Background(), NewConfirmFlow(Common{Plain: true}, "t", "intro"), countFlow(3, nil, &writes))
	run(s, s.Init())
	_, cmd := s.Update(LineMsg{Line: "n"})
	run(s, cmd)
	if done, code := s.Done(); !done || code != ExitRefused {
		t.Errorf("a no: done %v code %d, want refused", done, code)
	}
	if len(writes) != 0 {
		t.Errorf("writes %v, want none", writes)
	}
}

// TestFlowWithoutAReadWritesFromTheStartAndClosesOnce: with no Read the
// flow is writing before Init, Init starts the writes, and Close runs the
// description's Close once however often the stack calls it.
func TestFlowWithoutAReadWritesFromTheStartAndClosesOnce(t *testing.T) {
	var writes []int
	d := countFlow(0, nil, &writes)
	d.Read = nil
	closed := 0
	d.Close = func() { closed++ }
	s := NewFlow(context.Background(), NewConfirmFlow(Common{Plain: true}, "t", "intro"), d)
	if s.Phase != FlowWriting {
		t.Fatalf("phase %d before Init, want writing", s.Phase)
	}
	run(s, s.Init())
	if !slices.Equal(writes, []int{0}) {
		t.Errorf("writes %v, want [0]", writes)
	}
	s.Close()
	s.Close()
	if closed != 1 {
		t.Errorf("Close ran %d times, want once", closed)
	}
}
