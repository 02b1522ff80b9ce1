package inbox

import (
	"fmt"
	"strings"

	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// cardLines is one card as plain lines of words, the same facts both
// renderers show. GitHub's text (titles, counsel) is untrusted.Text and
// renders itself sanitised; clean is for the rest (the results and
// failures of writes, which quote GitHub's answers).
func (m *Model) cardLines(st model.Step) []string {
	var out []string
	out = append(out, fmt.Sprintf("%s #%d (%s): %s", st.Kind.Words(), st.Item.Number, st.Group, st.Item.Title))
	for _, l := range st.Links {
		out = append(out, fmt.Sprintf("%s #%d: %s", tui.SanitizeLine(l.Role), l.Number, l.Title))
	}
	if st.Head != "" {
		out = append(out, "head "+tui.SanitizeLine(st.Head))
	}
	if st.Door != "" {
		out = append(out, "door: "+string(st.Door))
	}
	if st.Problem != "" {
		out = append(out, "problem: "+tui.SanitizeLine(st.Problem))
	} else if !st.Counsel.Empty() {
		out = append(out, "counsel: "+st.Counsel.String())
	}
	cs := m.writes.states[st.ID()]
	for _, c := range st.Choices {
		line := fmt.Sprintf("  %s  %s", c.Key, tui.SanitizeLine(c.Label))
		if c.Recommended {
			line += " (recommended)"
		}
		switch {
		case c.Disabled != "":
			line += " — unavailable: " + tui.SanitizeLine(c.Disabled)
		case cs != nil && cs.takenOff[c.Key] != "":
			line += " — unavailable: it failed in a way Enter cannot fix"
		}
		if m.opts.DryRun && c.Key != model.SkipKey {
			line += " — would " + tui.SanitizeLine(c.Describe())
		}
		out = append(out, line)
	}
	if m.opts.List {
		// --list is read-only and allowed to agents: it names the command
		// the person runs for the card (seed 001: "the command a person runs").
		if cmd := model.Command(st); cmd != "" {
			out = append(out, "run: "+cmd)
		}
	}
	return append(out, m.statusLines(st)...)
}

// statusLines say in words what happened to the card in this run.
func (m *Model) statusLines(st model.Step) []string {
	cs := m.writes.states[st.ID()]
	if cs == nil {
		return nil
	}
	switch {
	case cs.running:
		return []string{"status: writing…"}
	case cs.failure != nil:
		out := []string{"status: not done", tui.SanitizeLine(cs.failure.What), tui.SanitizeLine(cs.failure.Changed), tui.SanitizeLine(cs.failure.Next)}
		if m.pane.details {
			for _, d := range cs.failure.Details {
				out = append(out, "details: "+tui.SanitizeLine(d))
			}
		} else if len(cs.failure.Details) > 0 {
			out = append(out, "(d shows the details)")
		}
		return out
	case cs.changed != "":
		return []string{"status: not done", cs.changed}
	case cs.done != nil:
		return []string{"status: done — " + tui.SanitizeLine(sentences(cs.done))}
	case cs.skipped:
		return []string{"status: skipped"}
	}
	return nil
}

// rowLabel is the short list row for a card.
func rowLabel(st model.Step) string {
	return fmt.Sprintf("%s #%d %s", shortKind(st.Kind), st.Item.Number, st.Item.Title)
}

func shortKind(k model.Kind) string {
	switch k {
	case model.KindDecision:
		return "Decision"
	case model.KindReadyToShip:
		return "Ship"
	case model.KindNeedsReview:
		return "Review"
	case model.KindReviewStopped:
		return "Stopped"
	case model.KindMergedWithoutShip:
		return "Merged"
	case model.KindBugFixMerged:
		return "Fixed"
	case model.KindReplaced:
		return "Replaced"
	case model.KindAudit:
		return "Audit"
	case model.KindShipStopped:
		return "Unfinished"
	case model.KindNeedsReady:
		return "Ready"
	case model.KindNeedsPlanReview:
		return "Plan"
	}
	return string(k)
}

// sentences joins what each write did, each already worded as a sentence
// without its full stop, as sentences: "The comment was posted. The
// label … was added.", never "posted; The label".
func sentences(each []string) string {
	var out []string
	for _, s := range each {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, strings.ToUpper(s[:1])+strings.TrimSuffix(s[1:], ".")+".")
		}
	}
	return strings.Join(out, " ")
}
