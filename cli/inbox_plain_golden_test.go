package cli

import (
	"regexp"
	"testing"

	xgolden "github.com/charmbracelet/x/exp/golden"

	"github.com/aayudha/aayu/tui"
)

// TestInboxPlainOneSessionGolden is the plain twin of the tmux session in
// TestTmuxOneProgramInboxShipPackBack: one transcript, one input stream.
// The inbox opens ship on the ready card, y ships it, the inbox goes on
// at the next card, p shows a card's Story's pack, and q quits. What
// changes from run to run (times, hashes, ports, codes, ids) is replaced
// by a placeholder; everything else is compared line by line.
func TestInboxPlainOneSessionGolden(t *testing.T) {
	t.Parallel()
	a := shipFromPlainInbox(t, t.TempDir())
	a.waitFor(`card 4 of \d+: PR that needs your review #6\. Choose`)
	a.send("s")
	a.waitFor(`card 5 of \d+: PR whose review stopped #8\. Choose`)
	a.send("p")
	a.waitFor(`Back from the pack screen for Story #7\.`)
	a.send("q")
	// The pack viewer of Story #7 said "does not verify", but the person
	// only looked at it: the run exits with what they did (the ship
	// landed), 0, and the summary still names the pack's own result.
	if code := a.exit(); code != tui.ExitOK {
		t.Fatalf("exit %d, want 0: a pack looked at sets no exit code:\n%s", code, a.out.String())
	}
	xgolden.RequireEqual(t, scrubRun(a.out.String()))
}

// scrubRun replaces what differs between two runs of the same session.
func scrubRun(s string) string {
	for _, r := range []struct{ re, with string }{
		{`http://127\.0\.0\.1:\d+`, "http://SANDBOX"},
		{`\b[A-Z0-9]{4}-[A-Z0-9]{4}\b`, "CODE-CODE"},
		{`\b[0-9a-f]{40}\b`, "SHA40"},
		{`\b[0-9a-f]{12}\b`, "SHA12"},
		{`\b[0-9a-f]{64}\b`, "SHA256"},
		{`\d{2}:\d{2}:\d{2} UTC`, "HH:MM:SS UTC"},
		{`at \d{2}:\d{2} UTC`, "at HH:MM UTC"},
		{`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z`, "TIMESTAMP"},
		{`issuecomment-\d+`, "issuecomment-ID"},
		{`run \d{8,}`, "run ID"},
		{`expires in \d+ (minutes|seconds)`, "expires in N $1"},
		{`in /\S+/aayu/actions`, "in STATE/aayu/actions"},
	} {
		s = regexp.MustCompile(r.re).ReplaceAllString(s, r.with)
	}
	return s
}
