package doctor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	core "github.com/aayudha/aayu/actions/doctor"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

func report() core.Report {
	return core.Report{Repo: "acme/fresh", Rows: []core.Row{
		{Name: "workflow .github/workflows/aayudha-merge-gate.yml", State: core.Fail, Detail: "missing on main", Next: "run aayu init: it proposes the current file in a pull request"},
		{Name: "gate required on main", State: core.OK, Detail: "aayudha/merge-gate is required by a ruleset"},
		{Name: "token scopes", State: core.Warn, Detail: "the token carries workflow\x1b]52;c;aGk=\x07", Next: "use a token with only the repo scope"},
		// The approvals row as actions/doctor words it: an approver's token
		// in reach, named by source and account.
		core.ApprovalsRow([]core.Credential{
			{Source: "environment variable GH_TOKEN", Account: "founder"},
			{Source: "git credential helper (store)", None: true},
			{Source: "the token aayu uses (AAYU_BOT_TOKEN)", Account: "agent-bot[bot]"},
		}, []string{"founder"}, []string{"one-way"}, "agent-bot[bot]"),
	}}
}

func runPlain(t *testing.T, rep core.Report, err error) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code, rerr := tui.Run(context.Background(), New(context.Background(), tui.Common{Plain: true},
		func(context.Context) (core.Report, error) { return rep, err }), tui.RunOptions{Plain: true, Out: &out})
	if rerr != nil {
		t.Fatal(rerr)
	}
	return code, out.String()
}

// TestDoctorScreenPlainGolden: each row's state in words and its next step;
// a row that is not set up makes the exit 4; GitHub's text is sanitised.
func TestDoctorScreenPlainGolden(t *testing.T) {
	code, out := runPlain(t, report(), nil)
	if code != tui.ExitRefused || strings.Contains(out, "\x1b") {
		t.Fatalf("exit %d:\n%q", code, out)
	}
	tuitest.GoldenPlain(t, out, code)
}

func TestDoctorScreenAllOK(t *testing.T) {
	rep := core.Report{Repo: "acme/benefits", Rows: []core.Row{{Name: "ledger branch", State: core.OK, Detail: "present"}}}
	if code, out := runPlain(t, rep, nil); code != tui.ExitOK || !strings.Contains(out, "Set up: every row is ok.") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if code, out := runPlain(t, core.Report{}, errors.New("GitHub could not be reached")); code != tui.ExitFailed || !strings.Contains(out, "Nothing was checked.") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestDoctorScreenGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			var m tea.Model = New(context.Background(), tuitest.Common(w, 24), nil)
			m, _ = m.Update(reportMsg{rep: report()})
			tuitest.GoldenView(t, m.View().Content, w, 24)
			// doctor does one thing: it ends once the report is in, and
			// leaves every row on the normal screen.
			if done, _ := m.(*Model).Done(); !done || len(m.(*Model).Epilogue()) < 2 {
				t.Error("the full screen did not end with its report left behind")
			}
		})
	}
}

// TestDoctorSummaryBlockSaysTheVerdict: the quit summary's doctor block
// says what doctor found, with its exit code, not "doctor: exit 4" alone.
func TestDoctorSummaryBlockSaysTheVerdict(t *testing.T) {
	m := New(context.Background(), tuitest.Common(80, 24), func(context.Context) (core.Report, error) { return report(), nil })
	m.Update(m.Init()())
	m.Update(tuitest.Key("q"))
	left := strings.Join(tui.NewStack(m).Epilogue(), "\n")
	if want := "doctor: 2 of 4 rows are not set up and 1 warn (exit 4)"; !strings.Contains(left, want) {
		t.Errorf("the summary does not say %q:\n%s", want, left)
	}
}
