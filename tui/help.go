package tui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

const (
	helpSeparator = " • "
	helpEllipsis  = "…"
)

// FullKeyer is implemented by a screen whose full help (?) lists more keys
// than its one help line has room for.
type FullKeyer interface {
	FullKeys() []key.Binding
}

// Typer is implemented by a screen that can be taking typed text (a note):
// while Typing reports true, "?" is a character of that text, not the help.
type Typer interface {
	Typing() bool
}

// HelpLine renders bindings as one line no wider than width cells, through
// bubbles/help's short help. Two rules of aayu's wrap it: a disabled binding
// stays in the line, drawn with Styles.Disabled, and its help text says why
// (see Disable) — bubbles/help would leave it out; and the quit and help keys
// are pinned to the end of the line, with esc (the way back), so cutting the
// line for width drops the screen's other keys (ending them in "…"), never
// "esc back", "q quit" or "? help".
// "? help" is added when the screen does not list it. Bindings with no help
// key (unbound) are left out.
func HelpLine(width int, bindings []key.Binding, st Styles) string {
	return helpLine(width, bindings, st, true)
}

// TypingHelpLine is HelpLine for a screen taking typed text: "?" and "q"
// are characters of the text then, so neither is added; only the keys the
// screen lists (enter sends, esc cancels) are shown.
func TypingHelpLine(width int, bindings []key.Binding, st Styles) string {
	return helpLine(width, bindings, st, false)
}

func helpLine(width int, bindings []key.Binding, st Styles, addHelp bool) string {
	if width <= 0 {
		return ""
	}
	rest, pinned := splitPinned(bindings)
	if addHelp && !hasKey(pinned, "?") {
		pinned = append([]key.Binding{DefaultKeys().Help}, pinned...)
	}
	if len(pinned) == 0 {
		return ansi.Truncate(helpModel(st).ShortHelpView(showable(rest, st)), width, helpEllipsis)
	}
	h := helpModel(st)
	tail := h.ShortHelpView(showable(pinned, st))
	if ansi.StringWidth(tail) > width {
		// Too narrow even for both: quitting matters more than help.
		tail = h.ShortHelpView(showable(quitOnly(pinned), st))
	}
	room := width - ansi.StringWidth(tail) - ansi.StringWidth(helpSeparator)
	if len(rest) == 0 || room <= ansi.StringWidth(helpEllipsis) {
		return ansi.Truncate(tail, width, helpEllipsis)
	}
	shown := showable(rest, st)
	head := fitKeys(h, shown, room)
	if ansi.Strip(head) == helpEllipsis || ansi.StringWidth(head) > room {
		// Not even the first key fits whole: show as much of it as fits,
		// since a disabled key's reason is worth half a sentence.
		h.SetWidth(0)
		head = ansi.Truncate(h.ShortHelpView(shown[:1]), room, helpEllipsis)
	}
	if head == "" {
		// bubbles/help keeps an item that does not fit when not even its
		// ellipsis does; the pinned keys matter more.
		return ansi.Truncate(tail, width, helpEllipsis)
	}
	sep := h.Styles.ShortSeparator.Render(helpSeparator)
	return ansi.Truncate(head+sep+tail, width, helpEllipsis)
}

// FullHelp lays out every binding for the ? view in as many columns as fit
// width (bubbles/help's full help); in one column a description that is
// still too wide wraps onto the next lines. Disabled bindings are listed with
// their reason; the quit and help keys come last.
func FullHelp(width int, bindings []key.Binding, st Styles) []string {
	if width <= 0 {
		return nil
	}
	rest, pinned := splitPinned(bindings)
	if !hasKey(pinned, "?") {
		pinned = append([]key.Binding{DefaultKeys().Help}, pinned...)
	}
	all := showable(append(rest, pinned...), st)
	h := helpModel(st)
	h.FullSeparator = "   "
	for cols := min(len(all), 4); cols > 1; cols-- {
		view := h.FullHelpView(columns(all, cols))
		if maxWidth(view) <= width {
			return trimLines(view)
		}
	}
	return trimLines(h.FullHelpView([][]key.Binding{wrapDescs(all, width)}))
}

