package inbox

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
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
	m.pend.noteIn.SetWidth(max(1, w-len(m.pend.noteIn.Prompt)-1))
	var cmd tea.Cmd
	m.pend.noteIn, cmd = m.pend.noteIn.Update(msg)
	return cmd
}

// noteKeys are the help line's keys while the note has the keyboard: y is
// a letter of the note here, not a yes.
var noteKeys = []key.Binding{
	key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
	key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
}
