package ship

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/tui"
)

// The ship screen's body scrolls in a bubbles viewport under a fixed title:
// a long gate list with its details, a confirmation with many writes, the
// pack. Following is on for the gate list, so the newest gate and the
// verdict stay in view at 80×24 as the run fills in; scrolling up stops
// following and scrolling back to the bottom starts it again. A
// confirmation and the pack open at their top.
type scroller struct {
	vp     viewport.Model
	mode   string // what the body shows: gates, confirm or pack
	follow bool
	// seenEnd: the body's last line has been in view since it was shown
	// (a confirmation's yes waits for it).
	seenEnd bool
	// toTop: show the body from its top at the next frame, and stop
	// following (a refusal leads with its reason).
	toTop bool
}

// scrollKeys are the viewport's own keys, without its horizontal ones (the
// body is wrapped to the width) and with half pages on ctrl+u/ctrl+d so
// plain letters stay free for the screen.
func scrollKeys() viewport.KeyMap {
	km := viewport.DefaultKeyMap()
	km.HalfPageUp = key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "half page up"))
	km.HalfPageDown = key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "half page down"))
	km.Left.SetEnabled(false)
	km.Right.SetEnabled(false)
	return km
}

var (
	scrollHelp = key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown"), key.WithHelp("↑/↓ pgup/pgdn", "scroll"))
	scrollTop  = key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "top"))
	scrollEnd  = key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "bottom"))
)

func (m *Model) bodyMode() string {
	switch {
	case m.confirm != nil:
		return "confirm"
	case m.showPack:
		return "pack"
	}
	return "gates"
}

// scrolled lays out the frame: body[0] (the title) stays, the rest scrolls
// in the viewport, the help line stays at the bottom. The viewport is laid
// out here, where the width it wraps for is known; its position persists.
func (m *Model) scrolled(body []string, w, h int) string {
	s := &m.scroll
	if s.vp.KeyMap.Up.Keys() == nil {
		s.vp = viewport.New()
		s.vp.KeyMap = scrollKeys()
	}
	if mode := m.bodyMode(); mode != s.mode {
		s.mode, s.follow, s.seenEnd = mode, mode == "gates", false
		s.vp.GotoTop()
	}
	s.vp.SetWidth(w)
	s.vp.SetHeight(max(1, h-2))
	s.vp.SetContentLines(body[1:])
	if s.toTop {
		s.toTop, s.follow = false, false
		s.vp.GotoTop()
	}
	if s.follow {
		s.vp.GotoBottom()
	}
	s.seenEnd = s.seenEnd || s.vp.AtBottom()
	title := body[0]
	if total, page := s.vp.TotalLineCount(), s.vp.Height(); total > page {
		from := s.vp.YOffset() + 1
		title += m.c.Styles.Subtle.Render(fmt.Sprintf(" · lines %d–%d of %d", from, min(total, from+page-1), total))
	}
	lines := []string{title}
	for _, l := range strings.Split(s.vp.View(), "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	help := tui.HelpLine(w, m.Keys(), m.c.Styles)
	if m.copied != "" {
		help = tui.NoticeLine(w, m.copied, m.c.Styles)
	}
	return tui.Frame(lines, w, h, help)
}

// overflows says whether the body is taller than its room, so the scroll
// keys belong in the help line.
func (m *Model) overflows() bool {
	return m.scroll.vp.TotalLineCount() > m.scroll.vp.Height()
}

// onScroll moves the body for a scroll key and reports whether it was one.
func (m *Model) onScroll(msg tea.KeyPressMsg) bool {
	s := &m.scroll
	switch {
	case key.Matches(msg, scrollTop):
		s.vp.GotoTop()
	case key.Matches(msg, scrollEnd):
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

// withScrollKeys adds the scroll keys to a help list when the body
// overflows: before the screen's keys on the gate list (a verdict out of
// view matters more than a disabled key's reason), after them when they
// answer a question. The help line keeps q and ? whatever comes first.
func (m *Model) withScrollKeys(keys []key.Binding, first bool) []key.Binding {
	if !m.overflows() {
		return keys
	}
	scroll := []key.Binding{scrollHelp, scrollTop, scrollEnd}
	if first {
		return append(scroll, keys...)
	}
	return append(keys, scroll...)
}
