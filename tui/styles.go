package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Styles holds every style the screens draw with in full-screen mode. Colour
// only ever reinforces words: a status is always printed as a word ("passed",
// "refused: …") and the style merely tints it, so a person who cannot see the
// colour (or runs with NO_COLOR) loses nothing.
//
// Plain mode never uses Styles: its lines carry no escape sequences at all.
type Styles struct {
	// Title is a screen's heading.
	Title lipgloss.Style
	// Subtle is secondary text: counts, timestamps, hints.
	Subtle lipgloss.Style
	// Text is ordinary body text with no emphasis.
	Text lipgloss.Style
	// OK tints a word saying something passed or is done.
	OK lipgloss.Style
	// Failed tints a word saying something failed or was refused.
	Failed lipgloss.Style
	// Warning tints a word saying something needs attention (waiting,
	// advisory, expiring).
	Warning lipgloss.Style
	// Key draws a key name in the help line ("q", "enter").
	Key lipgloss.Style
	// KeyDesc draws what an enabled key does in the help line.
	KeyDesc lipgloss.Style
	// Disabled draws a key that cannot be used now, together with why.
	Disabled lipgloss.Style
	// HelpSeparator draws the separator between help items.
	HelpSeparator lipgloss.Style
	// Selected draws the row under the cursor. It uses reverse video as well
	// as colour so it shows on a monochrome terminal.
	Selected lipgloss.Style
	// Border draws a rounded frame around a panel or card.
	Border lipgloss.Style
	// Code draws a code block, a device code or a hash.
	Code lipgloss.Style
	// Link draws a hyperlink's visible text.
	Link lipgloss.Style
}

// NewStyles builds the styles for a terminal with a dark or a light
// background. Screens learn which from tea.BackgroundColorMsg (the shell asks
// for it when a full-screen program starts); before that, assume dark.
//
// Each colour pair is chosen to keep a contrast ratio of at least 4.5:1 on
// its background (WCAG AA for text).
func NewStyles(hasDarkBackground bool) Styles {
	ld := lipgloss.LightDark(hasDarkBackground)
	pick := func(light, dark string) color.Color {
		return ld(lipgloss.Color(light), lipgloss.Color(dark))
	}
	var (
		accent  = pick("#5A2DB8", "#B9A2FF")
		subtle  = pick("#5C5C5C", "#A8A8A8")
		text    = pick("#1C1C1C", "#E4E4E4")
		ok      = pick("#1A6B2F", "#7BD88F")
		failed  = pick("#B3261E", "#FF8A80")
		warning = pick("#8A5300", "#FFC56B")
		border  = pick("#8C8C8C", "#6C6C6C")
		code    = pick("#ECECEC", "#2A2A2A")
		link    = pick("#0B57D0", "#8AB4F8")
	)
	return Styles{
		Title:         lipgloss.NewStyle().Bold(true).Foreground(accent),
		Subtle:        lipgloss.NewStyle().Foreground(subtle),
		Text:          lipgloss.NewStyle().Foreground(text),
		OK:            lipgloss.NewStyle().Bold(true).Foreground(ok),
		Failed:        lipgloss.NewStyle().Bold(true).Foreground(failed),
		Warning:       lipgloss.NewStyle().Bold(true).Foreground(warning),
		Key:           lipgloss.NewStyle().Bold(true).Foreground(accent),
		KeyDesc:       lipgloss.NewStyle().Foreground(subtle),
		Disabled:      lipgloss.NewStyle().Faint(true).Foreground(subtle),
		HelpSeparator: lipgloss.NewStyle().Foreground(border),
		Selected:      lipgloss.NewStyle().Reverse(true).Bold(true),
		Border: lipgloss.NewStyle().
			Border(lipgloss.RoundedBorder()).
			BorderForeground(border).
			Padding(0, 1),
		Code: lipgloss.NewStyle().Background(code).Foreground(text).Padding(0, 1),
		Link: lipgloss.NewStyle().Underline(true).Foreground(link),
	}
}
