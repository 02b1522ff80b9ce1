package inbox

import (
	"sort"
	"strconv"

	"github.com/aayudha/aayu/internal/lazyre"
)

var (
	storyBranch = lazyre.New(`^(?:story|fix)/([0-9]+)(-|$)`)
	linkWord    = lazyre.New(`(?i)\b(?:refs|closes|fixes|resolves):?[ \t]+#([0-9]+)\b`)
	replacesRef = lazyre.New(`(?i)\breplaces:?[ \t]+#([0-9]+)\b`)
)

// LinkedIssues lists, sorted and once each, the issue numbers a pull request
// links: a story/N-… or fix/N-… branch, or Refs, Closes, Fixes or Resolves #N in its
// body (any case, whole words).
func LinkedIssues(headRef, body string) []int {
	set := map[int]bool{}
	if m := storyBranch().FindStringSubmatch(headRef); m != nil {
		addNumber(set, m[1])
	}
	for _, m := range linkWord().FindAllStringSubmatch(body, -1) {
		addNumber(set, m[1])
	}
	return sortedNumbers(set)
}

// ReplacedIssues lists the issue numbers a body says it replaces
// ("Replaces #N").
func ReplacedIssues(body string) []int {
	set := map[int]bool{}
	for _, m := range replacesRef().FindAllStringSubmatch(body, -1) {
		addNumber(set, m[1])
	}
	return sortedNumbers(set)
}

func addNumber(set map[int]bool, digits string) {
	n, err := strconv.Atoi(digits)
	if err == nil && n > 0 {
		set[n] = true
	}
}

func sortedNumbers(set map[int]bool) []int {
	out := make([]int, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Ints(out)
	return out
}
