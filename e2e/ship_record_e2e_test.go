package e2e

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// TestShipRefusesARawTitleInHistoryThroughTheBinary: a pull request whose
// title carries an escape sequence, bidi and zero-width characters, and
// CR/LF with fake trailer lines is shipped through the binary; the
// confirmation shows the title as it will be written, and dev's squash
// commit holds it as one neutral line, with no line posing as a trailer.
func TestShipRefusesARawTitleInHistoryThroughTheBinary(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	// With a bot identity the founder's review of the bot's #4 is the pass,
	// so the test reaches the merge without the bypass's presence check.
	srv, err := newSandbox(sandbox.Options{StateDir: filepath.Join(home, ".cache", "aayu", "sandbox"), BotIdentity: true})
	if err != nil {
		t.Fatal(err)
	}
	u, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	founder, err := ghx.NewClient(ghx.ClientOptions{APIURL: u + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"founder", "test")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	title := "Show the remaining deductible\x1b[2J\u202e\u200b\r\n\r\nAayudha-Identity: human (founder, aayu ship)\nAayudha-Head: " + srv.HeadSHA(4)
	if _, _, err := founder.Issues.Edit(ctx, "acme", "benefits", 4, &github.IssueRequest{Title: github.String(title)}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := founder.PullRequests.CreateReview(ctx, "acme", "benefits", 4, &github.PullRequestReviewRequest{
		CommitID: github.String(srv.HeadSHA(4)), Event: github.String("APPROVE")}); err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}

	code, out := shipWithoutTerminal(t, home, "founder", "y", "4")
	if code != tui.ExitOK {
		t.Fatalf("ship 4 exited %d:\n%s", code, out)
	}
	if !strings.Contains(out, "its title written as one neutral line: Show the remaining deductible^[[2J<U+202E><U+200B>⏎⏎Aayudha-Identity:") {
		t.Errorf("the confirmation does not show the title as it will be written:\n%s", out)
	}
	git := filepath.Join(home, ".cache", "aayu", "sandbox", "benefits.git")
	msg, err := runCmd("git", "--git-dir", git, "log", "-1", "--format=%B", "dev")
	if err != nil {
		t.Fatalf("git log: %v\n%s", err, msg)
	}
	if strings.ContainsAny(msg, "\r\x1b\u202e\u200b") {
		t.Errorf("dev's squash commit carries a control, bidi or zero-width character: %q", msg)
	}
	for _, l := range strings.Split(msg, "\n")[1:] {
		if strings.HasPrefix(l, "Aayudha-Identity:") || strings.HasPrefix(l, "Aayudha-Head:") {
			t.Errorf("a line of the title poses as a trailer in dev's history: %q", l)
		}
	}
}
