package inbox

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/model/exitcode"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"

	"github.com/aayudha/aayu/model/untrusted"
)

// CounselMarker starts the comment `aayu counsel --post` writes on a
// Decision: a hidden HTML comment line, then the counsel.
const CounselMarker = "<!-- aayu counsel --post -->"

// CounselWords is how many words of counsel a card shows.
const CounselWords = 75

// decisionCounsel is the newest counsel comment by an account with write
// access, cut to CounselWords words; without one, it says what the Decision
// itself recommends.
func decisionCounsel(comments []identity.Comment, d Decision) untrusted.Text {
	var found identity.Comment
	ok := false
	for _, c := range comments {
		if c.Author.Access() < identity.AccessWrite {
			continue
		}
		if !strings.HasPrefix(strings.TrimLeft(c.Body.Raw(), " \t\r\n"), CounselMarker) {
			continue
		}
		if !ok || c.CreatedAt.After(found.CreatedAt) || (c.CreatedAt.Equal(found.CreatedAt) && c.ID > found.ID) {
			found, ok = c, true
		}
	}
	if ok {
		if cut := CounselShown(found.Body.Raw()); cut != "" {
			return untrusted.Text(cut)
		}
	}
	o, _ := d.Option(d.Recommended)
	return untrusted.Text(fmt.Sprintf("No counsel has been posted. The Decision recommends option %d (%s); it is a %s door.", o.Number, o.Title, d.Door))
}

// CutWords keeps the first n words of s, joined by single spaces, and adds
// an ellipsis when it cut anything.
func CutWords(s string, n int) string {
	words := strings.Fields(s)
	if len(words) <= n {
		return strings.Join(words, " ")
	}
	return strings.Join(words[:n], " ") + "…"
}

func readyCounsel(pr PullRequest, story Issue, c identity.Comment, solo bool) untrusted.Text {
	how := "Ship checks every gate again on this head, then lists what it will write and waits for your yes."
	if solo {
		how = "In solo mode the pass is your Solo-mode bypass (--solo-bypass): ship checks every gate again, lists its writes and waits for your yes, and posts the bypass comment for this head only then, just before the merge."
	}
	return untrusted.Text(fmt.Sprintf("aayu ship stopped on #%d (Story #%d) only for the human pass, and the merge gate is green on head %s (comment by @%s). %s",
		pr.Number, story.Number, gitsha.Short(pr.HeadSHA), c.Author.Login, how))
}

func reviewCounsel(pr PullRequest, inspect Status, facts PRFacts) untrusted.Text {
	approvals := 0
	for _, r := range facts.Reviews {
		if strings.EqualFold(r.State, "APPROVED") && strings.EqualFold(r.CommitID, pr.HeadSHA) {
			approvals++
		}
	}
	return untrusted.Text(fmt.Sprintf("Inspect waits at the human rung for head %s: no reviewer app or paid model could review it. %d approval(s) on this head so far. Approving records your review of exactly this head.",
		gitsha.Short(pr.HeadSHA), approvals))
}

func stoppedCounsel(pr PullRequest, inspect Status) untrusted.Text {
	return untrusted.Text(fmt.Sprintf("Inspect's review ran 3 rounds on distinct heads without converging and asked the builder to step back (head %s). Read it before shipping.", gitsha.Short(pr.HeadSHA)))
}

// CounselMaxBytes is the most counsel `aayu counsel --post` posts, below
// GitHub's 65,536-character limit on a comment body with room for the
// marker: the card shows only CounselWords words of it anyway.
const CounselMaxBytes = 16 << 10

// CounselBody is the comment `aayu counsel --post` writes on a Decision:
// CounselMarker on a line of its own, then "Counsel: " and the text,
// neutralised (untrusted.Sanitize) so the comment holds nothing a terminal
// or a later reader would obey, whoever typed or generated it. Text that
// is empty, or longer than CounselMaxBytes once neutralised, is refused:
// a blank comment would show as counsel and say nothing, and a long one
// would be cut to a few words on the card anyway.
func CounselBody(text string) (string, error) {
	clean := withoutCounselWord(untrusted.Sanitize(text))
	if clean == "" {
		return "", exitcode.Refuse("the counsel is empty: give its words with --text or on standard input")
	}
	if len(clean) > CounselMaxBytes {
		return "", exitcode.Refuse("the counsel is %d bytes, more than the %d aayu posts (the card shows its first %d words)", len(clean), CounselMaxBytes, CounselWords)
	}
	return CounselMarker + "\nCounsel: " + clean, nil
}

// CounselShown is what a Decision's card shows of a counsel comment's body:
// the words after the marker and any "Counsel:", cut to CounselWords; raw,
// for the caller to neutralise as it shows it.
func CounselShown(body string) string {
	return CutWords(withoutCounselWord(strings.TrimPrefix(strings.TrimLeft(body, " \t\r\n"), CounselMarker)), CounselWords)
}

// withoutCounselWord trims s and a leading "Counsel:": the card already
// says "counsel:", and the posted comment says it once itself, so text
// that says it again would read twice.
func withoutCounselWord(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 8 && strings.EqualFold(s[:8], "counsel:") {
		s = strings.TrimSpace(s[8:])
	}
	return s
}
