//go:build linux

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// The README's walkthrough "Your first story on a new repository" run as
// written: its fenced sh blocks, in order, extracted from README.md itself
// so the page and the test cannot drift. The first block runs in a
// terminal of its own (the sandbox); every other command is typed, one at
// a time, into a second terminal, a real pty with an interactive bash, as
// a newcomer pastes them. Each command's trailing comment is what the
// README says the reader will see, and is what the test asserts: every
// "quoted" text (… stands for anything on the line) is in its output, and
// its exit status is the "exit N" it names, else 0. A comment line
// "# wait … until the first terminal logs "…"" waits for that line of the
// sandbox's log, which must then end as quoted (a failed run fails the
// test at once). The person's own parts are done as the README tells the
// reader, by the harness, never by editing a command: a device code is
// approved on the sandbox's device page as founder, and a question is
// answered y on the terminal.
//
// The one rewrite is the sandbox's address, 127.0.0.1:8765 in the README,
// replaced everywhere by a free port of the test's own so the test can run
// beside others.

// walkthroughSection is the README section the test runs.
const walkthroughSection = "## Your first story on a new repository"

// readmeAddr is the sandbox's address as the README writes it.
const readmeAddr = "127.0.0.1:8765"

// walkStep is one command of the walkthrough as the second terminal takes
// it (it may span lines), or a wait on the first terminal's log.
type walkStep struct {
	text  string   // the command's lines, as pasted
	wait  bool     // a "# wait …" line: text is the pattern to wait for
	shows []string // the quoted texts its comment says the reader sees
	exit  int      // the exit status its comment names, else 0
}

// readmeWalkthrough extracts the walkthrough's sh blocks from README.md,
// each as its steps.
func readmeWalkthrough(t *testing.T) [][]walkStep {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i := strings.Index(readme, "\n"+walkthroughSection+"\n")
	if i < 0 {
		t.Fatalf("README.md has no section %q", walkthroughSection)
	}
	section := readme[i+1:]
	if j := strings.Index(section, "\n## "); j >= 0 {
		section = section[:j]
	}
	var blocks [][]walkStep
	var block []string
	in, indent := false, ""
	for _, line := range strings.Split(section, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case !in && (trimmed == "```sh" || trimmed == "```bash"):
			in, indent, block = true, line[:len(line)-len(trimmed)], nil
		case in && trimmed == "```":
			in = false
			blocks = append(blocks, walkSteps(t, block))
		case in:
			block = append(block, strings.TrimPrefix(line, indent))
		}
	}
	if len(blocks) < 2 {
		t.Fatalf("the README's walkthrough has %d sh blocks; want the sandbox's and the second terminal's", len(blocks))
	}
	return blocks
}

var (
	quotedText = regexp.MustCompile(`"([^"]+)"`)
	exitNamed  = regexp.MustCompile(`\bexit (\d+)\b`)
)

// walkSteps splits a block's lines into commands: a command ends at a line
// that closes every quote and does not end in a backslash. A comment
// outside quotes says what the command shows.
func walkSteps(t *testing.T, lines []string) []walkStep {
	t.Helper()
	var steps []walkStep
	var cur walkStep
	var text []string
	quote := byte(0)
	for _, line := range lines {
		if quote == 0 && len(text) == 0 {
			if c, ok := strings.CutPrefix(strings.TrimSpace(line), "#"); ok {
				if strings.HasPrefix(strings.TrimSpace(c), "wait") {
					m := quotedText.FindStringSubmatch(c)
					if m == nil {
						t.Fatalf("the walkthrough's wait line names no log line to wait for: %s", line)
					}
					steps = append(steps, walkStep{wait: true, text: m[1]})
				}
				continue // a comment line is for the reader
			}
			if strings.TrimSpace(line) == "" {
				continue
			}
		}
		text = append(text, line)
		comment, cont := "", false
	scan:
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch {
			case quote == '\'':
				if c == '\'' {
					quote = 0
				}
			case c == '\\':
				if i == len(line)-1 {
					cont = quote == 0
				}
				i++
			case quote == '"':
				if c == '"' {
					quote = 0
				}
			case c == '\'' || c == '"':
				quote = c
			case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
				comment = line[i+1:]
				break scan
			}
		}
		for _, m := range quotedText.FindAllStringSubmatch(comment, -1) {
			cur.shows = append(cur.shows, m[1])
		}
		if m := exitNamed.FindStringSubmatch(comment); m != nil {
			cur.exit, _ = strconv.Atoi(m[1])
		}
		if quote != 0 || cont {
			continue
		}
		cur.text = strings.Join(text, "\n")
		steps = append(steps, cur)
		cur, text = walkStep{}, nil
	}
	if len(text) > 0 {
		t.Fatalf("the walkthrough's block ends inside a command:\n%s", strings.Join(text, "\n"))
	}
	return steps
}

