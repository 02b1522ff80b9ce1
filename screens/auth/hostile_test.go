package auth

import (
	"errors"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/tui/tuitest"
)

// hostile is text a hostile server could send back about a token: a screen
// clear, an OSC 52 clipboard write, a C1 CSI, a bidi override and a
// zero-width space.
const hostile = "x\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b6n\u202eyawetaG\u200b"

const shownHostile = "x^[[2J^[]52;c;cm0gLXJmIH4=^G^[[6n<U+202E>yawetaG<U+200B>"

// TestAuthReportNeutralisesWhatGitHubSaid: the login, name, scopes and
// errors GitHub answers with, and the sources' details, show neutralised.
func TestAuthReportNeutralisesWhatGitHubSaid(t *testing.T) {
	src := []ghx.SourceStatus{{Source: "gh", State: "not used", Detail: "gh said " + hostile}}
	for name, c := range map[string]struct {
		f    Facts
		deps Deps
		want int
	}{
		"read": {Facts{Sources: src, Token: "a classic token", Login: hostile, Name: "Demo " + hostile, Scopes: []string{"repo", "admin:" + hostile}},
			Deps{APIURL: "https://api." + hostile + "/"}, 6}, // detail, login, name, URL, the scope listed and warned of
		"failed": {Facts{Sources: src, Err: errors.New("GitHub answered " + hostile)}, Deps{}, 2},
	} {
		t.Run(name, func(t *testing.T) {
			s := strings.Join(report(c.f, c.deps), "\n")
			tuitest.AssertInert(t, "the report", s)
			if got := strings.Count(s, shownHostile); got != c.want {
				t.Errorf("the report shows the hostile text neutralised %d times, want %d:\n%s", got, c.want, s)
			}
		})
	}
}
