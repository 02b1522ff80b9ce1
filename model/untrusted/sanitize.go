package untrusted

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tabSpaces replaces a tab: terminals and width calculations disagree on
// where a tab stop falls, so untrusted text never carries one.
const tabSpaces = "    "

// Sanitize makes untrusted text (anything from GitHub or a tool's output)
// safe to put on a terminal (SPEC §6b); tui.Sanitize and Text render
// through it, so the screens and the model follow one rule. The result
// holds only printable runes, spaces and "\n", so no text can move the
// cursor, clear the screen, set the window title, write the clipboard
// (OSC 52) or fake a link (OSC 8).
//
// Nothing is silently dropped except what is harmless and common:
//   - "\r\n" becomes "\n" (bodies typed on GitHub's web form use CRLF);
//   - SGR colour sequences ("\x1b[31m") are removed, as tool output is full
//     of them and they cannot do anything but colour;
//   - a tab becomes four spaces and any other Unicode space becomes " ".
//
// Everything else that is not printable is shown instead of obeyed:
//   - C0 controls, DEL and a lone "\r" in caret notation ("^[", "^M", "^H",
//     "^?"); the rest of an escape sequence then reads as plain text, e.g.
//     "^[]52;c;aGk=^G";
//   - C1 controls, raw bytes 0x80–0x9F or UTF-8 U+0080–U+009F, as the 7-bit
//     escape they stand for ("\x9b" is "^[[");
//   - bidirectional overrides, zero-width and other format characters,
//     private-use and unassigned code points as "<U+202E>";
//   - bytes that are not valid UTF-8 as "\xE9".
//
// Sanitize is idempotent: its output sanitises to itself.
func Sanitize(s string) string {
	if isPlainPrintable(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeInvalidByte(&b, s[i])
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CRLF: the "\n" is written on the next step.
		case r == 0x1b:
			if n := sgrLength(s[i:]); n > 0 {
				i += n
				continue
			}
			b.WriteString("^[")
		case r == '\n':
			b.WriteByte('\n')
		case r == '\t':
			b.WriteString(tabSpaces)
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + 0x40)
		case r == 0x7f:
			b.WriteString("^?")
		case r >= 0x80 && r <= 0x9f:
			writeC1(&b, byte(r))
		case unicode.Is(unicode.Zs, r):
			b.WriteByte(' ')
		case unicode.IsPrint(r):
			b.WriteString(s[i : i+size])
		default:
			fmt.Fprintf(&b, "<U+%04X>", r)
		}
		i += size
	}
	return b.String()
}

// Hidden reports a rune that Sanitize does not show as itself: C0 and C1
// controls, DEL, and any rune that is neither printable nor the ASCII
// space — bidirectional overrides and isolates, zero-width and other format
// characters, private-use and unassigned code points, non-ASCII spaces. It
// is the one rule for "this text could act on a terminal or pose as other
// text"; places that refuse such text (a pack's file path) or escape it in
// their own notation (an error quoting one) ask it rather than keep a list.
func Hidden(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r != ' ' && !unicode.IsPrint(r))
}

// Line is Sanitize for a one-line field (a title, a login, a branch
// name): a line break becomes a visible "⏎" so the field cannot push text
// onto a line of its own and pose as something aayu printed.
func Line(s string) string {
	return strings.ReplaceAll(Sanitize(s), "\n", "⏎")
}

// isPlainPrintable reports whether s is printable ASCII and newlines only,
// the common case, which needs no copy.
func isPlainPrintable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n') || c >= 0x7f {
			return false
		}
	}
	return true
}

// sgrLength returns the length of the SGR sequence ("\x1b[…m", parameters
// digits, ';' and ':' only) at the start of s, or 0 when s does not start
// with one.
func sgrLength(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c == 'm':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// writeC1 shows a C1 control as the 7-bit escape it is equivalent to: 0x9b
// (CSI) as "^[[", 0x9d (OSC) as "^[]".
func writeC1(b *strings.Builder, c byte) {
	b.WriteString("^[")
	b.WriteByte(c - 0x40)
}

// writeInvalidByte shows a byte that is not part of valid UTF-8. A raw C1
// byte is shown like a UTF-8 encoded one, since terminals in 8-bit mode obey
// it as a control.
func writeInvalidByte(b *strings.Builder, c byte) {
	if c >= 0x80 && c <= 0x9f {
		writeC1(b, c)
		return
	}
	fmt.Fprintf(b, `\x%02X`, c)
}
