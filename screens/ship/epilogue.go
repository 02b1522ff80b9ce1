package ship

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/aayudha/aayu/tui"
)

// Epilogue is what stays on the person's terminal once the full screen
// closes: every gate that refused or failed, with its details, then the
// outcome. "result: exit 4" alone would leave a refusal without its reason,
// and on a short terminal the reason may never have been on screen.
func (m *Model) Epilogue() []string {
	var out []string
	outcome := len(m.lines)
	for i := len(m.lines) - 1; i >= 0; i-- {
		if isOutcome(m.lines[i]) {
			outcome = i
			break
		}
	}
	keep := false
	for _, l := range m.lines[:outcome] {
		if !strings.HasPrefix(l, "  ") {
			keep = strings.Contains(l, ": refused") || strings.Contains(l, ": failed")
		}
		if keep {
			out = append(out, l)
		}
	}
	return append(out, m.lines[outcome:]...)
}

func isOutcome(l string) bool {
	for _, p := range []string{"failed: ", "shipped: ", "merged as ", "refused: nothing was merged", "cancelled: "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// Name is the screen's name in the quit summary.
func (m *Model) Name() string { return fmt.Sprintf("ship #%d", m.opts.PR) }

// Headline is how the ship ended, in one line, for the quit summary: what
// was merged where, or the first reason it was refused or failed.
func (m *Model) Headline() string {
	res := m.run.result
	if res == nil {
		return "" // stopped before an outcome: its "result: " line says how
	}
	into := ""
	if res.Plan != nil && res.Plan.Base != "" {
		into = " into " + tui.SanitizeLine(res.Plan.Base)
	}
	var h string
	switch {
	case m.run.err != nil:
		h = "failed: " + tui.SanitizeLine(m.run.err.Error())
	case res.Shipped:
		h = fmt.Sprintf("merged%s as %s", into, shortCommit(res.MergeCommit))
	case res.Merged:
		h = fmt.Sprintf("merged%s as %s, not finished: %s", into, shortCommit(res.MergeCommit), tui.SanitizeLine(res.Unfinished))
	case res.Cancelled:
		h = "cancelled: you did not answer yes; nothing was merged"
	case len(res.Refusals) > 0:
		h = "refused: " + tui.SanitizeLine(res.Refusals[0])
	default:
		h = "refused: nothing was merged"
	}
	return fmt.Sprintf("%s (exit %d)", h, m.code)
}

// shortCommit is a commit's first seven hex digits, as git prints it.
func shortCommit(sha string) string {
	if len(sha) > 7 {
		sha = sha[:7]
	}
	return tui.SanitizeLine(sha)
}

// PlainKeys is what plain ship takes as a typed line now (the plain ?):
// only the answer to its one question; before it, nothing.
func (m *Model) PlainKeys() []key.Binding {
	w := tui.PlainWord
	if m.presence.sub != nil {
		if pk, ok := m.presence.sub.(tui.PlainKeyer); ok {
			return pk.PlainKeys()
		}
		return nil
	}
	if m.question.confirmReply != nil {
		return []key.Binding{w("y", "yes: write every write listed above"), w("anything else", "no: write nothing")}
	}
	return []key.Binding{w("nothing yet", "ship asks one question once every gate that only reads has passed; a line typed before it is not taken")}
}
