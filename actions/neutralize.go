package actions

import "github.com/aayudha/aayu/model/untrusted"

// Neutralize is applied to every text aayu writes to GitHub (comments,
// reviews, pull request titles and bodies, ledger commit messages): the
// same rule as what aayu shows (untrusted.Sanitize, SPEC §6b). A comment posted
// under the person's name is read by more than aayu (gh, mail, scripts), so
// an agent-written Decision title must not reach them as a live ESC, OSC 52,
// C1 or bidi sequence. Line breaks stay; it is idempotent.
func Neutralize(s string) string { return untrusted.Sanitize(s) }

// NeutralizeLine is Neutralize for a one-line field (a title): a line
// break shows as "⏎" instead of starting a line of its own.
func NeutralizeLine(s string) string { return untrusted.Line(s) }
