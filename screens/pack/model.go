package pack

import (
	"context"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
)

// Options say which pack to verify and against which outside facts.
type Options struct {
	Dir       string // the pack folder: pack.json plus artifacts/…
	ReadyFile string // --ready: the Ready snapshot; "" when not given
	Head      string // --head: the pull request's current head; "" when not given
	// RequiredFloors are [verify] required_floors; nil means proof's
	// defaults.
	RequiredFloors []string
	// CoverageThreshold is [verify] coverage_threshold; nil means proof's
	// default. A pack's own threshold is shown, never used.
	CoverageThreshold *float64
}

// section is one of the lists the person moves between.
type section int

const (
	secCriteria section = iota
	secArtifacts
	secChecks
	secProblems
	sectionCount
)

var sectionNames = [sectionCount]string{"Criteria", "Artifacts", "Checks", "Problems"}

type phase int

const (
	phaseVerifying phase = iota
	phaseDone
	phaseFailed // the folder itself could not be read
)

// keyMap is the pack screen's bindings on top of the shared ones.
type keyMap struct {
	tui.KeyMap
	Section [sectionCount]key.Binding
	Open    key.Binding
	OpenSys key.Binding // o: a media artifact in the system viewer
	Back    key.Binding
	PageUp  key.Binding
	PageDn  key.Binding
	Left    key.Binding
	Right   key.Binding
}

func newKeys() keyMap {
	k := keyMap{KeyMap: tui.DefaultKeys()}
	for i := range k.Section {
		n := string(rune('1' + i))
		k.Section[i] = key.NewBinding(key.WithKeys(n), key.WithHelp(n, sectionNames[i]))
	}
	k.Open = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open artifact"))
	k.OpenSys = key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open in the system viewer"))
	k.Back = key.NewBinding(key.WithKeys("esc", "backspace"), key.WithHelp("esc", "back"))
	k.PageUp = key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "page up"))
	k.PageDn = key.NewBinding(key.WithKeys("pgdown", "f", "space"), key.WithHelp("pgdn", "page down"))
	k.Left = key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←", "previous section"))
	k.Right = key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→", "next section"))
	return k
}

// viewer is an open artifact, scrolled by bubbles/viewport.
type viewer struct {
	path   string
	loaded bool
	err    error
	lines  []string // the artifact as text, before fitting the width
	vp     viewport.Model
	// media is the media artifact shown, nil for a text one; image is its
	// PNG bytes once their sha256 matched the pack.
	media *proof.ArtifactResult
	image []byte
	drawn bool // the image was sent to the terminal
}

// fit sizes the viewport for a w×h screen and gives it the lines cut to
// its width, each cut one ending in "…" so a cut is never silent.
func (v *viewer) fit(w, h int) {
	w, h = viewerSize(w, h)
	v.vp.SetWidth(w)
	v.vp.SetHeight(h)
	cut := make([]string, len(v.lines))
	for i, l := range v.lines {
		cut[i] = ansi.Truncate(l, w, "…")
	}
	v.vp.SetContentLines(cut)
}

// viewerSize is the viewport's size on a w×h screen: the title above it
// and the help line below.
func viewerSize(w, h int) (int, int) { return max(w, 20), max(1, max(h, 8)-3) }

// Model is the pack screen.
type Model struct {
	c       tui.Common
	opts    Options
	keys    keyMap
	ctx     context.Context
	cancel  context.CancelFunc // stops reading and verifying when the screen closes
	onClose func()
	pushed  bool // opened on top of the inbox: esc at rest goes back
	events  chan tea.Msg

	verifying verifying // the read and the verification, as they go

	sec    section
	cursor [sectionCount]int
	view   *viewer

	story *storyState // set when the screen shows a story (NewStory)
	skeys storyKeys

	media mediaState // the terminal's graphics check, o's outcome

	lines    []string // the plain transcript so far
	narrated int      // progress quarter already narrated in plain mode
	exitCode int
	finished bool // verification has ended
	done     bool // the screen is over: plain mode after the result, else after q
}

// verifying is the pack's read and verification as they go, and how they
// ended.
type verifying struct {
	phase    phase
	progress proof.Progress
	report   *proof.Report
	err      error
	waived   map[string]string // floor → the waiver's words (Fetched.Waivers)
}

