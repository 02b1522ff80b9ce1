package inbox

import "strings"

// StatusPrefix starts every status label; an issue reads one at a time.
const StatusPrefix = "status:"

// OtherStatuses are the status labels among labels that are not to: the
// ones that must go when an issue's status becomes to. Every place aayu
// sets a status (the inbox's steps, ship's Story update) asks this, so a
// status is replaced, never added beside another. labels are an item's
// as read (untrusted.Label) or names aayu holds; they are compared raw.
func OtherStatuses[L ~string](labels []L, to string) []string {
	var out []string
	for _, l := range labels {
		if name := string(l); strings.HasPrefix(strings.ToLower(name), StatusPrefix) && !strings.EqualFold(name, to) {
			out = append(out, name)
		}
	}
	return out
}

// StatusWrites set issue number's status to to: every other status label
// it carries removed, then to added. The add comes last, so writes that
// land only in part never leave two statuses, and the card that the new
// status takes off the inbox stays until everything landed.
func StatusWrites[L ~string](number int, labels []L, to string) []Write {
	var out []Write
	for _, l := range OtherStatuses(labels, to) {
		out = append(out, Write{Kind: WriteRemoveLabel, Number: number, Label: l})
	}
	return append(out, Write{Kind: WriteAddLabel, Number: number, Label: to})
}
