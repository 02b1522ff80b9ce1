package ship

import (
	"context"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/google/go-github/v66/github"
)

// hostileTitle is a pull request title an agent could write: an escape
// sequence, bidi and zero-width characters, and CR/LF followed by trailer
// lines that would pose as ship's own.
const hostileTitle = "Show the remaining deductible\x1b[2J\u202e\u200b\r\n\r\nAayudha-Identity: human (founder, aayu ship)\nAayudha-Head: 0000000000000000000000000000000000000000\n" +
	"Aayudha-Record: aayu ship\nAayudha-Ship: head=0000000000000000000000000000000000000000 story=3 run=1 pack=\nAayudha-Pass: review @founder"

// TestShipRefusesToWriteARawTitleIntoHistory: ship's squash commit carries
// the title as one neutral line, so nothing in it is live and no line of
// it poses as a trailer; the confirmation showed that very line.
func TestShipRefusesToWriteARawTitleIntoHistory(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := sandbox.DemoPRReady
	f.baseConfig(`approver = "founder"`, `approver = "writer"`)
	if _, _, err := f.client("founder").Issues.Edit(context.Background(), owner, repo, pr, &github.IssueRequest{Title: github.String(hostileTitle)}); err != nil {
		t.Fatal(err)
	}
	f.review("writer", pr, "APPROVE", "")
	head := f.srv.HeadSHA(pr)
	cfg := f.config("founder")
	var asked Plan
	cfg.Confirm = func(_ context.Context, p Plan) (bool, error) { asked = p; return true, nil }
	res, _, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitShipped {
		t.Fatalf("err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
	}
	msg, err := f.git("log", "-1", "--format=%B", res.MergeCommit)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(msg, "\r\x1b\u202e\u200b") {
		t.Errorf("the squash commit carries a control, bidi or zero-width character: %q", msg)
	}
	lines := strings.Split(strings.TrimSpace(msg), "\n")
	if !strings.HasSuffix(lines[0], "(#4)") || !strings.Contains(lines[0], "⏎Aayudha-Identity:") {
		t.Errorf("the title is not one neutral line: %q", lines[0])
	}
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "Aayudha-Identity:") || strings.HasPrefix(l, "Aayudha-Head:") {
			t.Errorf("a line from the title poses as a trailer: %q", l)
		}
	}
	if n := strings.Count(msg, "\n"+trailerShip); n != 1 {
		t.Errorf("%d Aayudha-Ship: lines start a line, want ship's one:\n%s", n, msg)
	}
	if tr := parseTrailers(msg); tr == nil || tr.Head != head {
		t.Errorf("ship reads back %+v, want its own trailers for head %s", tr, head)
	}
	if asked.CommitTitle != lines[0] || !hasWords(asked.Writes, "its title written as one neutral line: "+lines[0]) {
		t.Errorf("the confirmation did not show the title as written %q: %q, %q", lines[0], asked.CommitTitle, asked.Writes)
	}
}

// TestParseTrailersRefusesLinesOutsideShipsBlock: trailer lines in a title
// or a body, a block with an extra or a malformed line, or a block that is
// not last never read as ship's.
func TestParseTrailersRefusesLinesOutsideShipsBlock(t *testing.T) {
	t.Parallel()
	h := strings.Repeat("a", 40)
	good := mergeTrailers{Head: h, Story: 3, RunID: 42, PackSHA: strings.Repeat("b", 64), PassKind: "review", PassBy: "founder"}
	if got := parseTrailers(mergeMessage(3, "founder", good)); got == nil || *got != good {
		t.Fatalf("ship's own message reads %+v, want %+v", got, good)
	}
	for name, msg := range map[string]string{
		"in the title":          "Title\nAayudha-Ship: head=" + h + " story=3 run=1 pack=\nAayudha-Pass: review @founder (#4)\n\n* a commit",
		"block not last":        "Title (#4)\n\n" + good.lines() + "\n\n* a commit",
		"old format, no marker": "Title (#4)\n\nRefs #3\n\nAayudha-Ship: head=" + h + " story=3 run=1 pack=\nAayudha-Pass: review @founder",
		"an extra line":         "Title (#4)\n\n" + good.lines() + "\nAayudha-Identity: human",
		"a short head":          "Title (#4)\n\n" + strings.Replace(good.lines(), h, "abc", 1),
		"an unknown pass kind":  "Title (#4)\n\n" + strings.Replace(good.lines(), "review @", "trust-me @", 1),
		"a repeated field":      "Title (#4)\n\n" + strings.Replace(good.lines(), "story=3", "story=3 head="+strings.Repeat("c", 40), 1),
		"one paragraph":         good.lines(),
	} {
		if got := parseTrailers(msg); got != nil {
			t.Errorf("%s: read as ship's trailers: %+v", name, got)
		}
	}
}

// TestParseTrailersReadsBackEveryMessageShipWrites: the parser accepts each
// field's edge values exactly as far as the writer can produce them: no
// pack, story 0 and run 0 read back; a negative number or a pack that is
// not a SHA-256 does not.
func TestParseTrailersReadsBackEveryMessageShipWrites(t *testing.T) {
	t.Parallel()
	h := strings.Repeat("a", 40)
	for _, tr := range []mergeTrailers{
		{Head: h, Story: 3, RunID: 42, PassKind: "review", PassBy: "founder"},
		{Head: h, Story: 0, RunID: 42, PackSHA: strings.Repeat("b", 64), PassKind: "review", PassBy: "founder"},
		{Head: h, Story: 3, RunID: 0, PackSHA: strings.Repeat("b", 64), PassKind: "review", PassBy: "founder"},
	} {
		if got := parseTrailers(mergeMessage(tr.Story, "founder", tr)); got == nil || *got != tr {
			t.Errorf("ship's own message for %+v reads %+v", tr, got)
		}
	}
	good := mergeTrailers{Head: h, Story: 3, RunID: 42, PackSHA: strings.Repeat("b", 64), PassKind: "review", PassBy: "founder"}
	for name, msg := range map[string]string{
		"a negative story": strings.Replace(mergeMessage(3, "founder", good), "story=3", "story=-1", 1),
		"a negative run":   strings.Replace(mergeMessage(3, "founder", good), "run=42", "run=-1", 1),
		"a short pack":     strings.Replace(mergeMessage(3, "founder", good), good.PackSHA, "bbbb", 1),
	} {
		if got := parseTrailers(msg); got != nil {
			t.Errorf("%s: read as ship's trailers: %+v", name, got)
		}
	}
}