// New returns the pack screen for one local pack folder. ctx cancels the
// verification when the program stops.
func New(ctx context.Context, c tui.Common, opts Options) *Model {
	if c.Width == 0 {
		c.Width, c.Height = 80, 24
	}
	ctx, cancel := context.WithCancel(ctx)
	m := &Model{c: c, opts: opts, keys: newKeys(), ctx: ctx, cancel: cancel, events: make(chan tea.Msg, 1),
		media: mediaState{opener: systemOpener}}
	m.say("aayu pack: verifying the pack folder " + tui.SanitizeLine(opts.Dir) + "; this screen prints its result and exits (no choice is asked).")
	m.say("working…")
	return m
}

// Init starts verification in the background; for a story, reading its
// best pack on the ledger first.
func (m *Model) Init() tea.Cmd {
	if m.story != nil {
		return m.fetch(SourceLedger)
	}
	return tea.Batch(verify(m.ctx, m.opts, m.events), wait(m.events))
}

// Update handles progress, the result, resizes and keys. It does no I/O.
// The verification's messages go to onVerify, the story's to onStory.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if cmd, ok := m.onVerify(msg); ok {
		return m, cmd
	}
	if cmd, ok := m.onMedia(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case tui.PushedMsg:
		m.pushed = true
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
		if m.view != nil && m.view.loaded {
			m.view.fit(msg.Width, msg.Height)
		}
		return m, m.redrawImage()
	case tea.BackgroundColorMsg:
		m.c.Styles = tui.NewStyles(msg.IsDark())
	case fetchedMsg:
		return m, m.gotFetched(msg)
	case shipMsg:
		return m, m.gotShip(msg)
	case pushedMsg:
		m.onPushed(msg)
	case artifactMsg:
		m.onArtifact(msg)
	case tui.LineMsg, tui.InputClosedMsg:
		// Plain mode asks nothing of the person on this screen.
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	}
	return m, nil
}

// onVerify takes the verification's progress and result, reporting
// whether msg was one of them.
func (m *Model) onVerify(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case progressMsg:
		m.verifying.progress = proof.Progress(msg)
		m.narrateProgress()
		return wait(m.events), true
	case verifiedMsg:
		m.finish(msg)
		probe := m.startProbe()
		if ask := m.askShip(); ask != nil {
			// Plain mode ends once ship's run is said (gotShip).
			return tea.Batch(ask, probe), true
		}
		if m.c.Plain || m.c.CI {
			return m.quit(), true
		}
		return probe, true
	}
	return nil, false
}

// onPushed says how the story's push ended.
func (m *Model) onPushed(msg pushedMsg) {
	m.story.pushing = false
	// Either can quote GitHub's answer: sanitised once, for the
	// transcript and the header alike.
	if msg.err != nil {
		m.story.notice = "push failed: " + tui.SanitizeLine(msg.err.Error())
	} else {
		m.story.notice = tui.SanitizeLine(msg.said)
	}
	m.say(m.story.notice)
}

// onArtifact shows an artifact read for the viewer, if the viewer still
// waits for it.
func (m *Model) onArtifact(msg artifactMsg) {
	if m.view == nil || m.view.path != msg.path {
		return
	}
	m.view.err = msg.err
	if msg.err == nil {
		m.view.vp = viewport.New()
		m.view.lines = renderArtifact(msg.path, msg.data)
		m.view.fit(m.c.Width, m.c.Height)
		m.view.loaded = true
	}
}

// quit ends the screen. Quitting before verification ends is a failure:
// nothing was verified.
func (m *Model) quit() tea.Cmd {
	m.done = true
	m.cancel()
	if !m.finished {
		m.exitCode = tui.ExitFailed
		m.say("stopped before verification finished; nothing was verified (exit 1)")
	}
	if clear := m.clearImage(); clear != nil {
		// A kitty image outlives the screen unless it is deleted.
		return tea.Sequence(clear, tea.Quit)
	}
	return tea.Quit
}

