package inbox

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/aayudha/aayu/actions"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// onKey handles a key in the full screen: a question waiting for its
// answer takes it first, then the list's keys, then the card's.
func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	m.pane.calm() // any key carries on
	if m.status.log.Open() {
		m.onLogKey(msg)
		return nil
	}
	if cmd, asked := m.onAnswerKey(msg); asked {
		return cmd
	}
	if m.onLogKey(msg) {
		return nil
	}
	k := m.keys
	// A re-read may have put the cursor on a card the filter hides.
	m.list.keepCursorListed()
	if m.list.noneListed() && !key.Matches(msg, k.Quit, k.Refresh, k.Filter, k.ClearFilter) {
		m.status.message = "No card matches the filter; esc clears it."
		return nil
	}
	if m.onDetailsScroll(msg) {
		return nil
	}
	if handled, moved := m.list.Update(msg, k.Up, k.Down, k.listKeys, m.list.pageSize(m.c.Width, m.c.Height+1-m.messageRows())); handled {
		if moved {
			m.pane.details = false
		}
		return nil
	}
	return m.onCardKey(msg)
}

// onAnswerKey gives a key to the question waiting for it, if one is: the
// quit question, the note, the filter line or the confirmation. It
// reports whether one was.
func (m *Model) onAnswerKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	switch {
	case m.quit.quitAsk:
		switch {
		case key.Matches(msg, k.WaitAll):
			return m.quitWaiting(false), true
		case key.Matches(msg, k.WaitRunning):
			return m.quitWaiting(true), true
		case key.Matches(msg, k.Back):
			m.quit.quitAsk = false
			m.status.message = ""
		}
		return nil, true
	case m.pend != nil && m.pend.note:
		return m.onNoteKey(msg), true
	case m.list.filtering:
		if m.list.updateFilter(msg) {
			m.pane.details = false
		}
		return nil, true
	case m.pend != nil:
		if key.Matches(msg, k.Confirm) {
			if !m.confirmShown() {
				m.status.message = tooShort
				return nil, true
			}
			return m.confirm(), true
		}
		return m.cancel(), true
	}
	return nil, false
}

// onCardKey handles a key that acts on the card under the cursor, or on
// the whole inbox.
func (m *Model) onCardKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.askQuit()
	case key.Matches(msg, k.Act):
		return m.bulkOrPick("enter")
	case key.Matches(msg, k.Pick):
		return m.pick(msg.String())
	case key.Matches(msg, k.Skip):
		m.skip()
		m.list.keepCursorListed()
	case key.Matches(msg, k.SelectAll):
		m.selectAll()
	case key.Matches(msg, k.ClearHouse):
		m.clearHousekeeping()
	case key.Matches(msg, k.Select):
		m.selectOne(m.list.cursor)
	case key.Matches(msg, k.Details):
		m.pane.details = !m.pane.details
		m.pane.detailVP.GotoTop()
	case key.Matches(msg, k.Refresh):
		return m.refresh()
	case key.Matches(msg, k.Pack):
		return m.openStory("pack")
	case key.Matches(msg, k.Verify):
		return m.openStory("verify")
	case key.Matches(msg, k.Copy):
		return m.copyLink()
	}
	return nil
}

// onPaste takes pasted text into the line that has the keyboard; pasted
// anywhere else it is dropped, since no other key takes text.
func (m *Model) onPaste(s string) {
	switch {
	case m.pend != nil && m.pend.note:
		m.updateNote(tea.PasteMsg{Content: pasted(s)})
	case m.list.filtering:
		m.list.setFilter(m.list.filter + pasted(s))
		m.pane.details = false
	}
}

// onLine handles one line typed in plain mode: a question waiting for its
// answer takes it first, then the card's words, then the list's.
func (m *Model) onLine(line string) tea.Cmd {
	line = strings.TrimSpace(line)
	word := strings.ToLower(line)
	if cmd, asked := m.onAnswerLine(line, word); asked {
		return cmd
	}
	switch {
	case word == "q":
		m.quit.summaryOnQuit = true // said once the inbox finishes, after the writes it waits for
		return m.askQuit()
	case word == "" || word == "enter":
		return m.bulkOrPick("enter")
	case word == "s":
		m.skip()
	case word == "d":
		m.pane.details = true
		m.sayDetails()
	case word == "r":
		return m.refresh()
	case word == "p":
		return m.openStory("pack")
	case word == "v":
		return m.openStory("verify")
	case len(word) == 1 && word[0] >= '1' && word[0] <= '9':
		return m.pick(word)
	default:
		m.onListLine(line, word)
	}
	return nil
}

