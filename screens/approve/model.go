// Package approve is the screen of `aayu approve BATCH`: the batch's
// steps as the ledger keeps them (what approving does, whether it can be
// undone, the options and the recommendation), the device code the person
// approves on any device, and what became of each step — in the full
// screen and its plain twin, through tui.ConfirmFlow as decide is.
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

type loadedMsg struct {
	st  core.Stored
	err error
}

type codeMsg struct {
	code core.Code
	err  error
}

type doneMsg struct {
	lines []string
	code  int
}

type browserMsg struct{ err error }

// Model is the approve screen: read the batch → ask whether to ask for a
// code → show the code while waiting → the result.
type Model struct {
	tui.ConfirmFlow
	ctx  context.Context
	deps Deps
	st   core.Stored
	code core.Code
	// stopWait ends the wait for the code's approval: q, esc or ctrl+c
	// while a code waits stop it there, before anything is written.
	stopWait context.CancelFunc
}

// New returns the approve screen; Init starts reading the batch.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	m := &Model{ctx: ctx, deps: deps,
		ConfirmFlow: tui.NewConfirmFlow(c, deps.Command,
			deps.Command+": reads the batch from the ledger and shows its steps; y asks GitHub for a device code, and the batch is applied once the person it waits for approves that code on any device."),
	}
	m.Yes = tui.YesKey("yes, ask for a device code")
	m.No = key.NewBinding(key.WithKeys("n", "esc", "q"), key.WithHelp("n/esc/q", "no, apply nothing"))
	m.Prompt = []string{"", "y            yes: ask for a device code", "n/esc/enter  no: apply nothing"}
	m.StopWhileWriting = ": approve stops once the steps under way land, and says what landed; nothing is cut in the middle."
	m.Write = m.ask
	return m
}

// copyKey and openKey work while a code waits for its approval.
var (
	copyKey = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy the code"))
	openKey = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open the link"))
	stopKey = key.NewBinding(key.WithKeys("q", "esc", "ctrl+c"), key.WithHelp("q", "stop waiting"))
)

// Init reads the batch in the background.
func (m *Model) Init() tea.Cmd {
	ctx, load := m.ctx, m.deps.Load
	return func() tea.Msg {
		st, err := load(ctx)
		return loadedMsg{st, err}
	}
}

// Update reacts to what was read, the code and the result; the flow takes
// the person's answer. It does no I/O.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case loadedMsg:
		return m, m.loaded(msg)
	case codeMsg:
		return m, m.asked(msg)
	case doneMsg:
		m.code, m.MoreKeys = core.Code{}, nil
		m.Say(msg.lines...)
		return m, m.Finish(msg.code)
	case browserMsg:
		if msg.err != nil {
			m.Note = "The link did not open (" + untrusted.Line(msg.err.Error()) + "); open it on any device."
		}
		return m, nil
	case tea.KeyPressMsg:
		if cmd, ok := m.onWaitingKey(msg); ok {
			return m, cmd
		}
	}
	return m, m.ConfirmFlow.Update(msg)
}

// onWaitingKey takes the keys that work while a code waits for its
// approval: stop, copy, open. ok is false for any other key.
func (m *Model) onWaitingKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	if m.waiting() && m.stopWait != nil && key.Matches(msg, stopKey) {
		// Nothing is written until the code is approved, so stopping
		// the wait leaves nothing half done; Wait then says the batch
		// stays open and how to ask for a new code.
		m.stopWait()
		m.Note = "Stopping the wait; nothing was applied."
		return nil, true
	}
	if m.waiting() && !m.C.Plain {
		m.Note = ""
		switch {
		case key.Matches(msg, copyKey):
			cmd, err := m.C.Clipboard.Copy(m.code.UserCode, "the code")
			if err != nil {
				m.Note = "The code was not copied; type it as shown."
			}
			return cmd, true
		case key.Matches(msg, openKey):
			if m.deps.OpenBrowser == nil {
				m.Note = "There is no browser on this machine. Open the link on any device."
				return nil, true
			}
			open, uri := m.deps.OpenBrowser, m.code.URI
			return func() tea.Msg { return browserMsg{open(uri)} }, true
		}
	}
	return nil, false
}

// waiting is true while a code is shown and not yet approved.
func (m *Model) waiting() bool { return m.code.UserCode != "" && m.Phase == tui.FlowWriting }

func (m *Model) loaded(msg loadedMsg) tea.Cmd {
	var r *core.Refusal
	if a, ok := core.IsAlreadyApplied(msg.err); ok {
		m.Say(fmt.Sprintf("Batch %s was already %s by @%s; nothing more was written.", untrusted.Line(a.Applied.Hash), untrusted.Line(a.Applied.Outcome), untrusted.Line(a.Applied.By)))
		return m.Finish(tui.ExitOK)
	}
	switch {
	case errors.As(msg.err, &r):
		m.Say("refused: "+tui.Sentence(untrusted.Line(r.Reason)), untrusted.Line(r.Next), "Nothing was applied.")
		return m.Finish(tui.ExitRefused)
	case msg.err != nil:
		m.Say("failed: "+tui.Sentence(untrusted.Line(msg.err.Error())), "Nothing was applied. Next: check --repo, the batch's 12 hex digits and your token (aayu auth), then run "+m.deps.Command+" again.")
		return m.Finish(tui.ExitFailed)
	}
	m.st = msg.st
	m.Say(BatchLines(m.deps.Repo, msg.st)...)
	if m.deps.DryRun {
		m.Say("--dry-run: no code was asked for and nothing was written.")
		return m.Finish(tui.ExitOK)
	}
	return m.Ask([]string{fmt.Sprintf("Approving asks GitHub for a device code; the batch is applied only once @%s (or an approver) approves it, and only once. Approve only steps you asked for.", untrusted.Line(msg.st.Record.For))},
		"Type y and Enter to ask for a code; any other answer, or the end of input, applies nothing.")
}

// ask asks for the device code, after the yes.
func (m *Model) ask() tea.Cmd {
	ctx, ask := m.ctx, m.deps.Ask
	return func() tea.Msg {
		c, err := ask(ctx)
		return codeMsg{c, err}
	}
}

// asked shows the code and waits for its approval.
func (m *Model) asked(msg codeMsg) tea.Cmd {
	if msg.err != nil {
		m.Say("failed: no device code could be asked for: "+tui.Sentence(untrusted.Line(msg.err.Error())), "Nothing was applied.")
		return m.Finish(tui.ExitFailed)
	}
	m.code = msg.code
	if !m.C.Plain {
		m.MoreKeys = []key.Binding{copyKey, openKey}
	}
	m.Say(CodeLines(msg.code)...)
	ctx, stop := context.WithCancel(m.ctx)
	m.stopWait = stop
	wait, c := m.deps.Wait, msg.code
	return func() tea.Msg {
		defer stop()
		lines, code := wait(ctx, c)
		return doneMsg{lines, code}
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
