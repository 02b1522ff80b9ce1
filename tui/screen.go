package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Screen is the contract every aayu screen implements. A screen is an
// Elm-architecture model whose Update never does I/O; work happens in
// tea.Cmds into the core. The same model serves the full-screen renderer
// (View) and the plain renderer (Transcript), so headless use runs the very
// same code path as a person at a terminal.
type Screen interface {
	tea.Model

	// Transcript returns every plain line the screen has produced so far, in
	// order. It only ever grows: the plain renderer prints the lines it has
	// not printed yet after each Update and never redraws. Lines hold no
	// colour, no box drawing and no symbol that stands alone for a status.
	Transcript() []string

	// Done reports whether the screen has finished and with which exit code
	// (see the Exit* constants).
	Done() (finished bool, code int)

	// Keys lists the screen's key bindings for the help line; a disabled
	// binding stays listed and says why through its help text.
	Keys() []key.Binding
}

// LineMsg is one line a person typed in plain mode ("3", "x 2", "enter",
// "q"), delivered to the screen waiting for a choice.
type LineMsg struct{ Line string }

// InputClosedMsg tells a plain screen that standard input ended; a screen
// waiting for a choice treats it as quit.
type InputClosedMsg struct{}

// Common is what every screen shares: the size of the terminal, the styles,
// and how it is being drawn. Size flows down from the shell on resize.
type Common struct {
	Width, Height int
	Styles        Styles
	Plain         bool // plain renderer: lines only, no redraw
	Motion        bool // confetti and other motion allowed
	CI            bool // headless merge gate: never wait for a person
	// Clipboard is where a copy key copies a link to (OSC 52, and the
	// machine's own clipboard when main wires one).
	Clipboard Clipboard
}
