package pack

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
)

// mediaState is the screen's part in showing media: the terminal's
// graphics check, the opener o uses, the copies it made and what the last
// o said.
type mediaState struct {
	asked  bool // the graphics query was sent
	probe  graphicsProbe
	opener func(file string) error
	copies []string // folders holding checked copies; removed on Close
	note   string   // how the last o went, sanitised
}

// kittyImageID names the one image the viewer shows, so leaving it
// deletes exactly that image.
const kittyImageID = 3131

func (s *mediaState) removeCopies() {
	for _, d := range s.copies {
		_ = os.RemoveAll(d)
	}
	s.copies = nil
}

// startProbe asks the terminal whether it can draw images, once, and only
// when there is a PNG to draw and a person at a full screen: never in
// plain mode (which is also how standard output that is not a terminal
// runs) or CI.
func (m *Model) startProbe() tea.Cmd {
	if m.c.Plain || m.c.CI || m.media.asked || !hasDrawable(m.verifying.report) {
		return nil
	}
	m.media.asked = true
	return tea.Batch(tea.Raw(graphicsQuery),
		tea.Tick(graphicsTimeout, func(time.Time) tea.Msg { return probeTimeoutMsg{} }))
}

// onMedia takes the graphics check's answers and the media artifacts'
// reads and opens, reporting whether msg was one of them.
func (m *Model) onMedia(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case uv.KittyGraphicsEvent, uv.CellSizeEvent, uv.PrimaryDeviceAttributesEvent, probeTimeoutMsg:
		if m.media.asked && !m.media.probe.done && m.media.probe.observe(msg) {
			return m.drawLater(), true
		}
		return nil, true
	case mediaMsg:
		return m.onMediaRead(msg), true
	case drawMsg:
		return m.onDraw(msg), true
	case openedMsg:
		m.onOpened(msg)
		return nil, true
	}
	return nil, false
}

// onMediaRead takes a media artifact's checked bytes for the viewer.
func (m *Model) onMediaRead(msg mediaMsg) tea.Cmd {
	if m.view == nil || m.view.path != msg.path {
		return nil
	}
	m.view.loaded, m.view.err = true, msg.err
	if msg.err == nil && isPNG(m.view.media.Artifact) {
		m.view.image = msg.data
	}
	return m.drawLater()
}

// onDraw sends the viewer's image to the terminal, if it is still shown
// and the terminal answered that it can draw one.
func (m *Model) onDraw(msg drawMsg) tea.Cmd {
	if m.view == nil || m.view.path != msg.path || m.view.image == nil || m.media.probe.result == gfxNone {
		return nil
	}
	seq := m.imageSeq()
	if seq == "" {
		return nil
	}
	m.view.drawn = true
	return tea.Raw(placed(seq, 3, 1))
}

// onOpened says how o went.
func (m *Model) onOpened(msg openedMsg) {
	if msg.tmpDir != "" {
		m.media.copies = append(m.media.copies, msg.tmpDir)
	}
	if msg.err != nil {
		m.media.note = "not opened: " + tui.SanitizeLine(msg.err.Error())
	} else {
		m.media.note = tui.SanitizeLine(msg.said)
	}
	m.say(m.media.note)
}

// drawLater draws the viewer's image a frame after the frame around it,
// so the renderer's own drawing of that frame cannot cover it.
func (m *Model) drawLater() tea.Cmd {
	if m.view == nil || m.view.image == nil || m.media.probe.result == gfxNone {
		return nil
	}
	p := m.view.path
	return tea.Tick(40*time.Millisecond, func(time.Time) tea.Msg { return drawMsg{path: p} })
}

// imageArea is the cells the image may cover: below the title and the
// caption, above the help line.
func (m *Model) imageArea() (cols, rows int) {
	return max(1, m.c.Width-1), max(1, m.c.Height-4)
}

