package ship

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/ship"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// Ask is how a run reaches the person through this screen: the presence
// check, then the confirmation. Each blocks the run (a background command)
// until the person answers; the screen's Update never blocks.
type Ask struct {
	Presence func(ctx context.Context, req core.PresenceRequest) (*identity.Session, error)
	Confirm  func(ctx context.Context, p core.Plan) (bool, error)
	// Stopped says the person asked to quit (ctrl+c, SIGTERM) after the
	// yes: the run stops after the write under way lands (core's
	// AfterStep), never in its middle.
	Stopped func() bool
}

// PresenceScreen is the login screen as ship shows it, inside its own
// frame, so one program and one input stream carry the whole ship.
type PresenceScreen interface {
	tui.Screen
	Session() (*identity.Session, bool)
}

type presenceReply struct {
	s   *identity.Session
	err error
}

type askPresenceMsg struct {
	req   core.PresenceRequest
	reply chan presenceReply
}

type askConfirmMsg struct {
	plan  core.Plan
	reply chan bool
}

// errNoPresence: this screen was given no way to show the presence check.
var errNoPresence = errors.New("the presence check cannot be shown here")

// ask returns the Ask that hands each question to this screen's Update.
func (m *Model) ask() Ask {
	asks, events, stop := m.run.asks, m.run.events, m.run.stopAfter
	send := func(ctx context.Context, msg tea.Msg) error {
		// The marker goes through the gates' channel first, so the question
		// is shown only after every gate line reported before it.
		select {
		case events <- core.Event{Gate: askMarker}:
		case <-ctx.Done():
			return ctx.Err()
		}
		select {
		case asks <- msg:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return Ask{
		Presence: func(ctx context.Context, req core.PresenceRequest) (*identity.Session, error) {
			reply := make(chan presenceReply, 1)
			if err := send(ctx, askPresenceMsg{req: req, reply: reply}); err != nil {
				return nil, err
			}
			select {
			case r := <-reply:
				return r.s, r.err
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		},
		Confirm: func(ctx context.Context, p core.Plan) (bool, error) {
			reply := make(chan bool, 1)
			if err := send(ctx, askConfirmMsg{plan: p, reply: reply}); err != nil {
				return false, err
			}
			select {
			case yes := <-reply:
				return yes, nil
			case <-ctx.Done():
				return false, ctx.Err()
			}
		},
		Stopped: stop.Load,
	}
}

// askMarker marks, among the gate events, where a question comes.
const askMarker core.GateID = -1

// onAsk holds a question until the gate events before it are shown.
func (m *Model) onAsk(msg tea.Msg) tea.Cmd {
	if !m.question.markerSeen {
		m.question.held = msg
		return nil
	}
	m.question.markerSeen = false
	switch q := msg.(type) {
	case askPresenceMsg:
		return m.startPresence(q)
	case askConfirmMsg:
		return m.startConfirm(q)
	}
	return nil
}

// onMarker notes that the gate events before a question are shown.
func (m *Model) onMarker() tea.Cmd {
	m.question.markerSeen = true
	if q := m.question.held; q != nil {
		m.question.held = nil
		return m.onAsk(q)
	}
	return nil
}

// nextAsk waits for the run's next question; nil once the run has ended.
func (m *Model) nextAsk() tea.Cmd {
	asks := m.run.asks
	return func() tea.Msg {
		msg, ok := <-asks
		if !ok {
			return nil
		}
		return msg
	}
}

// startPresence shows the presence check in this screen.
func (m *Model) startPresence(msg askPresenceMsg) tea.Cmd {
	if m.opts.Presence == nil {
		msg.reply <- presenceReply{err: errNoPresence}
		return m.nextAsk()
	}
	sub, err := m.opts.Presence(msg.req)
	if err != nil {
		msg.reply <- presenceReply{err: err}
		return m.nextAsk()
	}
	m.presence.sub, m.presence.subReply, m.presence.subPrinted = sub, msg.reply, 0
	m.presence.sub.Update(tea.WindowSizeMsg{Width: m.c.Width, Height: m.c.Height})
	m.copySub()
	return tea.Batch(m.presence.sub.Init(), m.nextAsk())
}

// updateSub hands a message to the presence check. Its own quit is
// dropped: when it is done, ship goes on.
func (m *Model) updateSub(msg tea.Msg) tea.Cmd {
	_, cmd := m.presence.sub.Update(msg)
	m.copySub()
	if done, _ := m.presence.sub.Done(); !done {
		return cmd
	}
	s, ok := m.presence.sub.Session()
	if !ok {
		s = nil
		// The check's own words say why (another account, the access, an
		// expired code); the full screen keeps them under the gate's line.
		if t := m.presence.sub.Transcript(); len(t) > 0 {
			m.presence.presenceWhy = t[max(0, len(t)-2):]
		}
	}
	m.presence.subReply <- presenceReply{s: s}
	m.presence.sub, m.presence.subReply = nil, nil
	return nil
}

// copySub keeps the presence check's plain lines in ship's transcript.
func (m *Model) copySub() {
	lines := m.presence.sub.Transcript()
	for _, l := range lines[min(m.presence.subPrinted, len(lines)):] {
		m.say(l)
	}
	m.presence.subPrinted = len(lines)
}

// startConfirm shows what will be written and waits for the answer.
func (m *Model) startConfirm(msg askConfirmMsg) tea.Cmd {
	m.question.confirm, m.question.confirmReply = &msg.plan, msg.reply
	for _, l := range confirmLines(msg.plan) {
		m.say(l)
	}
	if m.c.Plain {
		m.say("Type y and Enter to write all of these; any other answer, or the end of input, writes nothing.")
	}
	if m.question.inputClosed {
		m.say("Standard input has ended, so no yes can come.")
		m.answer(false)
	}
	return m.nextAsk()
}

// answer gives the confirmation's answer to the run, once.
func (m *Model) answer(yes bool) {
	if m.question.confirmReply == nil {
		return
	}
	m.question.confirmed = yes
	if yes {
		m.say("answer: yes")
	} else {
		m.say("answer: no; nothing will be written")
	}
	m.question.confirmReply <- yes
	m.question.confirm, m.question.confirmReply = nil, nil
}

// confirmLines is the confirmation in words, shared by both renderers.
//
// Hand-written rather than a huh confirmation (as init's question is):
// the yes to a merge must wait until the person has scrolled to the last
// write listed (see scroll.go), the list scrolls in the ship screen's one
// viewport under the gates it follows, and the plain twin treats any line
// but y, and the end of input, as no. A huh form has no notion of content
// that must be seen before its yes, and draws its own frame beside ours.
func confirmLines(p core.Plan) []string {
	out := []string{fmt.Sprintf("Every read-only gate passed for #%d %s. Nothing is written until you answer.", p.PR, p.Title)}
	if p.Bypass {
		out = append(out, fmt.Sprintf("This is your Solo-mode bypass: no review happened, and the comment and the ship record say so, as @%s.", tui.SanitizeLine(p.PassBy)))
	}
	out = append(out, fmt.Sprintf("Answering yes writes, in this order, as @%s:", tui.SanitizeLine(p.Viewer)))
	for i, w := range p.Writes {
		out = append(out, fmt.Sprintf("  %d. %s", i+1, tui.SanitizeLine(w)))
	}
	for _, w := range p.Warnings {
		out = append(out, "Warning from the pack, "+w.String())
	}
	return out
}
