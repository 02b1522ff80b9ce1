package e2e

import (
	"context"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/untrusted"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/tui"
)

// decideWithoutTerminal runs `aayu --sandbox --plain decide ARGS…` as a
// person with no terminal: the presence check, when it comes (only once
// the reads found something to write), is approved on the sandbox's device
// page as founder, then the question (if it comes) is answered.
func decideWithoutTerminal(t *testing.T, home, answer string, args ...string) (int, string) {
	t.Helper()
	a := startAayu(t, map[string]string{"HOME": home}, append([]string{"--sandbox", "--plain", "decide"}, args...)...)
	if m := a.waitFor(deviceCodeLine + `|result: exit \d`); m[1] != "" {
		approveOnSandbox(t, m[1], m[2], "founder")
	}
	a.waitFor(`Type y and Enter to accept|result: exit \d`)
	if answer != "" && strings.Contains(a.out.String(), "Type y and Enter") {
		a.send(answer)
	}
	a.waitFor(`result: exit \d`)
	return a.exit(), a.out.String()
}

func decideComments(t *testing.T, c *github.Client, n int) []string {
	t.Helper()
	cs, _, err := c.Issues.ListComments(context.Background(), "acme", "benefits", n, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, cm := range cs {
		out = append(out, "@"+cm.GetUser().GetLogin()+": "+cm.GetBody())
	}
	return out
}

func decidedState(t *testing.T, c *github.Client, n int) string {
	t.Helper()
	is, _, err := c.Issues.Get(context.Background(), "acme", "benefits", n)
	if err != nil {
		t.Fatal(err)
	}
	return is.GetState() + "/" + is.GetStateReason()
}

// TestDecideAcceptsTwoDecisionsOnTheSandbox: `aayu decide 1,2 --accept 1,2`
// on the demo makes the inbox's writes for each (the comment, status:accepted
// in place of status:proposed, closed as completed), after the inbox's own
// confirmation for #2's pick (not the recommendation, and a one-way door);
// the actions log names each as decide with the note. The same command
// again is refused: neither waits any more.
func TestDecideAcceptsTwoDecisionsOnTheSandbox(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	code, out := decideWithoutTerminal(t, home, "y", "1,2", "--accept", "1,2", "--note", "cheapest to reverse")
	if code != tui.ExitOK || !strings.Contains(out, "/login/device") {
		t.Fatalf("exit %d, want 0 after the presence check and the yes:\n%s", code, out)
	}
	for _, want := range []string{"not the recommendation (accept option 1: Keep answering 2024 questions until March), and a one-way door: it cannot be undone later",
		"done: Decision #1, option 1 accepted.", "done: Decision #2, option 2 accepted."} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsRune(out, 0x1b) {
		t.Errorf("the hostile Decision's title reached the output raw")
	}
	c := sandboxState(t, home)
	for n, accepted := range map[int]string{1: "Accepted option 1 (Keep them in Go code, reviewed like any change) by @founder",
		// Decision #2 is the demo's hostile item: the comment carries its
		// option as aayu writes any untrusted field, shown and never obeyed.
		2: "Accepted option 2 (" + untrusted.Line(sandbox.HostileDecisionOption) + ") by @founder"} {
		if st := decidedState(t, c, n); st != "closed/completed" {
			t.Errorf("#%d is %s, want closed as completed", n, st)
		}
		labels := labelsOf(t, c, n)
		if !contains(labels, "status:accepted") || contains(labels, "status:proposed") {
			t.Errorf("#%d's labels: %v", n, labels)
		}
		found := 0
		for _, cm := range decideComments(t, c, n) {
			if cm == "@founder: "+accepted {
				found++
			}
		}
		if found != 1 {
			t.Errorf("#%d carries %d comments %q: %v", n, found, accepted, decideComments(t, c, n))
		}
	}
	closeSandboxes(t)
	logs, _ := filepath.Glob(filepath.Join(home, ".local", "state", "aayu", "actions", "*.jsonl"))
	var log strings.Builder
	for _, p := range logs {
		b, _ := os.ReadFile(p)
		log.Write(b)
	}
	for _, want := range []string{`"command":"decide 1 --accept 1"`, `"command":"decide 2 --accept 2"`, `"note":"cheapest to reverse"`} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the actions log lacks %s:\n%s", want, log.String())
		}
	}

	code, out = decideWithoutTerminal(t, home, "y", "1,2", "--accept", "1,2")
	if code != tui.ExitRefused || !strings.Contains(out, "refused: Decision #1 is closed, so it waits for no decision") || strings.Contains(out, "/login/device") {
		t.Fatalf("the same command again: exit %d, want 4 with no code asked:\n%s", code, out)
	}
}

