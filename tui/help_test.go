package tui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func helpBindings() []key.Binding {
	k := DefaultKeys()
	ship := key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "ship"))
	return []key.Binding{k.Up, k.Down, k.Enter, Disable(ship, "CI is still running"), k.Help, k.Quit}
}

func TestHelpLineFitsEveryWidth(t *testing.T) {
	for _, dark := range []bool{true, false} {
		st := NewStyles(dark)
		for width := 0; width <= 130; width++ {
			line := HelpLine(width, helpBindings(), st)
			if w := lipgloss.Width(line); w > width {
				t.Fatalf("HelpLine(%d) is %d cells wide: %q", width, w, ansi.Strip(line))
			}
			if strings.Contains(line, "\n") {
				t.Fatalf("HelpLine(%d) holds a line break", width)
			}
		}
	}
}

func TestHelpLineContent(t *testing.T) {
	st := NewStyles(true)
	tests := []struct {
		name    string
		width   int
		want    string
		wantNot []string
	}{
		{
			name:  "everything fits, the disabled key says why",
			width: 120,
			want:  "↑/k up • ↓/j down • enter choose • s ship (unavailable: CI is still running) • ? help • q quit",
		},
		{
			name:    "80 columns: the screen's keys are cut, help and quit stay",
			width:   80,
			want:    "↑/k up • ↓/j down • enter choose … • ? help • q quit",
			wantNot: []string{"ship"},
		},
		{
			name:    "40 columns: leading items, an ellipsis, then help and quit",
			width:   40,
			want:    "↑/k up • ↓/j down … • ? help • q quit",
			wantNot: []string{"choose"},
		},
		{
			name:  "too narrow for help: quit alone",
			width: 10,
			want:  "q quit",
		},
		{
			name:  "narrower than quit: quit cut to fit",
			width: 4,
			want:  "q q…",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ansi.Strip(HelpLine(tt.width, helpBindings(), st))
			if got != tt.want {
				t.Errorf("HelpLine(%d) = %q, want %q", tt.width, got, tt.want)
			}
			for _, no := range tt.wantNot {
				if strings.Contains(got, no) {
					t.Errorf("HelpLine(%d) = %q should not hold %q", tt.width, got, no)
				}
			}
		})
	}
}

// TestHelpLineNeverHidesQuit is the rule the old help line broke: at any
// width that can hold "q quit", the line holds it, however many keys the
// screen lists before it.
func TestHelpLineNeverHidesQuit(t *testing.T) {
	many := helpBindings()
	for i := 0; i < 12; i++ {
		many = append([]key.Binding{key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "a long action name"))}, many...)
	}
	for width := 6; width <= 130; width++ {
		if got := ansi.Strip(HelpLine(width, many, NewStyles(true))); !strings.HasSuffix(got, "q quit") {
			t.Fatalf("HelpLine(%d) = %q hides q quit", width, got)
		}
	}
}

func TestHelpLineAddsHelpKey(t *testing.T) {
	b := key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "gone"))
	b.Unbind()
	if got := ansi.Strip(HelpLine(80, []key.Binding{b, DefaultKeys().Quit}, NewStyles(true))); got != "? help • q quit" {
		t.Errorf("HelpLine = %q, want the unbound binding left out and ? help added", got)
	}
}

func TestFullHelpListsEveryKeyAtEveryWidth(t *testing.T) {
	bindings := helpBindings()
	for _, width := range []int{40, 80, 120} {
		lines := FullHelp(width, bindings, NewStyles(true))
		text := ansi.Strip(strings.Join(lines, "\n"))
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > width {
				t.Errorf("FullHelp(%d) line is %d cells: %q", width, w, ansi.Strip(l))
			}
		}
		for _, want := range []string{"↑/k", "↓/j", "enter", "choose", "q", "quit", "?", "help", "CI is still", "running"} {
			if !strings.Contains(text, want) {
				t.Errorf("FullHelp(%d) lacks %q:\n%s", width, want, text)
			}
		}
		if strings.Contains(text, helpEllipsis) {
			t.Errorf("FullHelp(%d) cut something:\n%s", width, text)
		}
	}
}

func TestDisable(t *testing.T) {
	ship := key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "ship"))
	off := Disable(ship, "no pack qualifies")
	if off.Enabled() {
		t.Error("Disable left the binding enabled")
	}
	if got := off.Help().Desc; got != "ship (unavailable: no pack qualifies)" {
		t.Errorf("disabled help text = %q", got)
	}
	if !ship.Enabled() || ship.Help().Desc != "ship" {
		t.Error("Disable changed the binding it was given")
	}
}

func TestDefaultKeysAllHaveHelp(t *testing.T) {
	k := DefaultKeys()
	for _, b := range []key.Binding{k.Quit, k.Help, k.Up, k.Down, k.Next, k.Prev, k.Enter} {
		if !b.Enabled() || b.Help().Key == "" || b.Help().Desc == "" {
			t.Errorf("binding %v lacks keys or help text", b.Keys())
		}
	}
	if got := k.Quit.Keys(); len(got) != 2 || got[0] != "q" || got[1] != "ctrl+c" {
		t.Errorf("quit keys = %v, want q and ctrl+c", got)
	}
}

// TestTypingHelpLineNeverOffersTextKeys: while a screen takes typed text,
// "?" and "q" are characters of it, so its help line offers neither.
func TestTypingHelpLineNeverOffersTextKeys(t *testing.T) {
	send := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send"))
	cancel := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
	for _, w := range []int{20, 40, 80} {
		got := ansi.Strip(TypingHelpLine(w, []key.Binding{send, cancel}, NewStyles(true)))
		if strings.Contains(got, "?") || strings.Contains(got, "quit") {
			t.Errorf("at %d columns the typing help line offers a text key: %q", w, got)
		}
		if w >= 40 && got != "enter send • esc cancel" {
			t.Errorf("at %d columns: %q", w, got)
		}
	}
}

// TestHelpLineKeepsTheWayBack: a view inside a screen (an output view, a
// file viewer) lists esc back among many keys; however narrow the line,
// the way back stays, as q quit does.
func TestHelpLineKeepsTheWayBack(t *testing.T) {
	keys := []key.Binding{
		key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/k", "up")),
		key.NewBinding(key.WithKeys("down"), key.WithHelp("↓/j", "down")),
		key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
	for _, w := range []int{24, 40, 80} {
		if got := ansi.Strip(HelpLine(w, keys, NewStyles(true))); !strings.Contains(got, "esc back") {
			t.Errorf("at %d columns the help line lost the way back: %q", w, got)
		}
	}
}
