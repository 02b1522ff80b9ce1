package proofpush

import (
	"context"
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/proofpush"
	"github.com/aayudha/aayu/tui"
)

// Deps are the outside effects: main wires Push to GitHub (or the
// sandbox) and the bucket.
type Deps struct {
	Story int
	Push  func(ctx context.Context) (*core.Result, error)
	// Note is one more line after a push that landed (the sandbox's bucket
	// lasting only this run).
	Note string
	// OnClose runs once when the screen closes.
	OnClose func()
}

type pushedMsg struct {
	res *core.Result
	err error
}

// Model is the proof push screen.
type Model struct {
	c       tui.Common
	ctx     context.Context
	deps    Deps
	keys    tui.KeyMap
	lines   []string
	scroll  tui.Scrollback
	done    bool
	closed  bool
	code    int
	stopWhy string
	// link is the advisory comment, for the copy key (c).
	link tui.ResultLink
}

// New returns the screen; Init starts the push.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	return &Model{c: c, ctx: ctx, deps: deps, keys: tui.DefaultKeys(),
		lines: []string{fmt.Sprintf("aayu proof push #%d: lands .aayudha/proof/%d/ on the ledger as an advisory pack, with its own comment on the pull request. It asks nothing: an advisory pack is a preview and never counts for ship.", deps.Story, deps.Story),
			"pushing…"}}
}

// Init starts the push in the background.
func (m *Model) Init() tea.Cmd {
	ctx, push := m.ctx, m.deps.Push
	return func() tea.Msg {
		r, err := push(ctx)
		return pushedMsg{r, err}
	}
}

// QuitsSafely marks the screen as one that never quits in the middle of a
// write (tui.SafeQuitter).
func (m *Model) QuitsSafely() {}

// Update reacts to the push's outcome and to keys; it does no I/O.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.c.Styles = tui.NewStyles(msg.IsDark())
	case pushedMsg:
		return m.pushed(msg)
	case tui.QuitRequestMsg:
		if m.done {
			m.closed = true
			return m, tea.Quit
		}
		if m.stopWhy == "" {
			m.stopWhy = msg.Why
			m.lines = append(m.lines, msg.Why+": proof push stops once the push under way lands, and says what landed; nothing is cut in the middle.")
		}
	case tui.CopiedMsg:
		m.link.Copied(msg, m.c.Clipboard)
	case tea.KeyPressMsg:
		if cmd, ok := m.link.Key(msg, m.c.Clipboard); ok {
			return m, cmd
		}
		if m.scroll.Key(msg, m.keys.Up, m.keys.Down, m.c, m.body(), m.Keys()) {
			return m, nil
		}
		if m.done && key.Matches(msg, m.keys.Quit, m.keys.Enter) {
			m.closed = true
			return m, tea.Quit
		}
	}
	return m, nil
}

func (m *Model) pushed(msg pushedMsg) (tea.Model, tea.Cmd) {
	switch {
	case msg.err != nil && core.IsRefusal(msg.err):
		m.lines = append(m.lines, "refused: "+tui.Sentence(tui.SanitizeLine(msg.err.Error())))
		m.code = tui.ExitRefused
	case msg.err != nil:
		m.lines = append(m.lines, "failed: "+tui.Sentence(tui.SanitizeLine(msg.err.Error())),
			fmt.Sprintf("Next: check --repo and your token (aayu auth), then run aayu proof push %d again; a pack already landed is not committed twice.", m.deps.Story))
		m.code = tui.ExitFailed
	default:
		for _, l := range Lines(m.deps.Story, msg.res) {
			m.lines = append(m.lines, tui.SanitizeLine(l))
		}
		if m.deps.Note != "" {
			m.lines = append(m.lines, tui.SanitizeLine(m.deps.Note))
		}
		if msg.res != nil && msg.res.CommentProblem == "" {
			m.link = tui.ResultLink{URL: msg.res.Comment.URL, What: "the link to the advisory comment"}
		}
	}
	m.done = true
	m.lines = append(m.lines, fmt.Sprintf("result: exit %d", m.code))
	if m.c.Plain || m.c.CI || m.stopWhy != "" {
		m.closed = true
		return m, tea.Quit
	}
	return m, nil
}

