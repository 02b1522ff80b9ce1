package pack

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

const demoHead = "b046d1a1d113339eb80e130c9dc0008fa223e76f"

func demo(name string) Options {
	return Options{
		Dir:       filepath.Join("..", "..", "testdata", "demo", name),
		ReadyFile: filepath.Join("..", "..", "testdata", "demo", "ready.md"),
		Head:      demoHead,
	}
}

// verified returns the screen after verification has finished, driven
// through the same commands the program runs.
func verified(t *testing.T, c tui.Common, opts Options) *Model {
	t.Helper()
	m := New(context.Background(), c, opts)
	m.Update(tea.WindowSizeMsg{Width: c.Width, Height: c.Height})
	go verify(context.Background(), opts, m.events)()
	deadline := time.After(20 * time.Second)
	for !m.finished {
		select {
		case msg := <-m.events:
			m.Update(msg)
		case <-deadline:
			t.Fatal("verification did not finish")
		}
	}
	return m
}

func TestPackScreenGolden(t *testing.T) {
	for _, name := range []string{"pack", "tampered", "floorfail"} {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", name, w), func(t *testing.T) {
				m := verified(t, tuitest.Common(w, 24), demo(name))
				tuitest.GoldenView(t, m.View().Content, w, 24)
			})
		}
	}
}

func TestPackScreenSectionsAndViewer(t *testing.T) {
	m := verified(t, tuitest.Common(80, 24), demo("pack"))
	press := func(k string) {
		_, cmd := m.Update(tuitest.Key(k))
		if cmd != nil {
			if out := cmd(); out != nil {
				m.Update(out)
			}
		}
	}
	press("3")
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "[3 Checks (4)]") || !strings.Contains(v, "coverage") {
		t.Fatalf("key 3 did not show the checks table:\n%s", v)
	}
	press("2")
	press("enter")
	v := ansi.Strip(m.View().Content)
	for _, want := range []string{"artifact evidence/criterion-1.jsonl", "run     answer TestAnswerCitesPassage", "passed  answer TestAnswerCitesPassage", "cites Plan B, section 4.2"} {
		if !strings.Contains(v, want) {
			t.Errorf("the viewer does not show %q:\n%s", want, v)
		}
	}
	press("esc")
	if m.view != nil {
		t.Fatal("esc did not close the viewer")
	}
	if done, _ := m.Done(); done {
		t.Fatal("closing the viewer ended the screen")
	}
	press("q")
	if done, code := m.Done(); !done || code != tui.ExitOK {
		t.Fatalf("after q: done=%v code=%d, want done with exit 0", done, code)
	}
}

func TestPackScreenExitCodes(t *testing.T) {
	cases := []struct {
		name string
		opts Options
		code int
		say  string
	}{
		{"verifies", demo("pack"), tui.ExitOK, "result: verified, floors hold, 1 artifact not stored (exit 0)"},
		{"floor fails", demo("floorfail"), tui.ExitFloor, "result: verified, but a floor does not hold: coverage (exit 3)"},
		{"tampered", demo("tampered"), tui.ExitRefused, "evidence/criterion-2.jsonl"},
		{"head moved", func() Options { o := demo("pack"); o.Head = strings.Repeat("a", 40); return o }(), tui.ExitRefused, "head is now " + strings.Repeat("a", 40)},
		{"no ready", func() Options { o := demo("pack"); o.ReadyFile = ""; return o }(), tui.ExitRefused, "Ready"},
		{"ready unreadable", func() Options { o := demo("pack"); o.ReadyFile = "no-such-ready.md"; return o }(), tui.ExitRefused, "no-such-ready.md could not be read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := verified(t, tui.Common{Width: 80, Height: 24, Plain: true}, c.opts)
			done, code := m.Done()
			if !done || code != c.code {
				t.Fatalf("done=%v code=%d, want exit %d", done, code, c.code)
			}
			if text := strings.Join(m.Transcript(), "\n"); !strings.Contains(text, c.say) {
				t.Errorf("the transcript does not say %q:\n%s", c.say, text)
			}
		})
	}
}

func TestPackScreenMissingFolderFails(t *testing.T) {
	m := verified(t, tui.Common{Width: 80, Height: 24, Plain: true}, Options{Dir: filepath.Join(t.TempDir(), "gone"), Head: demoHead})
	done, code := m.Done()
	if !done {
		t.Fatal("not done")
	}
	// A missing folder is either an I/O failure or a pack that does not
	// verify; it must never pass.
	if code == tui.ExitOK || code == tui.ExitFloor {
		t.Fatalf("a missing pack folder gave exit %d", code)
	}
}

func TestPackScreenPlainGolden(t *testing.T) {
	for _, name := range []string{"pack", "tampered", "floorfail"} {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			m := New(context.Background(), tui.Common{Plain: true}, demo(name))
			code, err := tui.Run(context.Background(), m, tui.RunOptions{Plain: true, Out: &out})
			if err != nil {
				t.Fatal(err)
			}
			tuitest.GoldenPlain(t, out.String(), code)
		})
	}
}

func TestPackScreenSanitisesUntrustedText(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, filepath.Join("..", "..", "testdata", "demo", "pack"), dir)
	src, err := os.ReadFile(filepath.Join(dir, "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	// A check detail holding an OSC 52 clipboard write, a screen clear, a
	// title change and a bidi override.
	attack := `EVIL\u001b]52;c;ZXZpbA==\u0007\u001b[2J\u001b]0;pwned\u0007\u202eEND`
	js := strings.Replace(string(src), `"detail": "9 of 9`, `"detail": "`+attack+` 9 of 9`, 1)
	if js == string(src) {
		t.Fatal("the demo pack changed; the attack was not planted")
	}
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := demo("pack")
	opts.Dir = dir
	m := verified(t, tui.Common{Width: 200, Height: 40, Styles: tui.NewStyles(true), Plain: true}, opts)
	m.Update(tuitest.Key("3"))
	outputs := append(m.Transcript(), m.View().Content)
	shown := false
	for _, s := range outputs {
		if strings.Contains(s, "EVIL") {
			shown = true
			seg := s[strings.Index(s, "EVIL"):]
			seg = seg[:strings.Index(seg, "END")]
			for _, r := range seg {
				if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x202e {
					t.Fatalf("untrusted text reached the terminal with control %U intact: %q", r, seg)
				}
			}
		}
	}
	if !shown {
		t.Fatal("the check detail was not shown at all")
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestPackScreenTeatest(t *testing.T) {
	tm := teatest.NewTestModel(t, New(context.Background(), tuitest.Common(80, 24), demo("pack")),
		teatest.WithInitialTermSize(80, 24),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("floors hold"))
	}, teatest.WithDuration(10*time.Second))
	tm.Type("q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	if done, code := final.Done(); !done || code != tui.ExitOK {
		t.Fatalf("done=%v code=%d", done, code)
	}
}

// TestPackOpenedFromTheInboxSaysEscGoesBack: pushed on the inbox's stack,
// the pack viewer lists esc as the way back, and esc at rest finishes it.
func TestPackOpenedFromTheInboxSaysEscGoesBack(t *testing.T) {
	m := verified(t, tuitest.Common(80, 24), demo("pack"))
	m.Update(tui.PushedMsg{})
	found := false
	for _, b := range m.Keys() {
		found = found || b.Help().Desc == "back to the inbox"
	}
	if !found {
		t.Fatalf("the pushed pack viewer's keys do not say esc goes back: %v", m.Keys())
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if done, _ := m.Done(); !done {
		t.Error("esc at rest did not take the person back")
	}
}