// linePattern is a quoted text as a pattern on one line: … stands for
// anything.
func linePattern(s string) *regexp.Regexp {
	parts := strings.Split(s, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(strings.Join(parts, `[^\n]*`))
}

// TestReadmeWalkthroughSaysWhatEachCommandShows: every aayu command of the
// walkthrough names what the reader will see, so the walkthrough test has
// something of each to assert, and the page parses as that test reads it
// (runs in a moment; the walkthrough itself needs the merge gate).
func TestReadmeWalkthroughSaysWhatEachCommandShows(t *testing.T) {
	t.Parallel()
	blocks := readmeWalkthrough(t)
	if first := blocks[0]; len(first) != 1 || !strings.Contains(first[0].text, "aayu sandbox") || len(first[0].shows) == 0 {
		t.Errorf("the walkthrough's first block is not one aayu sandbox command saying what it shows: %+v", first)
	}
	waits, aayus := 0, 0
	for _, block := range blocks[1:] {
		for _, s := range block {
			if s.wait {
				waits++
				continue
			}
			if regexp.MustCompile(`(^|\s)(fresh|aayu)\s`).MatchString(s.text) {
				aayus++
				if len(s.shows) == 0 {
					t.Errorf("the walkthrough's %q says nothing of what it shows", s.text)
				}
			}
			if strings.Contains(s.text, readmeAddr) && strings.Contains(s.text, "curl") && len(s.shows) == 0 {
				t.Errorf("the walkthrough's request says nothing of its answer: %s", s.text)
			}
		}
	}
	if waits != 1 || aayus < 7 {
		t.Errorf("the walkthrough has %d waits on the gate and %d aayu commands; want 1 and at least 7", waits, aayus)
	}
}

// TestReadmeFirstStory runs the README's walkthrough as written, from a
// clean HOME, on a standalone sandbox (aayu sandbox in its own terminal),
// with the built aayu on PATH. Beyond what each command says it shows, it
// checks what the README says lands on GitHub: the runner's start line,
// the gate's comment naming the attestation, the authoritative pack and
// ship.json on the ledger, and the Story labelled status:merged.
func TestReadmeFirstStory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the merge gate's go test on a standalone sandbox")
	}
	blocks := readmeWalkthrough(t)
	bin := buildAayu(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	env := walkEnv(t, bin)

	first := openTerminal(t, env)
	sandboxStep := blocks[0][0]
	first.typeLine(strings.ReplaceAll(sandboxStep.text, readmeAddr, addr))
	for _, s := range sandboxStep.shows {
		first.waitLine(linePattern(strings.ReplaceAll(s, readmeAddr, addr)), e2eWait)
	}
	t.Cleanup(first.interrupt) // Ctrl-C stops it, as the README says

	second := openTerminal(t, env)
	for _, block := range blocks[1:] {
		for _, s := range block {
			if s.wait {
				// All of the line but its end, then its end: a run that
				// failed says so at once instead of running out the wait.
				pat := strings.ReplaceAll(s.text, readmeAddr, addr)
				cut := strings.LastIndex(pat, "…")
				line := first.waitLine(linePattern(pat[:cut]), 4*time.Minute)
				if !linePattern(pat[cut:]).MatchString(line) {
					t.Fatalf("the first terminal logged %q, which the README says ends %q:\n%s", line, pat[cut:], first.out.String())
				}
				continue
			}
			cmd := strings.ReplaceAll(s.text, readmeAddr, addr)
			code, out := second.run(cmd, addr)
			if code != s.exit {
				t.Fatalf("the README's\n%s\nexited %d, the README says %d; it printed:\n%s", s.text, code, s.exit, out)
			}
			for _, want := range s.shows {
				if !linePattern(strings.ReplaceAll(want, readmeAddr, addr)).MatchString(out) {
					t.Errorf("the README's\n%s\ndid not show %q; it printed:\n%s", s.text, want, out)
				}
			}
		}
	}
	walkthroughLanded(t, "http://"+addr, first.out.String())
}

