package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Stack is aayu's one program: a stack of screens in one Bubble Tea
// program, the first screen at the bottom (the inbox, or the screen a
// command names) and each screen it opens pushed on top. Run wraps every
// screen in one, so `aayu ship 4` and "ship it" on the inbox run the very
// same ship screen, and the terminal enters and leaves the alternate
// screen once whatever is opened on the way.
//
// Input (keys, paste, plain lines, the end of input) goes to the top
// screen only. Every other message goes to every screen on the stack:
// each screen's messages are its own types, so a write the inbox started
// still lands in the inbox while the ship screen is on top, and a size
// change reaches a screen before it is shown again.
//
// A pushed screen that is done is popped: what it leaves behind (its
// Epilogue, or its last line) is kept for the end, and the screen under it
// gets a ReturnedMsg. The stack is done when its bottom screen is.
//
// The plain twin is the same stack: Transcript is one continuous page,
// each screen's new lines appended as they come, and one input stream.
type Stack struct {
	screens []Screen
	taken   []int // per screen: transcript lines already on the page

	page []string       // the plain transcript of every screen, in order
	ran  []summaryBlock // what popped screens left behind, for the quit summary
	// actionsLog is where the actions log is, named at the end of the
	// quit summary ("" names nothing).
	actionsLog string
	size       *tea.WindowSizeMsg
	bg         *tea.BackgroundColorMsg
	closed     bool // plain input ended; every screen shown after is told
	err        error

	// quit is the quit request being honoured (quit.go), handed to each
	// screen in turn as the one above it closes; quits counts them.
	quit        *QuitRequestMsg
	quits       int
	interrupted bool // the request could not be honoured safely: stop at once
}

// NewStack returns a stack whose bottom screen is s.
func NewStack(s Screen) *Stack {
	return &Stack{screens: []Screen{s}, taken: []int{0}}
}

// Opener is implemented by a screen that opens others on top of it. The
// stack asks after each of the screen's updates, and pushes what it gets:
// asked in the same Update, rather than through a command that would land
// later, the opened screen takes the very next key or plain line. Opening
// returns each screen once, then nil. A screen is built before it is
// opened; its reading and writing start in its Init, never in the build.
type Opener interface {
	Opening() Screen
}

// ReturnedMsg tells a screen that the one it opened has closed: its last
// lines (the transcript, for the caller to summarise) and its exit code.
type ReturnedMsg struct {
	Transcript []string
	Code       int
	// Quitting: it closed on a quit request (ctrl+c, SIGTERM), which this
	// screen gets next.
	Quitting bool
}

// PushedMsg tells a screen it was opened on top of another: esc, when
// nothing is open inside it, takes the person back (the screen finishes as
// on q, and the stack shows the screen under it again).
type PushedMsg struct{}

// BackKey is esc on a screen opened on top of the inbox, as its help line
// lists it: the way back, which HelpLine never cuts.
func BackKey() key.Binding {
	return key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the inbox"))
}

// Closer is implemented by a screen that holds something to release when
// it leaves the stack (a work folder).
type Closer interface{ Close() }

// Depth is the number of screens on the stack.
func (s *Stack) Depth() int { return len(s.screens) }

// Top is the screen showing.
func (s *Stack) Top() Screen { return s.screens[len(s.screens)-1] }

// Bottom is the screen the program was started with.
func (s *Stack) Bottom() Screen { return s.screens[0] }

// Init starts the bottom screen, and what it opens first (the presence
// check, say) on top of it.
func (s *Stack) Init() tea.Cmd {
	cmd := s.screens[0].Init()
	if o, ok := s.screens[0].(Opener); ok {
		if opened := o.Opening(); opened != nil {
			return tea.Batch(cmd, s.push(opened))
		}
	}
	return cmd
}

func (s *Stack) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := s.update(msg)
	s.collect()
	if s.err != nil {
		return s, tea.Quit
	}
	return s, cmd
}

func (s *Stack) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		s.size = &msg
	case tea.BackgroundColorMsg:
		s.bg = &msg
	case InputClosedMsg:
		s.closed = true
	case QuitRequestMsg:
		return s.requestQuit(msg)
	}
	if isInput(msg) {
		return s.deliver(len(s.screens)-1, msg)
	}
	var cmds []tea.Cmd
	for i := range s.screens {
		cmds = append(cmds, s.deliver(i, msg))
		if s.err != nil {
			return tea.Quit
		}
	}
	return tea.Batch(cmds...)
}

