package untrusted

import (
	"strings"
	"unicode/utf8"
)

// RecordLineMax is the most runes RecordLine keeps: a commit title or a
// trailer value longer than this is cut, with "…" saying so.
const RecordLineMax = 200

// RecordLine is one field as aayu writes it into a record that outlives the
// run — a squash commit's title, a trailer, a line of a comment: Line's
// rule (escape sequences, C1 controls, bidi and zero-width characters shown
// as text, never kept; a line break shown as "⏎"), then surrounding spaces
// trimmed and the length capped. Its output is one line of printable text,
// so a field can never start a line of its own in git history and pose as
// a trailer aayu wrote. It is idempotent for fields under the cap.
func RecordLine(s string) string {
	out := strings.TrimSpace(Line(s))
	if utf8.RuneCountInString(out) <= RecordLineMax {
		return out
	}
	runes := []rune(out)
	return strings.TrimSpace(string(runes[:RecordLineMax-1])) + "…"
}

// RecordLine is the text as one neutral line for a record (see RecordLine).
func (t Text) RecordLine() string { return RecordLine(string(t)) }
