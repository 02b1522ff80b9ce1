package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/identity"
)

// tmuxSession drives the real aayu binary in a detached tmux session on a
// private server socket, as a person over SSH would see it.
type tmuxSession struct {
	t      *testing.T
	socket string
	name   string
}

// builtAayu is the binary every test of this package that runs aayu in
// its own process shares: built once, on first use, into a folder that
// TestMain (parallel_test.go) removes. Building it per test cost a link
// of the whole program each time, several at once in parallel.
var builtAayu struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// buildAayu returns the path of the shared aayu binary, building it on
// the first call.
func buildAayu(t *testing.T) string {
	t.Helper()
	builtAayu.once.Do(func() {
		dir, err := os.MkdirTemp("", "aayu-test-bin-")
		if err != nil {
			builtAayu.err = err
			return
		}
		builtAayu.dir = dir
		bin := filepath.Join(dir, "aayu")
		// -trimpath: the build cache serves it whatever folder the clone is in.
		if out, err := exec.Command("go", "build", "-trimpath", "-o", bin, "github.com/aayudha/aayu").CombinedOutput(); err != nil {
			builtAayu.err = fmt.Errorf("go build: %w\n%s", err, out)
			return
		}
		builtAayu.bin = bin
	})
	if builtAayu.err != nil {
		t.Fatal(builtAayu.err)
	}
	return builtAayu.bin
}

func newTmux(t *testing.T, width, height int, command string) *tmuxSession {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed; .ci/run installs it")
		}
		t.Skip("tmux is not installed")
	}
	s := &tmuxSession{t: t, socket: fmt.Sprintf("aayu-test-%d-%d", os.Getpid(), time.Now().UnixNano()), name: "aayu"}
	s.run("new-session", "-d", "-s", s.name, "-x", fmt.Sprint(width), "-y", fmt.Sprint(height),
		"export TERM=xterm-256color; "+command+"; echo AAYU-EXIT=$?; sleep 60")
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	return s
}

func (s *tmuxSession) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s *tmuxSession) screen() string { return s.run("capture-pane", "-p", "-t", s.name) }

func (s *tmuxSession) keys(keys ...string) {
	s.run(append([]string{"send-keys", "-t", s.name}, keys...)...)
}

// approveDeviceCode reads the presence check's link and code off the
// screen, as a person would (the code is drawn large, its characters
// spaced out), and approves it on the sandbox as login, as if on a phone.
func (s *tmuxSession) approveDeviceCode(login string) {
	s.t.Helper()
	scr := s.waitFor("/login/device")
	page := regexp.MustCompile(`http://127\.0\.0\.1:\d+/login/device`).FindString(scr)
	s.waitFor("expires in")
	scr = s.screen()
	code := regexp.MustCompile(`[A-Z0-9]{4}-[A-Z0-9]{4}`).FindString(strings.Join(strings.Fields(scr), ""))
	if page == "" || code == "" {
		s.t.Fatalf("no link or code on the screen:\n%s", scr)
	}
	approveOnSandbox(s.t, page, code, login)
}

