package inbox

import (
	"fmt"
	"reflect"

	"github.com/aayudha/aayu/model/gitsha"
)

// Find returns the step with id (Step.ID) in a fresh derive, if it still
// waits.
func Find(steps []Step, id string) (Step, bool) {
	for _, st := range steps {
		if st.ID() == id {
			return st, true
		}
	}
	return Step{}, false
}

// Reread compares the card as shown (before) with the same item derived
// again just before a write (after; the zero Step when it no longer
// waits). Anything the card showed that changed refuses the write; what
// says which, in words.
func Reread(before, after Step) (changed bool, what string) {
	item := fmt.Sprintf("%s #%d", before.Kind.Words(), before.Item.Number)
	switch {
	case after.Kind == "":
		return true, item + " no longer waits for you; nothing was written"
	case after.Kind != before.Kind || after.Item.Number != before.Item.Number:
		return true, fmt.Sprintf("%s is now %s #%d; nothing was written", item, after.Kind.Words(), after.Item.Number)
	case after.Item.Title != before.Item.Title:
		return true, item + "'s title changed; nothing was written"
	case after.Head != before.Head:
		return true, fmt.Sprintf("%s's head moved from %s to %s; nothing was written", item, gitsha.Short(before.Head), gitsha.Short(after.Head))
	case after.Problem != before.Problem || after.Door != before.Door:
		return true, item + "'s body changed; nothing was written"
	case !reflect.DeepEqual(after.Links, before.Links):
		return true, item + "'s linked issues or pull requests changed; nothing was written"
	case !reflect.DeepEqual(after.Choices, before.Choices) || !reflect.DeepEqual(after.Recommendation, before.Recommendation):
		return true, item + "'s choices changed; nothing was written"
	case after.TextHash != before.TextHash:
		// A Decision's words around its options: what the person read
		// is not what accepting would accept.
		return true, item + "'s body changed; nothing was written"
	case after.Counsel != before.Counsel:
		return true, item + "'s counsel changed; nothing was written"
	}
	return false, ""
}
