package pack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// demoStory serves the demo pack folder as if it came from the ledger,
// the local checkout and the gate, so the screen is tested without a
// network and its goldens never change with the sandbox's clock.
func demoStory(t *testing.T) StoryOptions {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "demo", "ready.md"))
	if err != nil {
		t.Fatal(err)
	}
	ready, err := proof.ParseReady(b)
	if err != nil {
		t.Fatal(err)
	}
	dir := func(name string) string { return filepath.Join("..", "..", "testdata", "demo", name) }
	return StoryOptions{
		Story:    131,
		LocalDir: dir("tampered"),
		Ledger: func(context.Context) (Fetched, error) {
			return Fetched{Dir: dir("pack"), Label: "authoritative pack at proof/131/" + demoHead + "/authoritative",
				Ready: ready, Head: demoHead, PR: 148,
				Notes: []string{"also on the ledger: advisory pack at proof/131/" + strings.Repeat("c", 40) + "/advisory, created 2026-10-12T08:00:00Z"}}, nil
		},
		Local: func(context.Context) (Fetched, error) {
			return Fetched{Dir: dir("tampered"), Label: "local pack at .aayudha/proof/131 (never counts for ship)", Ready: ready, Head: demoHead, PR: 148}, nil
		},
		Gate: func(_ context.Context, pr int, head string) (Fetched, error) {
			if pr != 148 || head != demoHead {
				return Fetched{}, fmt.Errorf("gate asked for #%d at %s", pr, head)
			}
			return Fetched{}, fmt.Errorf("the aayudha-pack artifact of run 7 expired on 2026-10-14; GitHub no longer keeps its bytes: %w", ghx.ErrArtifactExpired)
		},
		Push: func(context.Context) (string, error) { return "pushed: 4 files landed", nil },
	}
}

// drive runs cmd and everything it leads to, feeding each message to the
// screen on the test's goroutine, until until holds.
func drive(t *testing.T, m *Model, cmd tea.Cmd, until func() bool) {
	t.Helper()
	msgs := make(chan tea.Msg, 16)
	// Commands still running when until() holds (a read that answers after
	// the verdict) are stopped and waited for before the test's folders
	// are removed: one of them may be writing there.
	var wg sync.WaitGroup
	over := make(chan struct{})
	t.Cleanup(func() {
		m.Close()
		close(over)
		wg.Wait()
	})
	var launch func(tea.Cmd)
	launch = func(c tea.Cmd) {
		if c == nil {
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			msg := c()
			if batch, ok := msg.(tea.BatchMsg); ok {
				for _, c := range batch {
					launch(c)
				}
				return
			}
			if msg != nil {
				select {
				case msgs <- msg:
				case <-over:
				}
			}
		}()
	}
	launch(cmd)
	deadline := time.After(20 * time.Second)
	for !until() {
		select {
		case msg := <-msgs:
			if _, quit := msg.(tea.QuitMsg); quit {
				continue
			}
			_, next := m.Update(msg)
			launch(next)
		case <-deadline:
			t.Fatal("the screen did not get there in time")
		}
	}
}

func story(t *testing.T, c tui.Common, o StoryOptions) *Model {
	t.Helper()
	m := NewStory(context.Background(), c, o)
	m.Update(tea.WindowSizeMsg{Width: c.Width, Height: c.Height})
	drive(t, m, m.Init(), func() bool { return m.finished })
	return m
}

func TestPackStoryScreenGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := story(t, tuitest.Common(w, 24), demoStory(t))
			tuitest.GoldenView(t, m.View().Content, w, 24)
		})
	}
}

func TestPackStoryScreenPlainGolden(t *testing.T) {
	var out bytes.Buffer
	m := NewStory(context.Background(), tui.Common{Plain: true}, demoStory(t))
	code, err := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"source: ledger's best: authoritative pack at proof/131/", "note: also on the ledger: advisory pack", "result: verified, floors hold"} {
		if !strings.Contains(text, want) {
			t.Errorf("the plain twin does not say %q", want)
		}
	}
	tuitest.GoldenPlain(t, text, code)
}

