package initrepo

import (
	"io"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// The one question init asks, "Write these?", is a huh Confirm in both
// renderers. Its answer starts at no, so Enter alone, the end of input or
// any answer but a yes writes nothing.
const askTitle = "Write these?"

// askWidth bounds the form: huh pads every line of it to its width.
const askWidth = 48

func newConfirm(yes *bool) *huh.Confirm {
	return huh.NewConfirm().Title(askTitle).Affirmative("Write them").Negative("Write nothing").Value(yes)
}

// newAsk is the full screen's form around the question, at most width
// cells wide.
// Its help is aayu's help line (Keys), not huh's own.
func newAsk(width int) (*huh.Form, *bool) {
	yes := new(bool)
	f := huh.NewForm(huh.NewGroup(newConfirm(yes))).
		WithShowHelp(false).WithTheme(huh.ThemeFunc(askTheme)).WithWidth(min(width, askWidth))
	return f, yes
}

// askTheme is huh's base theme with the chosen button drawn reversed and
// bold instead of in colours of its own: it stays visible under NO_COLOR,
// and View says the choice in words besides.
func askTheme(isDark bool) *huh.Styles {
	t := huh.ThemeBase(isDark)
	button := lipgloss.NewStyle().Padding(0, 1).MarginRight(1)
	t.Focused.FocusedButton = button.Reverse(true).Bold(true)
	t.Focused.BlurredButton = button
	t.Blurred.FocusedButton, t.Blurred.BlurredButton = t.Focused.FocusedButton, t.Focused.BlurredButton
	return t
}

// plainAnswer reads one typed line as huh's accessible mode reads a
// confirmation: y or yes, in any letter case, is a yes; an empty line
// takes the default, no; anything else is not a yes. The accessible
// prompt itself is not run against the terminal: the plain shell owns the
// process's one input stream (lines typed ahead, and those left for the
// screen after this one), so the screen hands huh the one line it was
// given and keeps its own question on the page.
func plainAnswer(line string) bool {
	yes := false
	_ = newConfirm(&yes).RunAccessible(io.Discard, strings.NewReader(line+"\n"))
	return yes
}

// toForm hands the question's form one message and answers once the form
// is done: completed with its choice, or aborted with no.
func (m *Model) toForm(msg tea.Msg) (tea.Model, tea.Cmd) {
	f, cmd := m.form.Update(msg)
	if form, ok := f.(*huh.Form); ok {
		m.form = form
	}
	switch m.form.State {
	case huh.StateCompleted:
		m.form = nil
		return m.answer(*m.chosen)
	case huh.StateAborted:
		m.form = nil
		return m.answer(false)
	}
	return m, cmd
}

// askLines is the question as the full screen draws it: huh's form, and
// in words what Enter would do now.
func (m *Model) askLines() []string {
	if m.form == nil {
		return nil
	}
	now := "enter now writes nothing."
	if *m.chosen {
		now = "enter now writes them."
	}
	lines := strings.Split(strings.TrimRight(m.form.View(), "\n"), "\n")
	return append(append([]string{""}, lines...), "", "y writes them; n, q or esc writes nothing; "+now)
}

// askKeys are the help line's keys while the question is asked.
func (m *Model) askKeys() []key.Binding {
	return []key.Binding{m.yes, m.no,
		key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "choose")),
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "answer")),
	}
}