// isInput says whether msg is the person's: it goes to the top screen only.
func isInput(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.KeyReleaseMsg, tea.PasteMsg, tea.PasteStartMsg, tea.PasteEndMsg,
		tea.MouseClickMsg, tea.MouseReleaseMsg, tea.MouseWheelMsg, tea.MouseMotionMsg,
		LineMsg, InputClosedMsg, HelpShownMsg:
		return true
	}
	return false
}

// deliver runs one screen's Update, then pops it if it is a pushed screen
// that is now done.
func (s *Stack) deliver(i int, msg tea.Msg) tea.Cmd {
	next, cmd := s.screens[i].Update(msg)
	scr, ok := next.(Screen)
	if !ok {
		s.err = fmt.Errorf("run: screen %T returned %T from Update, which is not a Screen; this is a bug in aayu", s.screens[i], next)
		return tea.Quit
	}
	s.screens[i] = scr
	if o, ok := scr.(Opener); ok {
		if opened := o.Opening(); opened != nil {
			return tea.Batch(cmd, s.push(opened))
		}
	}
	if i == len(s.screens)-1 && i > 0 {
		if done, code := scr.Done(); done {
			// A command returned with the finish is not run, as when a
			// program quits on a screen's finish.
			return s.pop(code)
		}
	}
	return cmd
}

// push shows scr on top, sized as the terminal is, and starts it.
func (s *Stack) push(scr Screen) tea.Cmd {
	s.collect()
	s.screens = append(s.screens, scr)
	s.taken = append(s.taken, 0)
	top := len(s.screens) - 1
	cmds := []tea.Cmd{scr.Init()}
	for _, msg := range append([]tea.Msg{PushedMsg{}}, s.catchUp()...) {
		cmds = append(cmds, s.deliver(top, msg))
		if len(s.screens)-1 < top {
			break // it finished on what it was told
		}
	}
	return tea.Batch(cmds...)
}

// catchUp is what a newly shown screen must be told at once: the size,
// the background, and that plain input has ended.
func (s *Stack) catchUp() []tea.Msg {
	var msgs []tea.Msg
	if s.size != nil {
		msgs = append(msgs, *s.size)
	}
	if s.bg != nil {
		msgs = append(msgs, *s.bg)
	}
	if s.closed {
		msgs = append(msgs, InputClosedMsg{})
	}
	return msgs
}

// pop takes the finished top screen off and tells the one under it.
func (s *Stack) pop(code int) tea.Cmd {
	s.collect()
	top := len(s.screens) - 1
	gone := s.screens[top]
	b := blockOf(gone, code)
	b.looked = onlyShows(gone) // on top of another screen: what it showed was looked at
	s.ran = append(s.ran, b)
	if c, ok := gone.(Closer); ok {
		c.Close()
	}
	s.screens, s.taken = s.screens[:top], s.taken[:top]
	under := len(s.screens) - 1
	cmds := []tea.Cmd{s.deliver(under, ReturnedMsg{Transcript: gone.Transcript(), Code: code, Quitting: s.quit != nil})}
	if s.size != nil {
		cmds = append(cmds, s.deliver(under, *s.size))
	}
	if s.closed && len(s.screens)-1 == under {
		cmds = append(cmds, s.deliver(under, InputClosedMsg{}))
	}
	if s.quit != nil && len(s.screens)-1 == under {
		// The screen above finished what it had under way; now this one.
		cmds = append(cmds, s.passQuit())
	}
	return tea.Batch(cmds...)
}

// requestQuit takes ctrl+c or a quit signal: the first asks every screen,
// from the top down, to quit safely; the second forces (each screen records
// what it cuts short); the third leaves at once.
func (s *Stack) requestQuit(msg QuitRequestMsg) tea.Cmd {
	s.quits++
	switch {
	case s.quits == 2:
		msg.Force = true
	case s.quits > 2:
		s.interrupted = true
		return tea.Quit
	}
	s.quit = &msg
	return s.passQuit()
}

