package inbox

// The question on the card: a choice waiting for its second key (y in
// plain mode) or for its one line of note. It has its own Update (the
// note's line), View (drawn in the card pane) and Keys.

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// newNote is the note's line: bubbles' textinput, so the cursor moves and
// words are deleted as in any line editor. Two of its defaults are turned
// off: ctrl+v, which reads the system clipboard behind the screen's back
// with nothing to clean it (the terminal's own paste arrives as
// tea.PasteMsg and is cleaned like typed text), and the blinking cursor,
// which would redraw the screen twice a second for nothing.
func newNote() textinput.Model {
	in := textinput.New()
	in.Prompt = "> "
	in.KeyMap.Paste.SetEnabled(false)
	s := in.Styles()
	s.Cursor.Blink = false
	in.SetStyles(s)
	in.Focus()
	return in
}

// onNoteKey handles a key while the note has the keyboard: enter sends it,
// esc cancels, and every other key is the textinput's, its text cleaned
// first like pasted text, so a typed control character or bidi override
// never reaches the screen or GitHub as it is.
func (m *Model) onNoteKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "enter":
		return m.submitNote(m.pend.noteIn.Value())
	case "esc":
		return m.cancel()
	}
	if msg.Text != "" {
		msg.Text = pasted(msg.Text)
	}
	return m.updateNote(msg)
}

// updateNote hands the note's textinput one message, sized first to the
// card pane so a long note scrolls within it.
func (m *Model) updateNote(msg tea.Msg) tea.Cmd {
	w, _ := m.cardSize()
	return m.pend.Update(msg, w)
}

// Update hands the note's line one message, sized first to the card
// pane's width w.
func (p *pending) Update(msg tea.Msg, w int) tea.Cmd {
	p.noteIn.SetWidth(max(1, w-len(p.noteIn.Prompt)-1))
	var cmd tea.Cmd
	p.noteIn, cmd = p.noteIn.Update(msg)
	return cmd
}

// Keys are the help line's keys while the question waits: the note's
// while it is typed, else the confirmation's.
func (p *pending) Keys(k keyMap) []key.Binding {
	if p.note {
		return noteKeys
	}
	return []key.Binding{k.Confirm, k.Back}
}

// noteKeys are the help line's keys while the note has the keyboard: y is
// a letter of the note here, not a yes.
var noteKeys = []key.Binding{
	key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
	key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
}

// pending is a choice waiting for its second Enter (y in plain mode) or
// for its one line of note.
type pending struct {
	stepID  string
	choice  model.Choice
	confirm []string // the lines shown; empty when only a note is asked
	note    bool     // waiting for the note line
	noteBuf string
	bulk    []string // step IDs for a bulk confirmation

	noteIn textinput.Model // the note being typed (note.go); noteBuf is the note once sent
}

// View is the pending note or confirmation as the card pane shows it;
// nothing when no question waits.
func (p *pending) View(st tui.Styles, w int) []string {
	if p == nil {
		return nil
	}
	wrap := func(s string) []string { return tui.WrapLinks(s, w, " ") }
	lines := []string{""}
	if p.note {
		lines = append(lines, wrap(st.Warning.Render(p.choice.NeedsNote))...)
		return append(append(lines, p.noteIn.View()), wrap("enter sends it; esc cancels")...)
	}
	for _, c := range p.confirm {
		c = strings.TrimSuffix(c, " "+model.ConfirmHint) // said once, below
		lines = append(lines, wrap(st.Warning.Render(c))...)
	}
	return append(lines, wrap("y applies it; any other key, Enter too, cancels")...)
}