// handleKey takes a key in the file viewer, the story's sources or the
// sections (handleSectionKey).
func (m *Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if m.view != nil {
		return m.handleViewerKey(msg)
	}
	if m.story != nil && m.story.confirm {
		cmd, _ := m.handleStoryKey(msg)
		return m, cmd
	}
	if key.Matches(msg, k.Quit) || (m.pushed && key.Matches(msg, k.Back)) {
		return m, m.quit()
	}
	if m.story != nil {
		if cmd, ok := m.handleStoryKey(msg); ok {
			return m, cmd
		}
	}
	if m.verifying.phase != phaseDone {
		return m, nil
	}
	return m, m.handleSectionKey(msg)
}

// handleSectionKey moves between the sections and their rows once the
// verification is done, and opens the row under the cursor.
func (m *Model) handleSectionKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Next), key.Matches(msg, k.Right):
		m.sec = (m.sec + 1) % sectionCount
	case key.Matches(msg, k.Prev), key.Matches(msg, k.Left):
		m.sec = (m.sec + sectionCount - 1) % sectionCount
	case key.Matches(msg, k.Up):
		if m.cursor[m.sec] > 0 {
			m.cursor[m.sec]--
		}
	case key.Matches(msg, k.Down):
		if m.cursor[m.sec] < m.rowCount(m.sec)-1 {
			m.cursor[m.sec]++
		}
	case key.Matches(msg, k.Open):
		return m.openSelected()
	case key.Matches(msg, k.OpenSys):
		return m.openSystem()
	default:
		for i, b := range k.Section {
			if key.Matches(msg, b) {
				m.sec = section(i)
			}
		}
	}
	return nil
}

func (m *Model) handleViewerKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Back), key.Matches(msg, k.Quit) && msg.String() == "q":
		cmd := m.clearImage()
		m.view = nil
		return m, cmd
	case m.view.media != nil && key.Matches(msg, k.OpenSys):
		return m, openMedia(m.dir(), m.view.media.Artifact, m.media.opener)
	case key.Matches(msg, k.Quit):
		return m, m.quit()
	case m.view.loaded:
		// The viewport scrolls: ↑/k ↓/j, pgup/b pgdn/f/space, u/d.
		var cmd tea.Cmd
		m.view.vp, cmd = m.view.vp.Update(msg)
		return m, cmd
	}
	return m, nil
}

// openSelected opens the artifact under the cursor (or the first evidence
// file of the selected criterion).
func (m *Model) openSelected() tea.Cmd {
	r := m.verifying.report
	if r == nil || r.Pack == nil {
		return nil
	}
	p := m.selectedPath()
	if p == "" {
		return nil
	}
	if a := m.selectedMedia(); a != nil && a.Artifact.Kind == proof.KindSRTranscript {
		// A screen-reader transcript is text: read, its sha256 checked,
		// in the text viewer.
		m.view = &viewer{path: p}
		return readCheckedText(m.dir(), a.Artifact)
	} else if a != nil {
		m.view = &viewer{path: p, media: a}
		return readMedia(m.dir(), a.Artifact)
	}
	m.view = &viewer{path: p}
	return readArtifact(m.dir(), p)
}

// selectedPath is the artifact under the cursor (or the first evidence
// file of the selected criterion), "" for none.
func (m *Model) selectedPath() string {
	r := m.verifying.report
	if r == nil || r.Pack == nil {
		return ""
	}
	switch m.sec {
	case secArtifacts:
		if i := m.cursor[secArtifacts]; i < len(r.Artifacts) {
			return r.Artifacts[i].Artifact.Path
		}
	case secCriteria:
		if i := m.cursor[secCriteria]; i < len(r.Criteria) && len(r.Criteria[i].Evidence) > 0 {
			return r.Criteria[i].Evidence[0]
		}
	}
	return ""
}

func (m *Model) rowCount(s section) int {
	r := m.verifying.report
	if r == nil {
		return 0
	}
	switch s {
	case secCriteria:
		return len(r.Criteria)
	case secArtifacts:
		return len(r.Artifacts)
	case secChecks:
		if r.Pack != nil {
			return len(r.Pack.Checks)
		}
	case secProblems:
		return len(r.Problems)
	}
	return 0
}

