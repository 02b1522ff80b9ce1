package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// fullScreen wraps a screen for the full-screen renderer: it draws the
// screen in the alternate screen, asks the terminal for its background
// colour (screens receive tea.BackgroundColorMsg and pick NewStyles(dark)),
// quits when the screen is done, and makes Ctrl-C always quit even if a
// screen forgets to handle it.
type fullScreen struct {
	screen      Screen
	interrupted bool
	err         error
}

func newFullScreen(s Screen) *fullScreen { return &fullScreen{screen: s} }

func (m *fullScreen) Init() tea.Cmd {
	return tea.Batch(m.screen.Init(), tea.RequestBackgroundColor)
}

func (m *fullScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.screen.Update(msg)
	s, ok := next.(Screen)
	if !ok {
		m.err = fmt.Errorf("run: screen %T returned %T from Update, which is not a Screen; this is a bug in aayu", m.screen, next)
		return m, tea.Quit
	}
	m.screen = s
	if done, _ := s.Done(); done {
		return m, tea.Quit
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "ctrl+c" {
		m.interrupted = true
		return m, tea.Quit
	}
	return m, cmd
}

func (m *fullScreen) View() tea.View {
	v := m.screen.View()
	v.AltScreen = true
	return v
}
