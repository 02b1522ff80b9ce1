package login

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	xgolden "github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/cli/oauth/api"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

var errAccessDenied = &api.Error{Code: "access_denied", ResponseCode: 200}

var start = time.Date(2026, 10, 26, 22, 26, 0, 0, time.UTC)

// staged is a screen moved through its states by the flow's own messages,
// with a fixed clock, so what it draws is the same on every run.
func staged(t *testing.T, c tui.Common, req Request, deps Deps) (*Model, *fixedClock) {
	t.Helper()
	clk := &fixedClock{t: start}
	deps.Now = clk.Now
	m := New(t.Context(), c, req, deps)
	if m.Init() == nil {
		t.Fatal("the screen did not start the flow")
	}
	m.cancel() // nothing runs: the test delivers the flow's messages itself
	return m, clk
}

func showCode(m *Model) {
	m.Update(codeMsg{gen: m.gen, userCode: "WDJB-MJHT", uri: "https://github.com/login/device", expiresIn: 15 * time.Minute})
}

func approve(m *Model, login string, access identity.Access) {
	m.Update(checkingMsg{gen: m.gen})
	m.Update(resultMsg{gen: m.gen, account: identity.Account{Login: login}, access: access})
}

func TestLoginScreenGolden(t *testing.T) {
	states := []struct {
		name  string
		stage func(m *Model, clk *fixedClock)
	}{
		{"requesting", func(*Model, *fixedClock) {}},
		{"waiting", func(m *Model, clk *fixedClock) {
			showCode(m)
			clk.Add(61 * time.Second)
			m.Update(tickMsg{gen: m.gen})
		}},
		{"expired", func(m *Model, _ *fixedClock) {
			showCode(m)
			m.Update(resultMsg{gen: m.gen, fail: expired()})
		}},
		{"approved", func(m *Model, _ *fixedClock) {
			showCode(m)
			approve(m, "founder", identity.AccessAdmin)
		}},
		{"refused", func(m *Model, _ *fixedClock) {
			showCode(m)
			a := identity.Account{Login: "writer", Permission: "write"}
			m.Update(resultMsg{gen: m.gen, account: a, fail: refusalFailure(identity.CheckApprover(a, identity.AccessAdmin, "", nil), a, shipRequest())})
		}},
	}
	for _, s := range states {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", s.name, w), func(t *testing.T) {
				deps := Deps{InTmux: true, OpenBrowser: func(string) error { return nil }}
				m, clk := staged(t, tuitest.Common(w, 24), shipRequest(), deps)
				s.stage(m, clk)
				tuitest.GoldenView(t, m.View().Content, w, 24)
			})
		}
	}
}

// Whatever the size, no line is wider than the terminal and the code and
// the words that matter come before anything that may be cut.
func TestLoginScreenFitsEverySize(t *testing.T) {
	long := shipRequest()
	long.Approving = append(long.Approving, strings.Repeat("a very long line about what approving does ", 6))
	for _, w := range []int{20, 33, 40, 57, 80, 120, 200} {
		for _, h := range []int{8, 16, 24, 40} {
			m, _ := staged(t, tui.Common{Width: w, Height: h, Styles: tui.NewStyles(false)}, long, Deps{InTmux: true})
			showCode(m)
			m.Update(tui.CopiedMsg{What: "the code"})
			view := m.View().Content
			tuitest.AssertFits(t, view, w, h)
			if h >= 24 && w >= 40 {
				for _, want := range []string{"W D J B - M J H T", "WDJB-MJHT", "expires in 15:00, at 22:41 UTC", "Approve only if you asked for this"} {
					if !strings.Contains(ansi.Strip(view), want) {
						t.Errorf("%dx%d: the screen does not show %q:\n%s", w, h, want, ansi.Strip(view))
					}
				}
			}
		}
	}
}

func TestLoginScreenLinkIsHyperlink(t *testing.T) {
	m, _ := staged(t, tuitest.Common(80, 24), shipRequest(), Deps{})
	showCode(m)
	if v := m.View().Content; !strings.Contains(v, "\x1b]8;;https://github.com/login/device\x1b\\") &&
		!strings.Contains(v, "\x1b]8;;https://github.com/login/device\a") {
		t.Fatalf("the verification link is not an OSC 8 hyperlink:\n%q", v)
	}
}

