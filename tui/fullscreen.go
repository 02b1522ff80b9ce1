package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// fullScreen wraps a screen for the full-screen renderer: it draws the
// screen in the alternate screen, asks the terminal for its background
// colour (screens receive tea.BackgroundColorMsg and pick NewStyles(dark)),
// quits when the screen is done, and turns ctrl+c into a quit request
// (quit.go): a screen that writes finishes what is under way first, and
// one that does not is closed at once.
//
// It also owns "?": the full help of whichever screen is showing, drawn over
// it until "?" or esc closes it, so no screen has to implement it.
type fullScreen struct {
	screen      Screen
	interrupted bool
	err         error

	helpOpen      bool
	width, height int
	dark          bool
}

func newFullScreen(s Screen) *fullScreen {
	if _, ok := s.(*Stack); !ok {
		s = NewStack(s) // the stack routes quit requests
	}
	return &fullScreen{screen: s, width: plainWidth, height: plainHeight, dark: true}
}

func (m *fullScreen) Init() tea.Cmd {
	return tea.Batch(m.screen.Init(), tea.RequestBackgroundColor)
}

func (m *fullScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.dark = msg.IsDark()
	case tea.KeyPressMsg:
		if q, ok := ctrlC(msg); ok {
			return m.Update(q)
		}
		if m.helpKey(msg.String()) {
			return m, nil
		}
	}
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
	if interrupted(s) {
		m.interrupted = true
		return m, tea.Quit
	}
	return m, cmd
}

// helpKey opens and closes the full help, and reports whether the key was
// taken. While a screen takes typed text, "?" is the screen's.
func (m *fullScreen) helpKey(k string) bool {
	switch {
	case m.helpOpen && (k == "?" || k == "esc"):
		m.helpOpen = false
		return true
	case !m.helpOpen && k == "?" && !typing(m.screen):
		m.helpOpen = true
		return true
	}
	return false
}

func typing(s Screen) bool {
	t, ok := s.(Typer)
	return ok && t.Typing()
}

func (m *fullScreen) View() tea.View {
	v := m.screen.View()
	if m.helpOpen {
		v.Content = FullHelpView(m.screen, m.width, m.height, NewStyles(m.dark))
	}
	v.AltScreen = true
	return v
}