// passQuit hands the quit request to the top screen. A screen that does not
// quit safely writes nothing a quit could cut: it sees the ctrl+c key as it
// always did and is closed at once; when that is the bottom screen, the
// program stops as interrupted.
func (s *Stack) passQuit() tea.Cmd {
	top := len(s.screens) - 1
	scr := s.screens[top]
	if _, ok := scr.(SafeQuitter); ok {
		return s.deliver(top, *s.quit)
	}
	var cmd tea.Cmd
	if k := s.quit.key; k != nil {
		cmd = s.deliver(top, *k)
		if len(s.screens)-1 < top {
			return cmd // it finished on the key, and pop passed the request on
		}
		if done, _ := s.screens[0].Done(); done && top == 0 {
			return cmd
		}
	}
	if top == 0 {
		s.interrupted = true
		return tea.Quit
	}
	// Closed as if it finished, so the screen under it hears it returned
	// (pop then passes the request on to it).
	return tea.Batch(cmd, s.pop(ExitFailed))
}

// Interrupted says the program must stop at once: a quit request reached a
// screen that cannot quit safely, or a third one came.
func (s *Stack) Interrupted() bool { return s.interrupted }

// collect appends each screen's new transcript lines to the page.
func (s *Stack) collect() {
	for i, scr := range s.screens {
		lines := scr.Transcript()
		if s.taken[i] > len(lines) {
			s.err = fmt.Errorf("run: screen %T's transcript shrank from %d to %d lines; this is a bug in aayu", scr, s.taken[i], len(lines))
			return
		}
		s.page = append(s.page, lines[s.taken[i]:]...)
		s.taken[i] = len(lines)
	}
}

// leftBehind is what a screen leaves on the terminal when it closes.
func leftBehind(scr Screen) []string {
	if e, ok := scr.(Epilogue); ok {
		return e.Epilogue()
	}
	if t := scr.Transcript(); len(t) > 0 {
		// Every screen's transcript ends on its outcome ("result: …"):
		// no outcome, above all no refusal, is gone with the screen.
		return t[len(t)-1:]
	}
	return nil
}

func (s *Stack) View() tea.View { return s.Top().View() }

// Transcript is the one page of every screen's lines, in order.
func (s *Stack) Transcript() []string {
	s.collect()
	return s.page
}

// Done is the bottom screen's: pushed screens only ever return to it. Its
// code is the worst of every screen that ran (SPEC §3): a ship refused
// inside the inbox makes the run exit 4, whatever the inbox did after. A
// screen opened on top only to show (Shower: a tampered pack looked at)
// does not count: the code says what the person did.
func (s *Stack) Done() (bool, int) {
	done, code := s.screens[0].Done()
	for _, b := range s.ran {
		if !b.looked {
			code = Worst(code, b.code)
		}
	}
	return done, code
}

// SetActionsLog names where the actions log is kept, for the quit summary.
func (s *Stack) SetActionsLog(path string) { s.actionsLog = path }

// Keys are the showing screen's.
func (s *Stack) Keys() []key.Binding { return s.Top().Keys() }

// FullKeys are the showing screen's full help.
func (s *Stack) FullKeys() []key.Binding { return screenKeys(s.Top()) }

// PlainKeys are the showing screen's plain words, or nil when it has none
// of its own.
func (s *Stack) PlainKeys() []key.Binding {
	if pk, ok := s.Top().(PlainKeyer); ok {
		return pk.PlainKeys()
	}
	return nil
}

// Typing is the showing screen's.
func (s *Stack) Typing() bool { return typing(s.Top()) }

// Epilogue is the quit summary: one block per screen that ran, named,
// each popped screen's in the order it closed, then those still on the
// stack from the top down; then where the actions log is, and which
// screen gave the run its exit code.
func (s *Stack) Epilogue() []string {
	blocks := append([]summaryBlock(nil), s.ran...)
	for i := len(s.screens) - 1; i >= 0; i-- {
		_, code := s.screens[i].Done()
		blocks = append(blocks, blockOf(s.screens[i], code))
	}
	return summary(blocks, s.actionsLog)
}

// Err is what broke the stack (a screen that returned a non-Screen), if
// anything did.
func (s *Stack) Err() error { return s.err }