func TestLoginPlainGolden(t *testing.T) {
	cases := []struct {
		name  string
		stage func(m *Model, clk *fixedClock)
	}{
		{"approved", func(m *Model, clk *fixedClock) {
			showCode(m)
			for _, step := range []time.Duration{61 * time.Second, 12 * time.Minute, 95 * time.Second, 15 * time.Second} {
				clk.Add(step)
				m.Update(tickMsg{gen: m.gen})
			}
			approve(m, "founder", identity.AccessAdmin)
		}},
		{"expired-new-code", func(m *Model, clk *fixedClock) {
			showCode(m)
			clk.Add(15 * time.Minute)
			m.Update(resultMsg{gen: m.gen, fail: expired()})
			m.Update(tui.LineMsg{Line: "maybe"})
			m.Update(tui.LineMsg{Line: "enter"})
			m.cancel()
			showCode(m)
			approve(m, "founder", identity.AccessAdmin)
		}},
		{"cancelled", func(m *Model, _ *fixedClock) {
			showCode(m)
			m.Update(resultMsg{gen: m.gen, fail: waitFailure(t.Context(), "https://github.com", errAccessDenied)})
		}},
		{"agent", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			deps := Deps{}
			if c.stage == nil {
				deps.Here = identity.Here(identity.HumanCheck{Command: shipRequest().Command,
					Env: func(k string) string { return map[string]string{"AAYU_AGENT": "1"}[k] }})
				m := New(t.Context(), tui.Common{Plain: true}, shipRequest(), deps)
				golden(t, m)
				return
			}
			m, clk := staged(t, tui.Common{Plain: true}, shipRequest(), deps)
			c.stage(m, clk)
			golden(t, m)
		})
	}
}

func golden(t *testing.T, m *Model) {
	t.Helper()
	text := strings.Join(m.Transcript(), "\n") + "\n"
	tuitest.AssertPlain(t, text)
	done, code := m.Done()
	xgolden.RequireEqual(t, fmt.Sprintf("%sdone %v, exit %d\n", text, done, code))
}

func TestCountdownMarks(t *testing.T) {
	got := fmt.Sprint(countdownMarks(3 * time.Minute))
	if want := "[2m0s 1m0s 30s 10s]"; got != want {
		t.Errorf("countdownMarks(3m) = %s, want %s", got, want)
	}
	if got := countdownMarks(2 * time.Second); len(got) != 0 {
		t.Errorf("a 2 s code has marks %v", got)
	}
}

func TestCopyKey(t *testing.T) {
	var mu sync.Mutex
	var copied []string
	native := func(s string) error {
		mu.Lock()
		defer mu.Unlock()
		copied = append(copied, s)
		return nil
	}
	for _, tmux := range []bool{false, true} {
		m, _ := staged(t, tuitest.Common(80, 24), shipRequest(), Deps{Clipboard: native, InTmux: tmux})
		if _, cmd := m.Update(tuitest.Key("c")); cmd != nil {
			t.Fatal("c copied before there was a code")
		}
		showCode(m)
		_, cmd := m.Update(tuitest.Key("c"))
		msgs := runAll(cmd)
		for _, msg := range msgs {
			m.Update(msg)
		}
		if got := tuitest.OSC52Writes(msgs); len(got) != 1 || got[0] != "WDJB-MJHT" {
			t.Errorf("c did not write the terminal clipboard (OSC 52); got %#v", msgs)
		}
		v := ansi.Strip(m.View().Content)
		if !strings.Contains(v, "Copied the code.") {
			t.Errorf("the screen does not say the code was copied:\n%s", v)
		}
		if note := "tmux set -s set-clipboard on"; strings.Contains(v, note) != tmux {
			t.Errorf("tmux=%v but the tmux note shown=%v", tmux, !tmux)
		}
	}
	if len(copied) != 2 || copied[0] != "WDJB-MJHT" {
		t.Errorf("the native clipboard got %q", copied)
	}
}

func TestEnterOpensBrowser(t *testing.T) {
	var opened []string
	open := func(u string) error { opened = append(opened, u); return errors.New("xdg-open failed") }
	m, _ := staged(t, tuitest.Common(80, 24), shipRequest(), Deps{OpenBrowser: open})
	showCode(m)
	_, cmd := m.Update(tuitest.Key("enter"))
	for _, msg := range runAll(cmd) {
		m.Update(msg)
	}
	if len(opened) != 1 || opened[0] != "https://github.com/login/device" {
		t.Fatalf("opened %q", opened)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "No browser opened here (xdg-open failed). Open the link on any device.") {
		t.Errorf("a failed browser is not explained:\n%s", v)
	}
}