// onAnswerLine gives a line to the question waiting for it, if one is: the
// quit question, the note or the confirmation. It reports whether one was.
func (m *Model) onAnswerLine(line, word string) (tea.Cmd, bool) {
	switch {
	case m.quit.quitAsk:
		switch word {
		case "a":
			return m.quitWaiting(false), true
		case "w":
			return m.quitWaiting(true), true
		}
		m.quit.quitAsk = false
		m.say("not quitting.")
		return nil, true
	case m.pend != nil && m.pend.note:
		return m.submitNote(pasted(line)), true // cleaned as in the full screen
	case m.pend != nil:
		if word == "y" {
			return m.confirm(), true
		}
		return m.cancel(), true
	}
	return nil, false
}

// onListLine handles the plain words about the list: the housekeeping
// selection, a card's link, the list itself; anything else is refused.
func (m *Model) onListLine(line, word string) {
	switch {
	case line == "X":
		m.selectAll()
	case line == "C":
		m.clearHousekeeping()
	case word == "copy" || strings.HasPrefix(word, "copy "):
		m.sayLink(word[len("copy"):])
	case word == "list":
		m.sayList()
	case strings.HasPrefix(word, "x"):
		if i, ok := m.cardNumbered("x", word[1:]); ok {
			m.selectOne(i)
		}
	default:
		m.say(fmt.Sprintf("refused: %q is not a key here. %s", tui.SanitizeLine(line), legend))
	}
}

func (m *Model) tell(s string) {
	m.status.message, m.status.link = s, ""
	m.say(s)
}

// bulkOrPick: Enter with housekeeping selected does each one's
// recommendation after one confirmation; otherwise it is the current
// card's recommendation.
func (m *Model) bulkOrPick(k string) tea.Cmd {
	if len(m.list.selected) > 0 {
		return m.askBulk()
	}
	return m.pick(k)
}

func (m *Model) pick(k string) tea.Cmd {
	st, ok := m.list.current()
	if !ok {
		m.tell("Nothing waits for you.")
		return nil
	}
	if pr, _, stopped := m.feed.stoppedShip(st); stopped {
		// A ship stopped after its merge: Enter finishes it with ship, and
		// marking it merged without proof asks first.
		if k == "enter" {
			if m.deps.OpenShip == nil || m.opts.DryRun {
				m.tell(fmt.Sprintf("Finish it with: aayu ship %d", pr))
				return nil
			}
			return m.openShip(pr, m.feed.snap != nil && m.feed.snap.SoloMode)
		}
		if c, refusal := model.Pick(st, k); refusal == "" && c.Key != model.SkipKey && !c.NeedsConfirm {
			c.NeedsConfirm = true
			c.Confirm = fmt.Sprintf("%s on %s #%d — aayu ship %d stopped part-way, and finishing it would record its proof. It will %s. "+model.ConfirmHint,
				capitalise(c.Label), st.Kind.Words(), st.Item.Number, pr, c.Describe())
			return m.askConfirm(st, c)
		}
	}
	c, refusal := model.Pick(st, k)
	if refusal != "" {
		m.tell("refused: " + refusal)
		return nil
	}
	if why, gone := m.writes.state(st.ID()).takenOff[c.Key]; gone {
		m.tell("refused: this action failed in a way pressing Enter again cannot fix (" + why + ")")
		return nil
	}
	if c.Key == model.SkipKey {
		m.skip()
		return nil
	}
	if c.NeedsNote != "" {
		m.pend = &pending{stepID: st.ID(), choice: c, note: true, noteIn: newNote()}
		m.tell(c.NeedsNote)
		m.asked()
		return nil
	}
	if c.NeedsConfirm {
		return m.askConfirm(st, c)
	}
	return m.submit(st, c, "")
}

// askConfirm asks for the second key (y in plain mode) on the card itself.
// Hand-written rather than a huh confirmation: the question belongs to the
// card and is drawn in its pane, next to the list that keeps moving as
// background writes land; a huh form would take over the screen and stop
// the list. The plain twin reads the answer from the one input stream.
func (m *Model) askConfirm(st model.Step, c model.Choice) tea.Cmd {
	m.pend = &pending{stepID: st.ID(), choice: c, confirm: []string{c.Confirm}}
	m.status.message = c.Confirm
	if m.c.Plain {
		m.say(plainConfirm(c.Confirm))
		m.asked()
	}
	return nil
}