// waitFor polls the pane until it shows want; polling with a generous
// deadline keeps the test from flaking on a busy machine.
func (s *tmuxSession) waitFor(want string) string {
	s.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		scr := s.screen()
		if strings.Contains(scr, want) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q; it shows:\n%s", want, scr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitCards waits until the inbox shows n cards that need the person from
// a whole read ("· read at" in its header). The first read shows its cards
// while it is still arriving, and a key pressed then (Enter, r) is refused
// in words ("the read from GitHub is still arriving", "Already reading
// GitHub."), so a test that acts on the cards waits for the whole read.
func (s *tmuxSession) waitCards(n int) string {
	s.t.Helper()
	want := fmt.Sprintf("Needs you (%d)", n)
	deadline := time.Now().Add(e2eWait)
	for {
		scr := s.screen()
		if strings.Contains(scr, want) && strings.Contains(scr, " · read at ") {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q from a whole read; it shows:\n%s", want, scr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestTmuxPackScreen(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	wd, _ := os.Getwd()
	wd = filepath.Dir(wd) // the module root, where testdata/demo is
	cmd := fmt.Sprintf("cd %s && %s pack testdata/demo/pack --ready testdata/demo/ready.md --head %s", wd, bin, demoHead)
	s := newTmux(t, 100, 30, cmd)
	scr := s.waitFor("floors hold")
	for _, want := range []string{"story 131", "pull request #148", "1 Criteria (3)", "pack.json sha256"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the screen does not show %q:\n%s", want, scr)
		}
	}
	s.keys("2")
	s.waitFor("[2 Artifacts (6)]")
	s.keys("Enter")
	s.waitFor("passed  answer TestAnswerCitesPassage")
	s.keys("Escape")
	s.waitFor("[2 Artifacts (6)]")
	s.keys("q")
	s.waitFor("AAYU-EXIT=0")
}

func TestTmuxPackScreenTampered(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	wd, _ := os.Getwd()
	wd = filepath.Dir(wd) // the module root, where testdata/demo is
	cmd := fmt.Sprintf("cd %s && %s pack testdata/demo/tampered --ready testdata/demo/ready.md --head %s", wd, bin, demoHead)
	s := newTmux(t, 40, 20, cmd)
	s.waitFor("does not verify")
	s.keys("q")
	scr := s.waitFor("AAYU-EXIT=4")
	// The outcome stays on the terminal after the full screen closes.
	// Named in the quit summary; the pane is 40 wide, so lines are joined.
	if !strings.Contains(strings.ReplaceAll(scr, "\n", ""), "pack testdata/demo/tampered: does not verify") {
		t.Errorf("the outcome is gone with the full screen:\n%s", scr)
	}
}

func TestTmuxLoginRefusesAnAgentLaneInWords(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	s := newTmux(t, 100, 30, humanEnv(t.TempDir())+" AAYU_AGENT=1 "+bin+" --sandbox login")
	scr := s.waitFor("AAYU-EXIT=4")
	if !strings.Contains(scr, "aayu login: ") || strings.Contains(scr, "/login/device") {
		t.Errorf("the agent lane was not refused in words, or was offered a code:\n%s", scr)
	}
}

// humanEnv clears every agent and CI marker so the real binary sees a person at a
// terminal, whatever shell runs the tests.
func humanEnv(home string) string {
	cmd := "env"
	for _, m := range append(append(identity.HostMarkers(), identity.CIMarkers()...), identity.AgentVariable, "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME") {
		cmd += " -u " + m
	}
	// A new HOME must not mean a cold Go build cache for verify's go test runs.
	return cmd + goEnv() + " HOME=" + home
}

// goEnv is " GOCACHE=… GOMODCACHE=… GOPATH=…" as go env reports them,
// asked once for every test rather than three processes per test.
var goEnv = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		return ""
	}
	var s string
	for i, v := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		s += " " + []string{"GOCACHE", "GOMODCACHE", "GOPATH"}[i] + "=" + strings.TrimSpace(v)
	}
	return s
})

func TestTmuxInboxOnSandbox(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	home := t.TempDir()
	s := newTmux(t, 120, 30, humanEnv(home)+" "+bin+" --sandbox inbox")
	s.waitCards(8)
	s.waitFor("Housekeeping (3)")
	for range 8 {
		s.keys("Down")
	}
	s.waitFor("> [ ] Merged #9")
	s.keys("Enter")
	s.waitFor("done: Story merged without ship #9")
	s.waitFor("Housekeeping (2)") // the accepted card has left the inbox
	s.keys("q")
	scr := s.waitFor("AAYU-EXIT=0")
	for _, want := range []string{"what this run did", "done: Story merged without ship #9"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the log printed on quit lacks %q:\n%s", want, scr)
		}
	}
}

func TestTmuxVerifyOnSandbox(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	home := t.TempDir()
	s := newTmux(t, 100, 30, humanEnv(home)+" "+bin+" --sandbox verify 5")
	scr := s.waitFor("does not hold")
	if !strings.Contains(scr, "5 of 7 changed executable lines covered") {
		t.Errorf("the coverage floor's reason is not on the screen:\n%s", scr)
	}
	s.keys("q")
	s.waitFor("AAYU-EXIT=3")
}

