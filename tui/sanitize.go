package tui

import "github.com/aayudha/aayu/model/untrusted"

// Sanitize makes untrusted text (anything from GitHub or a tool's output)
// safe to put on a terminal: see untrusted.Sanitize, which the model's
// untrusted.Text also renders through, so both layers follow one rule.
func Sanitize(s string) string { return untrusted.Sanitize(s) }

// SanitizeLine is Sanitize for a one-line field: a line break becomes a
// visible "⏎" (untrusted.Line).
func SanitizeLine(s string) string { return untrusted.Line(s) }
