package auth

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/tui"
)

// Deps are the outside effects the screen's commands call; main wires them
// to the real token sources and GitHub, tests to the sandbox.
type Deps struct {
	Resolve func(ctx context.Context) (ghx.Token, []ghx.SourceStatus, error)
	Client  func(tok ghx.Token) (*github.Client, error)
	APIURL  string
	Bot     ghx.BotChoice
}

// Facts is what the screen learnt.
type Facts struct {
	Sources []ghx.SourceStatus
	Token   string // the token's description, never its value
	Login   string
	Name    string
	Scopes  []string // nil when GitHub sent no X-OAuth-Scopes (fine-grained or App tokens)
	Err     error
}

type factsMsg Facts

// Model is the auth screen.
type Model struct {
	c      tui.Common
	deps   Deps
	ctx    context.Context
	keys   tui.KeyMap
	facts  *Facts
	lines  []string
	scroll tui.Scrollback // the full screen scrolled back from its newest line
	done   bool
	code   int
}

// New returns the auth screen.
func New(ctx context.Context, c tui.Common, deps Deps) *Model {
	m := &Model{c: c, deps: deps, ctx: ctx, keys: tui.DefaultKeys()}
	m.lines = []string{"aayu auth: where each token comes from and which account it is; a token's value is never shown.", "working…"}
	return m
}

// Init looks the token up and asks GitHub whose it is.
func (m *Model) Init() tea.Cmd {
	ctx, deps := m.ctx, m.deps
	return func() tea.Msg { return factsMsg(gather(ctx, deps)) }
}

func gather(ctx context.Context, deps Deps) Facts {
	tok, sources, err := deps.Resolve(ctx)
	f := Facts{Sources: sources}
	if err != nil {
		f.Err = err
		return f
	}
	f.Token = tok.String()
	client, err := deps.Client(tok)
	if err != nil {
		f.Err = err
		return f
	}
	user, resp, err := client.Users.Get(ctx, "")
	if err != nil {
		f.Err = fmt.Errorf("%s", ghx.Describe(err))
		return f
	}
	f.Login, f.Name = user.GetLogin(), user.GetName()
	if resp != nil {
		f.Scopes = ghx.Scopes(resp.Header)
		sort.Strings(f.Scopes)
	}
	return f
}

// DangerousScopes names the scopes the seed warns about and why.
func DangerousScopes(scopes []string) []string {
	var warn []string
	for _, s := range scopes {
		switch {
		case s == "workflow":
			warn = append(warn, "workflow: the token can change GitHub Actions workflows, including the merge gate that judges every change")
		case strings.HasPrefix(s, "admin:"):
			warn = append(warn, s+": the token can administer the organisation or its keys and hooks")
		case s == "delete_repo":
			warn = append(warn, "delete_repo: the token can delete repositories")
		}
	}
	return warn
}

// Update records the facts; the screen then ends, its report left behind.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.c.Styles = tui.NewStyles(msg.IsDark())
	case factsMsg:
		f := Facts(msg)
		m.facts = &f
		m.lines = append(m.lines, report(f, m.deps)...)
		if f.Err != nil {
			m.code = tui.ExitFailed
		}
		// It ends once the facts are on the normal screen (Epilogue): a
		// command that does one thing has nothing left to ask.
		m.done = true
		return m, tea.Quit
	case tea.KeyPressMsg:
		if m.scroll.Key(msg, m.keys.Up, m.keys.Down, m.c, m.body(), m.Keys()) {
			return m, nil
		}
		if key.Matches(msg, m.keys.Quit) {
			m.done = true
			if m.facts == nil {
				m.code = tui.ExitFailed
			}
			return m, tea.Quit
		}
	}
	return m, nil
}

// report is the facts as lines, the same in both renderers.
func report(f Facts, deps Deps) []string {
	var out []string
	for _, s := range f.Sources {
		line := fmt.Sprintf("token source %s: %s", s.Source, s.State)
		if s.Detail != "" {
			line += " (" + tui.SanitizeLine(s.Detail) + ")"
		}
		out = append(out, line)
	}
	if f.Err != nil {
		return append(out,
			"failed: "+tui.SanitizeLine(f.Err.Error()),
			"Nothing was changed. Next: set AAYU_GITHUB_TOKEN, or run gh auth login, then aayu auth again.")
	}
	acct := "account: @" + tui.SanitizeLine(f.Login)
	if f.Name != "" {
		acct += " (" + tui.SanitizeLine(f.Name) + ")"
	}
	out = append(out, "human token: "+f.Token, acct+" at "+tui.SanitizeLine(ghx.MaskURL(deps.APIURL)))
	switch {
	case f.Scopes == nil:
		out = append(out, "scopes: GitHub reported none (a fine-grained or App token; its permissions are set on GitHub)")
	case len(f.Scopes) == 0:
		out = append(out, "scopes: none")
	default:
		out = append(out, "scopes: "+tui.SanitizeLine(strings.Join(f.Scopes, ", ")))
	}
	for _, w := range DangerousScopes(f.Scopes) {
		out = append(out, "warning: "+tui.SanitizeLine(w)+"; a token for aayu needs only repo access")
	}
	bot := "bot identity: " + deps.Bot.Kind
	if deps.Bot.Login != "" {
		bot += " (@" + tui.SanitizeLine(deps.Bot.Login) + ")"
	}
	if deps.Bot.Source != "" && deps.Bot.Kind != ghx.BotHumanFallback {
		bot += ", token from " + deps.Bot.Source
	}
	return append(out, bot+" — "+deps.Bot.Why)
}

// View draws the same lines in the full screen, wrapped to its width; on a
// small terminal the newest lines stay in view and ↑/↓ scroll back, since
// scope warnings alone can outgrow 40×24.
func (m *Model) View() tea.View {
	return m.scroll.View(m.c, "aayu auth", m.body(), m.Keys())
}

// Transcript returns the plain lines.
func (m *Model) Transcript() []string { return m.lines }

// Done reports whether the screen is over and its exit code.
func (m *Model) Done() (bool, int) { return m.done, m.code }

// Keys lists the screen's bindings.
func (m *Model) Keys() []key.Binding { return []key.Binding{m.keys.Quit} }

// FullKeys adds, for the ? screen, the scroll keys the help line leaves to
// the note on what is hidden.
func (m *Model) FullKeys() []key.Binding {
	scroll := key.NewBinding(key.WithKeys("up", "k", "down", "j"), key.WithHelp("↑/k ↓/j", "scroll back and on"))
	return []key.Binding{scroll, m.keys.Quit}
}

// body is what the full screen shows under its title.
func (m *Model) body() []string {
	if m.facts == nil {
		return []string{"reading…"}
	}
	return m.lines[2:]
}

// PlainKeys is the plain ?: the plain twin takes no line on this screen.
func (m *Model) PlainKeys() []key.Binding { return tui.PlainAsksNothing() }