// TestTmuxShipFromTheInbox: Enter on the ready card opens ship, which
// merges on no key: it lists its writes and waits for an answer.
//
//   - AnsweredYes: y merges, the ship screen says how, and the inbox comes
//     back without the shipped card.
//   - AnsweredNo: n writes nothing, said as the person's own cancel, not a
//     gate's refusal; the card is still in the inbox afterwards, and the
//     run exits with ship's 4 (SPEC §3).
func TestTmuxShipFromTheInbox(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, key string
		says      string   // the ship screen after the answer
		shows     []string // on that screen too
		hides     []string // never on that screen
		back      string   // the inbox after q
		exit      string
	}{
		{"AnsweredYes", "y", "shipped: merged as",
			[]string{"passed    the merge gate's pack for this head", "human pass", "solo-mode bypass by @founder", "squash merge"}, nil,
			"Needs you (7)", "AAYU-EXIT=0"},
		{"AnsweredNo", "n", "cancelled: you did not answer yes, so nothing was merged",
			[]string{"you did not answer yes; nothing was written"}, []string{"refused: nothing was merged"},
			"Needs you (8)", "AAYU-EXIT=4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			bin := buildAayu(t)
			home := t.TempDir()
			s := newTmux(t, 120, 34, humanEnv(home)+" "+bin+" --sandbox inbox")
			s.waitCards(8)
			s.keys("Down")
			s.keys("Down")
			s.waitFor("Story PR ready to ship #4 (needs you)")
			s.keys("Enter") // the card's recommendation: ship it by the bypass
			scr := s.waitFor("no: write nothing")
			for _, want := range []string{"Solo-mode bypass", "squash-merges #4 into dev", "yes: write all of these"} {
				if !strings.Contains(strings.Join(strings.Fields(scr), " "), want) {
					t.Errorf("the confirmation does not show %q:\n%s", want, scr)
				}
			}
			if strings.Contains(scr, "shipped: merged as") {
				t.Fatalf("ship merged before the answer:\n%s", scr)
			}
			s.keys(c.key)
			scr = s.waitFor(c.says)
			for _, want := range c.shows {
				if !strings.Contains(scr, want) {
					t.Errorf("the ship screen does not show %q:\n%s", want, scr)
				}
			}
			for _, never := range c.hides {
				if strings.Contains(scr, never) {
					t.Errorf("the ship screen shows %q:\n%s", never, scr)
				}
			}
			s.keys("q")
			s.waitFor(c.back)
			s.keys("q")
			s.waitFor(c.exit)
		})
	}
}

func TestTmuxLoginApprovedFromAnotherDevice(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	home := t.TempDir()
	s := newTmux(t, 100, 30, humanEnv(home)+" "+bin+" --sandbox login")
	s.approveDeviceCode("founder")
	s.waitFor("Approved by @founder")
	s.waitFor("AAYU-EXIT=0")
}

func TestTmuxAuthPromptsForATokenOnATerminal(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	_, url := sandboxWith(t, sandbox.Options{})
	home := t.TempDir()
	// No token anywhere: no variables, no gh on PATH, no keyring service.
	cmd := "env -u AAYU_GITHUB_TOKEN -u GITHUB_TOKEN -u GH_TOKEN" + strings.TrimPrefix(humanEnv(home), "env") +
		" PATH=/nonexistent DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent " +
		bin + " --plain --api-url " + url + "/ auth"
	s := newTmux(t, 120, 30, cmd)
	s.waitFor("input hidden")
	s.keys("sandbox-founder", "Enter")
	scr := s.waitFor("AAYU-EXIT=0")
	for _, want := range []string{"token source prompt: used", "account: @founder"} {
		if !strings.Contains(scr, want) {
			t.Errorf("auth does not say %q:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "sandbox-founder") {
		t.Errorf("the typed token was echoed or printed:\n%s", scr)
	}
}

// TestTmuxShipPresenceThenConfirm: in a shell with an agent host's marker,
// ship checks every read-only gate, then shows the presence check inside
// its own screen, then the confirmation; only y merges.
func TestTmuxShipPresenceThenConfirm(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	home := t.TempDir()
	s := newTmux(t, 100, 40, humanEnv(home)+" AMP_THREAD_ID=T-1 "+bin+" --sandbox ship 4 --solo-bypass")
	s.approveDeviceCode("founder")
	scr := s.waitFor("no: write nothing")
	if !strings.Contains(strings.Join(strings.Fields(scr), " "), "squash-merges #4 into dev") {
		t.Errorf("the confirmation does not list the merge:\n%s", scr)
	}
	s.keys("y")
	s.waitFor("shipped: merged as")
	s.keys("q")
	s.waitFor("AAYU-EXIT=0")
}

// TestTmuxShipRefusesAnotherApprover: approved as @writer while ship
// writes as @founder, the full screen says so in words and writes nothing.
func TestTmuxShipRefusesAnotherApprover(t *testing.T) {
	t.Parallel()
	bin := buildAayu(t)
	home := t.TempDir()
	s := newTmux(t, 100, 40, humanEnv(home)+" AMP_THREAD_ID=T-1 "+bin+" --sandbox ship 4 --solo-bypass")
	s.approveDeviceCode("writer")
	s.waitFor("@writer approved the code, but this step must be approved by @founder.")
	s.keys("Enter") // leave the presence check's refusal
	scr := s.waitFor("refused: nothing was merged and nothing landed")
	flat := strings.Join(strings.Fields(scr), " ")
	if !strings.Contains(flat, "@writer approved the code, but this step must be approved by @founder.") || strings.Contains(flat, "write all of these") {
		t.Errorf("the refusal is not in words, or ship asked for a yes:\n%s", scr)
	}
	s.keys("q")
	s.waitFor("AAYU-EXIT=4")
}
