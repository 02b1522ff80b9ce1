package pack

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// waivedStory is the demo story whose coverage floor does not hold (its
// 100 judged against a threshold of 101), with waivers answering as
// given, and what they were asked.
func waivedStory(t *testing.T, waived map[string]string, asked *[]string) StoryOptions {
	o := demoStory(t)
	ledger := o.Ledger
	over := 101.0
	o.Ledger = func(ctx context.Context) (Fetched, error) {
		f, err := ledger(ctx)
		f.CoverageThreshold = &over
		f.Waivers = func(_ context.Context, pr int, head string, floors []string) (map[string]string, error) {
			*asked = append(*asked, strings.Join(append([]string{head}, floors...), " "))
			return waived, nil
		}
		return f, err
	}
	return o
}

// TestPackShowsAWaivedFloor: a floor that does not hold, which ship's
// waiver rule says is waived for the pack's head, shows as waived with
// its Decision, in the plain twin and the checks table, and the pack's
// floors then count as holding (exit 0).
func TestPackShowsAWaivedFloor(t *testing.T) {
	var asked []string
	waived := map[string]string{"coverage": "waived by Decision #21, accepted by @founder"}
	var out bytes.Buffer
	m := NewStory(context.Background(), tui.Common{Plain: true}, waivedStory(t, waived, &asked))
	code, err := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	if code != tui.ExitOK || !strings.Contains(out.String(), "floor coverage: waived, waived by Decision #21, accepted by @founder (on its own it does not hold: ") || !strings.Contains(out.String(), "result: verified, every floor holds or is waived for this head (exit 0)") {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	if len(asked) != 1 || asked[0] != demoHead+" coverage" {
		t.Fatalf("the waivers were asked %q, want the pack's head and its failing floor", asked)
	}
	full := story(t, tuitest.Common(120, 40), waivedStory(t, waived, &asked))
	full.Update(tuitest.Key("3"))
	view := ansi.Strip(full.View().Content)
	if !strings.Contains(view, "coverage     waived") || !strings.Contains(view, "waived by Decision #21, accepted by @founder") || !strings.Contains(view, "floors hold or are waived") {
		t.Fatalf("the checks table does not show the waiver:\n%s", view)
	}
}

// TestPackWithoutAWaiverShowsTheFloorFailing: with no waiver for it, the
// same floor does not hold and the pack exits 3.
func TestPackWithoutAWaiverShowsTheFloorFailing(t *testing.T) {
	var asked []string
	var out bytes.Buffer
	m := NewStory(context.Background(), tui.Common{Plain: true}, waivedStory(t, map[string]string{}, &asked))
	code, err := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	if code != tui.ExitFloor || !strings.Contains(out.String(), "floor coverage does not hold") || strings.Contains(out.String(), "waived by") {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
}
