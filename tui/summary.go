package tui

import (
	"fmt"
	"strings"
)

// Named is implemented by a screen that names itself in the quit summary:
// "ship #4", "pack, Story #7", "inbox".
type Named interface{ Name() string }

// Headliner is implemented by a screen whose outcome, in one line, is not
// its transcript's "result: …" line ("merged into dev as 1a2b3c4 (exit 0)"
// rather than "result: exit 0").
type Headliner interface{ Headline() string }

// Shower is implemented by a screen that only shows what is there (the
// pack viewer, verify). Opened on top of another screen, what it found is
// what the person looked at, not what they did: it is in the quit summary,
// and it does not set the run's exit code. The screen a command names
// (aayu pack 3) always sets it.
type Shower interface{ OnlyShows() bool }

// onlyShows says scr is a Shower that only shows.
func onlyShows(scr Screen) bool {
	s, ok := scr.(Shower)
	return ok && s.OnlyShows()
}

// summaryBlock is one screen's part of the quit summary: what it is, how
// it ended, and what it leaves behind. looked: it was opened on top only
// to show, so its code does not count (Shower).
type summaryBlock struct {
	name   string
	code   int
	left   []string
	looked bool
}

// blockOf is what scr leaves on the terminal when it closes with code.
func blockOf(scr Screen, code int) summaryBlock {
	b := summaryBlock{code: code, left: leftBehind(scr)}
	if n, ok := scr.(Named); ok {
		b.name = n.Name()
	}
	if b.name == "" {
		return b
	}
	// The headline names the screen and says how it ended; the "result: "
	// line it replaces would say it again, unnamed.
	headline := ""
	if h, ok := scr.(Headliner); ok {
		headline = h.Headline()
	}
	var rest []string
	for _, l := range b.left {
		if r, ok := strings.CutPrefix(l, "result: "); ok {
			if headline == "" {
				headline = r
			}
			continue
		}
		rest = append(rest, l)
	}
	if headline == "" {
		headline = fmt.Sprintf("exit %d", code)
	}
	b.left = append([]string{b.name + ": " + headline}, rest...)
	return b
}

// summary is the quit summary: one block per screen that ran, in the order
// they closed, then where the actions log is, then, when more than one
// screen ran, which of them gave the process its exit code.
func summary(blocks []summaryBlock, actionsLog string) []string {
	var out []string
	worst := 0
	for i, b := range blocks {
		out = append(out, b.left...)
		if !b.looked && (blocks[worst].looked || Worst(blocks[worst].code, b.code) != blocks[worst].code) {
			worst = i
		}
	}
	if actionsLog != "" {
		out = append(out, "The actions log keeps every write aayu makes, one file a day, in "+actionsLog)
	}
	if len(blocks) > 1 {
		w := blocks[worst]
		switch {
		case w.looked || w.code == ExitOK:
			out = append(out, "exit 0: every screen finished.")
		case w.name != "":
			out = append(out, fmt.Sprintf("exit %d, the worst of the screens above: %s.", w.code, w.name))
		default:
			out = append(out, fmt.Sprintf("exit %d: the worst of the screens above.", w.code))
		}
	}
	return out
}
