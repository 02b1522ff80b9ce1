// Package audit is the audit screen: every Solo-mode bypass, every ledger
// write under the human-fallback identity, and every bypass comment
// recorded after its merge, read from the ledger and GitHub. It writes
// nothing, so agents may run it too. The reading runs as a tea.Cmd through
// ghx/auditread; the reconciling is model/audit's.
package audit

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/model/audit"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/tui"
)

// Deps are the screen's effects: main wires Read to ghx/auditread and
// model/audit, tests to the sandbox or a fixed report.
type Deps struct {
	Repo string // OWNER/NAME, for the heading
	Read func(ctx context.Context) (core.Report, error)
}

type reportMsg struct {
	report core.Report
	err    error
}

// Model is the audit screen.
type Model struct {
	c      tui.Common
	deps   Deps
	ctx    context.Context
	keys   tui.KeyMap
	read   bool
	lines  []string
	offset int // first body line shown in the full screen
	done   bool
	code   int
}

// New returns the audit screen.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	m := &Model{c: c, deps: deps, ctx: ctx, keys: tui.DefaultKeys()}
	m.lines = []string{fmt.Sprintf("aayu audit %s: every Solo-mode bypass, human-fallback write and bypass recorded late, from the ledger and GitHub; read-only.", tui.SanitizeLine(deps.Repo))}
	return m
}

// Init reads the ledger and GitHub.
func (m *Model) Init() tea.Cmd {
	ctx, read := m.ctx, m.deps.Read
	return func() tea.Msg {
		r, err := read(ctx)
		return reportMsg{report: r, err: err}
	}
}

// Update takes the report in; the full screen then scrolls until q.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.c.Styles = tui.NewStyles(msg.IsDark())
	case reportMsg:
		m.read = true
		if msg.err != nil {
			m.code = tui.ExitFailed
			m.lines = append(m.lines, "failed: the audit could not be read: "+tui.SanitizeLine(msg.err.Error()),
				"Nothing was changed. Next: check the connection and the token with aayu auth, then run aayu audit again.",
				"result: not read")
		} else {
			m.lines = append(m.lines, Lines(msg.report)...)
		}
		// It ends once the report is on the normal screen (Epilogue): a
		// command that does one thing has nothing left to ask.
		m.done = true
		return m, tea.Quit
	case tui.LineMsg, tui.InputClosedMsg:
		// Plain mode finishes once the report is printed; nothing to ask.
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, m.keys.Quit):
			m.done = true
			if !m.read {
				m.code = tui.ExitFailed
			}
			return m, tea.Quit
		case key.Matches(msg, m.keys.Down):
			m.offset = min(m.offset+1, max(0, len(m.lines)-1))
		case key.Matches(msg, m.keys.Up):
			m.offset = max(0, m.offset-1)
		}
	}
	return m, nil
}

// Lines is the report as plain lines, the same facts both renderers show.
// Commit subjects and authors are untrusted.Text and render themselves
// sanitised; logins and URLs from GitHub are sanitised here.
func Lines(r core.Report) []string {
	var out []string
	out = append(out, section("Solo-mode bypasses", len(r.Bypasses)))
	for _, b := range r.Bypasses {
		out = append(out, bypassLine(b))
	}
	out = append(out, section("Human-fallback writes", len(r.Fallbacks)))
	for _, f := range r.Fallbacks {
		out = append(out, fmt.Sprintf("  fallback: ledger commit %s %s by %s: %q", tui.SanitizeLine(gitsha.Short(f.SHA)), stamp(f.When), f.Author, f.Subject))
	}
	out = append(out, section("Recorded late", len(r.Late)))
	for _, b := range r.Late {
		out = append(out, fmt.Sprintf("  recorded late: PR #%d: the Solo-mode bypass: comment by @%s came %s after the merge (merged %s, comment %s)",
			b.PR, tui.SanitizeLine(b.Login), b.Comment.CreatedAt.Sub(b.MergedAt).Round(time.Second), stamp(b.MergedAt), stamp(b.Comment.CreatedAt)))
	}
	if len(r.Unused) > 0 {
		// Only when there is one: a bypass ship posted and then marked
		// unused, because the head moved before the merge.
		out = append(out, section("Unused bypasses", len(r.Unused)))
		for _, u := range r.Unused {
			out = append(out, fmt.Sprintf("  unused: PR #%d: the Solo-mode bypass: comment by @%s (%s, %s) merged nothing: the head moved before the merge",
				u.PR, tui.SanitizeLine(u.Comment.Login), tui.SanitizeLine(u.Comment.URL), stamp(u.Comment.CreatedAt)))
		}
	}
	if len(r.Tampering) > 0 {
		// Only when there is one: a record deleted or rewritten by a
		// commit that is none of aayu's own updates.
		out = append(out, section("Ledger tampering", len(r.Tampering)))
		for _, t := range r.Tampering {
			out = append(out, "  tampering: "+tui.SanitizeLine(t))
		}
	}
	for _, in := range r.Incomplete {
		out = append(out, "warning: "+tui.SanitizeLine(in))
	}
	return append(out, fmt.Sprintf("result: %s, %s, %s recorded late",
		count(len(r.Bypasses), "Solo-mode bypass", "Solo-mode bypasses"), count(len(r.Fallbacks), "human-fallback write", "human-fallback writes"), fmt.Sprint(len(r.Late))))
}