// imageSeq is the viewer's checked PNG as the sequence this terminal
// answered it draws; "" when it cannot be decoded.
func (m *Model) imageSeq() string {
	cols, rows := m.imageArea()
	cellW, cellH := m.media.probe.cell()
	data := m.view.image
	switch m.media.probe.result {
	case gfxKitty:
		cfg, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			return ""
		}
		w, h := fitInside(cfg.Width, cfg.Height, cols*cellW, rows*cellH)
		return kittyImage(data, kittyImageID, min(cols, (w+cellW-1)/cellW), min(rows, (h+cellH-1)/cellH))
	case gfxSixel:
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			return ""
		}
		return sixelImage(img, cols*cellW, rows*cellH)
	}
	return ""
}

// clearImage takes a drawn image off the screen as the viewer closes: the
// kitty image deleted by its id; sixel pixels, which live in the cells, by
// drawing the whole screen again.
func (m *Model) clearImage() tea.Cmd {
	if m.view == nil || !m.view.drawn {
		return nil
	}
	m.view.drawn = false
	if m.media.probe.result == gfxKitty {
		return tea.Raw(kittyDelete(kittyImageID))
	}
	return tea.ClearScreen
}

// redrawImage draws a shown image again after a resize, at its new size.
func (m *Model) redrawImage() tea.Cmd {
	if m.view == nil || !m.view.drawn {
		return nil
	}
	return tea.Sequence(m.clearImage(), m.drawLater())
}

// selectedMedia is the media artifact under the cursor, nil when the row
// is not one.
func (m *Model) selectedMedia() *proof.ArtifactResult {
	p := m.selectedPath()
	if p == "" {
		return nil
	}
	for i := range m.verifying.report.Artifacts {
		if a := &m.verifying.report.Artifacts[i]; a.Artifact.Path == p && isMedia(a.Artifact) {
			return a
		}
	}
	return nil
}

// openSystem is o on the list: the media artifact under the cursor in the
// system viewer, its sha256 checked first.
func (m *Model) openSystem() tea.Cmd {
	a := m.selectedMedia()
	if a == nil {
		return nil
	}
	return openMedia(m.dir(), a.Artifact, m.media.opener)
}

// openSysKey is o as the help line shows it: usable on a media artifact.
func (m *Model) openSysKey() key.Binding {
	k := m.keys.OpenSys
	switch {
	case m.verifying.phase != phaseDone:
		return tui.Disable(k, "still verifying")
	case m.selectedMedia() == nil:
		return tui.Disable(k, "not a media file")
	}
	return k
}

// mediaViewerLines are the viewer's lines for a media artifact: what it
// is, whether its bytes matched, and how to see it.
func (m *Model) mediaViewerLines() []string {
	st := m.c.Styles
	v := m.view
	a := v.media.Artifact
	facts := fmt.Sprintf("%s, %s", tui.SanitizeLine(a.Kind), tui.HumanBytes(a.Size))
	var out []string
	switch {
	case !v.loaded:
		out = append(out, facts+"; reading it and checking its sha256…")
	case v.err != nil:
		out = append(out, facts, st.Failed.Render("not shown")+": "+tui.SanitizeLine(v.err.Error()))
	case v.image != nil && m.media.probe.result != gfxNone:
		out = append(out, facts+", sha256 checked · drawn by "+m.media.probe.result.String()+" · o opens it in the system viewer")
	case v.image != nil && !m.media.probe.done:
		out = append(out, facts+", sha256 checked", "checking whether this terminal can draw images…")
	case v.image != nil:
		out = append(out, facts+", sha256 checked",
			"This terminal did not answer the kitty graphics or sixel check, so the image is not drawn here.",
			"o opens it in the system viewer.")
	default:
		out = append(out, facts+", sha256 checked", "aayu draws only PNG images in the terminal; o opens it in the system viewer.")
	}
	if m.media.note != "" && !v.drawn {
		out = append(out, "", m.media.note)
	}
	return out
}

// mediaDetail is what the list's detail box adds for a media artifact: its
// kind and size, and the keys that show it.
func mediaDetail(a proof.ArtifactResult) string {
	s := fmt.Sprintf(" · media: %s, %s", tui.SanitizeLine(a.Artifact.Kind), tui.HumanBytes(a.Artifact.Size))
	if a.Verdict == proof.VerdictVerified {
		s += "; enter shows it, o opens it in the system viewer"
	}
	return s
}