// plainConfirm is the confirmation line for the plain twin, where a line of
// input answers: y applies, and no Enter is asked for.
func plainConfirm(line string) string {
	return strings.TrimSuffix(strings.TrimSpace(line), " "+model.ConfirmHint) + " (y applies it; anything else cancels)"
}

func (m *Model) submitNote(note string) tea.Cmd {
	p := m.pend
	note = strings.TrimSpace(note)
	if note == "" {
		m.tell("Write one line on what you checked, or esc to cancel.")
		return nil
	}
	st, ok := model.Find(m.list.steps, p.stepID)
	if !ok {
		m.pend = nil
		m.tell("That card is gone; nothing was written.")
		return nil
	}
	p.note, p.noteBuf = false, note
	if p.choice.NeedsConfirm {
		p.confirm = []string{p.choice.Confirm}
		m.status.message = p.choice.Confirm
		if m.c.Plain {
			m.say(plainConfirm(p.choice.Confirm))
			m.asked()
		}
		return nil
	}
	m.pend = nil
	return m.submit(st, p.choice, note)
}

func (m *Model) confirm() tea.Cmd {
	p := m.pend
	m.pend = nil
	if len(p.bulk) > 0 {
		return m.submitBulk(p.bulk)
	}
	st, ok := model.Find(m.list.steps, p.stepID)
	if !ok {
		m.tell("That card is gone; nothing was written.")
		return nil
	}
	return m.submit(st, p.choice, p.noteBuf)
}

func (m *Model) cancel() tea.Cmd {
	m.pend = nil
	m.tell("Cancelled; nothing was written.") // then the card's question again (keepQuestionLast)
	return nil
}

// submit hands one choice to the write queue, or does what writes nothing.
func (m *Model) submit(st model.Step, c model.Choice, note string) tea.Cmd {
	for _, w := range c.Writes {
		switch w.Kind {
		case model.WriteOpen:
			return m.openItem(w.Number)
		case model.WriteOpenShip:
			if m.deps.OpenShip != nil && !m.opts.DryRun {
				return m.openShip(w.Number, w.Solo)
			}
			m.tell(fmt.Sprintf("Ship #%d with: aayu ship %d%s (the ship screen opens from here in a later version).", w.Number, w.Number, map[bool]string{true: " --solo-bypass"}[w.Solo]))
			return nil
		case model.WriteOpenCommand:
			return m.openCommand(w)
		}
	}
	if m.opts.DryRun {
		m.tell(fmt.Sprintf("dry run: %s #%d would %s; nothing was written.", st.Kind.Words(), st.Item.Number, c.Describe()))
		m.advancePlain()
		return nil
	}
	if why := m.writeBlocked(); why != "" {
		m.tell("refused: " + why)
		return nil
	}
	if m.quit.quitting {
		m.tell("refused: the inbox is quitting once the writes under way finish; no new write starts.")
		return nil
	}
	cs := m.writes.state(st.ID())
	if cs.running {
		m.tell(fmt.Sprintf("A write on #%d is under way; wait for it.", st.Item.Number))
		return nil
	}
	itemKey := fmt.Sprintf("#%d", st.Item.Number)
	if m.deps.ItemKey != nil {
		itemKey = m.deps.ItemKey(st)
	}
	start := m.writes.submit(actions.Job{ID: st.ID(), Key: itemKey, Req: Request{Step: st, Choice: c, Note: note}}, c.Key)
	m.tell(fmt.Sprintf("%s #%d: writing in the background (%s).", st.Kind.Words(), st.Item.Number, c.Label))
	if !m.writes.inBulk {
		m.advancePlain()
	}
	return start
}

// onJobDone takes a write's outcome in: the card says what happened, the
// next writes start, and a read follows so the cards are as GitHub has
// them.
func (m *Model) onJobDone(msg jobDoneMsg) tea.Cmd {
	// The finished write's slot and item are free: the next writes start.
	next, cs, wasBulk := m.writes.Update(msg)
	cmds := []tea.Cmd{next}
	o := msg.outcome
	label := msg.id
	if st, ok := model.Find(m.list.steps, msg.id); ok {
		label = fmt.Sprintf("%s #%d", st.Kind.Words(), st.Item.Number)
	}
	m.quit.count(o)
	histFrom := len(m.lines)
	defer func() { m.writes.history = append(m.writes.history, m.lines[histFrom:]...) }()
	switch {
	case o.Changed:
		m.jobChanged(cs, label, o)
	case o.Failure != nil:
		m.jobFailed(cs, label, o.Failure)
	case o.Done:
		cmds = append(cmds, m.jobLanded(cs, msg.id, label, o, wasBulk))
	}
	if wasBulk && len(m.writes.bulkActive) == 0 && m.noFailures() && !m.list.housekeepingLeft() {
		cmds = append(cmds, m.jobWellDone("Job well done: the housekeeping is clear."))
	}
	if m.feed.snap != nil && !m.feed.reading && m.quit.stop == nil {
		m.feed.reading = true
		cmds = append(cmds, m.readCmd(m.feed.snap, m.feed.readAt))
	}
	if m.quit.quitting && m.writes.running == 0 {
		cmds = append(cmds, m.finish())
	}
	return tea.Batch(cmds...)
}

