package untrusted

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRecordLineRefusesLineBreaksAndControls: a title that carries CR/LF
// and a fake trailer, escape sequences, bidi and zero-width characters
// comes out as one printable line with nothing live in it.
func TestRecordLineRefusesLineBreaksAndControls(t *testing.T) {
	in := "Fix it\r\nAayudha-Ship: head=abc\nAayudha-Identity: human\x1b[2J\u202eevil\u200b\x9b6n\r"
	got := RecordLine(in)
	if strings.ContainsAny(got, "\r\n\x1b\u202e\u200b\u009b") {
		t.Fatalf("RecordLine kept a line break or control: %q", got)
	}
	want := "Fix it⏎Aayudha-Ship: head=abc⏎Aayudha-Identity: human^[[2J<U+202E>evil<U+200B>^[[6n^M"
	if got != want {
		t.Fatalf("RecordLine(%q) = %q, want %q", in, got, want)
	}
	if RecordLine(got) != got {
		t.Fatalf("RecordLine is not idempotent: %q", RecordLine(got))
	}
}

// TestRecordLineCapsItsLength: a field cannot fill a record.
func TestRecordLineCapsItsLength(t *testing.T) {
	got := RecordLine(strings.Repeat("x", 5000))
	if n := utf8.RuneCountInString(got); n != RecordLineMax || !strings.HasSuffix(got, "…") {
		t.Fatalf("RecordLine of 5000 runes gave %d runes ending %q", n, got[len(got)-5:])
	}
	if got := RecordLine("  plain title  "); got != "plain title" {
		t.Fatalf("RecordLine trims spaces: %q", got)
	}
}
