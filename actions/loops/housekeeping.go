package loops

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/model/inbox"
)

// HousekeepingPath is where the loops record the housekeeping waiting on
// the repository: the Stories merged without ship and the Bugs whose fix
// merged, as the inbox lists them.
const HousekeepingPath = "autonomy/housekeeping.json"

// HousekeepingItem is one housekeeping card the inbox shows: its kind
// (inbox.KindMergedWithoutShip or inbox.KindBugFixMerged), the issue, and
// the pull requests merged into the integration branch that link it (the
// most recently merged first). No title is kept: the ledger holds numbers,
// never text from GitHub.
type HousekeepingItem struct {
	Kind   inbox.Kind `json:"kind"`
	Number int        `json:"number"`
	Merged []int      `json:"merged_pull_requests"`
}

// Words is the item as one line of the loops' output.
func (h HousekeepingItem) Words() string {
	what := "Story"
	if h.Kind == inbox.KindBugFixMerged {
		what = "Bug"
	}
	prs := ""
	for i, n := range h.Merged {
		if i > 0 {
			prs += ", "
		}
		prs += fmt.Sprintf("#%d", n)
	}
	if h.Kind == inbox.KindBugFixMerged {
		return fmt.Sprintf("%s #%d: its fix merged in %s; it is still open (the inbox's housekeeping closes it)", what, h.Number, prs)
	}
	return fmt.Sprintf("%s #%d: merged in %s without aayu ship, so no proof covers it (the inbox's housekeeping marks it merged)", what, h.Number, prs)
}

// Housekeeping is autonomy/housekeeping.json: the items, and who listed
// them when.
type Housekeeping struct {
	Items      []HousekeepingItem `json:"items"`
	ComputedAt string             `json:"computed_at"`
	By         string             `json:"by"`
}

// housekeepingItems reads the merges as the inbox does (inboxread's
// ReadMerges: Read's code for those facts) and keeps the housekeeping cards
// model/inbox.Derive makes for merges into the integration branch: one
// rule, in one place, for the inbox and the loops. The read is bounded the
// inbox's way: only pull requests merged since the oldest open Story or
// Bug was opened can still make such a card.
func housekeepingItems(ctx context.Context, c *github.Client, owner, repo, by string) ([]HousekeepingItem, error) {
	snap, err := inboxread.New(c, owner, repo, inboxread.Options{Viewer: by}).ReadMerges(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the repository as the inbox does: %w", err)
	}
	var out []HousekeepingItem
	for _, st := range inbox.Derive(snap) {
		if st.Kind != inbox.KindMergedWithoutShip && st.Kind != inbox.KindBugFixMerged {
			continue
		}
		h := HousekeepingItem{Kind: st.Kind, Number: st.Item.Number, Merged: []int{}}
		for _, l := range st.Links {
			if l.IsPR {
				h.Merged = append(h.Merged, l.Number)
			}
		}
		out = append(out, h)
	}
	return out, nil
}

// sameItems says whether two lists hold the same items in the same order
// (Derive's order is stable: by kind, then by number).
func sameItems(a, b []HousekeepingItem) bool {
	return slices.EqualFunc(a, b, func(x, y HousekeepingItem) bool {
		return x.Kind == y.Kind && x.Number == y.Number && slices.Equal(x.Merged, y.Merged)
	})
}
