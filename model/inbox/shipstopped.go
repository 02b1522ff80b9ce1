package inbox

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/untrusted"
)

// The trailer block aayu ship writes last in its squash commit's message
// (actions/ship writes and parses its fields; the inbox asks only whether
// a merge carries it).
const (
	ShipTrailerRecord = "Aayudha-Record: aayu ship"
	ShipTrailerShip   = "Aayudha-Ship:"
	ShipTrailerPass   = "Aayudha-Pass:"
)

// ShipTrailerLines is the last paragraph of a squash commit's message when
// it has the shape of ship's trailer block (its opening line, then the
// Aayudha-Ship: and Aayudha-Pass: lines), nil otherwise. Only the last
// paragraph counts: a title or a commit message GitHub put in the body of a
// merge made without ship cannot make it read as ship's.
func ShipTrailerLines(msg string) []string {
	msg = strings.TrimRight(strings.ReplaceAll(msg, "\r\n", "\n"), "\n ")
	i := strings.LastIndex(msg, "\n\n")
	if i < 0 {
		return nil // a message that is one paragraph is a title alone
	}
	lines := strings.Split(msg[i+2:], "\n")
	if len(lines) != 3 || lines[0] != ShipTrailerRecord || !strings.HasPrefix(lines[1], ShipTrailerShip+" ") || !strings.HasPrefix(lines[2], ShipTrailerPass+" ") {
		return nil
	}
	return lines
}

// ShipCommand is the command that ships (or finishes shipping) pull request
// pr: with --solo-bypass in solo mode, as the card's choice is worded.
func ShipCommand(pr int, solo bool) string {
	if solo {
		return fmt.Sprintf("aayu ship %d --solo-bypass", pr)
	}
	return fmt.Sprintf("aayu ship %d", pr)
}

// shipStopped is where an aayu ship that did not finish stopped, as GitHub
// holds it: each stage is one more of ship's writes landed.
type shipStopped int

const (
	stoppedAfterBypass shipStopped = iota + 1 // the bypass comment; the pull request is open
	stoppedAfterMerge                         // merged by ship (its trailers); no record on the ledger
	stoppedAfterRecord                        // merged and recorded; the Story not updated
)

// stoppedShipStep is the one card of an aayu ship of pr that stopped
// part-way: what landed and what did not, read from GitHub (the bypass
// comment, the merge commit's trailers, the ledger's ship record, the
// Story's labels), and the one command that finishes it. It replaces the
// cards the same facts would otherwise make (ready to ship, merged without
// ship), so the person is told one thing.
func stoppedShipStep(s Snapshot, story Issue, pr PullRequest, at shipStopped) Step {
	cmd := ShipCommand(pr.Number, s.SoloMode)
	var counsel string
	switch at {
	case stoppedAfterBypass:
		counsel = fmt.Sprintf("An aayu ship of #%d stopped after its Solo-mode bypass comment for head %s landed: nothing is merged, no record is on the ledger and Story #%d is not updated. Enter finishes it with %s; it uses that comment and posts no second one.",
			pr.Number, gitsha.Short(pr.HeadSHA), story.Number, cmd)
	case stoppedAfterMerge:
		as := ""
		if pr.MergeCommitSHA != "" {
			as = " as " + gitsha.Short(pr.MergeCommitSHA)
		}
		counsel = fmt.Sprintf("aayu ship merged #%d into %s%s (its merge commit says so) and stopped: its record is not on the ledger and Story #%d is still before %s. Enter finishes it with %s; it never merges twice.",
			pr.Number, pr.BaseRef.Raw(), as, story.Number, LabelMerged, cmd)
	default:
		counsel = fmt.Sprintf("aayu ship merged #%d into %s and its record is on the ledger, but it stopped before updating Story #%d, which is still before %s. Enter finishes it with %s; it writes only what is missing.",
			pr.Number, pr.BaseRef.Raw(), story.Number, LabelMerged, cmd)
	}
	return Step{Kind: KindShipStopped, Item: Item{Number: pr.Number, Title: pr.Title, IsPR: true}, Head: pr.HeadSHA,
		Links:   []Link{{Number: story.Number, Title: story.Title, Role: "links Story"}},
		Counsel: untrusted.Text(counsel),
		Choices: []Choice{{Key: "1", Label: "finish it with " + cmd, Recommended: true,
			Writes: []Write{{Kind: WriteOpenShip, Number: pr.Number, Solo: s.SoloMode}}}}}
}

// bypassStopped says an open Story pull request carries the person's
// Solo-mode bypass comment for its current head: ship posts it only after
// the yes, just before the merge, so a ship of it stopped (or failed) after
// that comment and before the merge.
func bypassStopped(s Snapshot, issues map[int]Issue, pr PullRequest) (Step, bool) {
	if !s.SoloMode || !pr.Open() || pr.HeadSHA == "" {
		return Step{}, false
	}
	story, ok := linkedOpen(issues, pr, LabelStory)
	if !ok {
		return Step{}, false
	}
	if _, found := identity.FindSoloBypassComment(s.PRFacts[pr.Number].Comments, s.Viewer, pr.HeadSHA, s.BotLogins); !found {
		return Step{}, false
	}
	return stoppedShipStep(s, story, pr, stoppedAfterBypass), true
}

// mergedStopped finds, among the merged pull requests linking an open
// Story before status:merged (newest first), the newest one an aayu ship
// merged: its record on the ledger (only the Story's update is left) or
// its merge commit's trailers (the record is missing too).
func mergedStopped(s Snapshot, story Issue, prs []PullRequest) (Step, bool) {
	for _, pr := range prs {
		switch {
		case s.ShipRecords[pr.Number]:
			return stoppedShipStep(s, story, pr, stoppedAfterRecord), true
		case s.ShipMerges[pr.Number]:
			return stoppedShipStep(s, story, pr, stoppedAfterMerge), true
		}
	}
	return Step{}, false
}
