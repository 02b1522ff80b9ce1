package pack

import "github.com/aayudha/aayu/proof"

// Summary is a verified pack's facts as plain lines, for other screens that
// show a pack one key away (ship): the same words the pack screen prints.
func Summary(r *proof.Report) []string {
	if r == nil {
		return []string{"no pack was verified"}
	}
	return plainReport(r, nil)
}