// walkthroughLanded checks what the README's prose says the walkthrough
// leaves on GitHub, for its Story #2 and pull request #3.
func walkthroughLanded(t *testing.T, base, sandboxLog string) {
	t.Helper()
	const story, pr = 2, 3
	gh := ghAs(t, base, "sandbox-founder")
	ctx := context.Background()
	p, _, err := gh.PullRequests.Get(ctx, "acme", "fresh", pr)
	if err != nil {
		t.Fatal(err)
	}
	head := p.GetHead().GetSHA()
	if !regexp.MustCompile(fmt.Sprintf(`runner: run \d+ for fresh#%d at %s started`, pr, head[:12])).MatchString(sandboxLog) {
		t.Errorf("the first terminal does not log the run's start on %s:\n%s", head[:12], sandboxLog)
	}
	comments, _, err := gh.Issues.ListComments(ctx, "acme", "fresh", pr, nil)
	if err != nil {
		t.Fatal(err)
	}
	gate := ""
	for _, c := range comments {
		if c.GetUser().GetLogin() == sandbox.ActionsBotLogin {
			gate = c.GetBody()
		}
	}
	if !strings.Contains(gate, head[:7]) || !attestedLine.MatchString(gate) ||
		!strings.Contains(gate, "signed by `https://github.com/acme/fresh/.github/workflows/aayudha-merge-gate.yml@refs/heads/main`") {
		t.Errorf("the gate's comment on #%d does not name %s and the attestation that signs its pack:\n%s", pr, head[:7], gate)
	}
	ledger := func(p string) string {
		fc, _, _, err := gh.Repositories.GetContents(ctx, "acme", "fresh", p, &github.RepositoryContentGetOptions{Ref: "ledger"})
		if err != nil || fc == nil {
			return ""
		}
		s, _ := fc.GetContent()
		return s
	}
	dir := fmt.Sprintf("proof/%d/%s/authoritative/", story, head)
	var pack struct {
		Authority struct {
			Kind string `json:"kind"`
		} `json:"authority"`
		PR int `json:"pr"`
	}
	if err := json.Unmarshal([]byte(ledger(dir+"pack.json")), &pack); err != nil || pack.Authority.Kind != "authoritative" || pack.PR != pr {
		t.Errorf("the ledger's %spack.json is not #%d's authoritative pack (%v): %+v", dir, pr, err, pack)
	}
	if ledger(dir+"ship.json") == "" {
		t.Errorf("no ship.json in the ledger's %s", dir)
	}
	is, _, err := gh.Issues.Get(ctx, "acme", "fresh", story)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, l := range is.Labels {
		labels = append(labels, l.GetName())
	}
	if !slices.Contains(labels, "status:merged") {
		t.Errorf("Story #%d's labels after ship: %v, want status:merged", story, labels)
	}
}

// walkEnv is both terminals' environment: a clean HOME, the built aayu on
// PATH as aayu, and plain lines (TERM=dumb, the README's screen-reader
// twin, so the output can be read). The Go build cache is the test's own:
// the sandbox's runner runs go test, and a cold cache would rebuild the
// standard library; it holds no state of aayu's. Git never prompts: a
// refused clone fails instead of waiting.
func walkEnv(t *testing.T, bin string) []string {
	t.Helper()
	home := t.TempDir()
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	goenv := strings.Fields(string(out))
	return []string{
		"HOME=" + home, "PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"TERM=dumb", "GIT_TERMINAL_PROMPT=0", "GOCACHE=" + goenv[0], "GOMODCACHE=" + goenv[1],
	}
}

// walkTerminal is an interactive bash on a pty of its own, as a person's
// terminal window: aliases, exports and cd last from one command to the
// next, and aayu finds a terminal on its standard input.
type walkTerminal struct {
	t   *testing.T
	pty *os.File
	cmd *exec.Cmd
	out *lockedBuffer
}

// promptMark is what the terminal prints after each command, with its
// exit status, so the test knows the command ended.
var promptMark = regexp.MustCompile(`@@walk (\d+)@@\n`)

