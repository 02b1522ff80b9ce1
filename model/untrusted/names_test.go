package untrusted

import (
	"fmt"
	"strings"
	"testing"
)

// TestEveryUntrustedNameShowsHostileTextByTheOneRule: a login, a label, a
// branch, a status context and free text carrying the same hostile bytes
// (an escape sequence, a bidi override, a zero-width space, C1 controls)
// render the same safe line through String and through fmt, and compare
// by their raw bytes; before issue #21 the names were plain strings and
// each screen cleaned them with a clean() of its own.
func TestEveryUntrustedNameShowsHostileTextByTheOneRule(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"CSI", "dev\x1b[2J\x1b]0;pwned\x07", "dev^[[2J^[]0;pwned^G"},
		{"bidi", "fix\u202eexe.txt", "fix<U+202E>exe.txt"},
		{"zero-width", "found\u200ber", "found<U+200B>er"},
		{"C1", "ma\u009b6nin\x9d", "ma^[[6nin^[]"},
		{"line break", "a\r\nb", "a⏎b"},
		{"plain", "story/131-dental-cap", "story/131-dental-cap"},
	} {
		shown := map[string]string{
			"Login":   Login(c.in).String(),
			"Label":   Label(c.in).String(),
			"Ref":     Ref(c.in).String(),
			"Context": Context(c.in).String(),
			"Text":    Text(c.in).String(),
			"Line":    Line(c.in),
			"%s":      fmt.Sprintf("%s|%s|%s|%s", Login(c.in), Label(c.in), Ref(c.in), Context(c.in)),
		}
		for who, got := range shown {
			want := c.want
			if who == "%s" {
				want = strings.Repeat(c.want+"|", 4)[:4*len(c.want)+3]
			}
			if got != want {
				t.Errorf("%s: %s shows %q as %q, want %q", c.name, who, c.in, got, want)
			}
		}
		if Login(c.in).Raw() != c.in || Label(c.in).Raw() != c.in || Ref(c.in).Raw() != c.in || Context(c.in).Raw() != c.in {
			t.Errorf("%s: a Raw value is not the bytes as they came", c.name)
		}
	}
	// Compared by the raw value: a name that differs from another only in a
	// control character is another name.
	if Ref("dev") == Ref("dev\u200b") || Context("aayudha/inspect") == Context("aayudha/inspect\x1b[m") {
		t.Error("two names that differ in a hidden character compare equal")
	}
	if !Login("Founder").Is("founder") || Login("founder\u200b").Is("founder") {
		t.Error("Login.Is must ignore case, as GitHub does, and nothing else")
	}
}
