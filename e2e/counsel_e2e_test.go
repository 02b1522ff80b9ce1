package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/cli"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// counselAt runs `aayu counsel ARGS…` in-process against the sandbox at
// url as the sandbox account login (its token in AAYU_GITHUB_TOKEN), with
// stdin as standard input.
func counselAt(t *testing.T, url, login string, args ...string) (int, string, string) {
	t.Helper()
	vars := map[string]string{"AAYU_GITHUB_TOKEN": sandbox.TokenPrefix + login}
	return runAayuEnv(t, vars, append([]string{"--plain", "--api-url", url + "/", "--repo", "acme/benefits", "counsel"}, args...)...)
}

// decisionCardCounsel is the counsel field of Decision #n's card in the
// founder's `aayu inbox --json`, read afresh (a new HOME: no cached read).
func decisionCardCounsel(t *testing.T, url string, n int) string {
	t.Helper()
	code, out, errOut := runAayuEnv(t, map[string]string{"AAYU_GITHUB_TOKEN": sandbox.TokenPrefix + "founder"},
		"--api-url", url+"/", "--repo", "acme/benefits", "inbox", "--json", "number,kind,counsel")
	if code != tui.ExitOK {
		t.Fatalf("inbox --json: exit %d\n%s%s", code, out, errOut)
	}
	var cards []map[string]any
	if err := json.Unmarshal([]byte(out), &cards); err != nil {
		t.Fatalf("inbox --json is not a JSON list: %v\n%s", err, out)
	}
	for _, c := range cards {
		if c["kind"] == "decision" && c["number"] == float64(n) {
			return c["counsel"].(string)
		}
	}
	t.Fatalf("no card for Decision #%d:\n%s", n, out)
	return ""
}

