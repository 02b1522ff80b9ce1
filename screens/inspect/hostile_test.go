package inspect

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	core "github.com/aayudha/aayu/actions/inspect"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// hostile is text a PR's author or a reviewer model could get into the
// judgement: a screen clear, an OSC 52 clipboard write, a C1 CSI, a bidi
// override and a zero-width space.
const hostile = "x\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b6n\u202eyawetaG\u200b"

const shownHostile = "x^[[2J^[]52;c;cm0gLXJmIH4=^G^[[6n<U+202E>yawetaG<U+200B>"

// TestInspectHostileTextIsNeutralised: a criterion's text, its tests, a
// finding, the reviewer's name and reasons, the title, the status, the
// rung and repository in the heading and a read error, each shown on the full screen and in the transcript
// neutralised.
func TestInspectHostileTextIsNeutralised(t *testing.T) {
	v := judged()
	v.Title = "Greet " + hostile
	v.Summary = "rung A: " + hostile
	v.Judgement.Reviewer = "openai " + hostile
	v.Judgement.Rung = "A" + hostile // the heading's rung
	c := &v.Judgement.Criteria[0]
	c.Text = "the greeting names the person " + hostile
	c.Tests = []string{"greet/greet_test.go:" + hostile}
	c.Problems = []string{"finding " + hostile}
	c.Reasons = "because " + hostile
	for name, d := range map[string]Deps{
		"judgement": {Repo: "acme/benefits" + hostile, PR: 4, Read: func(context.Context) (core.View, error) { return v, nil }},
		"read error": {Repo: "acme/benefits", PR: 4, Read: func(context.Context) (core.View, error) {
			return core.View{}, errors.New("GitHub answered " + hostile)
		}},
	} {
		t.Run(name, func(t *testing.T) {
			m := New(context.Background(), tui.Common{Width: 400, Height: 60, Styles: tui.NewStyles(true)}, d)
			m.Update(m.Init()())
			view := ansi.Strip(m.View().Content)
			transcript := strings.Join(m.Transcript(), "\n")
			for where, s := range map[string]string{"the view": view, "the transcript": transcript} {
				tuitest.AssertInert(t, where, s)
			}
			want, inView := 1, 1
			if name == "judgement" {
				want = 7          // title, summary, reviewer, criterion, tests, finding, reasons
				inView = want + 2 // and the heading's repository and rung
			}
			if got := strings.Count(transcript, shownHostile); got != want {
				t.Errorf("the transcript shows the hostile text neutralised %d times, want %d:\n%s", got, want, transcript)
			}
			if got := strings.Count(view, shownHostile); got != inView {
				t.Errorf("the view shows the hostile text neutralised %d times, want %d:\n%s", got, inView, view)
			}
		})
	}
}
