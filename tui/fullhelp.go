package tui

import "charm.land/bubbles/v2/key"

// FullHelpView is the ? screen: every key of the screen showing (FullKeys
// when it has them), disabled ones with their reason, laid out for
// width×height with the way back on the last line.
func FullHelpView(s Screen, width, height int, st Styles) string {
	body := []string{st.Title.Render("Keys"), ""}
	body = append(body, FullHelp(width, screenKeys(s), st)...)
	closeHelp := key.NewBinding(key.WithKeys("?", "esc"), key.WithHelp("?/esc", "close help"))
	return Frame(body, width, height, HelpLine(width, []key.Binding{closeHelp, DefaultKeys().Quit}, st))
}

// screenKeys is every binding of a screen, for the full help.
func screenKeys(s Screen) []key.Binding {
	if f, ok := s.(FullKeyer); ok {
		return f.FullKeys()
	}
	return s.Keys()
}

// PlainKeyer is implemented by a screen whose plain twin takes other
// words than its full-screen keys (no arrows, no copy key, "x 2" for a
// space): the plain ? lists what a typed line can be now, never a key the
// plain twin would then refuse. nil means the screen's keys are those words.
type PlainKeyer interface {
	PlainKeys() []key.Binding
}

// PlainNoter is implemented by a plain screen with a rule the person
// should know that is no word to type (the inbox: in what order a
// background result and the question come); the plain ? prints it under
// the words.
type PlainNoter interface {
	PlainNote() string
}

// PlainHelp is the plain twin of the ? screen: one line per word plain
// mode accepts now.
func PlainHelp(s Screen) []string {
	if pk, ok := s.(PlainKeyer); ok {
		if plain := pk.PlainKeys(); plain != nil {
			// Exactly the words the screen takes now, in its order, and ?.
			lines := []string{"what you can type now, one per line:"}
			for _, b := range plain {
				h := b.Help()
				lines = append(lines, "  "+h.Key+": "+h.Desc)
			}
			lines = append(lines, "  ?: these lines again")
			if n, ok := s.(PlainNoter); ok && n.PlainNote() != "" {
				lines = append(lines, n.PlainNote())
			}
			return lines
		}
	}
	lines := []string{"keys:"}
	rest, pinned := splitPinned(screenKeys(s))
	if !hasKey(pinned, "?") {
		pinned = append([]key.Binding{DefaultKeys().Help}, pinned...)
	}
	if !hasKey(pinned, "q") {
		// The ? screen's last line always offers q; so does its twin, even
		// while a question is open (q then answers no).
		pinned = append(pinned, DefaultKeys().Quit)
	}
	for _, b := range append(rest, pinned...) {
		h := b.Help()
		lines = append(lines, "  "+h.Key+": "+h.Desc)
	}
	return lines
}
