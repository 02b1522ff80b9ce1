package login

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui/tuitest"
)

// attack is a login as GitHub might be made to send it: an OSC 52
// clipboard write, a screen clear, a title change and a bidi override.
const attack = "EVIL\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b]0;pwned\x07\u202eEND"

// TestLoginScreenHostileGolden: the account that approved but may not, with
// a hostile login, refused in words at 40, 80 and 120 columns; the login
// shows as visible caret text on the screen and in the transcript.
func TestLoginScreenHostileGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m, _ := staged(t, tuitest.Common(w, 24), shipRequest(), Deps{InTmux: true, OpenBrowser: func(string) error { return nil }})
			showCode(m)
			a := identity.Account{Login: "writer" + attack, Permission: "write"}
			m.Update(resultMsg{gen: m.gen, account: a, fail: refusalFailure(identity.CheckApprover(a, identity.AccessAdmin, "", nil), a, shipRequest())})
			view := m.View().Content
			for _, text := range append([]string{view}, m.Transcript()...) {
				for _, esc := range []string{"\x1b]52", "\x07", "\x1b[2J", "\x1b]0;", "\u202e"} {
					if strings.Contains(text, esc) {
						t.Fatalf("%q reached the terminal: %q", esc, text)
					}
				}
			}
			if !strings.Contains(ansi.Strip(view), "EVIL") {
				t.Fatalf("the refused login is not named:\n%s", ansi.Strip(view))
			}
			tuitest.GoldenView(t, view, w, 24)
		})
	}
}
