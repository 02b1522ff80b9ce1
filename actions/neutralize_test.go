package actions

import (
	"context"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/google/go-github/v66/github"
)

// liveBytes are what must never reach GitHub from untrusted text: ESC (and
// with it OSC 52 and OSC 8), BEL, C1 controls raw or UTF-8, and the bidi
// overrides and isolates.
func liveBytes(s string) []string {
	var found []string
	for _, r := range s {
		switch {
		case r == 0x1b, r == 0x07, r == 0x7f, r == '\r', r < 0x20 && r != '\n':
			found = append(found, "C0")
		case r >= 0x80 && r <= 0x9f:
			found = append(found, "C1")
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			found = append(found, "bidi")
		}
	}
	if strings.Contains(s, "\x9b") || strings.Contains(s, "\x1b") {
		found = append(found, "raw")
	}
	return found
}

// TestHostileOptionTitleReachesGitHubNeutralised: an agent writes a
// Decision whose option title carries an OSC 52 clipboard write, a C1 CSI
// and a bidi override; accepting it posts the comment under the person's
// name, and the sandbox stores that comment with none of them live.
func TestHostileOptionTitleReachesGitHubNeutralised(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	ctx := context.Background()
	hostile := "Keep them \x1b]52;c;cm0gLXJmIH4=\x07in Go code\u009b2J \u202egnp.exe\u202c \x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\"
	body := "The tiers story (#14) needs a deductible per plan tier.\n\n## Options\n1. " + hostile + " (recommended)\n2. Load them from a YAML file at start-up\n\nDoor: two-way\n"
	if _, _, err := f.writer.Issues.Edit(ctx, owner, repo, sandbox.DemoDecision, &github.IssueRequest{Body: &body}); err != nil {
		t.Fatal(err)
	}
	st := f.step(inbox.KindDecision, sandbox.DemoDecision)
	out := f.exec.Execute(ctx, request(t, st, "1", ""))
	if !out.Done || out.Failure != nil {
		t.Fatalf("outcome %+v, failure %+v", out, out.Failure)
	}
	got := f.commentsBy(sandbox.DemoDecision, "founder")
	if len(got) != 1 {
		t.Fatalf("founder's comments: %q", got)
	}
	if live := liveBytes(got[0]); len(live) > 0 {
		t.Fatalf("the comment on GitHub carries live control text %v: %q", live, got[0])
	}
	for _, visible := range []string{"^[]52;c;cm0gLXJmIH4=^G", "<U+202E>", "^[[2J"} {
		if !strings.Contains(got[0], visible) {
			t.Errorf("the comment does not show %q for what was removed: %q", visible, got[0])
		}
	}
	// Accepting again finds the neutralised comment: nothing is doubled.
	if again := f.exec.Execute(ctx, request(t, st, "1", "")); again.Failure != nil {
		t.Fatalf("second accept failed: %+v", again.Failure)
	}
	if n := len(f.commentsBy(sandbox.DemoDecision, "founder")); n != 1 {
		t.Errorf("%d comments after a second accept, want 1", n)
	}
}

func TestNeutralizeKeepsLinesAndIsIdempotent(t *testing.T) {
	t.Parallel()
	in := "line one\nline\ttwo \u0085 \u2067x\u2069\r\nthree"
	once := Neutralize(in)
	if once != Neutralize(once) || strings.Count(once, "\n") != 2 || len(liveBytes(once)) != 0 {
		t.Fatalf("Neutralize(%q) = %q", in, once)
	}
}
