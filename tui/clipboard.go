package tui

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/atotto/clipboard"
)

// Clipboard is how a screen copies a link (or the login's device code) for
// the person: always to the terminal's clipboard by OSC 52, which reaches
// the terminal the person is looking at even over SSH, and to the machine's
// own clipboard as well when Native is set.
type Clipboard struct {
	// Native writes the machine's own clipboard (NativeClipboard); nil
	// copies by OSC 52 only.
	Native func(string) error
	// InTmux says the screen runs inside tmux, where OSC 52 reaches the
	// outer terminal only with `tmux set -s set-clipboard on`.
	InTmux bool
}

// CopiedMsg reports a copy: What names what was copied ("the link to #4"),
// Err is the native clipboard's failure (OSC 52 was sent all the same).
type CopiedMsg struct {
	What string
	Err  error
}

// NativeClipboard is the usual Clipboard.Native: the machine's own
// clipboard through atotto/clipboard (pbcopy, xclip, xsel, wl-copy,
// Windows). Over SSH or in a container there may be none.
func NativeClipboard(s string) error {
	if clipboard.Unsupported {
		return errors.New("no clipboard program is installed")
	}
	if err := clipboard.WriteAll(s); err != nil {
		return fmt.Errorf("the clipboard program failed: %w", err)
	}
	return nil
}

// InTmux says whether the environment is a tmux session.
func InTmux(getenv func(string) string) bool { return getenv("TMUX") != "" }

// ErrNotCopyable is why a text was refused for the clipboard.
var ErrNotCopyable = errors.New("refusing to copy it")

// OSC52 returns the sequence that writes text to the terminal's system
// clipboard: OSC 52 ; c ; base64(text) BEL. text is refused when it holds
// any control character or is empty: the payload is base64 and so cannot
// end the sequence, but what lands in the clipboard is pasted later into a
// shell, and a line break or an escape there would run or redraw things.
func OSC52(text string) (string, error) {
	if text == "" {
		return "", fmt.Errorf("%w: there is nothing to copy", ErrNotCopyable)
	}
	if !utf8.ValidString(text) {
		// A stray byte such as 0x9b is a C1 CSI to some terminals.
		return "", fmt.Errorf("%w: it is not valid text", ErrNotCopyable)
	}
	for _, r := range text {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) {
			return "", fmt.Errorf("%w: it holds a control character", ErrNotCopyable)
		}
	}
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\a", nil
}

// CopyURL returns the command that copies rawURL, and nothing else, to the
// clipboards. A URL usually comes from GitHub and is untrusted: one that is
// not an absolute http(s) URL of printable ASCII is refused (the error says
// why, for the screen to show) and nothing is copied. what names the link
// in the confirmation.
func (c Clipboard) CopyURL(rawURL, what string) (tea.Cmd, error) {
	if !Linkable(rawURL) {
		return nil, fmt.Errorf("%w: %s is not a plain http(s) link", ErrNotCopyable, what)
	}
	return c.Copy(rawURL, what)
}

// Copy returns the command that copies text (no control character) to the
// terminal's clipboard by OSC 52 and to the native one when there is one;
// its result is a CopiedMsg.
func (c Clipboard) Copy(text, what string) (tea.Cmd, error) {
	seq, err := OSC52(text)
	if err != nil {
		return nil, err
	}
	native := c.Native
	done := func() tea.Msg {
		if native == nil {
			return CopiedMsg{What: what}
		}
		return CopiedMsg{What: what, Err: native(text)}
	}
	// The sequence goes out as it is: tea.Raw writes it to the terminal
	// past the renderer, which is what OSC 52 needs. Plain mode discards
	// the program's output, so there it reaches nothing (see RunOptions).
	return tea.Batch(tea.Raw(seq), done), nil
}

// Notice is the short line a screen shows once a copy was made.
func (c Clipboard) Notice(msg CopiedMsg) string {
	s := "Copied " + msg.What + "."
	if msg.Err != nil {
		s = "Sent " + msg.What + " to the terminal's clipboard (this machine has none: " + strings.TrimRight(SanitizeLine(msg.Err.Error()), ". ") + ")."
	}
	if c.InTmux {
		s += " Inside tmux it reaches your clipboard only with: tmux set -s set-clipboard on"
	}
	return s
}

// CopyKey is the copy key every screen with a link binds: c copies the
// link of the card or result shown.
func CopyKey() key.Binding {
	return key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy link"))
}

// NoticeLine is a confirmation ("Copied the link to #4.") shown in place
// of the help line until the next key: wrapped to width by the one rule
// (WrapLinks, so the tmux advice's command is never broken), whole, on as
// many lines as it needs — a notice is a sentence or two, never cut.
func NoticeLine(width int, notice string, st Styles) string {
	lines := WrapLinks(SanitizeLine(notice), width, " ")
	for i, l := range lines {
		lines[i] = st.Subtle.Render(l)
	}
	return strings.Join(lines, "\n")
}

// ResultLink is the copy key of a small screen whose result has one link
// (ready's and plan's comment, proof push's advisory comment): c copies
// URL once it is set, and the confirmation replaces the help line until
// the next key.
type ResultLink struct {
	URL    string // "" until the result has a link
	What   string // names it in the confirmation: "the link to the comment"
	notice string
}

// Keys is the copy key while there is a link, else none; none in plain
// mode, which writes no clipboard (its output may be a pipe or a log) and
// prints the link in the result's own lines instead.
func (r *ResultLink) Keys(c Common) []key.Binding {
	if r.URL == "" || c.Plain {
		return nil
	}
	return []key.Binding{CopyKey()}
}

// Key takes c when there is a link (handled reports it) and clears the
// confirmation on any other key.
func (r *ResultLink) Key(msg tea.KeyPressMsg, c Clipboard) (cmd tea.Cmd, handled bool) {
	r.notice = ""
	if r.URL == "" || !key.Matches(msg, CopyKey()) {
		return nil, false
	}
	cmd, err := c.CopyURL(r.URL, r.What)
	if err != nil {
		r.notice = "Nothing was copied: " + r.What + " is not a plain http(s) link."
		return nil, true
	}
	return cmd, true
}

// Copied takes the copy's report.
func (r *ResultLink) Copied(msg CopiedMsg, c Clipboard) { r.notice = c.Notice(msg) }

// Notice is the confirmation to show in place of the help line, or "".
func (r *ResultLink) Notice() string { return r.notice }
