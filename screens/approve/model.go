// Package approve is the screen of `aayu approve BATCH`: the batch's
// steps as the ledger keeps them (what approving does, whether it can be
// undone, the options and the recommendation), the device code the person
// approves on any device, and what became of each step — in the full
// screen and its plain twin, run by tui.Flow as decide is.
package approve

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/tui"
)

// Deps are the outside effects: main wires them to GitHub (or the sandbox).
type Deps struct {
	Command string // "aayu approve 3f9c0a1b2d4e"
	Repo    string // OWNER/NAME, for the reading line
	// DryRun shows the batch and asks for no code.
	DryRun bool
	Load   func(ctx context.Context) (core.Stored, error)
	// Ask asks GitHub for a device code.
	Ask func(ctx context.Context) (core.Code, error)
	// Wait waits for the code's approval and applies the batch; its lines
	// are what became of each step, its code the exit code.
	Wait func(ctx context.Context, c core.Code) ([]string, int)
	// OpenBrowser opens the code's link; nil where there is no browser.
	OpenBrowser func(url string) error
}

type doneMsg struct {
	lines []string
	code  int
}

type browserMsg struct{ err error }

// Model is the approve screen: the read → ask → write flow, described by
// its read (the batch from the ledger), its question (whether to ask for a
// device code) and its write (the code, then the wait for its approval,
// which applies the batch), with the code's own keys while it waits.
type Model struct {
	*tui.Flow[core.Stored, core.Code]
	code *codeWait
}

// codeWait is the device code while it waits for its approval.
type codeWait struct {
	ctx  context.Context
	deps Deps
	code core.Code
	// stopWait ends the wait for the code's approval: q, esc or ctrl+c
	// while a code waits stop it there, before anything is written.
	stopWait context.CancelFunc
}

// New returns the approve screen; Init starts reading the batch.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	f := tui.NewConfirmFlow(c, deps.Command,
		deps.Command+": reads the batch from the ledger and shows its steps; y asks GitHub for a device code, and the batch is applied once the person it waits for approves that code on any device.")
	f.Yes = tui.YesKey("yes, ask for a device code")
	f.No = key.NewBinding(key.WithKeys("n", "esc", "q"), key.WithHelp("n/esc/q", "no, apply nothing"))
	f.Prompt = []string{"", "y            yes: ask for a device code", "n/esc/enter  no: apply nothing"}
	f.StopWhileWriting = ": approve stops once the steps under way land, and says what landed; nothing is cut in the middle."
	w := &codeWait{ctx: ctx, deps: deps}
	ask := deps.Ask
	return &Model{code: w, Flow: tui.NewFlow(ctx, f, tui.ReadAskWrite[core.Stored, core.Code]{
		Read: deps.Load, Ask: w.loaded,
		Write: func(ctx context.Context, _ core.Stored) (core.Code, error) { return ask(ctx) },
		Wrote: w.asked, Other: w.update,
	})}
}

// waiting is true while a code is shown and not yet approved.
func (m *Model) waiting() bool { return m.code.waiting(&m.ConfirmFlow) }

// copyKey and openKey work while a code waits for its approval.
var (
	copyKey = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy the code"))
	openKey = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open the link"))
	stopKey = key.NewBinding(key.WithKeys("q", "esc", "ctrl+c"), key.WithHelp("q", "stop waiting"))
)

// update takes the wait's end, the browser's answer and the keys that
// work while the code waits; the flow takes everything else.
func (w *codeWait) update(f *tui.ConfirmFlow, msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case doneMsg:
		w.code, f.MoreKeys = core.Code{}, nil
		f.Say(msg.lines...)
		return f.Finish(msg.code), true
	case browserMsg:
		if msg.err != nil {
			f.Note = "The link did not open (" + untrusted.Line(msg.err.Error()) + "); open it on any device."
		}
		return nil, true
	case tea.KeyPressMsg:
		return w.onWaitingKey(f, msg)
	}
	return nil, false
}

// onWaitingKey takes the keys that work while a code waits for its
// approval: stop, copy, open. ok is false for any other key.
func (w *codeWait) onWaitingKey(f *tui.ConfirmFlow, msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	if w.waiting(f) && w.stopWait != nil && key.Matches(msg, stopKey) {
		// Nothing is written until the code is approved, so stopping
		// the wait leaves nothing half done; Wait then says the batch
		// stays open and how to ask for a new code.
		w.stopWait()
		f.Note = "Stopping the wait; nothing was applied."
		return nil, true
	}
	if w.waiting(f) && !f.C.Plain {
		f.Note = ""
		switch {
		case key.Matches(msg, copyKey):
			cmd, err := f.C.Clipboard.Copy(w.code.UserCode, "the code")
			if err != nil {
				f.Note = "The code was not copied; type it as shown."
			}
			return cmd, true
		case key.Matches(msg, openKey):
			if w.deps.OpenBrowser == nil {
				f.Note = "There is no browser on this machine. Open the link on any device."
				return nil, true
			}
			open, uri := w.deps.OpenBrowser, w.code.URI
			return func() tea.Msg { return browserMsg{open(uri)} }, true
		}
	}
	return nil, false
}

