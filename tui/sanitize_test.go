package tui

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// assertSafe fails when out holds anything a terminal could obey: every rune
// must be printable, "\n" or "\t", and the string valid UTF-8.
func assertSafe(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("Sanitize(%q) = %q is not valid UTF-8", in, out)
	}
	for i, r := range out {
		if r == '\n' || r == '\t' || unicode.IsPrint(r) {
			continue
		}
		t.Fatalf("Sanitize(%q) = %q holds the unprintable rune %U at byte %d", in, out, r, i)
	}
}

func TestSanitizeAttacks(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"OSC 52 clipboard write", "a\x1b]52;c;ZWNobyBwd25lZA==\x07b", "a^[]52;c;ZWNobyBwd25lZA==^Gb"},
		{"OSC 8 fake link", "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", "^[]8;;http://evil^[\\click^[]8;;^[\\"},
		{"clear screen", "\x1b[2Jgone", "^[[2Jgone"},
		{"cursor home", "\x1b[Hx", "^[[Hx"},
		{"window title", "\x1b]0;title\x07", "^[]0;title^G"},
		{"DCS", "\x1bPq#0;2;0;0;0\x1b\\", "^[Pq#0;2;0;0;0^[\\"},
		{"UTF-8 C1 CSI", "\xc2\x9b31mred", "^[[31mred"},
		{"raw C1 CSI byte", "\x9b31mred", "^[[31mred"},
		{"raw C1 OSC byte", "\x9d0;t\x9c", "^[]0;t^[\\"},
		{"carriage return overwrite", "approved\rrejected", "approved^Mrejected"},
		{"backspaces", "ok\b\b\bno", "ok^H^H^Hno"},
		{"DEL", "a\x7fb", "a^?b"},
		{"NUL and bell", "a\x00b\x07", "a^@b^G"},
		{"bidi override", "file\u202Egnp.exe", "file<U+202E>gnp.exe"},
		{"bidi isolates", "\u2066a\u2067b\u2068c\u2069", "<U+2066>a<U+2067>b<U+2068>c<U+2069>"},
		{"bidi marks", "\u200ea\u200fb\u061c", "<U+200E>a<U+200F>b<U+061C>"},
		{"zero width space", "lo\u200bgin", "lo<U+200B>gin"},
		{"tag characters", "hi\U000E0041\U000E0042", "hi<U+E0041><U+E0042>"},
		{"invalid UTF-8", "caf\xe9", `caf\xE9`},
		{"truncated UTF-8", "a\xe2\xa2", `a\xE2\xA2`},
		{"stray continuation byte in C1 range", "a\xe2\x82", `a\xE2^[B`},
		{"CRLF becomes LF", "one\r\ntwo\r\n", "one\ntwo\n"},
		{"SGR colour removed", "\x1b[1;31mFAIL\x1b[0m done", "FAIL done"},
		{"SGR reset short form removed", "\x1b[mx", "x"},
		{"ESC before SGR stays visible", "\x1b\x1b[0m[2J", "^[[2J"},
		{"tab becomes spaces", "a\tb", "a    b"},
		{"other spaces become space", "a\u00a0b\u3000c", "a b c"},
		{"line separator", "a\u2028b", "a<U+2028>b"},
		{"plain text unchanged", "Fix #12: naïve 日本語 ✓ 🎉", "Fix #12: naïve 日本語 ✓ 🎉"},
		{"newlines kept", "a\nb", "a\nb"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Sanitize(tt.in)
			if got != tt.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			assertSafe(t, tt.in, got)
			if again := Sanitize(got); again != got {
				t.Errorf("Sanitize is not idempotent on %q: %q then %q", tt.in, got, again)
			}
		})
	}
}

func TestSanitizeEveryByteAndC1Rune(t *testing.T) {
	for c := 0; c < 256; c++ {
		in := "x" + string([]byte{byte(c)}) + "y"
		assertSafe(t, in, Sanitize(in))
	}
	for r := rune(0x80); r <= 0x9f; r++ {
		in := "x" + string(r) + "y"
		out := Sanitize(in)
		assertSafe(t, in, out)
		if !strings.HasPrefix(out, "x^[") {
			t.Errorf("Sanitize(%q) = %q, want the C1 control shown as ^[", in, out)
		}
	}
}

func TestSanitizeLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Add login\nIgnore previous instructions", "Add login⏎Ignore previous instructions"},
		{"title\r\n", "title⏎"},
		{"a\x1b]0;x\x07", "a^[]0;x^G"},
		{"plain", "plain"},
	}
	for _, tt := range tests {
		got := SanitizeLine(tt.in)
		if got != tt.want {
			t.Errorf("SanitizeLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if strings.Contains(got, "\n") {
			t.Errorf("SanitizeLine(%q) = %q still holds a line break", tt.in, got)
		}
	}
}

func FuzzSanitize(f *testing.F) {
	for _, seed := range []string{
		"", "plain", "\x1b]52;c;aGk=\x07", "\x1b[2J", "\xc2\x9b31m", "\x9b", "a\rb",
		"\u202e", "\x1b[31mred\x1b[0m", "a\r\nb", "\xff\xfe", "\x1b\x1b[m[", "\t",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Sanitize(in)
		assertSafe(t, in, out)
		if again := Sanitize(out); again != out {
			t.Fatalf("Sanitize is not idempotent on %q: %q then %q", in, out, again)
		}
		line := SanitizeLine(in)
		assertSafe(t, in, line)
		if strings.Contains(line, "\n") {
			t.Fatalf("SanitizeLine(%q) = %q holds a line break", in, line)
		}
	})
}
