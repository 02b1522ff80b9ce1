package pack

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
)

// plainReport is the pack's facts as lines: the same facts the full screen
// shows, in words, with nothing drawn. Every string from the pack is
// untrusted and sanitised.
func plainReport(r *proof.Report, waived map[string]string) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if r.PackSHA256 != "" {
		add("pack.json sha256: %s", r.PackSHA256)
	}
	if p := r.Pack; p != nil {
		add("%s", identityLine(p))
		add("head %s%s", tui.SanitizeLine(p.PRHeadSHA), optional(", base ", p.BaseSHA))
		add("authority: %s", authorityLine(p.Authority))
		for _, c := range r.Criteria {
			add("criterion %d: %s", c.ID, criterionLine(c))
		}
		for _, a := range r.Artifacts {
			add("artifact %s: %s (%s, store %s, %d bytes)%s", tui.SanitizeLine(a.Artifact.Path), a.Verdict,
				tui.SanitizeLine(a.Artifact.Kind), tui.SanitizeLine(a.Artifact.Store), a.Artifact.Size, optional(": ", a.Reason))
		}
		for _, c := range p.Checks {
			add("check %s", checkLine(c))
		}
	}
	for _, pr := range r.Problems {
		add("problem: %s", tui.SanitizeLine(pr.Message))
	}
	if r.Pack != nil {
		for _, c := range r.FailedFloors {
			if w := waived[c.Floor]; w != "" {
				add("floor %s: waived, %s (on its own it does not hold: %s)", tui.SanitizeLine(c.Floor), tui.SanitizeLine(w), tui.SanitizeLine(joinNonEmpty(tui.ResultWord(c.Result), c.Detail)))
				continue
			}
			add("floor %s does not hold: %s", tui.SanitizeLine(c.Floor), tui.SanitizeLine(joinNonEmpty(tui.ResultWord(c.Result), c.Detail)))
		}
		if r.Rules != "" {
			add("rules: %s", r.Rules)
		}
		if r.Verified() {
			add("verified: %s", r.HashedWords())
		} else {
			add("checked: %s", r.HashedWords())
		}
	}
	if allWaived(r, waived) {
		add("result: verified, every floor holds or is waived for this head (exit 0)")
		return out
	}
	add("result: %s", resultWords(r))
	return out
}

func joinNonEmpty(a, b string) string {
	if b == "" {
		return a
	}
	return a + "; " + b
}

// failedFloorNames lists the floors that do not hold, a missing one marked.
func failedFloorNames(r *proof.Report) string {
	names := make([]string, 0, len(r.FailedFloors))
	for _, c := range r.FailedFloors {
		n := tui.SanitizeLine(c.Floor)
		if c.Result == proof.ResultMissing {
			n += " (missing)"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

func identityLine(p *proof.Pack) string {
	s := fmt.Sprintf("repo %s, story %d", tui.SanitizeLine(p.Repo), p.Story)
	if p.PR != 0 {
		s += fmt.Sprintf(", pull request #%d", p.PR)
	}
	return s
}

func authorityLine(a proof.Authority) string {
	s := tui.SanitizeLine(a.Kind)
	if a.Workflow != "" {
		s += ", workflow " + tui.SanitizeLine(a.Workflow)
	}
	if a.RunID != 0 {
		s += ", run " + strconv.FormatInt(a.RunID, 10)
	}
	if a.Writer != "" {
		s += ", written by " + tui.SanitizeLine(a.Writer)
	}
	return s
}

func criterionLine(c proof.CriterionResult) string {
	s := "not proven"
	if c.Proven {
		s = "proven"
	}
	if c.Text != "" {
		s += " — " + tui.SanitizeLine(c.Text)
	}
	if len(c.Evidence) > 0 {
		ev := make([]string, len(c.Evidence))
		for i, e := range c.Evidence {
			ev[i] = tui.SanitizeLine(e)
		}
		s += " (evidence: " + strings.Join(ev, ", ") + ")"
	} else {
		s += " (no evidence)"
	}
	if !c.Proven && c.Reason != "" {
		s += "; " + tui.SanitizeLine(c.Reason)
	}
	return s
}

func checkLine(c proof.Check) string {
	s := fmt.Sprintf("%s: %s", tui.SanitizeLine(c.Floor), tui.ResultWord(c.Result))
	if c.Value != nil {
		s += ", value " + number(*c.Value)
	}
	if c.Threshold != nil {
		s += ", threshold " + number(*c.Threshold)
	}
	if c.Tool != "" {
		s += ", tool " + tui.SanitizeLine(c.Tool)
	}
	if c.Version != "" {
		s += " " + tui.SanitizeLine(c.Version)
	}
	if c.Network != "" {
		s += ", network " + tui.SanitizeLine(c.Network)
	}
	if c.Detail != "" {
		s += "; " + tui.SanitizeLine(c.Detail)
	}
	return s
}

func resultWords(r *proof.Report) string {
	n := len(r.Problems)
	switch {
	case !r.Verified():
		return fmt.Sprintf("does not verify, %d %s (exit 4)", n, tui.Plural(n, "problem", "problems"))
	case !r.FloorsHold:
		var names []string
		for _, c := range r.FailedFloors {
			names = append(names, tui.SanitizeLine(c.Floor))
		}
		return fmt.Sprintf("verified, but %s not hold: %s (exit 3)", tui.Plural(len(names), "a floor does", "floors do"), strings.Join(names, ", "))
	}
	s := "verified, floors hold"
	if r.ArtifactsNotStored > 0 {
		s += fmt.Sprintf(", %d %s not stored", r.ArtifactsNotStored, tui.Plural(r.ArtifactsNotStored, "artifact", "artifacts"))
	}
	return s + " (exit 0)"
}

func progressLine(p proof.Progress) string {
	return fmt.Sprintf("hashing: %d of %d files, %s of %s", p.DoneFiles, p.TotalFiles, tui.HumanBytes(p.DoneBytes), tui.HumanBytes(p.TotalBytes))
}

func optional(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + tui.SanitizeLine(s)
}

func number(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// allWaived says every floor that does not hold is waived (and some do
// not): ship takes such a pack's floors.
func allWaived(r *proof.Report, waived map[string]string) bool {
	if r == nil || len(r.FailedFloors) == 0 {
		return false
	}
	for _, c := range r.FailedFloors {
		if waived[c.Floor] == "" {
			return false
		}
	}
	return true
}
