package ship

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/tui"
)

// Runner runs ship for one pull request, reporting each gate on events and
// asking the person through ask. main wires it to core.Shipper.Run; tests
// to the sandbox or a script.
type Runner func(ctx context.Context, pr int, events chan<- core.Event, ask Ask) (core.Result, error)

// Options say which pull request to ship.
type Options struct {
	PR  int
	Run Runner
	// Summary renders the verified pack as lines for the pack view
	// (screens/pack.Summary).
	Summary func(core.Result) []string
	// Presence builds the presence check's screen when the run needs one;
	// nil refuses such a run.
	Presence func(req core.PresenceRequest) (PresenceScreen, error)
	// OnClose releases what the screen was built with (its work folder)
	// when it leaves the screen stack.
	OnClose func()
	// URL is the pull request's web address, which the copy key (c)
	// copies once the run has ended; "" binds no copy key.
	URL string
	// Now is the clock a waiting gate's time is counted by; nil means
	// time.Now (tests fix it, so goldens do not move).
	Now func() time.Time
}

type gateLine struct {
	state  core.State
	words  string
	detail []string
	since  time.Time // when it began being checked
}

type eventMsg core.Event

type resultMsg struct {
	res core.Result
	err error
}

// Model is the ship screen: a root over its components — the run in the
// background (run), the presence check shown inside it (presence), the
// confirmation (question), the pack (packView) — with the shared chrome
// from tui: the scrolling body, the spinner line and the help line.
type Model struct {
	c      tui.Common
	opts   Options
	ctx    context.Context
	pushed bool // opened on top of the inbox: esc at rest goes back
	keys   keyMap

	run      run      // the run: its gates, its result, a quit request
	presence presence // the presence check while it is shown (ask.go)
	question question // the confirmation while it waits for an answer (ask.go)
	packView packView // the pack, once the run verified one (view.go)

	scroll tui.ScrollBody // the body under its title (scroll.go)
	spin   tui.Spin       // beside a gate that waits on GitHub (motion.go)
	now    func() time.Time
	// copied is the copy key's confirmation, shown in place of the help
	// line until the next key.
	copied string

	lines []string
	done  bool
	code  int
}

// run is ship's run in the background: the channels it reports and asks
// through, each gate's line, the result, and a quit request.
type run struct {
	cancel  context.CancelFunc // stops the run: q before it finished, or the stack closing the screen
	events  chan core.Event
	asks    chan tea.Msg
	gates   map[core.GateID]*gateLine
	said    map[core.GateID]core.State
	result  *core.Result
	err     error
	pending *resultMsg // the run's result, waiting for the last gate event
	drained bool       // the end-of-run marker has arrived
	// stopWhy is the quit request (ctrl+c, SIGTERM) being honoured, and
	// stopAfter tells the run to stop after the write under way (quit.go).
	stopWhy   string
	stopAfter *atomic.Bool

	// saidDetail is each gate's detail lines said since its state last
	// changed: an outcome told again says only what it adds.
	saidDetail map[core.GateID][]string
}

// presence is the presence check while it is shown, and where its answer
// goes.
type presence struct {
	sub        PresenceScreen
	subReply   chan presenceReply
	subPrinted int
	// presenceWhy is the presence check's own words when it ended without
	// an approval.
	presenceWhy []string
}

// question is the confirmation while it waits for an answer.
type question struct {
	confirm      *core.Plan
	confirmReply chan bool
	inputClosed  bool    // plain: standard input ended, so no answer can come
	markerSeen   bool    // the gate events before the next question are shown
	held         tea.Msg // a question that came before its marker
	// confirmed: the person answered yes, so writes are under way.
	confirmed bool
}

// packView is the pack's summary, made once when the run ends, and its
// wrapping for the width it was last drawn at.
type packView struct {
	showPack    bool
	packSummary []string
	packWrapped []string
	packWidth   int
}

type keyMap struct {
	tui.KeyMap
	Pack key.Binding
	Back key.Binding
	Yes  key.Binding
	No   key.Binding
	Copy key.Binding
}

