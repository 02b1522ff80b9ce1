package pack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// shipTakesAnother is the demo story whose best pack is the tampered one
// (it does not verify) while ship, asked, would take run 4021's: the case
// where the viewer must not leave the person thinking ship is stuck on it.
func shipTakesAnother(t *testing.T, asked *atomic.Int32) StoryOptions {
	t.Helper()
	o := demoStory(t)
	ledger := o.Ledger
	o.Ledger = func(ctx context.Context) (Fetched, error) {
		f, err := ledger(ctx)
		f.Dir, f.RunID = filepath.Join("..", "..", "testdata", "demo", "tampered"), 4017
		f.Label = "authoritative pack at proof/131/" + demoHead + "/authoritative"
		return f, err
	}
	o.ShipRun = func(_ context.Context, pr int) (ShipChoice, error) {
		asked.Add(1)
		if pr != 148 {
			return ShipChoice{}, fmt.Errorf("asked about #%d", pr)
		}
		return ShipChoice{RunID: 4021, Attempt: 2, Head: demoHead, FloorsHold: true,
			Verdict: "run 4021 on head b046d1a1d113: the pack verifies (4 files, 1.2 kB hashed; pack.json sha256 9f2c1e0a7b3d) and every floor holds"}, nil
	}
	return o
}

// shipKnown drives the story screen until ship's run is said.
func shipKnown(t *testing.T, c tui.Common, o StoryOptions) *Model {
	t.Helper()
	m := NewStory(context.Background(), c, o)
	m.Update(tea.WindowSizeMsg{Width: c.Width, Height: c.Height})
	drive(t, m, m.Init(), func() bool {
		return m.finished && !m.story.shipAsking && (m.story.ship != nil || m.story.shipErr != nil)
	})
	return m
}

func TestPackStoryNamesTheRunShipWouldTakeGolden(t *testing.T) {
	for _, w := range []int{40, 80} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			var asked atomic.Int32
			m := shipKnown(t, tuitest.Common(w, 24), shipTakesAnother(t, &asked))
			v := ansi.Strip(m.View().Content)
			for _, want := range []string{"does not verify", "run 4021", "attempt 2", "every floor holds"} {
				if !strings.Contains(strings.Join(strings.Fields(v), " "), want) {
					t.Errorf("the screen does not say %q:\n%s", want, v)
				}
			}
			tuitest.GoldenView(t, m.View().Content, w, 24)
		})
	}
}

// The plain twin says it too, and ends only once it has.
func TestPackStoryPlainNamesTheRunShipWouldTake(t *testing.T) {
	var asked atomic.Int32
	var out bytes.Buffer
	m := NewStory(context.Background(), tui.Common{Plain: true}, shipTakesAnother(t, &asked))
	code, err := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	want := "ship: passes over this pack and would take another run: run 4021, attempt 2, head b046d1a1d113"
	if !strings.Contains(text, want) || !strings.Contains(text, "ship's verdict: run 4021 on head b046d1a1d113: the pack verifies") {
		t.Errorf("the plain twin does not name ship's run:\n%s", text)
	}
	if code != tui.ExitRefused {
		t.Errorf("exit %d: the pack on the screen still does not verify (4)", code)
	}
}

// A pack that verifies raises no question about ship's run: nothing is
// asked, nothing is said.
func TestPackStoryDoesNotAskShipWhenThePackVerifies(t *testing.T) {
	var asked atomic.Int32
	o := demoStory(t)
	o.ShipRun = shipTakesAnother(t, &asked).ShipRun
	m := story(t, tuitest.Common(80, 24), o)
	if asked.Load() != 0 || strings.Contains(ansi.Strip(m.View().Content), "ship:") {
		t.Errorf("ship's run was asked (%d) or shown for a pack that verifies", asked.Load())
	}
}

// When ship would take the very run on the screen, or none, the screen
// says that instead; a failure to ask is said, not hidden.
func TestPackStoryShipRunOtherAnswers(t *testing.T) {
	cases := []struct {
		name   string
		choice ShipChoice
		err    error
		want   string
	}{
		{"same", ShipChoice{RunID: 4017, Attempt: 1, Head: demoHead, Verdict: "its artifact does not match pack.json"}, nil, "ship: would take this run (run 4017, attempt 1, head b046d1a1d113)"},
		{"none", ShipChoice{Verdict: "nothing qualifies: no successful pull_request_target run proves head b046d1a1d113"}, nil, "ship: would take no run for pull request #148"},
		{"error", ShipChoice{}, errors.New("GitHub answered 502"), "could not be read: GitHub answered 502"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var asked atomic.Int32
			o := shipTakesAnother(t, &asked)
			o.ShipRun = func(context.Context, int) (ShipChoice, error) { return c.choice, c.err }
			m := shipKnown(t, tuitest.Common(120, 30), o)
			if v := strings.Join(strings.Fields(ansi.Strip(m.View().Content)), " "); !strings.Contains(v, c.want) {
				t.Errorf("the screen does not say %q:\n%s", c.want, v)
			}
		})
	}
}

// On the demo, g on story 3 reads PR 4's newest run by its record — the
// tampered one, which does not verify — and the screen names the run ship
// takes instead, through ship's own rule (StoryFromLedger's ShipRun).
func TestPackStoryGateOnTheSandboxNamesTheRunShipTakes(t *testing.T) {
	srv, _, base := conformance.StartSandbox(t, sandbox.Options{})
	gh, err := ghx.NewClient(ghx.ClientOptions{APIURL: base + "/", Token: ghx.NewToken("sandbox-founder", "test"),
		Retry: ghx.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	o := StoryFromLedger(LedgerConfig{Client: gh, Owner: sandbox.RepoOwner, Repo: sandbox.RepoName, Story: sandbox.DemoStoryReady,
		Checkout: t.TempDir(), WorkDir: t.TempDir()})
	m := story(t, tuitest.Common(120, 40), o)
	_, cmd := m.Update(tuitest.Key("g"))
	drive(t, m, cmd, func() bool {
		return m.finished && !m.story.shipAsking && (m.story.ship != nil || m.story.shipErr != nil)
	})
	v := strings.Join(strings.Fields(ansi.Strip(m.View().Content)), " ")
	want := fmt.Sprintf("would take another run: run %d, attempt 1, head %s", srv.RunID(sandbox.RunQualifying), srv.HeadSHA(sandbox.DemoPRReady)[:12])
	if !strings.Contains(v, "does not verify") || !strings.Contains(v, want) || !strings.Contains(v, "every floor holds") {
		t.Errorf("g on story 3 does not name the run ship takes (%q):\n%s", want, v)
	}
}
