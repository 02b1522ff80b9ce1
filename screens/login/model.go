package login

import (
	"context"
	"net/http"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// Request is what the person is asked to approve.
type Request struct {
	// Command is the command line as the person would type it, e.g.
	// "aayu ship 4 --solo-bypass". The approval covers this command only.
	Command string
	// Approving holds one plain-words line per change the command makes.
	Approving []string
	// Repo is OWNER/NAME, whose permission the approving account needs.
	Repo string
	// Need is the access the approving account needs: admin for a solo-mode
	// bypass, write otherwise.
	Need identity.Access
	// MustBe is the login that must approve, or "" for any person with Need.
	MustBe string
	// BotLogins are logins that never count as a person (identity.bot_logins).
	BotLogins []string
}

// Deps are the outside effects the screen's commands use; main wires them
// to github.com (or the sandbox), tests to the sandbox.
type Deps struct {
	// OAuthHost is the device-flow host without a trailing slash, e.g.
	// https://github.com or the sandbox's URL.
	OAuthHost string
	// ClientID is the OAuth App's client id (public; no secret is used).
	ClientID string
	// ClientFrom says in words where ClientID was found ("the repository
	// variable AAYUDHA_DEVICE_CLIENT_ID of acme/benefits"), so a refusal
	// names the setting to fix; "" when unknown.
	ClientFrom string
	// HTTPClient talks to OAuthHost; nil means a client with a 30 s timeout.
	HTTPClient *http.Client
	// APIClient builds a REST client for the device token, used to read
	// /user and nothing else. It must not cache: the token is never stored.
	APIClient func(token string) (*github.Client, error)
	// Writer reads, with the token the command writes with, whose account
	// that is; the approval must come from that account, and any other is
	// refused before anything else is read. nil: Request.MustBe alone.
	Writer func(ctx context.Context) (string, error)
	// Permission reads an account's permission on the repository with the
	// writing token, never with the device token. nil reads none, which no
	// step that needs access can pass.
	Permission func(ctx context.Context, login string) (string, error)
	// Log is the actions log presence.approve is recorded in.
	Log *actions.Log
	// Now is the clock of the countdown and the log; nil means time.Now.
	Now func() time.Time
	// OpenBrowser opens a URL and never writes to the terminal (see
	// OpenInBrowser); nil means the machine has no browser.
	OpenBrowser func(url string) error
	// Clipboard copies to the native clipboard (see tui.NativeClipboard); the
	// terminal's clipboard is written by OSC 52 besides. nil: OSC 52 only.
	Clipboard func(string) error
	// InTmux says the screen runs inside tmux, where OSC 52 needs
	// `tmux set -s set-clipboard on`.
	InTmux bool
	// Here is whether a person is here, as identity.Here answered the
	// command this screen checks presence for: the caller takes it once
	// (as ship does, Config.Human) and hands it here, so the screen never
	// looks at the process itself. A refusal (aayu's own lane, CI) ends
	// the screen before any code is asked for; the zero value allows.
	Here identity.Decision
}

type phase int

const (
	phaseRequesting phase = iota // asking GitHub for a code
	phaseWaiting                 // showing the code, waiting for the approval
	phaseChecking                // approved on GitHub; checking the account
	phaseExpired                 // the code expired; Enter asks for a new one
	phaseApproved                // approved by a person with the access
	phaseFailed                  // any other end, in words
)

// approvedHold is how long full screen shows "Approved by @…" before the
// screen reports Done, so the person sees who approved before the next
// screen takes over.
const approvedHold = 900 * time.Millisecond

type keyMap struct {
	Open key.Binding // enter: open the link; after expiry, a new code
	Copy key.Binding
	Quit key.Binding
}

func newKeys() keyMap {
	return keyMap{
		Open: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open link")),
		Copy: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy code")),
		Quit: key.NewBinding(key.WithKeys("q", "esc"), key.WithHelp("q", "stop")),
	}
}

// tickMsg drives the countdown of one code.
type tickMsg struct{ gen int }

// browserMsg reports the browser; a copy reports by tui.CopiedMsg.
type (
	browserMsg struct{ err error }
	heldMsg    struct{}
)

var _ tui.Screen = (*Model)(nil)

// Model is the login screen: the presence check by GitHub's device flow.
type Model struct {
	c    tui.Common
	req  Request
	deps Deps
	ctx  context.Context
	keys keyMap

	phase  phase
	gen    int                // the run of the flow whose messages count
	events chan tea.Msg       // the current run's messages
	cancel context.CancelFunc // stops the current run

	codeShown codeShown // the code to enter, where, and its countdown

	fail    *failure
	session *identity.Session
	notice  string // the answer to the last key: copied, opened, why not

	inputClosed bool
	lines       []string
	done        bool
	code        int
}

// codeShown is the device code the person enters, where, and the countdown
// to its expiry.
type codeShown struct {
	userCode  string
	uri       string
	expiresAt time.Time
	now       time.Time
	spoken    time.Duration // the countdown threshold last said in plain lines
}

// New returns the login screen for one request. ctx cancels the flow when
// the program stops. aayu's own agent lane (AAYU_AGENT) and CI are refused
// here, before any code is asked for.
func New(ctx context.Context, c tui.Common, req Request, deps Deps) *Model {
	if c.Width == 0 {
		c.Width, c.Height = 80, 24
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	m := &Model{c: c, req: req, deps: deps, ctx: ctx, keys: newKeys(), codeShown: codeShown{now: deps.Now()}}
	if c.Plain {
		m.say(plainLegend)
	}
	for _, l := range m.header() {
		m.say(l)
	}
	if deps.Here.Outcome == identity.Refused {
		m.end(agentRefusal(deps.Here.Reason))
	}
	return m
}

// Init asks GitHub for the first code, unless the screen refused at once.
func (m *Model) Init() tea.Cmd {
	if m.done {
		return nil
	}
	return m.start()
}

// start begins a new run of the flow, abandoning the one before.
func (m *Model) start() tea.Cmd {
	if m.cancel != nil {
		m.cancel()
	}
	var ctx context.Context
	ctx, m.cancel = context.WithCancel(m.ctx)
	m.gen++
	m.phase, m.fail, m.notice, m.codeShown.userCode, m.codeShown.uri = phaseRequesting, nil, "", "", ""
	// Room for every message of one run, so an abandoned run never blocks.
	m.events = make(chan tea.Msg, 4)
	in := flowInput{gen: m.gen, req: m.req, deps: m.deps}
	return tea.Batch(runFlow(ctx, in, m.events), listen(m.events))
}

func listen(events <-chan tea.Msg) tea.Cmd {
	return func() tea.Msg { return <-events }
}

func tick(gen int) tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{gen: gen} })
}