func openTerminal(t *testing.T, env []string) *walkTerminal {
	t.Helper()
	master, slave := openPty(t)
	cmd := exec.Command("bash", "--norc", "--noprofile", "--noediting", "-i")
	cmd.Env, cmd.Dir = env, t.TempDir()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	w := &walkTerminal{t: t, pty: master, cmd: cmd, out: &lockedBuffer{}}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			if n > 0 {
				_, _ = w.out.Write([]byte(strings.ReplaceAll(string(buf[:n]), "\r", "")))
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		master.Close()
	})
	// No echo (so a command's own comment is never read as its output),
	// no prompt but the mark.
	w.typeLine(`stty -echo; PS1=; PS2=; PROMPT_COMMAND='printf "\n@@walk %d@@\n" $?'`)
	w.waitMark(0, e2eWait)
	return w
}

func (w *walkTerminal) typeLine(s string) {
	w.t.Helper()
	if _, err := w.pty.Write([]byte(s + "\n")); err != nil {
		w.t.Fatal(err)
	}
}

// waitMark waits for the prompt mark after offset and returns its exit
// status and where it ends.
func (w *walkTerminal) waitMark(from int, d time.Duration) (int, int) {
	w.t.Helper()
	for deadline := time.Now().Add(d); ; time.Sleep(20 * time.Millisecond) {
		s := w.out.String()
		if m := promptMark.FindStringSubmatchIndex(s[from:]); m != nil {
			code, _ := strconv.Atoi(s[from+m[2] : from+m[3]])
			return code, from + m[1]
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the terminal's command did not end within %s:\n%s", d, s[from:])
		}
	}
}

// run types one command and answers as the README tells the reader to: a
// device code approved at its link as founder, each question answered y.
// It returns the exit status and what the command printed.
func (w *walkTerminal) run(command, addr string) (int, string) {
	w.t.Helper()
	from := len(w.out.String())
	w.typeLine(command)
	device := regexp.MustCompile(deviceCodeLine)
	approved, answered := map[string]bool{}, 0
	for deadline := time.Now().Add(e2eWait); ; time.Sleep(50 * time.Millisecond) {
		s := w.out.String()[from:]
		if m := promptMark.FindStringSubmatchIndex(s); m != nil {
			code, _ := strconv.Atoi(s[m[2]:m[3]])
			return code, s[:m[0]]
		}
		for _, m := range device.FindAllStringSubmatch(s, -1) {
			if !approved[m[2]] && strings.Contains(m[1], addr) {
				approved[m[2]] = true
				w.t.Logf("approving the device code of %q as founder", command)
				approveOnSandbox(w.t, m[1], m[2], "founder")
			}
		}
		if n := strings.Count(s, "Type y"); n > answered {
			answered = n
			w.t.Logf("answering y to %q", command)
			w.typeLine("y")
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the README's\n%s\ndid not end within %s; it printed:\n%s", command, e2eWait, s)
		}
	}
}

// waitLine waits for a line of the terminal's output matching pat and
// returns it.
func (w *walkTerminal) waitLine(pat *regexp.Regexp, d time.Duration) string {
	w.t.Helper()
	for deadline := time.Now().Add(d); ; time.Sleep(100 * time.Millisecond) {
		for _, line := range strings.Split(w.out.String(), "\n") {
			if pat.MatchString(line) {
				return line
			}
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the first terminal never printed %q within %s:\n%s", pat, d, w.out.String())
		}
	}
}

// interrupt is Ctrl-C on the terminal: the sandbox saves its state and
// stops.
func (w *walkTerminal) interrupt() {
	from := len(w.out.String())
	_, _ = w.pty.Write([]byte{3})
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if promptMark.MatchString(w.out.String()[from:]) {
			return
		}
	}
}

// openPty opens a pseudo-terminal pair with the standard library alone:
// /dev/ptmx, unlocked, its peer under /dev/pts, 200 columns wide so no
// line the README quotes wraps.
func openPty(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	var n uint32
	var unlock int32
	ws := struct{ rows, cols, x, y uint16 }{50, 200, 0, 0}
	raw, err := master.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var errno syscall.Errno
	if err := raw.Control(func(fd uintptr) {
		if _, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); errno != 0 {
			return
		}
		if _, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
			return
		}
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws)))
	}); err != nil || errno != 0 {
		t.Fatalf("setting up the pseudo-terminal: %v %v", err, errno)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return master, slave
}
