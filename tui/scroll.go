package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
)

// ScrollBody is a screen's body scrolling in a bubbles viewport under a
// fixed title: a long list that grows as work reports (it follows the
// newest line until the person scrolls up, and again once they scroll back
// to the bottom), or a text that opens at its top. It remembers whether
// its last line has been in view since it was shown, for a yes that must
// wait until every write it agrees to could be read.
type ScrollBody struct {
	vp     viewport.Model
	mode   string // what the body shows; a new mode opens at its top
	follow bool
	// seenEnd: the body's last line has been in view since it was shown.
	seenEnd bool
	// toTop: show the body from its top at the next frame, and stop
	// following (a refusal leads with its reason).
	toTop bool
}

// ScrollKeys are the viewport's own keys, without its horizontal ones (the
// body is wrapped to the width) and with half pages on ctrl+u/ctrl+d so
// plain letters stay free for the screen.
func ScrollKeys() viewport.KeyMap {
	km := viewport.DefaultKeyMap()
	km.HalfPageUp = key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "half page up"))
	km.HalfPageDown = key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "half page down"))
	km.Left.SetEnabled(false)
	km.Right.SetEnabled(false)
	return km
}

// The scroll keys as the help line lists them.
var (
	ScrollHelp = key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown"), key.WithHelp("↑/↓ pgup/pgdn", "scroll"))
	ScrollTop  = key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "top"))
	ScrollEnd  = key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "bottom"))
)

// Layout lays the body out for width w and h rows. mode says what it
// shows; a new mode opens at its top, following when follow is set. It is
// called where the width the body wraps for is known; the position
// persists between frames.
func (s *ScrollBody) Layout(mode string, follow bool, body []string, w, h int) {
	if s.vp.KeyMap.Up.Keys() == nil {
		s.vp = viewport.New()
		s.vp.KeyMap = ScrollKeys()
	}
	if mode != s.mode {
		s.mode, s.follow, s.seenEnd = mode, follow, false
		s.vp.GotoTop()
	}
	s.vp.SetWidth(w)
	s.vp.SetHeight(max(1, h))
	s.vp.SetContentLines(body)
	if s.toTop {
		s.toTop, s.follow = false, false
		s.vp.GotoTop()
	}
	if s.follow {
		s.vp.GotoBottom()
	}
	s.seenEnd = s.seenEnd || s.vp.AtBottom()
}

// View is the visible part of the body.
func (s *ScrollBody) View() string { return s.vp.View() }

// Where says which lines show, " · lines 3–22 of 40", when the body is
// taller than its room; "" when it fits.
func (s *ScrollBody) Where() string {
	if !s.Overflows() {
		return ""
	}
	return " · " + LinesShown(s.vp)
}

// LinesShown says which lines of a viewport are in view, "lines 3–22 of
// 40": the words every scrolling part of a screen uses.
func LinesShown(vp viewport.Model) string {
	total := vp.TotalLineCount()
	from := vp.YOffset() + 1
	return fmt.Sprintf("lines %d–%d of %d", from, min(total, from+vp.Height()-1), total)
}

// Overflows says whether the body is taller than its room, so the scroll
// keys belong in the help line.
func (s *ScrollBody) Overflows() bool { return s.vp.TotalLineCount() > s.vp.Height() }

// SeenEnd says whether the body's last line has been in view since it was
// shown.
func (s *ScrollBody) SeenEnd() bool { return s.seenEnd }

// ToEnd shows the body's last line now, as the end key does.
func (s *ScrollBody) ToEnd() {
	s.vp.GotoBottom()
	s.follow, s.seenEnd = true, true
}

// ToTop shows the body from its top at the next frame, and stops
// following.
func (s *ScrollBody) ToTop() { s.toTop = true }

// Update moves the body for a scroll key and reports whether it was one.
func (s *ScrollBody) Update(msg tea.KeyPressMsg) bool {
	switch {
	case key.Matches(msg, ScrollTop):
		s.vp.GotoTop()
	case key.Matches(msg, ScrollEnd):
		s.vp.GotoBottom()
	case key.Matches(msg, s.vp.KeyMap.Up, s.vp.KeyMap.Down, s.vp.KeyMap.PageUp, s.vp.KeyMap.PageDown,
		s.vp.KeyMap.HalfPageUp, s.vp.KeyMap.HalfPageDown):
		s.vp, _ = s.vp.Update(msg)
	default:
		return false
	}
	s.follow = s.vp.AtBottom()
	s.seenEnd = s.seenEnd || s.vp.AtBottom()
	return true
}

// WithKeys adds the scroll keys to a help list when the body overflows:
// before the screen's keys when first (what is out of view matters more
// than a disabled key's reason), after them when they answer a question.
// The help line keeps q and ? whatever comes first.
func (s *ScrollBody) WithKeys(keys []key.Binding, first bool) []key.Binding {
	if !s.Overflows() {
		return keys
	}
	scroll := []key.Binding{ScrollHelp, ScrollTop, ScrollEnd}
	if first {
		return append(scroll, keys...)
	}
	return append(keys, scroll...)
}