func TestPackStorySwitchesSources(t *testing.T) {
	m := story(t, tuitest.Common(100, 30), demoStory(t))
	view := func() string { return ansi.Strip(m.View().Content) }
	if v := view(); !strings.Contains(v, "ledger's best") || !strings.Contains(v, "proof/131/"+demoHead+"/authoritative") {
		t.Fatalf("the header does not say which pack:\n%s", v)
	}

	_, cmd := m.Update(tuitest.Key("l"))
	drive(t, m, cmd, func() bool { return m.finished })
	if v := view(); !strings.Contains(v, "local pack") || !strings.Contains(v, "does not verify") {
		t.Fatalf("l did not show the (tampered) local pack:\n%s", v)
	}
	if _, code := m.Done(); code != tui.ExitRefused {
		t.Errorf("exit %d for a local pack that does not verify", code)
	}

	_, cmd = m.Update(tuitest.Key("g"))
	drive(t, m, cmd, func() bool { return m.finished })
	if v := view(); !strings.Contains(v, "gate's run artifact could not be read") || !strings.Contains(v, "expired") {
		t.Fatalf("g did not say the artifact expired, in words:\n%s", v)
	}

	_, cmd = m.Update(tuitest.Key("b"))
	drive(t, m, cmd, func() bool { return m.finished })
	if v := view(); !strings.Contains(v, "ledger's best") || !strings.Contains(v, "floors hold") {
		t.Fatalf("b did not go back to the ledger's best:\n%s", v)
	}
}

func TestPackStoryPush(t *testing.T) {
	var pushes atomic.Int32
	o := demoStory(t)
	o.Push = func(context.Context) (string, error) {
		pushes.Add(1)
		return "pushed: 4 files landed at proof/131/x/advisory", nil
	}
	m := story(t, tuitest.Common(120, 30), o)
	view := func() string { return ansi.Strip(m.View().Content) }

	m.Update(tuitest.Key("p"))
	if !strings.Contains(view(), "y pushes") || pushes.Load() != 0 {
		t.Fatalf("p should ask once before pushing:\n%s", view())
	}
	m.Update(tuitest.Key("n"))
	if !strings.Contains(view(), "push cancelled") || pushes.Load() != 0 {
		t.Fatalf("a key other than y should cancel:\n%s", view())
	}
	m.Update(tuitest.Key("p"))
	_, cmd := m.Update(tuitest.Key("y"))
	drive(t, m, cmd, func() bool { return !m.story.pushing })
	if pushes.Load() != 1 || !strings.Contains(view(), "pushed: 4 files landed") {
		t.Fatalf("%d pushes; view:\n%s", pushes.Load(), view())
	}

	// A failed push says why and changes nothing else.
	o.Push = func(context.Context) (string, error) { return "", errors.New("media refused: screens/1.png") }
	m = story(t, tuitest.Common(120, 30), o)
	m.Update(tuitest.Key("p"))
	_, cmd = m.Update(tuitest.Key("y"))
	drive(t, m, cmd, func() bool { return !m.story.pushing })
	if !strings.Contains(view(), "push failed: media refused: screens/1.png") {
		t.Fatalf("the failure is not shown:\n%s", view())
	}
}

func TestPackStoryPushDisabledWithWhy(t *testing.T) {
	cases := []struct {
		name string
		edit func(*StoryOptions)
		why  string
	}{
		{"ci", func(o *StoryOptions) { o.CI = true }, "--ci: CI writes nothing to the ledger"},
		{"no local pack", func(o *StoryOptions) { o.LocalDir, o.Local = "", nil }, "no local pack in .aayudha/proof/131/"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := demoStory(t)
			o.Push = func(context.Context) (string, error) { t.Error("pushed while disabled"); return "", nil }
			c.edit(&o)
			m := story(t, tuitest.Common(200, 30), o)
			_, cmd := m.Update(tuitest.Key("p"))
			if cmd != nil || m.story.confirm {
				t.Fatal("p was accepted while disabled")
			}
			var help []string
			for _, b := range m.Keys() {
				help = append(help, b.Help().Key+" "+b.Help().Desc)
			}
			if text := strings.Join(help, " | "); !strings.Contains(text, c.why) {
				t.Errorf("the help does not say why push is unavailable (%q): %s", c.why, text)
			}
		})
	}
}

func TestPackStoryNoPackOnTheLedger(t *testing.T) {
	o := demoStory(t)
	o.Ledger = func(context.Context) (Fetched, error) {
		return Fetched{}, fmt.Errorf("story 131: %w", errNoPackForTest)
	}
	m := story(t, tui.Common{Width: 80, Height: 24, Plain: true}, o)
	if done, code := m.Done(); !done || code != tui.ExitFailed {
		t.Fatalf("done=%v code=%d", done, code)
	}
	if text := strings.Join(m.Transcript(), "\n"); !strings.Contains(text, "failed: the ledger could not be read") {
		t.Errorf("transcript:\n%s", text)
	}
}

var errNoPackForTest = errors.New("no pack")
