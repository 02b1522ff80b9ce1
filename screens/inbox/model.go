package inbox

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/actions"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// Options are the flags the inbox runs with.
type Options struct {
	List   bool // --list: print the cards and stop; writes nothing (allowed for agents)
	DryRun bool // --dry-run: show what each key would write, write nothing
}

// cardState is what happened to one card during this run.
type cardState struct {
	running bool
	choice  string   // the key of the choice last submitted
	done    []string // writes that landed, in words
	failure *Failure
	// failedHere says failure is this session's write's, not the half-done
	// state an earlier run left (showHalfDone): only its own failures make
	// a session end failed.
	failedHere bool
	changed    string // the re-read found the card changed
	skipped    bool
	takenOff   map[string]string // choice key -> why it left the card
}

// Model is the inbox screen: a root over its components — the reads
// (feed.go), the card list (list.go, nav.go), the card pane (details.go),
// the write queue (writes.go), the note or confirmation waiting for an
// answer (note.go) and the quit request (quit.go) — each a named field
// that keeps its own state behind its own methods (Update, View, its keys
// where it has them). The root routes each message and key to the one it
// is for, composes their views, and keeps only what ties them together:
// what a read or a write's end means for the cards, and the transcript.
type Model struct {
	c    tui.Common
	deps Deps
	opts Options
	ctx  context.Context
	keys keyMap

	feed   feed       // the reads from GitHub and what they brought
	list   cardList   // the cards, their layout, the cursor, the selection and the filter
	pane   pane       // the card under the cursor: details, its scroll, the confetti
	writes writeQueue // the writes waiting and under way, and what they did
	quit   quitState  // a quit request and the end of input

	pend   *pending // a choice waiting for its second key or its note (note.go)
	status status   // the line under the list

	humanRefusal string     // why this process may not write as the person, or ""
	opening      tui.Screen // to open on top, for the stack to take (open.go)
	away         away       // the screen opened on top, while it shows

	lines []string    // plain transcript
	plain plainPrompt // plain mode: the cards' numbers and the card being asked about
	done  bool
	code  int
}

// cardList is the list: the cards in order, their rows, the cursor, the
// housekeeping selection and the filter (list.go, nav.go).
type cardList struct {
	steps     []model.Step
	rows      []listRow // the list's layout, built once per read
	rowOf     []int     // card index -> row index
	cursor    int
	selected  map[string]bool
	filter    string // "/": only the cards whose label contains it are listed
	filtering bool   // the filter line has the keyboard
	needsYouN int    // needs-you steps at the last read, to notice the last one clearing
}

// pane is the pane that shows the card under the cursor.
type pane struct {
	details      bool
	detailVP     viewport.Model // a card longer than the card pane (details.go)
	detailFor    string         // the card detailVP was laid out for
	celebratedAt time.Time      // when the last job well done began its confetti
	confetti     int
	laidOut      laidOutCard // the last card wrapped, kept for the next key and frame (view.go)
}

// status is the message area under the list (one line, or a few for a
// long message) and the log of the session's messages.
type status struct {
	message string // a refusal or what just happened
	link    string // a URL in message, drawn as an OSC 8 link in the full screen
	log     tui.MessageLog
}

// New returns the inbox screen.
func New(ctx context.Context, c tui.Common, deps Deps, opts Options) *Model {
	if deps.Now == nil {
		deps.Now = time.Now
	}
	// The writes run under their own context: the second quit request
	// cancels them, and nothing else does before the program ends.
	writeCtx, stopWrites := context.WithCancel(ctx)
	m := &Model{
		c: c, deps: deps, opts: opts, ctx: ctx, keys: newKeys(),
		feed: feed{spin: tui.NewSpin()},
		list: cardList{selected: map[string]bool{}},
		writes: writeQueue{
			queue: actions.NewQueue(2), states: map[string]*cardState{},
			bulkActive: map[string]bool{}, finished: map[string]bool{},
			writeCtx: writeCtx, stopWrites: stopWrites, exec: deps.Execute,
		},
	}
	if deps.HumanCheck != nil && !opts.List {
		m.humanRefusal = deps.HumanCheck()
	}
	return m
}