// A run abandoned for a new code cannot change the screen later.
func TestStaleRunIgnored(t *testing.T) {
	m, _ := staged(t, tuitest.Common(80, 24), shipRequest(), Deps{})
	showCode(m)
	m.Update(resultMsg{gen: m.gen, fail: expired()})
	old := m.gen
	m.Update(tuitest.Key("enter")) // a new code
	m.cancel()
	m.Update(resultMsg{gen: old, account: identity.Account{Login: "founder"}, access: identity.AccessAdmin})
	if _, ok := m.Session(); ok || m.phase != phaseRequesting {
		t.Fatalf("a stale run's approval counted: phase %d", m.phase)
	}
}

func TestWaitFailureWords(t *testing.T) {
	cases := []struct {
		err  error
		kind failKind
		code int
		say  string
	}{
		{errAccessDenied, failDenied, tui.ExitRefused, "cancelled on GitHub"},
		{&api.Error{Code: "expired_token"}, failExpired, tui.ExitRefused, "The code expired"},
		{fmt.Errorf("wait: %w", context.DeadlineExceeded), failExpired, tui.ExitRefused, "The code expired"},
		{errors.New("too many slow_down responses; detected clock drift of roughly 31% between monotonic and wall clocks"), failNetwork, tui.ExitFailed, "clock running fast"},
		{errors.New("connection refused"), failNetwork, tui.ExitFailed, "could not reach GitHub at https://github.com while waiting for the approval: connection refused."},
	}
	for _, c := range cases {
		f := waitFailure(t.Context(), "https://github.com", c.err)
		if f.kind != c.kind || f.code != c.code || !strings.Contains(f.what, c.say) || !strings.HasPrefix(f.next, "Nothing was done.") {
			t.Errorf("%v: got %+v", c.err, f)
		}
	}
}

// TestFullScreenOnSandbox drives the full-screen program as a person would:
// the code appears, it is approved on the sandbox's device page, and the
// screen says who approved before it finishes.
func TestFullScreenOnSandbox(t *testing.T) {
	t.Parallel()
	sg := startSandbox(t, fastDevice())
	deps, _ := testDeps(t, sg, nil)
	m := New(t.Context(), tuitest.Common(80, 24), shipRequest(), deps)
	tm := teatest.NewTestModel(t, quitWhenDone{m}, teatest.WithInitialTermSize(80, 24),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	codeRE := regexp.MustCompile(`enter the code ([A-Z0-9]{4}-[A-Z0-9]{4}):`)
	var userCode string
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		if c := codeRE.FindSubmatch(b); c != nil {
			userCode = string(c[1])
			return true
		}
		return false
	}, teatest.WithDuration(10*time.Second))
	decideOnGitHub(t, sg.url, userCode, "founder", "approve")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("Approved by @founder (device-flow, admin access)."))
	}, teatest.WithDuration(10*time.Second))
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(quitWhenDone)
	if done, code := final.Done(); !done || code != tui.ExitOK {
		t.Fatalf("done=%v code=%d", done, code)
	}
}

// quitWhenDone quits the program when the screen is done, as tui.Run does.
type quitWhenDone struct{ *Model }

func (q quitWhenDone) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := q.Model.Update(msg)
	if done, _ := q.Done(); done {
		return q, tea.Quit
	}
	return q, cmd
}

// runAll runs a command and the batches inside it, returning the messages.
// Ticks are not waited for.
func runAll(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, runAll(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// Ctrl-C is the shell's interruption (exit 1): the screen stops polling but
// does not claim to have finished.
func TestCtrlCStopsPollingOnly(t *testing.T) {
	m, _ := staged(t, tuitest.Common(80, 24), shipRequest(), Deps{})
	showCode(m)
	ctrlC := tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	if ctrlC.String() != "ctrl+c" {
		t.Fatalf("the key reads as %q", ctrlC.String())
	}
	m.Update(ctrlC)
	if done, _ := m.Done(); done {
		t.Fatal("ctrl+c finished the screen; the shell reports it as an interruption")
	}
	m.Update(tuitest.Key("q"))
	if done, code := m.Done(); !done || code != tui.ExitRefused {
		t.Fatalf("q: done=%v code=%d, want exit 4", done, code)
	}
}
