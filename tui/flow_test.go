package tui

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/model/exitcode"
)

// testFlow is a flow whose write only counts that it was started.
func testFlow(c Common) (*ConfirmFlow, *int) {
	f := NewConfirmFlow(c, "t", "intro")
	f.StopWhileWriting = ": t stops once the write under way lands."
	writes := 0
	f.Write = func() tea.Cmd { writes++; return nil }
	return &f, &writes
}

// TestConfirmFlowEarlyLineAnswersOnlyWithY: a plain line typed while
// reading answers the question once asked, and only a y writes; the end of
// input while reading is a no.
func TestConfirmFlowEarlyLineAnswersOnlyWithY(t *testing.T) {
	for _, tc := range []struct {
		msg    tea.Msg
		writes int
	}{{LineMsg{Line: "y"}, 1}, {LineMsg{Line: "sure"}, 0}, {InputClosedMsg{}, 0}} {
		f, writes := testFlow(Common{Plain: true})
		f.Update(tc.msg)
		f.Update(LineMsg{Line: "y"}) // a second line does not replace the first
		f.Ask([]string{"write?"}, "Type y.")
		if *writes != tc.writes {
			t.Errorf("%#v typed while reading: %d writes, want %d", tc.msg, *writes, tc.writes)
		}
		if tc.writes == 0 {
			if done, code := f.Done(); !done || code != ExitRefused {
				t.Errorf("%#v typed while reading: done %v code %d, want refused", tc.msg, done, code)
			}
		}
	}
}

// TestConfirmFlowQuitWhileWritingWaitsForTheWrite: ctrl+c after the yes is
// said once, does not end the screen, and the finish that follows quits at
// once even in the full screen.
func TestConfirmFlowQuitWhileWritingWaitsForTheWrite(t *testing.T) {
	f, _ := testFlow(Common{})
	f.Ask([]string{"write?"}, "Type y.")
	f.Answer(true)
	f.Update(QuitRequestMsg{Why: "ctrl+c"})
	f.Update(QuitRequestMsg{Why: "SIGTERM"})
	if done, _ := f.Done(); done {
		t.Fatal("a quit request while writing ended the screen before the write landed")
	}
	if cmd := f.Finish(ExitOK); cmd == nil {
		t.Fatal("the finish after a quit request waits for a key")
	}
	want := []string{"intro", "write?", "answer: yes", "ctrl+c: t stops once the write under way lands.", "result: exit 0"}
	if !slices.Equal(f.Transcript(), want) {
		t.Errorf("transcript %q, want %q", f.Transcript(), want)
	}
}

// TestConfirmFlowQuitAtTheQuestionIsANo: ctrl+c at the question writes
// nothing and finishes refused.
func TestConfirmFlowQuitAtTheQuestionIsANo(t *testing.T) {
	f, writes := testFlow(Common{})
	f.Ask([]string{"write?"}, "Type y.")
	f.Update(QuitRequestMsg{Why: "ctrl+c"})
	if done, code := f.Done(); *writes != 0 || !done || code != ExitRefused {
		t.Errorf("ctrl+c at the question: %d writes, done %v, code %d", *writes, done, code)
	}
}

// TestConfirmFlowHideWhenDoneDropsTheWaitingLine: the full screen's body
// and the epilogue leave out the line the outcome replaces; the plain
// transcript keeps it.
func TestConfirmFlowHideWhenDoneDropsTheWaitingLine(t *testing.T) {
	f, _ := testFlow(Common{})
	f.Say("pushing…")
	f.HideWhenDone, f.Phase = 1, FlowWriting
	if !slices.Equal(f.Body(), []string{"pushing…"}) {
		t.Errorf("body while writing %q", f.Body())
	}
	f.Say("landed")
	f.Finish(ExitOK)
	if want := []string{"landed", "result: exit 0"}; !slices.Equal(f.Epilogue(), want) {
		t.Errorf("epilogue %q, want %q", f.Epilogue(), want)
	}
	if len(f.Transcript()) != 4 {
		t.Errorf("transcript %q lost a line", f.Transcript())
	}
}

// TestConfirmFlowStoppedTellsARefusalFromAFailure: the plan, ready and
// decide screens end on an action's error through Stopped, which tells a
// refusal (exit 4) from a failure (exit 1) by the one Refusal type, wrapped
// or not, and shows either reason by the one sanitiser rule.
func TestConfirmFlowStoppedTellsARefusalFromAFailure(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		code int
		says string
	}{
		{"refusal", exitcode.Refuse("@reader has read access\x1b[2J"), ExitRefused, "refused: @reader has read access^[[2J."},
		{"wrapped refusal", fmt.Errorf("reading: %w", exitcode.Refuse("no goal")), ExitRefused, "refused: no goal."},
		{"failure", errors.New("GitHub answered 502"), ExitFailed, "failed: GitHub answered 502."},
	} {
		f := NewConfirmFlow(Common{Plain: true}, "t", "intro")
		f.Stopped(c.err, "Nothing was written.", "Next: try again.")
		if f.Code != c.code || len(f.Lines) < 3 || f.Lines[1] != c.says {
			t.Errorf("%s: exit %d, lines %q; want exit %d saying %q", c.name, f.Code, f.Lines, c.code, c.says)
		}
	}
}
