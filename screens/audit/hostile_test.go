package audit

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	core "github.com/aayudha/aayu/model/audit"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// hostile is text a hostile writer or server could get into the audit: a
// screen clear, an OSC 52 clipboard write, a C1 CSI, a bidi override and a
// zero-width space.
const hostile = "x\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\u009b6n\u202eyawetaG\u200b"

const shownHostile = "x^[[2J^[]52;c;cm0gLXJmIH4=^G^[[6n<U+202E>yawetaG<U+200B>"

// TestAuditHostileTextIsNeutralised: every field of the report that comes
// from the ledger or GitHub, the repository named, and a read error, each
// shown in the full screen and the transcript neutralised.
func TestAuditHostileTextIsNeutralised(t *testing.T) {
	late := core.Bypass{PR: 21, Login: "founder" + hostile, Via: "an admin merge without aayu ship", MergedAt: t0,
		Comment: &core.Comment{URL: "https://github.com/acme/benefits/pull/21#" + hostile, CreatedAt: t0}, Late: true}
	r := core.Report{
		Bypasses:   []core.Bypass{{PR: 4, Story: 3, Login: "founder" + hostile, Via: "aayu ship --solo-bypass", Head: hostile, MergedAt: t0}, late},
		Fallbacks:  []core.Fallback{{SHA: hostile, Subject: "ledger: " + hostile, Author: "Demo " + hostile, When: t0}},
		Late:       []core.Bypass{late},
		Incomplete: []string{"the ledger's tree " + hostile},
	}
	for name, d := range map[string]Deps{
		"report": {Repo: "acme/benefits" + hostile, Read: func(context.Context) (core.Report, error) { return r, nil }},
		"read error": {Repo: "acme/benefits", Read: func(context.Context) (core.Report, error) {
			return core.Report{}, errors.New("GitHub answered " + hostile)
		}},
	} {
		t.Run(name, func(t *testing.T) {
			m := New(context.Background(), tui.Common{Width: 200, Height: 60, Styles: tui.NewStyles(true)}, d)
			m.Update(m.Init()())
			view := ansi.Strip(m.View().Content)
			transcript := strings.Join(m.Transcript(), "\n")
			for where, s := range map[string]string{"the view": view, "the transcript": transcript} {
				tuitest.AssertInert(t, where, s)
			}
			want := 1
			if name == "report" {
				want = 8 // repo, two logins and a late one, head, URL, SHA, subject and author, the note
			}
			if got := strings.Count(transcript, shownHostile); got != want {
				t.Errorf("the transcript shows the hostile text neutralised %d times, want %d:\n%s", got, want, transcript)
			}
			if !strings.Contains(view, shownHostile) {
				t.Errorf("the view does not show the hostile text neutralised:\n%s", view)
			}
		})
	}
}