// legend says once, at the top of the plain twin, what every word does.
const legend = "keys: a number picks that choice on the current card; enter does its recommendation; s skips to the next card; " +
	"x N selects housekeeping card N; X selects all housekeeping; C clears all housekeeping; y confirms; d shows details; " +
	"p shows the card's Story's pack; v verifies it; r refreshes; copy N prints card N's link; q quits. " +
	plainOrder

// plainOrder is plain mode's rule on order (keepQuestionLast), said in the
// legend and under ?.
const plainOrder = "Writes run in the background: a result is printed when it lands, then the question again; after r or a ship the question waits for the read. The last line is always the question the next line answers."

type readMsg struct {
	snap model.Snapshot
	at   time.Time
	err  error
}

type cacheMsg struct {
	snap model.Snapshot
	at   time.Time
	ok   bool
}

type jobDoneMsg struct {
	id      string
	outcome Outcome
}

type frameMsg struct{}

// interruptedMsg is the actions log's requests stopped part-way.
type interruptedMsg []actions.Record

// listKeptMsg says --list's read is kept in the cache; the list may end.
type listKeptMsg struct{}

// Init shows the cached read at once and starts a fresh one; when the
// session needs the presence check, it opens that first and reads once it
// is approved (onReturned).
func (m *Model) Init() tea.Cmd {
	if m.deps.Presence != nil && !m.opts.List {
		m.opening, m.away = m.deps.Presence, away{what: "presence"}
		m.deps.Presence = nil
		return nil
	}
	return m.start()
}

// start shows the cached read at once and starts a fresh one.
func (m *Model) start() tea.Cmd {
	if m.opts.List {
		m.say("aayu inbox --list: every step waiting for a person, read-only; nothing is written.")
	} else if m.c.Plain {
		m.say(legend)
	}
	m.feed.reading = true
	cmds := []tea.Cmd{m.readCmd(nil, time.Time{})}
	if m.deps.Interrupted != nil && !m.opts.List {
		load := m.deps.Interrupted
		cmds = append(cmds, func() tea.Msg { return interruptedMsg(load()) })
	}
	if m.deps.LoadCache != nil && !m.opts.List && !m.c.Plain {
		load := m.deps.LoadCache
		cmds = append(cmds, func() tea.Msg {
			snap, at, err := load()
			return cacheMsg{snap: snap, at: at, ok: err == nil}
		})
	}
	if m.c.Plain || m.opts.List {
		m.say("reading GitHub…")
	}
	return tea.Batch(cmds...)
}

func (m *Model) readCmd(prev *model.Snapshot, since time.Time) tea.Cmd {
	return tea.Batch(m.readOnly(prev, since), m.feed.startSpin(m.deps.Now(), !m.c.Plain && !m.opts.List))
}

func (m *Model) readOnly(prev *model.Snapshot, since time.Time) tea.Cmd {
	ctx, read, now := m.ctx, m.deps.Read, m.deps.Now
	var p *model.Snapshot
	if prev != nil {
		cp := *prev
		p = &cp
	}
	if prev != nil || m.opts.List || m.c.Plain {
		return func() tea.Msg {
			at := now()
			snap, err := read(ctx, p, since)
			return readMsg{snap: snap, at: at, err: err}
		}
	}
	ctx, parts := withPartial(ctx)
	return tea.Batch(func() tea.Msg {
		defer close(parts)
		at := now()
		snap, err := read(ctx, p, since)
		return readMsg{snap: snap, at: at, err: err}
	}, waitPartial(parts, now))
}

// Update routes messages; it never does I/O.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.keepQuestionLast()
	m.holdWhileAway()
	if st, ok := m.list.current(); ok {
		// Another card under the cursor: a card too tall for its pane
		// opens at its top.
		m.pane.follow(st.ID())
	}
	return m, cmd
}

