package inbox

import (
	"strings"
	"testing"
)

// TestConfirmationShowsNoRawMarkup: approving a head in solo mode posts a
// reply that ends in a marker for aayu's own reading; the confirmation
// that lists the write shows the reply's words, not the marker.
func TestConfirmationShowsNoRawMarkup(t *testing.T) {
	t.Parallel()
	w := Write{Kind: WriteComment, Number: 6, Body: HumanReviewReply(6, "4ebf2a1c520b4ebf2a1c520b4ebf2a1c520b4ebf", "@founder")}
	got := w.String()
	if strings.Contains(got, "<!--") || strings.Contains(got, "aayu:human-review") || strings.Contains(got, `\n`) {
		t.Errorf("the confirmation quotes raw markup: %s", got)
	}
	if !strings.Contains(got, "Human review: @founder approved head 4ebf2a1c520b") || !strings.HasSuffix(got, `reviews/6/4ebf2a1c520b4ebf2a1c520b4ebf2a1c520b4ebf.json."`) {
		t.Errorf("the confirmation lost the reply's words: %s", got)
	}
}