// Lines is the confirmation of a push that landed: where, the pack's hash,
// the media copied, the comment, and that it never counts for ship.
func Lines(story int, r *core.Result) []string {
	out := []string{
		fmt.Sprintf("landed: the local pack is on the ledger as an advisory pack for story %d.", story),
		fmt.Sprintf("  ledger: %d %s at %s (commit %s)", r.Files, tui.Plural(r.Files, "file", "files"), r.Path, short(r.Commit)),
		"  pack.json sha256 " + r.PackSHA256,
	}
	if r.Unchanged {
		out[0] = fmt.Sprintf("already landed: the ledger holds this pack as an advisory pack for story %d; nothing new was committed.", story)
		out[1] = fmt.Sprintf("  ledger: %d %s at %s, as they are locally", r.Files, tui.Plural(r.Files, "file", "files"), r.Path)
	}
	if r.Removed > 0 {
		out = append(out, fmt.Sprintf("  %d %s of an earlier push to the same head removed", r.Removed, tui.Plural(r.Removed, "file", "files")))
	}
	if r.Bucket != "" {
		if len(r.Media) == 0 {
			out = append(out, "  media: the pack holds no media files to copy to "+r.Bucket)
		} else {
			out = append(out, fmt.Sprintf("  media: %d copied to %s", len(r.Media), r.Bucket))
		}
		paths := make([]string, 0, len(r.Media))
		for p := range r.Media {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		for _, p := range paths {
			out = append(out, fmt.Sprintf("    %s → %s", p, r.Media[p]))
		}
		if r.LifecycleNote != "" {
			out = append(out, "  "+r.LifecycleNote)
		}
	}
	switch {
	case r.CommentProblem != "":
		out = append(out, "  comment: "+r.CommentProblem)
	case r.Comment.Unchanged:
		out = append(out, "  comment: the advisory comment already says this: "+r.Comment.URL)
	default:
		out = append(out, "  comment: the advisory comment on the pull request: "+r.Comment.URL)
	}
	verdict := "verifies and every floor holds"
	switch {
	case r.Report == nil:
		verdict = "was not checked against the ledger's Ready snapshot and the pull request's head"
	case !r.Report.Verified():
		verdict = "does not verify against the ledger's Ready snapshot and the pull request's head"
	case !r.Report.FloorsHold:
		verdict = "verifies, but a floor does not hold"
	}
	return append(out, fmt.Sprintf("Advisory: it %s, and it never counts for ship; only the merge gate's pack does.", verdict))
}

// View draws the same lines in the full screen, wrapped to its width.
func (m *Model) View() tea.View {
	return m.scroll.ViewNotice(m.c, fmt.Sprintf("aayu proof push #%d", m.deps.Story), m.body(), m.Keys(), m.link.Notice())
}

// body is what the full screen shows under its title: the lines after the
// first, without "pushing…" once the push has answered.
func (m *Model) body() []string {
	if !m.done {
		return m.lines[1:]
	}
	return append([]string(nil), m.lines[2:]...)
}

// Transcript returns the plain lines.
func (m *Model) Transcript() []string { return m.lines }

// Done reports whether the screen is over and its exit code.
func (m *Model) Done() (bool, int) { return m.done && m.closed, m.code }

// Epilogue leaves what landed on the person's shell once the full screen
// closes.
func (m *Model) Epilogue() []string { return m.body() }

// Keys lists the bindings that work now.
func (m *Model) Keys() []key.Binding { return append(m.link.Keys(m.c), m.keys.Quit) }

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// Close releases what the screen was built with (the sandbox's bucket).
func (m *Model) Close() {
	if m.deps.OnClose != nil {
		m.deps.OnClose()
		m.deps.OnClose = nil
	}
}
