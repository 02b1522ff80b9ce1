package inbox

import (
	"fmt"
	"strings"

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
		text := strings.TrimPrefix(strings.TrimLeft(found.Body.Raw(), " \t\r\n"), CounselMarker)
		// The card already says "counsel:"; a body that says it again
		// would read twice.
		text = strings.TrimSpace(text)
		if len(text) >= 8 && strings.EqualFold(text[:8], "counsel:") {
			text = text[8:]
		}
		if cut := CutWords(text, CounselWords); cut != "" {
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