// counselComments lists issue n's comments, read as the founder.
func counselComments(t *testing.T, url string, n int) []*github.IssueComment {
	t.Helper()
	cs, _, err := clientAt(t, url, "founder").Issues.ListComments(context.Background(), "acme", "benefits", n, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// lastComment is issue n's newest comment.
func lastComment(t *testing.T, url string, n int) *github.IssueComment {
	t.Helper()
	cs := counselComments(t, url, n)
	if len(cs) == 0 {
		t.Fatalf("#%d has no comment", n)
	}
	return cs[len(cs)-1]
}

// TestCounselPostedByAWriterShowsOnTheFoundersCard: `aayu counsel 1 --post
// --text …` as @writer posts one marked comment, and the founder's inbox
// card for Decision #1 shows it (the newest counsel from write access) in
// place of the demo's older counsel; without --post nothing is posted.
func TestCounselPostedByAWriterShowsOnTheFoundersCard(t *testing.T) {
	t.Parallel()
	_, url := sandboxWith(t, sandbox.Options{})
	words := "Option 1 keeps the tables reviewed in code; loading data can wait a quarter."
	if got := decisionCardCounsel(t, url, 1); strings.Contains(got, words) {
		t.Fatalf("the card shows the counsel before it was posted: %q", got)
	}
	code, out, errOut := counselAt(t, url, "writer", "1", "--text", words)
	if code != tui.ExitOK || !strings.Contains(out, words) || !strings.Contains(out, "Nothing was posted") {
		t.Fatalf("without --post: exit %d, want 0 printing the counsel and posting nothing:\n%s%s", code, out, errOut)
	}
	if got := decisionCardCounsel(t, url, 1); strings.Contains(got, words) {
		t.Fatalf("counsel without --post reached the card: %q", got)
	}
	code, out, errOut = counselAt(t, url, "writer", "1", "--post", "--dry-run", "--text", words)
	if code != tui.ExitOK || !strings.Contains(out, "--dry-run: nothing was posted") {
		t.Fatalf("--post --dry-run: exit %d, want 0 posting nothing:\n%s%s", code, out, errOut)
	}
	if got := decisionCardCounsel(t, url, 1); strings.Contains(got, words) {
		t.Fatalf("counsel with --dry-run reached the card: %q", got)
	}
	code, out, errOut = counselAt(t, url, "writer", "1", "--post", "--text", words)
	if code != tui.ExitOK || !strings.Contains(out, "posted: a comment on #1 as @writer") {
		t.Fatalf("--post as @writer: exit %d, want 0 naming the comment:\n%s%s", code, out, errOut)
	}
	if got := decisionCardCounsel(t, url, 1); got != words {
		t.Fatalf("the founder's card shows counsel %q, want the posted %q", got, words)
	}
	last := lastComment(t, url, 1)
	if want := inbox.CounselMarker + "\nCounsel: " + words; last.GetBody() != want || last.GetUser().GetLogin() != "writer" {
		t.Errorf("the comment is @%s: %q, want @writer: %q", last.GetUser().GetLogin(), last.GetBody(), want)
	}
}

// TestCounselFromStandardInputCutTo75Words: counsel piped on standard input
// is posted, and the card shows its first 75 words and an ellipsis.
func TestCounselFromStandardInputCutTo75Words(t *testing.T) {
	t.Parallel()
	_, url := sandboxWith(t, sandbox.Options{})
	long := strings.TrimSpace(strings.Repeat("weigh ", 80))
	vars := map[string]string{"AAYU_GITHUB_TOKEN": sandbox.TokenPrefix + "writer", "HOME": t.TempDir()}
	var outb, errb strings.Builder
	code := runCLI(context.Background(), vars, []string{"--plain", "--api-url", url + "/", "--repo", "acme/benefits", "counsel", "1", "--post"},
		cli.Env{Stdin: strings.NewReader(long + "\n"), Stdout: &outb, Stderr: &errb})
	if code != tui.ExitOK {
		t.Fatalf("--post from stdin: exit %d\n%s%s", code, outb.String(), errb.String())
	}
	if got, want := decisionCardCounsel(t, url, 1), strings.TrimSpace(strings.Repeat("weigh ", 75))+"…"; got != want {
		t.Fatalf("the card shows %q, want the first 75 words and an ellipsis", got)
	}
}

// TestCounselRefusedToAReader: @reader's `aayu counsel 1 --post` is refused
// in words with exit 4 and posts nothing; and a marked comment @reader posts
// on GitHub directly (GitHub lets any reader comment) is not shown on the
// card, which keeps the newest counsel from write access.
func TestCounselRefusedToAReader(t *testing.T) {
	t.Parallel()
	_, url := sandboxWith(t, sandbox.Options{})
	before := decisionCardCounsel(t, url, 1)
	n := len(counselComments(t, url, 1))
	code, out, errOut := counselAt(t, url, "reader", "1", "--post", "--text", "Accept option 2 now.")
	if code != tui.ExitRefused || !strings.Contains(errOut, "refused: @reader has read access to acme/benefits, and counsel counts only from an account with write access") ||
		!strings.Contains(errOut, "Nothing was posted.") {
		t.Fatalf("--post as @reader: exit %d, want 4 with the reason:\n%s%s", code, out, errOut)
	}
	if got := len(counselComments(t, url, 1)); got != n {
		t.Fatalf("a refused counsel posted %d comment(s)", got-n)
	}
	reader := clientAt(t, url, "reader")
	if _, _, err := reader.Issues.CreateComment(context.Background(), "acme", "benefits", 1,
		&github.IssueComment{Body: github.String(inbox.CounselMarker + "\nCounsel: accept option 2, it is approved.")}); err != nil {
		t.Fatalf("GitHub lets a reader comment; the sandbox refused: %v", err)
	}
	if got := decisionCardCounsel(t, url, 1); got != before {
		t.Fatalf("a reader's marked comment changed the card's counsel to %q (was %q)", got, before)
	}
}

// TestCounselRefusals: each reason --post writes nothing, in words, exit 4
// (2 for a command line that names no Decision): a bot, an issue that is
// not a Decision, a pull request, a closed Decision, empty counsel, counsel
// over 16 KiB.
func TestCounselRefusals(t *testing.T) {
	t.Parallel()
	_, url := sandboxWith(t, sandbox.Options{})
	founder := clientAt(t, url, "founder")
	ctx := context.Background()
	if _, _, err := founder.Issues.Edit(ctx, "acme", "benefits", sandbox.DemoDecision+1, &github.IssueRequest{State: github.String("closed")}); err != nil {
		t.Fatal(err)
	}
	story := fmt.Sprint(sandbox.DemoStoryReady)
	cases := []struct {
		name, login string
		args        []string
		code        int
		says        string
	}{
		{"a bot", "agent-bot", []string{"1", "--post", "--text", "x"}, tui.ExitRefused, "@agent-bot[bot] is a bot, and the inbox counts no bot's comment as counsel"},
		{"not a Decision", "writer", []string{story, "--post", "--text", "x"}, tui.ExitRefused, "is not a Decision: it has no type:decision label"},
		{"a pull request", "writer", []string{"4", "--post", "--text", "x"}, tui.ExitRefused, "#4 is a pull request, not a Decision"},
		{"a closed Decision", "writer", []string{"2", "--post", "--text", "x"}, tui.ExitRefused, "is closed: no card shows counsel for it"},
		{"empty", "writer", []string{"1", "--post", "--text", "  \n "}, tui.ExitRefused, "the counsel is empty"},
		{"too long", "writer", []string{"1", "--post", "--text", strings.Repeat("a", inbox.CounselMaxBytes+1)}, tui.ExitRefused, "more than the 16384 aayu posts"},
		{"no number", "writer", []string{"one", "--post", "--text", "x"}, tui.ExitUsage, "is not a Decision's number"},
	}
	n := len(counselComments(t, url, 1))
	for _, c := range cases {
		code, out, errOut := counselAt(t, url, c.login, c.args...)
		if code != c.code || !strings.Contains(errOut, c.says) || strings.Contains(out, "posted:") {
			t.Errorf("%s: exit %d, want %d saying %q:\n%s%s", c.name, code, c.code, c.says, out, errOut)
		}
	}
	if got := len(counselComments(t, url, 1)); got != n {
		t.Errorf("the refusals posted %d comment(s) on #1", got-n)
	}
}

// TestCounselHostileTextNeutralised: counsel carrying a screen clear, an
// OSC 52 clipboard write and a bidi override is posted with each shown
// visibly (never raw), and a writer's marked comment posted raw on GitHub
// shows on the founder's card (`inbox --list`) with each one visible and
// none obeyed.
func TestCounselHostileTextNeutralised(t *testing.T) {
	t.Parallel()
	_, url := sandboxWith(t, sandbox.Options{})
	hostile := "Pick 1\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07 now\u202e."
	code, out, errOut := counselAt(t, url, "writer", "1", "--post", "--text", hostile)
	if code != tui.ExitOK {
		t.Fatalf("--post: exit %d\n%s%s", code, out, errOut)
	}
	body := lastComment(t, url, 1).GetBody()
	for _, raw := range []string{"\x1b", "\x07", "\u202e"} {
		if strings.Contains(body, raw) || strings.Contains(out, raw) {
			t.Fatalf("%q reached the comment or the output raw:\n%q\n%q", raw, body, out)
		}
	}
	if !strings.Contains(body, "^[[2J") || !strings.Contains(body, "<U+202E>") {
		t.Errorf("the comment does not show the escapes visibly: %q", body)
	}
	writer := clientAt(t, url, "writer")
	if _, _, err := writer.Issues.CreateComment(context.Background(), "acme", "benefits", 1,
		&github.IssueComment{Body: github.String(inbox.CounselMarker + "\n" + hostile)}); err != nil {
		t.Fatal(err)
	}
	code, list, errOut := runAayuEnv(t, map[string]string{"AAYU_GITHUB_TOKEN": sandbox.TokenPrefix + "founder"},
		"--plain", "--api-url", url+"/", "--repo", "acme/benefits", "inbox", "--list")
	if code != tui.ExitOK || !strings.Contains(list, "Pick 1^[[2J^[]52;c;cm0gLXJmIH4=^G now<U+202E>.") {
		t.Fatalf("inbox --list: exit %d, want the raw counsel shown visibly:\n%s%s", code, list, errOut)
	}
	for i, r := range list {
		if r == 0x1b || r == 0x07 || r == 0x202e {
			t.Fatalf("the card's output holds %U at byte %d", r, i)
		}
	}
}

// TestCounselFromAnAgentLaneShowsOnTheCard: counsel is advice, so an agent
// may post it (the seed's twin's counsel): in aayu's own lane on the
// solo-mode demo it goes out under the lane's write token, the person's,
// and shows on the card.
func TestCounselFromAnAgentLaneShowsOnTheCard(t *testing.T) {
	t.Parallel()
	_, url := sandboxWith(t, sandbox.Options{})
	words := "The twin weighs option 1: it is the cheaper door to walk back through."
	code, out, errOut := runAayuEnv(t, map[string]string{"AAYU_AGENT": "1", "AAYU_GITHUB_TOKEN": sandbox.TokenPrefix + "founder"},
		"--plain", "--api-url", url+"/", "--repo", "acme/benefits", "counsel", "1", "--post", "--text", words)
	if code != tui.ExitOK || !strings.Contains(out, "posted: a comment on #1 as @founder") {
		t.Fatalf("an agent's --post: exit %d, want 0:\n%s%s", code, out, errOut)
	}
	if got := decisionCardCounsel(t, url, 1); got != words {
		t.Fatalf("the card shows %q, want the agent's counsel %q", got, words)
	}
}
