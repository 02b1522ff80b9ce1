package login

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/cli/oauth/device"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// hostile is text a hostile server or configuration could get into what
// the presence check says: a screen clear, an OSC 52 clipboard write, a C1
// CSI, a bidi override and a zero-width space.
const hostile = tuitest.Hostile

// TestLoginWordsNeutraliseOutsideText: each failure's words quote a host,
// a client id, a login, a repository or an error from GitHub, shown
// neutralised before any renderer sees them.
func TestLoginWordsNeutraliseOutsideText(t *testing.T) {
	ctx := context.Background()
	req := Request{MustBe: "@" + hostile, Repo: "acme/" + hostile, Need: identity.AccessAdmin}
	who := identity.Account{Login: hostile, Permission: "write"}
	for name, c := range map[string]struct {
		f    *failure
		want int
	}{
		"unsupported":    {codeFailure(ctx, "https://"+hostile, "Iv1."+hostile, device.ErrUnsupported), 2},
		"network":        {networkFailure("https://"+hostile, "asking for a code", errors.New("dial: "+hostile)), 2},
		"slow down":      {waitFailure(ctx, "https://github.com", errors.New("slow_down: "+hostile)), 1},
		"other approver": {refusalFailure(identity.ErrOtherApprover, who, req), 2},
		"access too low": {refusalFailure(identity.ErrAccessTooLow, who, req), 2},
	} {
		t.Run(name, func(t *testing.T) {
			tuitest.AssertShowsHostile(t, "the failure", c.f.what+"\n"+c.f.next, c.want)
		})
	}
}

// TestLoginScreenNeutralisesOutsideText: the request's header, a failure
// that reached the view unsanitised, and a line typed in plain mode.
func TestLoginScreenNeutralisesOutsideText(t *testing.T) {
	req := Request{Command: "aayu ship 4 " + hostile, Approving: []string{"merge " + hostile}, Repo: "acme/" + hostile}
	m := New(context.Background(), tui.Common{Width: 200, Height: 40, Styles: tui.NewStyles(true)}, req, Deps{})
	tuitest.AssertShowsHostile(t, "the header", strings.Join(m.header(), "\n"), 3)
	verb := New(context.Background(), tui.Common{Plain: true}, Request{Command: "aayu " + hostile + " 4"}, Deps{})
	tuitest.AssertShowsHostile(t, "the header naming the verb", strings.Join(verb.header(), "\n"), 2)
	m.phase, m.fail = phaseFailed, &failure{what: "what " + hostile, next: "next " + hostile}
	tuitest.AssertShowsHostile(t, "the failed view", ansi.Strip(m.View().Content), 2)
	m.handleLine(hostile)
	tuitest.AssertShowsHostile(t, "the transcript", strings.Join(m.Transcript(), "\n"), 1)

	// A code and its page come from GitHub's answer, the login from /user.
	m = New(context.Background(), tui.Common{Width: 200, Height: 40, Styles: tui.NewStyles(true)}, Request{Command: "aayu ship 4"}, Deps{Now: time.Now})
	m.showCode(codeMsg{userCode: "ABCD-" + hostile, uri: "https://github.com/login/device/" + hostile, expiresIn: 15 * time.Minute})
	m.sayCode(15 * time.Minute)
	tuitest.AssertShowsHostile(t, "the code's transcript", strings.Join(m.Transcript(), "\n"), 2)
	tuitest.AssertShowsHostile(t, "the code's view", ansi.Strip(m.View().Content), 1)
	m.session = &identity.Session{Login: "founder" + hostile}
	tuitest.AssertShowsHostile(t, "the approved line", m.approvedLine(), 1)
}
