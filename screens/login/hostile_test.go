package login

import (
	"fmt"
	"testing"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui/tuitest"
)

// attack is a login as GitHub might be made to send it: an OSC 52
// clipboard write, a screen clear, a title change and a bidi override.
const attack = tuitest.Attack

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
			tuitest.AssertDefused(t, view)
			for _, line := range m.Transcript() {
				tuitest.AssertInert(t, "the transcript", line)
			}
			tuitest.GoldenView(t, view, w, 24)
		})
	}
}