// New returns the ship screen for one pull request.
func New(ctx context.Context, c tui.Common, opts Options) *Model {
	ctx, cancel := context.WithCancel(ctx)
	m := &Model{
		c: c, opts: opts, ctx: ctx,
		run: run{cancel: cancel, events: make(chan core.Event, 64), asks: make(chan tea.Msg),
			gates: map[core.GateID]*gateLine{}, said: map[core.GateID]core.State{}, saidDetail: map[core.GateID][]string{}, stopAfter: new(atomic.Bool)},
		keys: keyMap{KeyMap: tui.DefaultKeys(),
			Pack: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "the pack")),
			Back: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
			Yes:  tui.YesKey("yes, write these"),
			No:   tui.NoKey("no, write nothing"),
			Copy: tui.CopyKey()},
		spin: tui.NewSpin(), now: opts.Now,
	}
	if m.now == nil {
		m.now = time.Now
	}
	for _, g := range core.Gates() {
		m.run.gates[g] = &gateLine{state: core.Waiting}
	}
	m.say(fmt.Sprintf("aayu ship #%d: every gate that only reads is checked first; only when all pass does ship ask for the presence check (where needed) and then your yes to the writes it lists. Answer y to write them; any other answer writes nothing.", opts.PR))
	return m
}

// Init starts the run in the background.
func (m *Model) Init() tea.Cmd {
	ctx, pr, run, events, asks, ask := m.ctx, m.opts.PR, m.opts.Run, m.run.events, m.run.asks, m.ask()
	start := func() tea.Msg {
		res, err := run(ctx, pr, events, ask)
		close(asks) // the run asks nothing more
		// The end marker goes through the same channel as the gates, so the
		// outcome is written only after every gate's line.
		events <- core.Event{Gate: endOfRun}
		return resultMsg{res: res, err: err}
	}
	return tea.Batch(start, m.next(), m.nextAsk())
}

// next delivers the next gate event.
func (m *Model) next() tea.Cmd {
	events := m.run.events
	return func() tea.Msg { return eventMsg(<-events) }
}

// Update fills in the gates; it does no I/O. The run's questions, a quit
// request and the stack's messages come first; while the presence check
// shows, every other message but the run's is its own.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tui.InputClosedMsg); ok {
		m.question.inputClosed = true
	}
	if t, ok := msg.(spinner.TickMsg); ok && t.ID == m.spin.ID() {
		return m, m.onSpin(t)
	}
	if cmd, ok := m.routeFirst(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.c.Styles = tui.NewStyles(msg.IsDark())
	case eventMsg:
		return m, m.onEventMsg(msg)
	case resultMsg:
		m.run.pending = &msg
		return m, m.finishIfReady()
	case tui.LineMsg:
		m.onLine(msg.Line)
	case tui.InputClosedMsg:
		// End of input is never a yes.
		m.answer(false)
	case tui.CopiedMsg:
		m.copied = m.c.Clipboard.Notice(msg)
	case tea.KeyPressMsg:
		m.copied = ""
		return m, m.onKey(msg)
	}
	return m, nil
}

// routeFirst takes the messages that come before the screen's own: the
// stack's, the run's questions, a quit request, and, while the presence
// check shows, everything but the run's events. It reports whether msg
// was one of them.
func (m *Model) routeFirst(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tui.PushedMsg:
		m.pushed = true
		return nil, true
	case askPresenceMsg, askConfirmMsg:
		return m.onAsk(msg), true
	case tui.QuitRequestMsg:
		return m.onQuitRequest(msg), true
	case eventMsg, resultMsg:
		return nil, false
	}
	if m.presence.sub == nil {
		return nil, false
	}
	if sz, ok := msg.(tea.WindowSizeMsg); ok {
		m.c.Width, m.c.Height = sz.Width, sz.Height
	}
	return m.updateSub(msg), true
}

// onEventMsg takes one of the run's events: a gate's state, the marker
// before a question, or the end of the run.
func (m *Model) onEventMsg(msg eventMsg) tea.Cmd {
	switch msg.Gate {
	case askMarker:
		return tea.Batch(m.onMarker(), m.next())
	case endOfRun:
		m.run.drained = true
		return m.finishIfReady()
	}
	m.onEvent(core.Event(msg))
	return tea.Batch(m.next(), m.startSpin())
}

// onLine takes a plain line: the answer to the confirmation, or, before
// it, a line that is not taken as one.
func (m *Model) onLine(line string) {
	switch {
	case m.question.confirmReply != nil:
		m.answer(tui.YesLine(line))
	case line != "" && m.run.result == nil:
		// A yes typed before the writes are listed is not a yes to them.
		m.say(fmt.Sprintf("not taken: %q — ship asks nothing yet; the question comes once every gate that only reads has passed", tui.SanitizeLine(line)))
	}
}

