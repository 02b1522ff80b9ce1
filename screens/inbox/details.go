package inbox

import (
	"time"

	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/tui"
)

// A card can be longer than the card pane (a ready card's choices at
// 40×24, a failure's details): then the card scrolls in a bubbles
// viewport, its last line saying "more below" until its end is in view.
// The scroll keys are pgup/pgdown and ctrl+u/ctrl+d, not the arrows, which
// keep moving between cards as everywhere else in the inbox.
var (
	scrollDetails = key.NewBinding(key.WithKeys("pgup", "pgdown", "ctrl+u", "ctrl+d"), key.WithHelp("pgup/pgdn", "scroll the card"))
)

func detailKeys() viewport.KeyMap {
	km := viewport.DefaultKeyMap()
	for _, b := range []*key.Binding{&km.Up, &km.Down, &km.Left, &km.Right} {
		b.SetEnabled(false)
	}
	km.PageUp = key.NewBinding(key.WithKeys("pgup"))
	km.PageDown = key.NewBinding(key.WithKeys("pgdown"))
	km.HalfPageUp = key.NewBinding(key.WithKeys("ctrl+u"))
	km.HalfPageDown = key.NewBinding(key.WithKeys("ctrl+d"))
	return km
}

// scrollsDetails says whether the card pane shows a card too long for it;
// a pending question is never scrolled away, it takes the pane.
func (p *pane) scrollsDetails(lines, h int, asking bool) bool {
	return !asking && p.confetti == 0 && lines > h
}

// detailsOverflow says whether the current card's details scroll now.
func (m *Model) detailsOverflow() bool {
	s, ok := m.list.current()
	if !ok || m.list.noneListed() {
		return false
	}
	w, h := m.cardSize()
	return m.pane.scrollsDetails(len(m.cardBody(s, w)), h, m.pend != nil)
}

// layoutDetails sizes the viewport for the pane and gives it the card's
// lines; its position persists between frames.
func (p *pane) layoutDetails(lines []string, w, h int) {
	vp := &p.detailVP
	if vp.KeyMap.PageUp.Keys() == nil {
		*vp = viewport.New()
		vp.KeyMap = detailKeys()
	}
	vp.SetWidth(w)
	vp.SetHeight(max(1, h-1))
	vp.SetContentLines(lines)
}

// detailsPane draws the card in the viewport, with a last line saying
// which lines are in view (a title line could itself wrap out of sight).
func (p *pane) detailsPane(st tui.Styles, lines []string, w, h int) []string {
	p.layoutDetails(lines, w, h)
	vp := &p.detailVP
	var out []string
	for _, l := range strings.Split(vp.View(), "\n") {
		out = append(out, strings.TrimRight(l, " "))
	}
	// Short enough for a 40-column pane: the key is never the part cut.
	where := tui.LinesShown(*vp) + " · pgup"
	if !vp.AtBottom() {
		where = "more below: pgdn · " + tui.LinesShown(*vp)
	}
	return append(out, st.Subtle.Render(where))
}

// onDetailsScroll scrolls open details for a scroll key, reporting
// whether it was one.
func (m *Model) onDetailsScroll(msg tea.KeyPressMsg) bool {
	if !key.Matches(msg, scrollDetails) || !m.detailsOverflow() {
		return false
	}
	// The key may come before any frame laid the viewport out.
	st, _ := m.list.current()
	w, h := m.cardSize()
	m.pane.Update(msg, m.cardBody(st, w), w, h)
	return true
}

// Update scrolls the card (lines, laid out for a pane of w×h) for a
// scroll key.
func (p *pane) Update(msg tea.KeyPressMsg, lines []string, w, h int) {
	p.layoutDetails(lines, w, h)
	p.detailVP, _ = p.detailVP.Update(msg)
}

// follow opens the card under the cursor at its top when the cursor is on
// another card than the one the pane was laid out for.
func (p *pane) follow(id string) {
	if id != p.detailFor {
		p.detailFor = id
		p.detailVP.GotoTop()
	}
}

// tick moves the confetti on by one frame, until it is over.
func (p *pane) tick() tea.Cmd {
	if p.confetti > 0 {
		p.confetti--
		if p.confetti > 0 {
			return frameTick()
		}
	}
	return nil
}

// celebrate starts the confetti over the pane, from now.
func (p *pane) celebrate(now time.Time) tea.Cmd {
	p.celebratedAt = now
	p.confetti = confettiFrames
	return frameTick()
}

// calm stops the confetti: any key carries on.
func (p *pane) calm() { p.confetti = 0 }
