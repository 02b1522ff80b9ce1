package inbox

import (
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
)

// markupPattern is an HTML comment: the markers aayu leaves in a comment
// for itself (<!-- aayu:human-review head=… -->), which GitHub does not show.
var markupPattern = lazyre.New(`(?s)<!--.*?-->`)

// Shown is a comment body as GitHub shows it, for a confirmation: its
// markers left out and its lines run together with single spaces, so the
// person reads the words that will be posted, not the markup.
func Shown(body string) string {
	return strings.Join(strings.Fields(markupPattern().ReplaceAllString(body, " ")), " ")
}