// update routes a message to the component it is for: the reads' to the
// feed, the writes' to the queue, the stack's and the person's to the root.
func (m *Model) update(msg tea.Msg) tea.Cmd {
	if cmd, ok := m.updateFeed(msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.c.Styles = tui.NewStyles(msg.IsDark())
	case jobDoneMsg:
		return m.onJobDone(msg)
	case openedMsg:
		m.showLink(msg.number, msg.url, msg.err)
	case tui.CopiedMsg:
		m.tell(m.c.Clipboard.Notice(msg))
	case tui.ReturnedMsg:
		return m.onReturned(msg)
	case tui.QuitRequestMsg:
		return m.onQuitRequest(msg)
	case frameMsg:
		return m.pane.tick()
	case tui.LineMsg, tui.HelpShownMsg:
		return m.onPlainInput(msg)
	case tui.InputClosedMsg:
		return m.onInputClosed()
	case tea.KeyPressMsg:
		return m.onKey(msg)
	case tea.PasteMsg:
		m.onPaste(msg.Content)
	}
	return nil
}

// onPlainInput takes what plain input brings: a typed line, or word that
// "?" printed the keys, after which the question is said again.
func (m *Model) onPlainInput(msg tea.Msg) tea.Cmd {
	if l, ok := msg.(tui.LineMsg); ok {
		return m.onTypedLine(l.Line)
	}
	m.plain.at = -1 // the keys came between: the question again (keepQuestionLast)
	return nil
}

// onTypedLine takes a plain line; one typed ahead (right after the presence
// check, say) waits for the cards it is about instead of acting on none.
func (m *Model) onTypedLine(line string) tea.Cmd {
	if m.feed.snap == nil && m.feed.readErr == nil {
		m.feed.early = append(m.feed.early, line)
		return nil
	}
	return m.onLine(line)
}

// updateFeed takes the messages of the reads: the cached read, a read or
// part of one landing, the actions log's stopped requests, the spinner. It
// reports whether msg was one of them.
func (m *Model) updateFeed(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case cacheMsg:
		if m.feed.takeCache(msg) {
			m.setSteps(model.Derive(msg.snap))
		}
	case readMsg:
		return m.onRead(msg), true
	case partialMsg:
		return m.onPartial(msg), true
	case listKeptMsg:
		return m.finish(), true
	case interruptedMsg:
		m.feed.interrupted = msg
		for _, st := range m.list.steps {
			m.showHalfDone(st)
		}
	case spinner.TickMsg:
		return m.feed.Update(msg), true
	default:
		return nil, false
	}
	return nil, true
}

func (m *Model) onRead(msg readMsg) tea.Cmd {
	cmd, save := m.applyRead(msg)
	return tea.Batch(save, cmd)
}

// applyRead takes a read in; it returns what to do next and the command
// that keeps the read in the cache.
func (m *Model) applyRead(msg readMsg) (next tea.Cmd, save tea.Cmd) {
	if msg.err != nil {
		m.feed.takeAsked()
		return m.readFailed(msg.err), nil
	}
	first, asked := m.feed.land(msg)
	s := msg.snap
	if asked {
		m.tell(fmt.Sprintf("Refreshed: the cards are as GitHub had them at %s.", clock(msg.at)))
	}
	// Keeping the last read is a write: a command, like every other, and
	// best effort, since the cache is never acted on.
	var saveCmd tea.Cmd
	if m.deps.SaveCache != nil && !m.opts.DryRun {
		save, at := m.deps.SaveCache, msg.at
		saveCmd = func() tea.Msg { _ = save(s, at); return nil }
	}
	before := m.list.needsYouN
	m.setSteps(m.writes.notFinished(model.Derive(s)))
	if m.opts.List {
		m.sayList()
		if saveCmd == nil {
			return m.finish(), nil
		}
		// The screen ends only once the read is kept, so the next --list
		// starts warm from it: a command returned with the finish is not run.
		return func() tea.Msg { saveCmd(); return listKeptMsg{} }, nil
	}
	if m.c.Plain {
		if cmd, ended := m.plainRead(first); ended {
			return cmd, saveCmd
		}
	}
	if !first && before > 0 && m.list.needsYouN == 0 && m.noFailures() {
		return m.jobWellDone("Job well done: nothing waits for you now."), saveCmd
	}
	return nil, saveCmd
}

