package verify

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// endings are the ways a run ends that the full-screen goldens did not
// show yet, built as the plain twin's goldens build them: a criterion with
// no evidence, a refusal before any test, and git failing.
func endings() map[string]script {
	refused := floorsHold()
	refused.events = nil
	refused.out = &packbuild.Outcome{ExitCode: packbuild.ExitRefused, Refusal: "The checkout has no evidence map .aayudha/evidence/3.toml, so no test is named for any criterion."}
	failed := floorsHold()
	failed.events = failed.events[:1]
	failed.out, failed.err = nil, errGit
	unverified := floorsHold()
	unverified.out.ExitCode = packbuild.ExitRefused
	unverified.out.Report = &proof.Report{Pack: &proof.Pack{Story: 3}, PackSHA256: fakeSum, FloorsHold: true,
		Criteria: []proof.CriterionResult{story3Criteria[0], {ID: 2, Text: "Remaining never goes below zero.", Reason: "it has no evidence"}},
		Problems: []proof.Problem{{Code: proof.CodeCriterionNoEvid, Criterion: 2, Message: "Criterion 2 has no evidence."}}}
	return map[string]script{"unverified": unverified, "refused": refused, "failed": failed}
}

// TestVerifyScreenEndingsGolden: an unproven criterion, a refusal and a
// failure, each said in words at 40, 80 and 120 columns with q in reach.
func TestVerifyScreenEndingsGolden(t *testing.T) {
	words := map[string]string{"unverified": "not proven", "refused": "no evidence map", "failed": "Not a valid object name"}
	for _, name := range []string{"unverified", "refused", "failed"} {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", name, w), func(t *testing.T) {
				m := driven(t, tuitest.Common(w, 24), endings()[name], true)
				view := m.View().Content
				flat := strings.Join(strings.Fields(ansi.Strip(view)), " ")
				if !strings.Contains(flat, words[name]) || !strings.Contains(flat, "q quit") {
					t.Errorf("the %s ending does not say %q or lost q:\n%s", name, words[name], ansi.Strip(view))
				}
				tuitest.GoldenView(t, view, w, 24)
			})
		}
	}
}

// TestVerifyScreenOutputGolden: o on a finished run shows go test's own
// lines at 40, 80 and 120 columns.
func TestVerifyScreenOutputGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := driven(t, tuitest.Common(w, 24), floorsHold(), true)
			press(m, "o")
			view := m.View().Content
			if !strings.Contains(view, "--- PASS: TestRemaining") {
				t.Errorf("the output view lacks go test's lines:\n%s", ansi.Strip(view))
			}
			tuitest.GoldenView(t, view, w, 24)
		})
	}
}

// TestVerifyOpenedFromTheInboxSaysEscGoesBack: pushed on the inbox's stack,
// verify lists esc as the way back, and esc finishes it.
func TestVerifyOpenedFromTheInboxSaysEscGoesBack(t *testing.T) {
	m := driven(t, tuitest.Common(80, 24), floorsHold(), true)
	m.Update(tui.PushedMsg{})
	found := false
	for _, b := range m.Keys() {
		found = found || b.Help().Desc == "back to the inbox"
	}
	if !found {
		t.Fatalf("the pushed verify screen's keys do not say esc goes back: %v", m.Keys())
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if done, _ := m.Done(); !done {
		t.Error("esc did not take the person back")
	}
}