// Update handles the screen's messages, the countdown and keys: the
// device flow's go to onFlow, the rest are a line each. It does no I/O:
// the clipboard and the browser are commands.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if cmd, ok := m.onFlow(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.c.Styles = tui.NewStyles(msg.IsDark())
	case heldMsg:
		m.done = true
	case tui.CopiedMsg:
		m.note(m.clipboard().Notice(msg))
	case browserMsg:
		if msg.err != nil {
			m.note("No browser opened here (" + sentence(msg.err) + "). Open the link on any device.")
		} else {
			m.note("Opened the link in your browser.")
		}
	case tui.LineMsg:
		return m, m.handleLine(msg.Line)
	case tui.InputClosedMsg:
		m.inputClosed = true
		if m.phase == phaseExpired {
			m.stop("Standard input ended, so no new code was asked for.")
		}
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	}
	return m, nil
}

// onFlow takes the device flow's messages (the code, the check under way,
// the result, the countdown's tick) and reports whether msg was one. A
// message of an earlier run (another gen) is dropped.
func (m *Model) onFlow(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case codeMsg:
		if msg.gen == m.gen {
			m.showCode(msg)
			return tea.Batch(listen(m.events), tick(m.gen)), true
		}
	case checkingMsg:
		if msg.gen == m.gen {
			m.phase = phaseChecking
			return listen(m.events), true
		}
	case resultMsg:
		if msg.gen == m.gen {
			return m.finish(msg), true
		}
	case tickMsg:
		if msg.gen == m.gen && (m.phase == phaseWaiting || m.phase == phaseChecking) {
			m.codeShown.now = m.deps.Now()
			m.narrateCountdown()
			return tick(m.gen), true
		}
	default:
		return nil, false
	}
	return nil, true
}

func (m *Model) showCode(msg codeMsg) {
	m.phase = phaseWaiting
	m.codeShown.userCode, m.codeShown.uri = tui.SanitizeLine(msg.userCode), msg.uri
	m.codeShown.now = m.deps.Now()
	m.codeShown.expiresAt = m.codeShown.now.Add(msg.expiresIn)
	m.codeShown.spoken = msg.expiresIn
	m.sayCode(msg.expiresIn)
}

// finish ends a run: approved, expired (waiting for Enter), or failed.
func (m *Model) finish(msg resultMsg) tea.Cmd {
	if m.cancel != nil {
		m.cancel()
	}
	if msg.fail == nil {
		m.phase = phaseApproved
		m.session = &identity.Session{Command: m.req.Command, Login: msg.account.Login, Access: msg.access, Method: Method}
		m.code = exitOK
		m.say(m.approvedLine())
		if m.c.Plain || m.c.CI {
			m.done = true
			return nil
		}
		return tea.Tick(approvedHold, func(time.Time) tea.Msg { return heldMsg{} })
	}
	if msg.fail.kind == failExpired {
		m.phase, m.fail, m.code = phaseExpired, msg.fail, msg.fail.code
		m.say("The code expired before anyone approved it. Nothing was done.")
		if m.inputClosed {
			m.stop("Standard input ended, so no new code was asked for.")
			return nil
		}
		m.say(`Type "enter" for a new code, or "q" to stop.`)
		return nil
	}
	m.end(msg.fail)
	return nil
}