func (m *Model) onEvent(e core.Event) {
	g, ok := m.run.gates[e.Gate]
	if !ok {
		return
	}
	if e.State == core.Running && g.state != core.Running {
		g.since = m.now()
	}
	g.state, g.words, g.detail = e.State, e.Words, e.Detail
	if e.Gate == core.GatePresence && e.State == core.Refused && len(m.presence.presenceWhy) > 0 {
		g.detail = append(append([]string(nil), e.Detail...), m.presence.presenceWhy...)
	}
	if e.State == core.Running || e.State == core.Waiting {
		return
	}
	if m.run.said[e.Gate] != e.State {
		m.run.said[e.Gate] = e.State
		m.run.saidDetail[e.Gate] = nil
		m.say(fmt.Sprintf("%s: %s%s", e.Gate.Title(), stateWord(e.State), optional(" — ", e.Words)))
	}
	// The same outcome told again says only what it adds: a refused ship's
	// human pass comes again naming the Ready to ship comment it posted,
	// which a plain transcript must show as the full screen does.
	for _, d := range e.Detail {
		if !slices.Contains(m.run.saidDetail[e.Gate], d) {
			m.run.saidDetail[e.Gate] = append(m.run.saidDetail[e.Gate], d)
			m.say("  " + tui.SanitizeLine(d))
		}
	}
}

// endOfRun marks the last event of a run.
const endOfRun core.GateID = 0

// finishIfReady writes the outcome once both the result and every gate
// event have arrived, in whichever order they came.
func (m *Model) finishIfReady() tea.Cmd {
	if m.run.pending == nil || !m.run.drained || m.run.result != nil {
		return nil
	}
	return m.onResult(*m.run.pending)
}

func (m *Model) onResult(msg resultMsg) tea.Cmd {
	res := msg.res
	m.run.result, m.run.err = &res, msg.err
	if m.opts.Summary != nil {
		m.packView.packSummary = m.opts.Summary(res)
	}
	m.code = res.ExitCode
	if m.c.Plain && tui.Linkable(m.opts.URL) {
		// Plain mode's copy key: it writes no clipboard (its output may
		// be a pipe or a log), so the link is a line of its own to copy; it
		// comes before the outcome, which stays the last line said.
		m.say(fmt.Sprintf("The link to #%d, to copy:", m.opts.PR))
		m.say(m.opts.URL)
	}
	switch {
	case msg.err != nil:
		m.code = tui.ExitFailed
		m.say("failed: " + tui.SanitizeLine(msg.err.Error()))
		if res.Unfinished != "" {
			m.say(landedWords(res))
		} else if res.Merged {
			m.say("The pull request is merged; run aayu ship again to finish the record. It will not merge twice.")
		} else if errors.Is(msg.err, core.ErrMergeUnknown) {
			m.say(fmt.Sprintf("It may have merged: run aayu ship %d again to find out; it merges only once.", m.opts.PR))
		} else {
			m.say("Nothing was merged. Fix what is named above and run aayu ship again.")
		}
	case res.Shipped:
		m.say(fmt.Sprintf("shipped: #%d merged as %s; the record is on the ledger at %s.", m.opts.PR, tui.SanitizeLine(res.MergeCommit), tui.SanitizeLine(res.LedgerDir)))
	case res.Merged:
		m.say(fmt.Sprintf("merged as %s, but not finished: %s. Run aayu ship %d again to finish it; it will not merge twice.", tui.SanitizeLine(res.MergeCommit), tui.SanitizeLine(res.Unfinished), m.opts.PR))
	case res.Cancelled:
		m.say(fmt.Sprintf("cancelled: you did not answer yes, so nothing was merged and nothing landed (exit %d).", res.ExitCode))
	default:
		m.say(fmt.Sprintf("refused: nothing was merged and nothing landed (exit %d).", res.ExitCode))
	}
	m.say(fmt.Sprintf("result: exit %d%s", m.code, m.stopSuffix()))
	if m.refusedOutright() {
		// The reason leads the body: show it from the top.
		m.scroll.ToTop()
	}
	if m.c.Plain || m.c.CI || m.run.stopWhy != "" {
		m.done = true
		return tea.Quit
	}
	return nil
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	if m.onScroll(msg) {
		return nil
	}
	if m.question.confirmReply != nil {
		m.onConfirmKey(msg)
		return nil
	}
	switch {
	case m.packView.showPack && key.Matches(msg, k.Back):
		m.packView.showPack = false
	case m.pushed && m.run.result != nil && key.Matches(msg, k.Back):
		m.done = true // back to the inbox; the verdict is on its page
		return nil
	case m.canCopy() && key.Matches(msg, k.Copy):
		return m.copyLink()
	case key.Matches(msg, k.Pack):
		if m.packReady() == "" {
			m.packView.showPack = !m.packView.showPack
		}
	case key.Matches(msg, k.Quit):
		return m.quit()
	}
	return nil
}

