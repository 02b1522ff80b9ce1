package inbox

import (
	"fmt"
	"strings"
)

// finish completes a derived step: its group, the skip choice, each
// choice's confirmation, and the recommendation Enter takes.
func finish(st *Step) {
	st.Group = st.Kind.Group()
	var rec Choice
	for _, c := range st.Choices {
		if c.Recommended {
			rec = c
		}
	}
	for i := range st.Choices {
		c := &st.Choices[i]
		c.NeedsConfirm = c.writes() && (!c.Recommended || c.OneWay)
		if c.NeedsConfirm {
			c.Confirm = confirmLine(*st, *c, rec)
		}
		if c.Recommended {
			st.Recommendation = *c
		}
	}
	st.Choices = append(st.Choices, skipChoice())
}

// confirmLine is the one line shown before a pick that is not the
// recommendation or is a one-way door: what it is, why it asks, and exactly
// what it writes.
func confirmLine(st Step, c, rec Choice) string {
	var why []string
	if !c.Recommended && rec.Key != "" {
		why = append(why, fmt.Sprintf("not the recommendation (%s)", rec.Label))
	}
	if c.OneWay {
		why = append(why, "a one-way door: it cannot be undone later")
	}
	return fmt.Sprintf("%s on %s #%d — %s. It will %s. "+ConfirmHint,
		capitalise(c.Label), st.Kind.Words(), st.Item.Number, strings.Join(why, ", and "), c.Describe())
}

// ConfirmHint ends every confirmation a card asks: y applies, and any
// other key (Enter too) writes nothing, so Enter alone never writes a step
// that asked first.
const ConfirmHint = "Press y to apply it; any other key, Enter too, writes nothing."

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Pick returns the choice a key takes on a card: "enter" is the
// recommendation. A disabled choice is returned with its reason as the
// refusal; an unknown key is refused in words.
func Pick(st Step, key string) (Choice, string) {
	if key == "enter" {
		if st.Recommendation.Key == "" {
			return Choice{}, "this card has no recommendation; pick a choice by its key or s to skip"
		}
		key = st.Recommendation.Key
	}
	for _, c := range st.Choices {
		if c.Key == key {
			if c.Disabled != "" {
				return Choice{}, c.Disabled
			}
			return c, ""
		}
	}
	return Choice{}, fmt.Sprintf("%q is not a choice on this card", key)
}

// Selectable says whether x may select a step for bulk: only housekeeping.
// A step that needs the person is refused in words and nothing is selected.
func Selectable(st Step) (bool, string) {
	if st.Group == Housekeeping {
		return true, ""
	}
	return false, fmt.Sprintf("%s #%d needs you: it is never selected or done in bulk; act on it on its own card", st.Kind.Words(), st.Item.Number)
}

// SelectAll gives the indexes X selects: every housekeeping step.
func SelectAll(steps []Step) []int {
	var out []int
	for i, st := range steps {
		if ok, _ := Selectable(st); ok {
			out = append(out, i)
		}
	}
	return out
}

// BulkConfirm is the one question asked before Enter does each selected
// step's recommendation (or C clears all the housekeeping): every item,
// what it writes, and that it is written as the person and not undone
// later. Steps that need the person are left out, whatever was passed.
func BulkConfirm(steps []Step, viewer string) []string {
	var lines []string
	for _, st := range steps {
		if ok, _ := Selectable(st); !ok {
			continue
		}
		lines = append(lines, fmt.Sprintf("%s #%d: %s — %s.", st.Kind.Words(), st.Item.Number, st.Recommendation.Label, st.Recommendation.Describe()))
	}
	if len(lines) == 0 {
		return nil
	}
	head := fmt.Sprintf("Do the recommendation of these %d items? Each is written as @%s and is not undone later. Press y to apply them; any other key, Enter too, writes nothing.", len(lines), viewer)
	if len(lines) == 1 {
		head = fmt.Sprintf("Do the recommendation of this 1 item? It is written as @%s and is not undone later. "+ConfirmHint, viewer)
	}
	return append([]string{head}, lines...)
}
