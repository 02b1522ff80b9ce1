package ship

import (
	"strings"
	"testing"
)

// TestParseTrailersReadsBackEveryMessageShipWrites: the parser accepts each
// field's edge values exactly as far as the writer can produce them: no
// pack, story 0 and run 0 read back; a negative number or a pack that is
// not a SHA-256 does not. Three mutants of the range check lived against
// the trailer tests (testdata/mutation.md).
func TestParseTrailersReadsBackEveryMessageShipWrites(t *testing.T) {
	t.Parallel()
	h := strings.Repeat("a", 40)
	for _, tr := range []mergeTrailers{
		{Head: h, Story: 3, RunID: 42, PassKind: "review", PassBy: "founder"},
		{Head: h, Story: 0, RunID: 42, PackSHA: strings.Repeat("b", 64), PassKind: "review", PassBy: "founder"},
		{Head: h, Story: 3, RunID: 0, PackSHA: strings.Repeat("b", 64), PassKind: "review", PassBy: "founder"},
	} {
		if got := parseTrailers(mergeMessage(tr.Story, "founder", tr)); got == nil || *got != tr {
			t.Errorf("ship's own message for %+v reads %+v", tr, got)
		}
	}
	good := mergeTrailers{Head: h, Story: 3, RunID: 42, PackSHA: strings.Repeat("b", 64), PassKind: "review", PassBy: "founder"}
	for name, msg := range map[string]string{
		"a negative story": strings.Replace(mergeMessage(3, "founder", good), "story=3", "story=-1", 1),
		"a negative run":   strings.Replace(mergeMessage(3, "founder", good), "run=42", "run=-1", 1),
		"a short pack":     strings.Replace(mergeMessage(3, "founder", good), good.PackSHA, "bbbb", 1),
	} {
		if got := parseTrailers(msg); got != nil {
			t.Errorf("%s: read as ship's trailers: %+v", name, got)
		}
	}
}