// TestDecideInAnAgentLaneBecomesABatch: a host's agent marker is not
// refused but gets a batch for the person (approvals from anywhere): on
// the solo demo it is posted under the person's token (the
// human-fallback), with a device code in the comment. Cancelled on the
// device page, nothing is applied and #1 stays open. --dry-run is allowed
// and writes nothing.
func TestDecideInAnAgentLaneBecomesABatch(t *testing.T) {
	t.Parallel()
	for _, marker := range []string{"CLAUDECODE", "AMP_THREAD_ID"} {
		home := t.TempDir()
		a := startAayu(t, map[string]string{"HOME": home, marker: "1"}, "--sandbox", "--plain", "decide", "1", "--accept", "1")
		m := a.waitFor(`Batch ([0-9a-f]{12}): 1 human-only step for @founder, posted as @founder on #1: (http://127\.0\.0\.1:\d+)/`)
		a.waitFor(`Waiting for @founder to approve the device code`)
		var code string
		for _, c := range decideComments(t, clientAt(t, m[2], "founder"), 1) {
			if d := deviceInComment.FindStringSubmatch(c); d != nil && strings.Contains(c, "batch "+m[1]) {
				code = d[2]
			}
		}
		if code == "" {
			t.Fatalf("%s: no device code in the batch comment", marker)
		}
		resp, err := http.PostForm(m[2]+"/login/device", url.Values{"user_code": {code}, "login": {"founder"}, "action": {"cancel"}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		a.waitFor(`Not applied: .*Batch ` + m[1] + ` stays open`)
		if got := a.exit(); got != tui.ExitRefused {
			t.Fatalf("%s: a cancelled code exited %d:\n%s", marker, got, a.out.String())
		}
		if strings.Contains(a.out.String(), code) {
			t.Errorf("%s: the device code reached the agent's output", marker)
		}
		rc, out, errOut := runAayuEnv(t, map[string]string{"HOME": home, marker: "1"}, "--sandbox", "--dry-run", "decide", "1", "--accept", "2")
		if rc != tui.ExitOK || !strings.Contains(out, "--dry-run: nothing was written.") {
			t.Fatalf("%s --dry-run: exit %d:\n%s%s", marker, rc, out, errOut)
		}
		c := sandboxState(t, home)
		if st := decidedState(t, c, 1); st != "open/" {
			t.Errorf("%s: #1 is %s after a cancelled batch and a dry run", marker, st)
		}
		closeSandboxes(t)
	}
}

// TestNextNamesTheInbox: on the demo, aayu next prints one line naming the
// inbox with the count inbox --list reads; --list names each card's
// command.
func TestNextNamesTheInbox(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	code, out, errOut := runAayuEnv(t, map[string]string{"HOME": home}, "--sandbox", "next")
	m := regexp.MustCompile(`^Waiting in your inbox: (\d+) steps \(\d+ need you, \d+ housekeeping\) — run aayu inbox\n$`).FindStringSubmatch(out)
	if code != tui.ExitOK || m == nil {
		t.Fatalf("exit %d:\n%q%s", code, out, errOut)
	}
	code, list, errOut := runAayuEnv(t, map[string]string{"HOME": home}, "--sandbox", "inbox", "--list")
	if code != tui.ExitOK || !strings.Contains(list, m[1]+" steps wait:") {
		t.Fatalf("--list: exit %d, does not count %s steps:\n%s%s", code, m[1], list, errOut)
	}
	for _, want := range []string{"  run: aayu decide 1 --accept 1\n", "  run: aayu decide 2 --accept 1\n", "  run: aayu ship 4 --solo-bypass\n"} {
		if !strings.Contains(list, want) {
			t.Errorf("--list does not name %q:\n%s", want, list)
		}
	}
}

// TestDecideWithoutYesWritesNothing: a pick that asks (#2's option 2: not
// the recommendation, a one-way door) answered with anything but y writes
// nothing, exit 4, and #2 still waits.
func TestDecideWithoutYesWritesNothing(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	code, out := decideWithoutTerminal(t, home, "n", "2", "--accept", "2")
	if code != tui.ExitRefused || !strings.Contains(out, "answer: no; nothing was written.") {
		t.Fatalf("exit %d, want 4:\n%s", code, out)
	}
	c := sandboxState(t, home)
	if st := decidedState(t, c, 2); st != "open/" {
		t.Errorf("#2 is %s after a no", st)
	}
	if labels := labelsOf(t, c, 2); contains(labels, "status:accepted") {
		t.Errorf("#2's labels after a no: %v", labels)
	}
}
