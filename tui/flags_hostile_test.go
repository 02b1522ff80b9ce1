package tui

import (
	"strings"
	"testing"
)

// TestUsageErrorsShowArgumentsAsOutsideText: a usage error quotes what was
// typed (or pasted, or passed by a script), shown the way aayu shows all
// outside text: escapes in caret notation, never obeyed and never as Go's
// \x1b.
func TestUsageErrorsShowArgumentsAsOutsideText(t *testing.T) {
	const h = "\x1b[2J\u202e"
	for _, args := range [][]string{
		{"-x" + h},
		{"--plain=" + h, "inbox"},
		{"inbox" + h},
		{"doctor", h},
		{"ship", h, h},
		{"--repo", h, "inbox"},
		{"--set", h, "inbox"},
		{"pack", "dir", "--head", h},
		{"sandbox", "--addr", h},
		{"sandbox", "--scale", h},
		{"--api-url", h, "inbox"},
	} {
		_, err := ParseArgs(args, testDefs())
		if err == nil {
			t.Errorf("%q was accepted", args)
			continue
		}
		msg := err.Error()
		if at, r, bad := firstControl(msg); bad {
			t.Errorf("%q: the error holds %U at byte %d: %q", args, r, at, msg)
		}
		if !strings.Contains(msg, "^[[2J<U+202E>") {
			t.Errorf("%q: the error does not show the argument in caret notation: %q", args, msg)
		}
	}
}