// bypassLine is one Solo-mode bypass: what it let through, by whom and
// how, and where its comment is.
func bypassLine(b core.Bypass) string {
	l := fmt.Sprintf("  bypass: PR #%d", b.PR)
	switch {
	case b.PR == 0:
		l = fmt.Sprintf("  bypass: Story #%d", b.Story) // a plan bypass no ship carried yet
	case b.Story > 0:
		l += fmt.Sprintf(" (Story #%d)", b.Story)
	}
	l += fmt.Sprintf(" by @%s through %s", tui.SanitizeLine(b.Login), b.Via)
	if b.Head != "" {
		l += " at head " + tui.SanitizeLine(gitsha.Short(b.Head))
	}
	if !b.MergedAt.IsZero() {
		l += ", merged " + stamp(b.MergedAt)
	}
	switch {
	case b.Comment == nil:
		l += "; its Solo-mode bypass: comment is not on GitHub"
	case b.Comment.URL != "":
		l += "; comment " + tui.SanitizeLine(b.Comment.URL) + " at " + stamp(b.Comment.CreatedAt)
	default:
		l += "; comment at " + stamp(b.Comment.CreatedAt)
	}
	if b.Late {
		l += " — recorded late"
	}
	return l
}

func section(title string, n int) string {
	if n == 0 {
		return title + ": none"
	}
	return fmt.Sprintf("%s: %d", title, n)
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "at an unknown time"
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// View draws the lines wrapped to the width, scrolled by up and down.
func (m *Model) View() tea.View {
	st := m.c.Styles
	w, h := max(m.c.Width, 20), max(m.c.Height, 6)
	head := tui.Header(st, "aayu audit", tui.SanitizeLine(m.deps.Repo), w)
	var body []string
	if !m.read {
		body = append(body, "reading the ledger and GitHub…")
	}
	for _, l := range m.lines[1:] {
		for _, wl := range tui.WrapLinks(l, w, " ,") {
			if strings.HasPrefix(l, "failed:") || strings.Contains(l, "recorded late") {
				wl = st.Warning.Render(wl)
			}
			body = append(body, wl)
		}
	}
	// The head, a blank line and the body from the scroll offset (kept
	// from running past the end), the help line at the bottom.
	start := min(m.offset, max(0, len(body)-(h-3)))
	v := tea.NewView(tui.Frame(append([]string{head, ""}, body[start:]...), w, h, tui.HelpLine(w, m.Keys(), st)))
	v.AltScreen = true
	return v
}

// Transcript returns the plain lines.
func (m *Model) Transcript() []string { return m.lines }

// Done reports whether the screen is over and its exit code.
func (m *Model) Done() (bool, int) { return m.done, m.code }

// Keys lists the screen's bindings.
func (m *Model) Keys() []key.Binding { return []key.Binding{m.keys.Up, m.keys.Down, m.keys.Quit} }

// PlainKeys is the plain ?: the plain twin takes no line on this screen.
func (m *Model) PlainKeys() []key.Binding { return tui.PlainAsksNothing() }
