package inspect

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/model/gitsha"
	model "github.com/aayudha/aayu/model/inspect"
	"github.com/aayudha/aayu/model/untrusted"
)

// ViewLines is the view as plain lines, every outside text neutralised.
func ViewLines(v View) []string {
	out := []string{fmt.Sprintf("#%d %s · head %s", v.PR, untrusted.Line(v.Title), gitsha.Short(v.Head))}
	if !v.Found {
		out = append(out, "inspect: the merge gate's own run has posted no judgement of this head yet")
	} else {
		out = append(out, fmt.Sprintf("inspect: %s — %s", v.State, untrusted.Line(v.Summary)))
	}
	for _, ig := range v.Ignored {
		out = append(out, "ignored: aayudha/inspect "+untrusted.Line(ig))
	}
	if !v.Found {
		return out
	}
	next := fmt.Sprintf("next: aayu inspect %d --approve --note \"what you checked\" (the [autonomy] approver records a review of this head)", v.PR)
	humanRung := v.State == "pending" && strings.HasPrefix(v.Summary, "human rung")
	if v.Judgement == nil {
		out = append(out, "criteria: "+untrusted.Line(v.Missing))
		if humanRung {
			out = append(out, next)
		}
		return out
	}
	j := v.Judgement
	reviewer := "none"
	if j.Reviewer != "" {
		reviewer = untrusted.Line(j.Reviewer)
	}
	out = append(out, fmt.Sprintf("reviewer: %s · spend: %d tokens in, %d out", reviewer, j.Spend.TokensIn, j.Spend.TokensOut))
	for _, c := range j.Criteria {
		out = append(out, fmt.Sprintf("criterion %d: %s", c.ID, untrusted.Line(c.Text)))
		tests := "no mapped test"
		if len(c.Tests) > 0 {
			tests = untrusted.Line(strings.Join(c.Tests, ", "))
		}
		out = append(out, "  tests: "+tests)
		for _, p := range c.Problems {
			out = append(out, "  finding: "+untrusted.Line(p))
		}
		if c.Rung != "" {
			out = append(out, fmt.Sprintf("  reviewer: rung %s, %s: %s", untrusted.Line(c.Rung), shownWords(c), untrusted.Line(c.Reasons)))
		}
	}
	if humanRung {
		out = append(out, next)
	}
	return out
}

func shownWords(c model.Criterion) string {
	if c.Shown {
		return "shown"
	}
	return "not shown"
}
