package pass

import (
	"fmt"
	"strings"
)

// NeverTouched are the never layers a change touches: its footprint over
// the base's LAYERS.md (the old path of a rename too), kept to the layers
// autonomy.never names. A change that touches one needs a plan-time review
// (seed 001, "The human pass"); ship asks for it and the inbox offers it
// by this one rule.
func NeverTouched(changed []ChangedFile, layers []Layer, never []string) []string {
	return intersect(Footprint(changed, layers), never)
}

// Gap says, from the record alone, why a plan record on the ledger is no
// plan review of story for a change touching the never layers never: it
// is another story's, or it does not cover every one of them. "" when the
// record covers them; who gave it and its comment are judged after (ship's
// planReview, the inbox's plan card). path names the record in the words.
func (r PlanRecord) Gap(story int, never []string, path string) string {
	switch {
	case r.Story != story:
		return fmt.Sprintf("%s on the ledger is for #%d, not Story #%d", path, r.Story, story)
	case !r.Covers(never):
		covered := "no never layer"
		if len(r.Layers) > 0 {
			covered = strings.Join(r.Layers, ", ")
		}
		return fmt.Sprintf("the plan review of Story #%d covers %s, and this pull request touches %s", story, covered, strings.Join(never, ", "))
	}
	return ""
}