// end finishes the screen on a failure. Plain mode and CI are done at
// once; full screen keeps the words up until the person leaves.
func (m *Model) end(f *failure) {
	if m.cancel != nil {
		m.cancel()
	}
	m.phase, m.fail, m.code = phaseFailed, f, f.code
	m.say(f.what)
	m.say(f.next)
	if m.c.Plain || m.c.CI || f.kind == failAgent || f.kind == failStopped {
		m.done = true
	}
}

// stop ends the screen because the person (or the end of input) stopped it.
func (m *Model) stop(why string) {
	f := stopped()
	if why != "" {
		f.what = why
	}
	m.end(f)
	m.done = true
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case msg.String() == "ctrl+c":
		// The shell quits on Ctrl-C as an interruption (exit 1); the screen
		// only stops polling.
		if m.cancel != nil {
			m.cancel()
		}
	case key.Matches(msg, k.Quit):
		if m.phase == phaseFailed {
			m.done = true
			return nil
		}
		if m.phase != phaseApproved {
			m.stop("")
		}
	case key.Matches(msg, k.Open):
		return m.enter()
	case key.Matches(msg, k.Copy):
		return m.copyCode()
	}
	return nil
}

func (m *Model) handleLine(line string) tea.Cmd {
	switch line {
	case "enter", "":
		return m.enter()
	case "q", "quit":
		if m.phase != phaseApproved && m.phase != phaseFailed {
			m.stop("")
		}
	default:
		m.say(`"` + tui.SanitizeLine(line) + `" is not a choice here. ` + plainChoices)
	}
	return nil
}

// enter opens the link while a code waits, and asks for a new code once
// one expired; after a failure it leaves the screen.
func (m *Model) enter() tea.Cmd {
	switch m.phase {
	case phaseExpired:
		return m.start()
	case phaseWaiting:
		if m.deps.OpenBrowser == nil {
			m.note("There is no browser on this machine. Open the link on any device.")
			return nil
		}
		open, uri := m.deps.OpenBrowser, m.codeShown.uri
		return func() tea.Msg { return browserMsg{err: open(uri)} }
	case phaseFailed:
		m.done = true
	}
	return nil
}

// copyCode writes the code to the terminal's clipboard by OSC 52 and to the
// native clipboard, when there is one, through the copy every screen uses.
func (m *Model) copyCode() tea.Cmd {
	if m.phase != phaseWaiting {
		return nil
	}
	cmd, err := m.clipboard().Copy(m.codeShown.userCode, "the code")
	if err != nil {
		// The code comes from GitHub: one that could not be copied safely
		// is read off the screen instead.
		m.note("The code was not copied (" + sentence(err) + "); type it as shown.")
		return nil
	}
	return cmd
}

func (m *Model) clipboard() tui.Clipboard {
	return tui.Clipboard{Native: m.deps.Clipboard, InTmux: m.deps.InTmux}
}

// Session is the approval this screen obtained, for the caller to pass to
// identity.RequireHuman for the later steps of the same command. ok is
// false until a person with the access approved.
func (m *Model) Session() (*identity.Session, bool) {
	if m.session == nil {
		return nil, false
	}
	s := *m.session
	return &s, true
}

// Transcript returns the plain lines produced so far.
func (m *Model) Transcript() []string { return m.lines }

// Done reports whether the screen is over, and its exit code: 0 approved,
// 4 refused, expired, cancelled or stopped, 1 when GitHub could not be
// reached or the device flow is off.
func (m *Model) Done() (bool, int) { return m.done, m.code }

// Keys lists the bindings for the help line; those that cannot be used now
// say why.
func (m *Model) Keys() []key.Binding {
	k := m.keys
	open, cp, quit := k.Open, k.Copy, k.Quit
	switch m.phase {
	case phaseWaiting, phaseChecking:
	case phaseExpired:
		open.SetHelp("enter", "new code")
		quit.SetHelp("q", "quit")
		return []key.Binding{open, quit, tui.Disable(cp, "the code expired")}
	case phaseFailed, phaseApproved:
		open.SetHelp("enter", "leave")
		quit.SetHelp("q", "quit")
		return []key.Binding{open, quit}
	default:
		return []key.Binding{quit, tui.Disable(open, "no code yet"), tui.Disable(cp, "no code yet")}
	}
	if m.phase == phaseWaiting && m.deps.OpenBrowser == nil {
		open = tui.Disable(open, "no browser here")
	}
	return []key.Binding{open, cp, quit}
}

func (m *Model) say(line string) { m.lines = append(m.lines, line) }

// note answers a key: on the screen until the next key, and as a line in
// plain mode.
func (m *Model) note(s string) {
	m.notice = s
	if m.c.Plain {
		m.say(s)
	}
}

// Epilogue leaves the outcome on the terminal once the full screen closes:
// a refusal or failure is never wordless, whatever ended the screen.
func (m *Model) Epilogue() []string {
	if m.c.Plain || m.fail == nil {
		return nil // approved: the Headline says by whom
	}
	return []string{"aayu login: " + m.fail.what, m.fail.next}
}