// readFailed takes a failed read in: the last good cards stay, marked
// stale; with none to show, the inbox says so (and --list, CI and plain
// mode end).
func (m *Model) readFailed(err error) tea.Cmd {
	if m.feed.dropPartial() {
		m.setSteps(nil)
	}
	m.feed.readErr = err
	why := tui.SanitizeLine(err.Error())
	if m.feed.snap != nil && !m.feed.cached && !m.opts.List {
		// The last good cards stay, marked stale: a failed read says
		// nothing about them, and each write re-reads its item anyway.
		m.feed.stale = true
		m.tell(fmt.Sprintf("The read from GitHub failed: %s. The cards shown are stale, from the read at %s; r tries again.", why, clock(m.feed.readAt)))
		if m.c.Plain && m.quit.inputClosed && m.writes.running == 0 {
			return m.finish()
		}
		return nil
	}
	m.status.message = "The read from GitHub failed: " + why
	m.say("failed: the inbox could not be read from GitHub: " + why)
	if m.feed.snap == nil || m.opts.List || m.c.Plain {
		m.code = tui.ExitFailed
		if m.opts.List || m.c.CI || m.c.Plain {
			return m.finish()
		}
	}
	return nil
}

// plainRead goes on in plain mode once a read landed: the list on the
// first read, the card being asked about, then the lines typed before
// the read; the end of input ends the inbox once no write runs. It reports
// whether it decided what comes next.
func (m *Model) plainRead(first bool) (tea.Cmd, bool) {
	if first {
		m.sayList()
	}
	m.askCurrent(false) // only if the read moved the cursor to another card
	if early := m.feed.early; len(early) > 0 {
		m.feed.early = nil
		var cmds []tea.Cmd
		for _, l := range early {
			if m.done {
				break
			}
			cmds = append(cmds, m.onLine(l))
		}
		if !m.done && m.quit.inputClosed {
			m.quit.quitting = true // finish once the writes the lines started end
			if m.writes.running == 0 {
				cmds = append(cmds, m.finish())
			}
		}
		return tea.Batch(cmds...), true
	}
	if m.quit.inputClosed && m.writes.running == 0 {
		return m.finish(), true
	}
	return nil, false
}

// setSteps replaces the cards, keeping the cursor on the same card. A
// card whose write failed (or is under way) stays although the read no
// longer lists it: its writes may have landed only in part (the label
// added, the comment not), and Enter on it finishes them.
func (m *Model) setSteps(steps []model.Step) {
	var curID string
	if m.list.cursor < len(m.list.steps) {
		curID = m.list.steps[m.list.cursor].ID()
	}
	listed := map[string]bool{}
	for _, st := range steps {
		listed[st.ID()] = true
	}
	for _, old := range m.list.steps {
		if cs := m.writes.states[old.ID()]; cs != nil && (cs.failure != nil || cs.running) && !listed[old.ID()] {
			steps = append(steps, old)
		}
	}
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].Group < steps[j].Group })
	for _, st := range steps {
		m.showHalfDone(st)
	}
	m.list.steps = steps
	m.list.relayout()
	for i, st := range steps {
		if st.ID() == curID {
			m.list.cursor = i
		}
	}
	if m.list.cursor >= len(steps) {
		m.list.cursor = max(0, len(steps)-1)
	}
}