// trimLines splits a block into lines without the padding lipgloss leaves
// at their ends.
func trimLines(block string) []string {
	lines := strings.Split(block, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

func helpModel(st Styles) help.Model {
	h := help.New()
	h.ShortSeparator = helpSeparator
	h.Ellipsis = helpEllipsis
	h.Styles = help.Styles{
		Ellipsis:       st.HelpSeparator,
		ShortKey:       st.Key,
		ShortDesc:      st.KeyDesc,
		ShortSeparator: st.HelpSeparator,
		FullKey:        st.Key,
		FullDesc:       st.KeyDesc,
		FullSeparator:  st.HelpSeparator,
	}
	return h
}

// splitPinned takes the quit and help bindings out of the list, in order, so
// the help line can keep them whatever the width.
func splitPinned(bindings []key.Binding) (rest, pinned []key.Binding) {
	for _, b := range bindings {
		switch {
		case b.Help().Key == "":
		case bindsAny(b, "q", "ctrl+c", "?", "esc"):
			// The ways out (esc back, q quit) and help are never cut.
			pinned = append(pinned, b)
		default:
			rest = append(rest, b)
		}
	}
	return rest, pinned
}

func quitOnly(bindings []key.Binding) []key.Binding {
	var out []key.Binding
	for _, b := range bindings {
		if bindsAny(b, "q", "ctrl+c", "esc") {
			out = append(out, b)
		}
	}
	return out
}

func bindsAny(b key.Binding, keys ...string) bool {
	for _, k := range b.Keys() {
		for _, want := range keys {
			if k == want {
				return true
			}
		}
	}
	return false
}

func hasKey(bindings []key.Binding, k string) bool {
	for _, b := range bindings {
		if bindsAny(b, k) {
			return true
		}
	}
	return false
}

// showable turns the bindings into ones bubbles/help draws: it skips
// disabled bindings, so a disabled one becomes an enabled copy whose text is
// already drawn with the Disabled style and carries its reason.
func showable(bindings []key.Binding, st Styles) []key.Binding {
	out := make([]key.Binding, 0, len(bindings))
	for _, b := range bindings {
		h := b.Help()
		if h.Key == "" || len(b.Keys()) == 0 {
			continue
		}
		if !b.Enabled() {
			b = key.NewBinding(key.WithKeys(b.Keys()...),
				key.WithHelp(st.Disabled.Render(h.Key), st.Disabled.Render(h.Desc)))
		}
		out = append(out, b)
	}
	return out
}

// fitKeys renders, in order, every binding that fits in room cells, passing
// over one that does not (a disabled key's long reason) rather than ending
// the line there as bubbles/help would; "…" says some were left for ?.
func fitKeys(h help.Model, shown []key.Binding, room int) string {
	h.SetWidth(0)
	var kept []key.Binding
	dropped := false
	for _, b := range shown {
		try := append(append([]key.Binding(nil), kept...), b)
		if ansi.StringWidth(h.ShortHelpView(try))+len(" "+helpEllipsis) <= room {
			kept = try
		} else {
			dropped = true
		}
	}
	if len(kept) == 0 {
		h.SetWidth(room)
		return strings.TrimLeft(h.ShortHelpView(shown), " ")
	}
	line := h.ShortHelpView(kept)
	if dropped {
		line += " " + h.Styles.Ellipsis.Render(helpEllipsis)
	}
	return line
}

// columns splits bindings, in order, into n columns of near-equal length.
func columns(bindings []key.Binding, n int) [][]key.Binding {
	per := (len(bindings) + n - 1) / n
	var out [][]key.Binding
	for i := 0; i < len(bindings); i += per {
		out = append(out, bindings[i:min(i+per, len(bindings))])
	}
	return out
}

// wrapDescs wraps each description to what is left of width beside the
// widest key; continuation lines become bindings with an empty key, so
// bubbles/help's key and description columns stay aligned.
func wrapDescs(bindings []key.Binding, width int) []key.Binding {
	keyWidth := 0
	for _, b := range bindings {
		keyWidth = max(keyWidth, ansi.StringWidth(b.Help().Key))
	}
	room := max(width-keyWidth-1, 8)
	var out []key.Binding
	for _, b := range bindings {
		lines := strings.Split(ansi.Wrap(b.Help().Desc, room, " "), "\n")
		out = append(out, key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, lines[0])))
		for _, l := range lines[1:] {
			out = append(out, key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp("", l)))
		}
	}
	return out
}

func maxWidth(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}
