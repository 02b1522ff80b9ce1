package e2e

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/tui"
)

// TestHugeAnswerRefusedThroughTheBinary: a server that streams a 600 MB
// JSON answer to every request; aayu inbox --list stops at the 32 MiB cap
// and says so, instead of reading it all.
func TestHugeAnswerRefusedThroughTheBinary(t *testing.T) {
	// Not parallel: see serialTests.
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/user" {
			// One endless answer is the attack; the inbox's other reads,
			// in flight at once, answer at once, so the run is one 32 MiB
			// read and not seven (under -race on two loaded cores seven
			// ran past aayu's 2-minute request timeout).
			http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
			return
		}
		_, _ = w.Write([]byte("["))
		for i := 0; i < 600; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	start := time.Now()
	code, out, errOut := runAayuEnv(t, map[string]string{"AAYU_GITHUB_TOKEN": "ghp_hostile-server-test"},
		"--plain", "--api-url", srv.URL+"/", "--repo", "acme/benefits", "inbox", "--list")
	if code != tui.ExitFailed || !strings.Contains(out+errOut, "grew past the 32 MiB aayu reads for it") {
		t.Fatalf("exit %d, want 1 naming the cap:\n%s%s", code, out, errOut)
	}
	if strings.Contains(out+errOut, "ghp_hostile-server-test") {
		t.Fatal("the token was shown")
	}
	t.Logf("refused in %v", time.Since(start))
}

// TestHostileUserConfigRefusedFast: a 1 MB user config file of nested
// inline tables is refused, naming the file, before any parser runs.
func TestHostileUserConfigRefusedFast(t *testing.T) {
	// Not parallel: see serialTests.
	home := t.TempDir()
	file := filepath.Join(home, ".config", "aayu", "config.toml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	doc := "[ui]\nplain = " + strings.Repeat("{a=", 1<<18) + "1" + strings.Repeat("}", 1<<18)
	if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	vars, args := map[string]string{"HOME": home}, []string{"--sandbox", "inbox", "--list"}
	// The helpers' copy of the seeded demo is set-up, made before the
	// clock starts: the bound is on aayu refusing the file.
	seedSandboxCache(vars, args)
	start := time.Now()
	code, _, errOut := runAayuEnv(t, vars, args...)
	took := time.Since(start)
	if code != tui.ExitUsage || !strings.Contains(errOut, file) || !strings.Contains(errOut, "256 KiB") {
		t.Fatalf("exit %d, want 2 naming the file and the limit:\n%s", code, errOut)
	}
	if took > 500*time.Millisecond {
		t.Errorf("refusing the file took %v", took)
	}
}

// TestHostileDemoItemNeutralisedInTheInboxList: the demo's Decision #2
// (the second card, so not a newcomer's first sight) carries a screen clear, an OSC 52 clipboard write, a C1 CSI, a bidi
// override and a zero-width space in its title and an option; the real
// binary's inbox list shows each of them visibly and obeys none.
func TestHostileDemoItemNeutralisedInTheInboxList(t *testing.T) {
	t.Parallel()
	code, out, errOut := runAayuEnv(t, map[string]string{"HOME": t.TempDir()}, "--sandbox", "--plain", "inbox", "--list")
	if code != tui.ExitOK {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"Decision #2 (needs you): Decision: stop answering questions^[[2J", "^[]52;c;cm0gLXJmIH4=^G", "<U+202E>", "<U+200B>", "^[[6n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the list does not show %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "Decision #1 (needs you): Decision: keep deductible tables in Go code or load them from data\n") {
		t.Errorf("the first card is not the plain Decision #1:\n%s", out)
	}
	for i, r := range out + errOut {
		if r == 0x1b || r == 0x07 || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200b {
			t.Fatalf("the output holds %U at byte %d:\n%q", r, i, out)
		}
	}
}