// waiting is true while a code is shown and not yet approved.
func (w *codeWait) waiting(f *tui.ConfirmFlow) bool {
	return w.code.UserCode != "" && f.Phase == tui.FlowWriting
}

// loaded says the batch as read and asks whether to ask for a code.
func (w *codeWait) loaded(f *tui.ConfirmFlow, st core.Stored, err error) tea.Cmd {
	var r *core.Refusal
	if a, ok := core.IsAlreadyApplied(err); ok {
		f.Say(fmt.Sprintf("Batch %s was already %s by @%s; nothing more was written.", untrusted.Line(a.Applied.Hash), untrusted.Line(a.Applied.Outcome), untrusted.Line(a.Applied.By)))
		return f.Finish(tui.ExitOK)
	}
	switch {
	case errors.As(err, &r):
		f.Say("refused: "+tui.Sentence(untrusted.Line(r.Reason)), untrusted.Line(r.Next), "Nothing was applied.")
		return f.Finish(tui.ExitRefused)
	case err != nil:
		f.Say("failed: "+tui.Sentence(untrusted.Line(err.Error())), "Nothing was applied. Next: check --repo, the batch's 12 hex digits and your token (aayu auth), then run "+w.deps.Command+" again.")
		return f.Finish(tui.ExitFailed)
	}
	f.Say(BatchLines(w.deps.Repo, st)...)
	if w.deps.DryRun {
		f.Say("--dry-run: no code was asked for and nothing was written.")
		return f.Finish(tui.ExitOK)
	}
	return f.Ask([]string{fmt.Sprintf("Approving asks GitHub for a device code; the batch is applied only once @%s (or an approver) approves it, and only once. Approve only steps you asked for.", untrusted.Line(st.Record.For))},
		"Type y and Enter to ask for a code; any other answer, or the end of input, applies nothing.")
}

// asked shows the code and waits for its approval.
func (w *codeWait) asked(f *tui.ConfirmFlow, _ core.Stored, code core.Code, err error) tea.Cmd {
	if err != nil {
		f.Say("failed: no device code could be asked for: "+tui.Sentence(untrusted.Line(err.Error())), "Nothing was applied.")
		return f.Finish(tui.ExitFailed)
	}
	w.code = code
	if !f.C.Plain {
		f.MoreKeys = []key.Binding{copyKey, openKey}
	}
	f.Say(CodeLines(code)...)
	ctx, stop := context.WithCancel(w.ctx)
	w.stopWait = stop
	wait := w.deps.Wait
	return func() tea.Msg {
		defer stop()
		lines, exit := wait(ctx, code)
		return doneMsg{lines, exit}
	}
}

// BatchLines are the batch as the ledger keeps it, in both renderers:
// whom it waits for, then each step — what approving does, whether it can
// be undone, every option with the recommendation marked and the one it
// accepts. Every title is GitHub's text and goes through untrusted.
func BatchLines(repo string, st core.Stored) []string {
	r := st.Record
	out := []string{fmt.Sprintf("Batch %s on %s waits for @%s: %d human-only %s, posted by @%s on #%d.",
		untrusted.Line(st.Hash), untrusted.Line(repo), untrusted.Line(r.For), len(r.Items), tui.Plural(len(r.Items), "step", "steps"), untrusted.Line(r.PostedBy), r.Issue)}
	for i, it := range r.Items {
		mark := "  ← accept"
		if it.Kind == core.KindDecide {
			out = append(out, fmt.Sprintf("%d. Decision #%d %s", i+1, it.Decision, untrusted.Line(it.Title)))
			chosen := ""
			for _, o := range it.Options {
				if o.Number == it.Option {
					chosen = " (" + untrusted.Line(o.Title) + ")"
				}
			}
			out = append(out, fmt.Sprintf("   Approving accepts option %d%s: %s.", it.Option, chosen, untrusted.Line(it.Command)))
		} else {
			// A ready, plan or ship step says what approving does in the
			// batch's own words, then the item it acts on as it was.
			mark = "  ← approve"
			out = append(out, fmt.Sprintf("%d. %s: %s.", i+1, untrusted.Line(it.Command), untrusted.Line(it.Does)))
			out = append(out, fmt.Sprintf("   #%d %s", it.Story, untrusted.Line(it.Title)))
		}
		if it.Door == core.DoorOneWay {
			out = append(out, "   One-way door: it cannot be undone.")
		} else {
			out = append(out, "   Two-way door: it can be undone later.")
		}
		for _, o := range it.Options {
			line := fmt.Sprintf("     %d. %s", o.Number, untrusted.Line(o.Title))
			if o.Recommended {
				line += " (recommended)"
			}
			if o.Number == it.Option {
				line = "   ▸" + line[4:] + mark
			}
			out = append(out, line)
		}
	}
	return out
}

// CodeLines show the device code large (its characters spaced) and its
// link, in both renderers: the person types it on any device.
func CodeLines(c core.Code) []string {
	code := untrusted.Line(c.UserCode)
	return []string{
		"Enter this code at " + untrusted.Line(c.URI) + " (until " + c.Expires.UTC().Format("15:04") + " UTC):",
		"",
		"    " + strings.Join(strings.Split(code, ""), " "),
		"",
		"Waiting for the approval. Approve only steps you asked for.",
	}
}
