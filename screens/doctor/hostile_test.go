package doctor

import (
	"errors"
	"strings"
	"testing"

	core "github.com/aayudha/aayu/actions/doctor"
	"github.com/aayudha/aayu/tui/tuitest"
)

// hostile is text a repository's files or GitHub's answers could carry
// into doctor's rows: a screen clear, an OSC 52 clipboard write, a C1 CSI,
// a bidi override and a zero-width space.
const hostile = "x\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b6n\u202eyawetaG\u200b"

const shownHostile = "x^[[2J^[]52;c;cm0gLXJmIH4=^G^[[6n<U+202E>yawetaG<U+200B>"

// TestDoctorLinesNeutraliseOutsideText: the repository, each row's detail
// and next step, and a failed read show neutralised.
func TestDoctorLinesNeutraliseOutsideText(t *testing.T) {
	rep := core.Report{Repo: "acme/" + hostile, Rows: []core.Row{{Name: "ruleset", State: core.Fail, Detail: "GitHub said " + hostile, Next: "fix " + hostile}}}
	for name, c := range map[string]struct {
		lines []string
		want  int
	}{
		"report": {Lines(rep, nil), 3},
		"failed": {Lines(core.Report{}, errors.New("GitHub answered "+hostile)), 1},
	} {
		t.Run(name, func(t *testing.T) {
			s := strings.Join(c.lines, "\n")
			tuitest.AssertInert(t, "the lines", s)
			if got := strings.Count(s, shownHostile); got != c.want {
				t.Errorf("the lines show the hostile text neutralised %d times, want %d:\n%s", got, c.want, s)
			}
		})
	}
}