// jobChanged: the re-read before the write found the card changed, so
// nothing was written; the card shows it as it is now.
func (m *Model) jobChanged(cs *cardState, label string, o Outcome) {
	cs.changed = "It changed on GitHub since it was shown, so nothing was written; the card now shows it as it is."
	if o.ChangedWhat != "" {
		cs.changed += " (" + tui.SanitizeLine(o.ChangedWhat) + ")"
	}
	m.tell(fmt.Sprintf("not done: %s — %s", label, cs.changed))
	if o.Now != nil {
		m.list.replace(*o.Now)
	}
}

// jobFailed: the card becomes a failure card, and the details go to the
// log printed on quit.
func (m *Model) jobFailed(cs *cardState, label string, f *Failure) {
	m.writes.failed(cs, label, f)
	m.tell(fmt.Sprintf("not done: %s", label))
	m.status.message = fmt.Sprintf("not done: %s — %s", label, tui.SanitizeLine(f.What))
	m.say("  " + tui.SanitizeLine(f.What))
	m.say("  " + tui.SanitizeLine(f.Changed))
	m.say("  " + tui.SanitizeLine(f.Next))
}

// jobLanded: every write landed; the card leaves the list unless a step is
// left to do by hand, and the last needs-you card leaving is a job well
// done.
func (m *Model) jobLanded(cs *cardState, id, label string, o Outcome, wasBulk bool) tea.Cmd {
	m.writes.landed(cs, id, o)
	m.tell(fmt.Sprintf("done: %s — %s", label, sentences(o.Wrote)))
	if o.ByHand != "" {
		m.say("  still to do by hand: " + tui.SanitizeLine(o.ByHand))
		return nil
	}
	needsYou := m.list.needsYouN
	m.list.removeStep(id)
	if !wasBulk && needsYou > 0 && m.list.needsYouN == 0 && m.noFailures() {
		return m.jobWellDone("Job well done: nothing waits for you now.")
	}
	return nil
}

// skip leaves the card as it is and moves on.
func (m *Model) skip() {
	if st, ok := m.list.current(); ok {
		m.writes.state(st.ID()).skipped = true
		m.status.message = fmt.Sprintf("Skipped %s #%d.", st.Kind.Words(), st.Item.Number)
		if m.c.Plain {
			m.say("skipped: " + m.status.message[len("Skipped "):])
		}
	}
	if m.c.Plain {
		m.advancePlain()
		return
	}
	m.list.next()
}

func (m *Model) selectOne(i int) {
	if i >= len(m.list.steps) {
		return
	}
	st := m.list.steps[i]
	if ok, why := model.Selectable(st); !ok {
		m.tell("refused: " + why)
		return
	}
	if pr, _, stopped := m.feed.stoppedShip(st); stopped {
		m.tell(fmt.Sprintf("refused: aayu ship %d stopped part-way on this Story; finish it with Enter on the card, not in bulk.", pr))
		return
	}
	if !m.list.toggle(st.ID()) {
		m.tell(fmt.Sprintf("Unselected %s #%d.", st.Kind.Words(), st.Item.Number))
		return
	}
	m.tell(fmt.Sprintf("Selected %s #%d; enter does the recommendation of every selected card.", st.Kind.Words(), st.Item.Number))
}

func (m *Model) selectAll() {
	var idx []int
	for _, i := range model.SelectAll(m.list.steps) {
		if _, _, stopped := m.feed.stoppedShip(m.list.steps[i]); !stopped {
			idx = append(idx, i) // a stopped ship is finished on its card, never in bulk
		}
	}
	if len(idx) == 0 {
		m.tell("There is no housekeeping to select.")
		return
	}
	for _, i := range idx {
		m.list.selected[m.list.steps[i].ID()] = true
	}
	m.tell(fmt.Sprintf("Selected all %s; enter does each one's recommendation.", describeCount(len(idx), "housekeeping card", "housekeeping cards")))
}

func (m *Model) clearHousekeeping() {
	m.selectAll()
	if len(m.list.selected) > 0 {
		m.askBulk()
	}
}

