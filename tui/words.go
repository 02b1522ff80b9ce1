package tui

import (
	"fmt"
	"strings"
)

// Plural is one when n is 1 and many otherwise: "1 problem", "2 problems".
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// HumanBytes is a byte count as a person reads it, in binary units with one
// decimal: "512 B", "1.5 KiB", "256.0 MiB".
func HumanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// ResultWord is a check's result (pass, fail, skipped, waived, blocked) in
// the words a person reads, so a status is never a symbol or a colour
// alone. Any other value is untrusted text and comes back sanitised.
func ResultWord(result string) string {
	switch result {
	case "pass":
		return "passed"
	case "fail":
		return "failed"
	case "skipped", "waived", "blocked":
		return result
	}
	return SanitizeLine(result)
}

// YesLine reads a plain-mode answer to a confirmation: only y or yes is a
// yes, so any other line, or none, writes nothing.
func YesLine(line string) bool {
	l := strings.ToLower(strings.TrimSpace(line))
	return l == "y" || l == "yes"
}

// Sentence ends s with one full stop: an error's words may already end in
// one.
func Sentence(s string) string {
	s = strings.TrimRight(s, " ")
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}
