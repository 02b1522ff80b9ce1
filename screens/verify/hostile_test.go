package verify

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/aayudha/aayu/actions/packbuild"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// attack is text from the checked-out repository: a test name, its output
// and a step's detail holding an OSC 52 clipboard write, a screen clear, a
// title change and a bidi override.
const attack = tuitest.Attack

// hostileRun is story 3's run with the attack in a failing test.
func hostileRun() script {
	s := floorsHold()
	s.events = append(s.events[:1:1],
		packbuild.PackageStarted{Step: packbuild.StepTests, Package: deductiblePkg},
		packbuild.TestRunning{Step: packbuild.StepTests, Package: deductiblePkg, Test: "Test" + attack},
		out("=== RUN   Test"+attack), out("    remaining_test.go:12: got "+attack),
		packbuild.TestEnded{Step: packbuild.StepTests, Package: deductiblePkg, Test: "Test" + attack, Result: proof.ResultFail},
		ended(packbuild.StepTests, proof.ResultFail, "1 test failed: Test"+attack))
	s.out = &packbuild.Outcome{ExitCode: packbuild.ExitRefused, Refusal: "go test failed: Test" + attack}
	return s
}

// TestVerifyScreenHostileGolden: the failing test's hostile name on the
// screen and in the output (o), at 40, 80 and 120 columns.
func TestVerifyScreenHostileGolden(t *testing.T) {
	for _, view := range []string{"steps", "output"} {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", view, w), func(t *testing.T) {
				m := driven(t, tuitest.Common(w, 24), hostileRun(), true)
				if view == "output" {
					press(m, "o")
				}
				v := m.View().Content
				tuitest.AssertDefused(t, v)
				tuitest.GoldenView(t, v, w, 24)
			})
		}
	}
}

// TestVerifyScreenHostilePlainGolden: the same run's plain twin.
func TestVerifyScreenHostilePlainGolden(t *testing.T) {
	s := hostileRun()
	var buf bytes.Buffer
	code, err := tui.Run(context.Background(), New(context.Background(), tui.Common{Plain: true}, s.deps()), tui.RunOptions{Plain: true, Out: &buf})
	if err != nil {
		t.Fatal(err)
	}
	tuitest.AssertDefused(t, buf.String())
	tuitest.GoldenPlain(t, buf.String(), code)
}