func (m *Model) askBulk() tea.Cmd {
	steps := m.list.selectedSteps()
	lines := model.BulkConfirm(steps, m.feed.viewer())
	if len(lines) == 0 {
		m.list.selected = map[string]bool{}
		return m.pick("enter")
	}
	if m.opts.DryRun {
		for _, l := range lines[1:] {
			m.say("dry run: " + l)
		}
		m.tell("dry run: nothing was written.")
		return nil
	}
	if why := m.writeBlocked(); why != "" {
		m.tell("refused: " + why)
		return nil
	}
	var ids []string
	for _, st := range steps {
		ids = append(ids, st.ID())
	}
	m.pend = &pending{confirm: lines, bulk: ids}
	m.status.message = lines[0]
	if m.c.Plain {
		for _, l := range lines {
			m.say(l)
		}
		m.say("y applies all of them; anything else cancels.")
		m.asked()
	}
	return nil
}

// submitBulk writes each selected card's recommendation. The plain twin's
// place stays where it was: a bulk write is not an answer to the card
// being asked about, so no card is passed over.
func (m *Model) submitBulk(ids []string) tea.Cmd {
	m.list.selected = map[string]bool{}
	var cmds []tea.Cmd
	m.writes.inBulk = true
	for _, id := range ids {
		st, ok := model.Find(m.list.steps, id)
		if !ok || st.Recommendation.Key == "" {
			continue
		}
		m.writes.bulkActive[id] = true
		cmds = append(cmds, m.submit(st, st.Recommendation, ""))
	}
	m.writes.inBulk = false // the card's question comes again under the bulk's lines (keepQuestionLast)
	return tea.Batch(cmds...)
}

func (m *Model) refresh() tea.Cmd {
	if m.feed.reading {
		m.tell("Already reading GitHub.")
		return nil
	}
	m.feed.reading, m.feed.refreshAsked = true, true
	m.tell("Refreshing from GitHub…")
	var since = m.feed.readAt
	if m.feed.cached || m.feed.snap == nil {
		return m.readCmd(nil, since)
	}
	return m.readCmd(m.feed.snap, since)
}

// askQuit leaves at once unless writes run; then it asks whether to wait for
// all of them or only the ones under way, so no write stops half done.
func (m *Model) askQuit() tea.Cmd {
	if m.writes.running > 0 {
		m.quit.quitAsk = true
		running, waiting := m.writes.queue.Counts()
		m.tell(fmt.Sprintf("%s under way and %d waiting. a: wait for all of them; w: wait only for those under way; esc: stay.", describeCount(running, "write is", "writes are"), waiting))
		m.asked()
		return nil
	}
	return m.finish()
}

func (m *Model) quitWaiting(onlyRunning bool) tea.Cmd {
	m.quit.quitAsk = false
	if onlyRunning {
		m.dropWaiting()
	}
	m.quit.quitting = true
	if m.writes.running == 0 {
		return m.finish()
	}
	m.tell("Waiting for the writes under way…")
	return nil
}

func (m *Model) onInputClosed() tea.Cmd {
	m.quit.inputClosed = true
	if m.feed.reading && m.feed.snap == nil {
		return nil // finish once the first read lands
	}
	m.quit.quitting = true
	if m.writes.running == 0 {
		return m.finish()
	}
	return nil
}

type openedMsg struct {
	number int
	url    string
	err    error
}

// openItem opens an issue or pull request in the browser when this machine
// has one, and says so only once it did; otherwise it shows the link.
func (m *Model) openItem(n int) tea.Cmd {
	url := ""
	if m.deps.URL != nil {
		url = m.deps.URL(n)
	}
	open := m.deps.Open
	if open == nil || m.c.Plain {
		// Plain mode has no browser to hand over to: the link is the answer.
		m.showLink(n, url, tui.ErrNoBrowser)
		m.advancePlain()
		return nil
	}
	m.tell(fmt.Sprintf("Opening #%d…", n))
	return func() tea.Msg { return openedMsg{number: n, url: url, err: open(n)} }
}

func (m *Model) showLink(n int, url string, err error) {
	switch {
	case err == nil && url != "":
		m.tell(fmt.Sprintf("Opened #%d in your browser: %s", n, url))
	case err == nil:
		m.tell(fmt.Sprintf("Opened #%d in your browser.", n))
	case url != "":
		m.tell("Open " + url)
	default:
		m.tell(fmt.Sprintf("Open #%d on GitHub; no browser could be started here.", n))
	}
	m.status.link = url
}
