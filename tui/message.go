package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// MessageRows is how many lines a screen's message area takes at most: a
// message longer than that ends in MoreMessages and opens whole in the
// MessageLog.
const MessageRows = 3

// MoreMessages ends a message cut to the message area: the key that shows
// the whole of it, in the log of the session's messages.
const MoreMessages = "… (m: all messages)"

// MessagesKey opens (and closes) the log of the session's messages.
var MessagesKey = key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "all messages"))

// MessageLines is msg laid out in a message area of width w: wrapped by
// the one rule (WrapLinks: no URL or command broken), on at most rows
// lines. A message longer than that keeps its first lines and ends in
// MoreMessages on the last, never cut silently; cut reports it, so the
// screen offers MessagesKey. An empty message takes one blank line.
func MessageLines(msg string, w, rows int) (lines []string, cut bool) {
	if msg == "" {
		return []string{""}, false
	}
	lines = WrapLinks(msg, w, " ")
	if len(lines) <= rows {
		return lines, false
	}
	lines = lines[:rows]
	room := w - ansi.StringWidth(MoreMessages)
	last := lines[rows-1]
	if room < 1 {
		lines[rows-1] = ansi.Truncate(MoreMessages, w, "")
	} else {
		lines[rows-1] = strings.TrimRight(ansi.Truncate(last, room-1, ""), " ") + " " + MoreMessages
	}
	return lines, true
}

// MessageLog keeps this session's messages, newest last, and shows them
// whole in a bubbles viewport when the person presses MessagesKey: the
// place a message too long for its message area is read in full.
type MessageLog struct {
	entries []string
	open    bool
	vp      viewport.Model
}

// Add records msg unless it repeats the newest entry (a screen draws its
// message many times).
func (l *MessageLog) Add(msg string) {
	msg = strings.TrimSpace(msg)
	if msg == "" || len(l.entries) > 0 && l.entries[len(l.entries)-1] == msg {
		return
	}
	l.entries = append(l.entries, msg)
}

// Entries are the messages recorded, oldest first.
func (l *MessageLog) Entries() []string { return l.entries }

// Open says whether the log is shown.
func (l *MessageLog) Open() bool { return l.open }

// Key takes MessagesKey (opening the log, at its newest message) and,
// while the log is open, every key: esc, q and m close it, the scroll keys
// move it. It reports whether the key was the log's.
func (l *MessageLog) Key(msg tea.KeyPressMsg) bool {
	if !l.open {
		if !key.Matches(msg, MessagesKey) || len(l.entries) == 0 {
			return false
		}
		l.open = true
		l.vp = viewport.New()
		l.vp.KeyMap = ScrollKeys()
		return true
	}
	switch {
	case key.Matches(msg, MessagesKey) || msg.String() == "esc" || msg.String() == "q":
		l.open = false
	case key.Matches(msg, ScrollTop):
		l.vp.GotoTop()
	case key.Matches(msg, ScrollEnd):
		l.vp.GotoBottom()
	default:
		l.vp, _ = l.vp.Update(msg)
	}
	return true
}

// View is the log in a screen of w×h: a title, every message wrapped by
// the one rule with a blank line between them, and the keys.
func (l *MessageLog) View(st Styles, w, h int) string {
	var body []string
	for i, e := range l.entries {
		if i > 0 {
			body = append(body, "")
		}
		body = append(body, WrapLinks(SanitizeLine(e), w, " ")...)
	}
	atEnd := l.vp.TotalLineCount() == 0 || l.vp.AtBottom()
	l.vp.SetWidth(w)
	l.vp.SetHeight(max(1, h-3))
	l.vp.SetContentLines(body)
	if atEnd {
		l.vp.GotoBottom()
	}
	title := st.Title.Render("this session's messages")
	if l.vp.TotalLineCount() > l.vp.Height() {
		title += st.Subtle.Render(" · " + LinesShown(l.vp))
	}
	closeKey := key.NewBinding(key.WithKeys("esc", "m"), key.WithHelp("esc/m", "close"))
	help := HelpLine(w, []key.Binding{closeKey, ScrollHelp}, st)
	return Frame(append([]string{title, ""}, strings.Split(l.vp.View(), "\n")...), w, h, help)
}
