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

// summaryBlock is one screen's part of the quit summary: what it is, how
// it ended, and what it leaves behind.
type summaryBlock struct {
	name string
	code int
	left []string
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
		if Worst(blocks[worst].code, b.code) != blocks[worst].code {
			worst = i
		}
	}
	if actionsLog != "" {
		out = append(out, "The actions log keeps every write aayu makes, one file a day, in "+actionsLog)
	}
	if len(blocks) > 1 {
		w := blocks[worst]
		switch {
		case w.code == ExitOK:
			out = append(out, "exit 0: every screen finished.")
		case w.name != "":
			out = append(out, fmt.Sprintf("exit %d, the worst of the screens above: %s.", w.code, w.name))
		default:
			out = append(out, fmt.Sprintf("exit %d: the worst of the screens above.", w.code))
		}
	}
	return out
}