// finish records the outcome and its exit code (SPEC §3) and writes the
// plain transcript of the facts.
func (m *Model) finish(msg verifiedMsg) {
	m.finished = true
	if msg.err != nil {
		m.verifying.phase, m.verifying.err, m.exitCode = phaseFailed, msg.err, tui.ExitFailed
		m.say("failed: the pack folder could not be read: " + tui.SanitizeLine(msg.err.Error()))
		m.say("result: failed, nothing was verified (exit 1)")
		return
	}
	m.verifying.phase, m.verifying.report, m.verifying.waived = phaseDone, msg.report, msg.waived
	m.exitCode = ExitCode(msg.report)
	if m.exitCode == tui.ExitFloor && allWaived(msg.report, msg.waived) {
		m.exitCode = tui.ExitOK // ship takes every failing floor as waived
	}
	if len(msg.report.Problems) > 0 {
		m.sec = secProblems
	}
	if msg.waiverNote != "" {
		m.say("note: " + tui.SanitizeLine(msg.waiverNote))
	}
	lines := plainReport(msg.report, msg.waived)
	// Each media file in words, just before the result line.
	last := len(lines) - 1
	lines = append(append(lines[:last:last], mediaLines(msg.report, m.dir())...), lines[last])
	for _, l := range lines {
		m.say(l)
	}
}

// ExitCode maps a report to the exit code every screen uses: 4 when the pack
// does not verify, 3 when it verifies but a floor does not hold, 0 otherwise.
func ExitCode(r *proof.Report) int {
	switch {
	case !r.Verified():
		return tui.ExitRefused
	case !r.FloorsHold:
		return tui.ExitFloor
	}
	return tui.ExitOK
}

// Transcript returns the plain lines produced so far.
func (m *Model) Transcript() []string { return m.lines }

// Done reports whether the screen is over, and its exit code. In plain mode
// that is as soon as the result is printed; in full screen the person reads
// the result until they quit.
func (m *Model) Done() (bool, int) { return m.done, m.exitCode }

// Keys lists the bindings for the help line; those that cannot be used yet
// say why.
func (m *Model) Keys() []key.Binding {
	k := m.keys
	if m.view != nil && m.view.media != nil {
		return []key.Binding{k.OpenSys, k.Back}
	}
	if m.view != nil {
		return []key.Binding{k.Up, k.Down, k.PageDn, k.Back}
	}
	if m.story != nil && m.story.confirm {
		return m.storyBindings()
	}
	open := k.Open
	if m.verifying.phase != phaseDone {
		open = tui.Disable(open, "still verifying")
	} else if m.sec != secArtifacts && m.sec != secCriteria {
		open = tui.Disable(open, "choose an artifact")
	}
	// o is listed only for a pack that has media to open.
	var sys []key.Binding
	if hasMedia(m.verifying.report) {
		sys = []key.Binding{m.openSysKey()}
	}
	quit := []key.Binding{k.Quit}
	if m.pushed {
		// Opened from the inbox: esc goes back to it.
		quit = []key.Binding{tui.BackKey(), k.Quit}
	}
	if m.story != nil {
		return append(append(append(m.storyBindings(), k.Next, open), sys...), quit...)
	}
	return append(append([]key.Binding{k.Next, k.Up, k.Down, open}, sys...), quit...)
}

func (m *Model) say(line string) { m.lines = append(m.lines, line) }

// dir is the pack folder on the screen.
func (m *Model) dir() string {
	if m.story != nil {
		return m.story.current.Dir
	}
	return m.opts.Dir
}

// narrateProgress adds a plain line at each quarter of the bytes hashed, so a
// screen reader hears progress on a large pack without a flood of lines.
func (m *Model) narrateProgress() {
	p := m.verifying.progress
	if p.TotalBytes < 64<<20 || p.TotalBytes == 0 {
		return
	}
	q := int(p.DoneBytes * 4 / p.TotalBytes)
	if q > m.narrated && q < 4 {
		m.narrated = q
		m.say(progressLine(p))
	}
}

// Close stops what is still being read or verified and releases the
// screen's work folder; the screen stack calls it when the screen leaves.
func (m *Model) Close() {
	m.cancel()
	m.media.removeCopies()
	if m.onClose != nil {
		m.onClose()
	}
}

// PlainKeys is the plain ?: the plain twin takes no line on this screen.
func (m *Model) PlainKeys() []key.Binding { return tui.PlainAsksNothing() }