// onConfirmKey answers the confirmation: y (once the last write listed
// has been in view) or n.
func (m *Model) onConfirmKey(msg tea.KeyPressMsg) {
	k := m.keys
	if m.question.confirm != nil && !m.c.Plain {
		// Lay the frame out at the current size first, so a yes is to
		// what the terminal shows now, not at the last frame drawn.
		_ = m.render()
	}
	switch {
	case key.Matches(msg, k.Yes) && m.writesHidden():
		// A yes must be to writes the person could see, and a y is
		// never silently lost: the first shows the last write and
		// the answers (as G), the next one writes.
		m.scroll.ToEnd()
	case key.Matches(msg, k.Yes):
		m.answer(true)
	case key.Matches(msg, k.No):
		m.answer(false)
	}
}

// quit ends the screen. Quitting cancels a run not yet finished; the core
// never stops a write half done, and a later run finishes the record.
func (m *Model) quit() tea.Cmd {
	if m.run.result == nil {
		m.run.cancel()
		m.code = tui.ExitFailed
		m.say("stopped before ship finished; run aayu ship again to see where it stands (exit 1)")
	}
	m.done = true
	return tea.Quit
}

// packReady says why the pack cannot be shown yet, or "".
func (m *Model) packReady() string {
	switch {
	case m.run.result == nil:
		return "the gate pack is still being checked"
	case m.run.result.Pack == nil:
		return "no merge-gate run qualified, so there is no pack to show"
	}
	return ""
}

// Keys lists the bindings; the pack key stays visible with why it is not
// available yet.
func (m *Model) Keys() []key.Binding {
	if m.presence.sub != nil {
		return m.presence.sub.Keys()
	}
	if m.question.confirmReply != nil && m.c.Width < 80 {
		return m.narrowConfirmKeys()
	}
	return m.FullKeys()
}

// FullKeys are every key in full words, for the ? screen.
func (m *Model) FullKeys() []key.Binding {
	k := m.keys
	if m.presence.sub != nil {
		return m.presence.sub.Keys()
	}
	if m.question.confirmReply != nil {
		if m.writesHidden() {
			return m.withScrollKeys([]key.Binding{key.NewBinding(key.WithKeys(k.Yes.Keys()...), key.WithHelp(k.Yes.Help().Key, "end, then yes")), k.No}, false)
		}
		return m.withScrollKeys([]key.Binding{k.Yes, k.No}, false)
	}
	if m.packView.showPack {
		return m.withScrollKeys([]key.Binding{k.Back, k.Quit}, false)
	}
	pack := k.Pack
	if why := m.packReady(); why != "" {
		pack = tui.Disable(pack, why)
	}
	keys := []key.Binding{pack}
	if m.canCopy() {
		keys = append(keys, k.Copy)
	}
	if m.pushed && m.run.result != nil {
		// Opened from the inbox: esc goes back to it.
		return m.withScrollKeys(append(keys, tui.BackKey(), k.Quit), true)
	}
	return m.withScrollKeys(append(keys, k.Quit), true)
}

// Transcript returns the plain lines.
func (m *Model) Transcript() []string { return m.lines }

// Done reports whether the screen is over and its exit code.
func (m *Model) Done() (bool, int) { return m.done, m.code }

func (m *Model) say(l string) { m.lines = append(m.lines, l) }

func stateWord(s core.State) string {
	switch s {
	case core.Waiting:
		return "waiting"
	case core.Running:
		return "checking"
	case core.Passed:
		return "passed"
	case core.Refused:
		return "refused"
	case core.Skipped:
		return "skipped"
	case core.Failed:
		return "failed"
	}
	return s.String()
}

func optional(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + tui.SanitizeLine(s)
}

// Close stops the run if it is still going and releases the screen's work
// folder; the screen stack calls it when the screen leaves the stack.
func (m *Model) Close() {
	m.run.cancel()
	if m.opts.OnClose != nil {
		m.opts.OnClose()
	}
}

// narrowConfirmKeys are the confirmation's keys in words short enough for
// 40 columns: the yes (or how to reach it) is never the part cut to "y/…".
func (m *Model) narrowConfirmKeys() []key.Binding {
	k := m.keys
	no := key.NewBinding(key.WithKeys(k.No.Keys()...), key.WithHelp("n/esc/q", "no"))
	if m.writesHidden() {
		end := key.NewBinding(key.WithKeys(append(k.Yes.Keys(), tui.ScrollEnd.Keys()...)...), key.WithHelp("y/G", "end, then y"))
		return []key.Binding{end, no}
	}
	return []key.Binding{key.NewBinding(key.WithKeys(k.Yes.Keys()...), key.WithHelp("y", "yes")), no}
}
