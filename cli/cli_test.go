package cli

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/aayudha/aayu/tui"
)

// TestUsageErrorIsOneLineWithHint refuses to bury a mistake under the whole
// usage text: one line naming it, and where to read more.
func TestUsageErrorIsOneLineWithHint(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--foo"}, "aayu: unknown flag --foo. Run aayu --help for usage.\n"},
		{[]string{"ship"}, "aayu: aayu ship needs one argument, PR. Run aayu ship --help for usage.\n"},
	} {
		code, out, errOut := runAayu(t, tc.args...)
		if code != tui.ExitUsage {
			t.Errorf("aayu %v: exit %d, want %d", tc.args, code, tui.ExitUsage)
		}
		if errOut != tc.want || out != "" {
			t.Errorf("aayu %v printed stdout %q, stderr %q; want only %q", tc.args, out, errOut, tc.want)
		}
	}
	code, out, _ := runAayu(t, "--help")
	if code != tui.ExitOK || !strings.Contains(out, "USAGE") {
		t.Errorf("--help: exit %d, %q; want the usage text", code, out)
	}
}

// TestSandboxResetExits: --reset seeds the demo again and gives the
// terminal back instead of serving until Ctrl-C.
func TestSandboxResetExits(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	// e2eWait, the package's one deadline: seeding the demo beside other
	// tests under -race on a busy machine ran past 60 s.
	ctx, cancel := context.WithTimeout(context.Background(), e2eWait)
	defer cancel()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"sandbox", "--reset", "--addr", "127.0.0.1:0"}, env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
		getenv: func(k string) string { return map[string]string{"HOME": home}[k] },
	})
	if ctx.Err() != nil {
		t.Fatal("aayu sandbox --reset did not exit on its own")
	}
	if code != tui.ExitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errb.String())
	}
	if !strings.Contains(out.String(), "reset to the demo repository") || strings.Contains(out.String(), "serving") {
		t.Errorf("stdout = %q, want the reset said and nothing served", out.String())
	}
}

// TestNoColorDropsColourOnly: NO_COLOR keeps the full screen and draws it
// without colour; plain lines stay for --plain, TERM=dumb and no terminal.
func TestNoColorDropsColourOnly(t *testing.T) {
	t.Parallel()
	getenv := func(k string) string { return map[string]string{"NO_COLOR": "1", "TERM": "xterm-256color"}[k] }
	plain, why := tui.DecidePlain(false, false, getenv, true)
	if plain {
		t.Fatalf("NO_COLOR switched to plain lines (%s)", why)
	}
	opts := runOptions(tui.Invocation{}, env{getenv: getenv}, tui.Common{})
	if opts.Plain || opts.ColorProfile != colorprofile.Ascii {
		t.Errorf("runOptions with NO_COLOR = plain %v, profile %v; want the full screen without colour", opts.Plain, opts.ColorProfile)
	}
	opts = runOptions(tui.Invocation{}, env{getenv: func(string) string { return "" }}, tui.Common{})
	if opts.ColorProfile != colorprofile.Unknown {
		t.Errorf("without NO_COLOR the profile is forced to %v", opts.ColorProfile)
	}
}

// TestSandboxBotServesTheBotDemo: aayu sandbox --bot serves the demo with
// a bot identity and its App (so a reply can approve a batch there), in a
// state dir of its own beside the solo demo's.
func TestSandboxBotServesTheBotDemo(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	// e2eWait, the package's one deadline: seeding the demo beside other
	// tests under -race on a busy machine ran past 60 s.
	ctx, cancel := context.WithTimeout(context.Background(), e2eWait)
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"sandbox", "--bot", "--addr", "127.0.0.1:0"}, env{
			stdin: strings.NewReader(""), stdout: pw, stderr: io.Discard,
			getenv: func(k string) string { return map[string]string{"HOME": home}[k] },
		})
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var url string
	var said []string
	for sc.Scan() {
		l := sc.Text()
		said = append(said, l)
		if u, ok := strings.CutPrefix(l, "sandbox GitHub serving acme/benefits at "); ok {
			url = u
		}
		if strings.HasPrefix(l, "state kept in") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if url == "" {
		t.Fatalf("aayu sandbox --bot never said where it serves:\n%s", strings.Join(said, "\n"))
	}
	if !strings.Contains(strings.Join(said, "\n"), "sandbox-bot") || !strings.Contains(strings.Join(said, "\n"), "Approve batch HASH") {
		t.Errorf("aayu sandbox --bot does not say its own state dir and what a reply does:\n%s", strings.Join(said, "\n"))
	}
	req, _ := http.NewRequest("GET", url+"/repos/acme/benefits/contents/.aayudha/config.toml?ref=dev", nil)
	req.Header.Set("Authorization", "Bearer sandbox-founder")
	req.Header.Set("Accept", "application/vnd.github.raw+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `app_slug = "agent-bot"`) {
		t.Errorf("the --bot demo's config has no bot identity (%d):\n%s", resp.StatusCode, body)
	}
	cancel()
	<-done
}