// showHalfDone shows a card an earlier run left half done as the failure
// card it was then (feed.halfDone), unless it shows a failure or a write
// of this run already.
func (m *Model) showHalfDone(st model.Step) {
	cs := m.writes.state(st.ID())
	if cs.failure != nil || cs.running {
		return
	}
	if f := m.feed.halfDone(st); f != nil {
		cs.failure = f
	}
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// clock is a read's time as the header and messages say it.
func clock(t time.Time) string { return t.UTC().Format("15:04:05 UTC") }

// noFailures says whether no listed card shows a failure.
func (m *Model) noFailures() bool { return m.writes.noFailures(m.list.steps) }

// finish ends the screen; the log of failures is printed on quit.
func (m *Model) finish() tea.Cmd {
	m.done = true
	if m.writes.failedHere(m.list.steps) {
		// A write of this session that failed and was not finished since
		// is what the person did not get done: the session ends failed
		// (SPEC §3). A card an earlier run left half done is not.
		m.code = tui.Worst(m.code, tui.ExitFailed)
	}
	for _, l := range m.writes.takeLog() {
		m.say(l)
	}
	if m.quit.summaryOnQuit {
		m.sayQuitSummary()
	}
	if l, code := m.quit.line(m.code); l != "" {
		m.code = code
		m.say(l) // the last line says what the quit request found and did
		m.writes.history = append(m.writes.history, l)
	}
	m.writes.stopWrites() // nothing runs any more; release the context
	return tea.Quit
}

func (m *Model) jobWellDone(words string) tea.Cmd {
	m.status.message = words
	m.say(words)
	if m.c.Motion && !m.c.Plain {
		return m.pane.celebrate(m.deps.Now())
	}
	return nil
}

// confettiFrames at frameEvery is at most a second and a half of motion.
const (
	confettiFrames = 15
	frameEvery     = 100 * time.Millisecond
)

func frameTick() tea.Cmd { return tea.Tick(frameEvery, func(time.Time) tea.Msg { return frameMsg{} }) }

// Epilogue is left on the terminal when the full screen closes: what this
// run wrote, what did not finish, and the details of each failure, under
// the Headline that names the inbox in the quit summary.
func (m *Model) Epilogue() []string {
	if m.c.Plain {
		return nil
	}
	return m.writes.epilogue()
}

// Headline is how the inbox session ended, for the quit summary.
func (m *Model) Headline() string {
	if len(m.writes.history) == 0 {
		return fmt.Sprintf("no choice written from its cards (exit %d)", m.code)
	}
	return fmt.Sprintf("what this run did, each write below (exit %d):", m.code)
}

// Transcript returns the plain lines; while another screen is on top, only
// those said before it opened (holdWhileAway).
func (m *Model) Transcript() []string {
	if m.plain.holding && m.plain.held <= len(m.lines) {
		return m.lines[:m.plain.held]
	}
	return m.lines
}

// Done reports whether the screen is over and its exit code.
func (m *Model) Done() (bool, int) { return m.done, m.code }

func (m *Model) say(l string) { m.lines = append(m.lines, l) }

// Keys lists the bindings for the help line; a binding that cannot be used
// now stays listed and says why.
func (m *Model) Keys() []key.Binding {
	k := m.keys
	if m.quit.quitAsk {
		return []key.Binding{k.WaitAll, k.WaitRunning, k.Back}
	}
	if m.pend != nil {
		return m.pend.Keys(k)
	}
	if m.list.filtering {
		return []key.Binding{k.FilterDone, k.ClearFilter}
	}
	act := k.Act
	if why := m.writeBlocked(); why != "" {
		act = tui.Disable(act, why)
	}
	// enter first: the one key that does the card's recommendation stays
	// on the help line at 40 columns, where the arrows are cut.
	ks := []key.Binding{act, k.Up, k.Down, k.Pick, k.Skip, k.Select, k.Details, k.Refresh, k.Copy}
	if m.detailsOverflow() {
		ks = append([]key.Binding{scrollDetails}, ks...)
	}
	if m.list.filter != "" {
		ks = append(ks, k.ClearFilter)
	}
	if _, cut := m.messageArea(max(m.c.Width, 20)); cut {
		ks = append(ks, tui.MessagesKey)
	}
	return append(ks, k.Quit)
}

// writeBlocked says why nothing can be written now, or "".
func (m *Model) writeBlocked() string {
	if why := m.feed.notReady(); why != "" || m.opts.DryRun {
		return why
	}
	return m.humanRefusal
}

func describeCount(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
