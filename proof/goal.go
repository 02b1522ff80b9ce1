package proof

import (
	"errors"
	"fmt"
	"strings"
)

// Why a Story's body gives nothing to freeze; CompletionGoal's errors wrap
// one, so a caller can tell "no section" from "no items" without reading
// words.
var (
	ErrNoGoalSection = errors.New("it has no \"## Completion Goal\" section")
	ErrNoGoalItems   = errors.New("its Completion Goal has no numbered items")
)

// MaxStoryBodyBytes caps the issue body CompletionGoal reads: GitHub allows
// 65,536 characters in a body, so anything larger did not come from it.
const MaxStoryBodyBytes = 256 << 10

// CompletionGoal takes the numbered items of the "## Completion Goal"
// section of a Story's (or Bug's) issue body, by the same rule ParseReady
// reads a Ready snapshot with: the lines after the heading up to the next
// "## " heading, CRLF as LF, items numbered 1, 2, 3 … in order, prose only
// before the first item, continuation lines indented. what names the body
// in messages ("Story #7's body"). The text is returned as written: the
// caller makes it safe for where it goes.
func CompletionGoal(what, body string) ([]ReadyCriterion, error) {
	if len(body) > MaxStoryBodyBytes {
		return nil, fmt.Errorf("%s is %d bytes, more than the %d-byte limit", what, len(body), MaxStoryBodyBytes)
	}
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	start := -1
	for i, line := range lines {
		if strings.TrimRight(line, " \t") != readyGoalHeading {
			continue
		}
		if start >= 0 {
			return nil, fmt.Errorf("%s has two %q sections (lines %d and %d), so which goal to freeze is not clear", what, readyGoalHeading, start, i+1)
		}
		start = i + 1
	}
	if start < 0 {
		return nil, fmt.Errorf("%s: %w", what, ErrNoGoalSection)
	}
	return readyCriteria(what, readySection(lines, start), start)
}
