package inspect

import (
	"strings"
	"testing"
)

// TestFamily: a model's family is its maker, known by the first word of
// its name or the provider of a routed name; anything else is unknown.
func TestFamily(t *testing.T) {
	for name, want := range map[string]string{
		"claude-sonnet-4-5": "anthropic", "Claude-Opus-4": "anthropic", "anthropic/claude-3.5-sonnet": "anthropic",
		"gpt-5": "openai", "gpt-4o-mini": "openai", "o3": "openai", "o4-mini": "openai", "openai/gpt-4o": "openai",
		"gemini-2.5-pro": "google", "meta-llama/Llama-3.1-70B": "meta", "deepseek-coder": "deepseek",
		"sandbox-reviewer-1": "sandbox", "qwen2.5-coder": "", "": "", "my-own-model": "", "gpt": "openai", "claude@20250101": "anthropic",
	} {
		if got := Family(name); got != want {
			t.Errorf("Family(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestCap: seed 001's rule, each refusal of rung A named: a builder whose
// family is unknown (no Aayudha-Model, or a name no family is known by)
// caps the review at rung C; so does a reviewer whose family is unknown,
// and a reviewer of the builder's own family; a reviewer of another
// known family can give rung A.
func TestCap(t *testing.T) {
	for _, c := range []struct {
		name, builder, reviewer, rung, why string
	}{
		{"TestCapUnknownBuilderFamilyNoTrailerIsRungC", "", "gpt-5", RungC, "the head commit names no Aayudha-Model"},
		{"TestCapUnknownBuilderFamilyByNameIsRungC", "my-own-model", "gpt-5", RungC, `no family is known by the model name "my-own-model"`},
		{"TestCapUnknownReviewerFamilyIsRungC", "claude-sonnet-4-5", "my-own-model", RungC, "the reviewer's family is unknown"},
		{"TestCapSameFamilyReviewerCannotGiveRungA", "claude-sonnet-4-5", "claude-opus-4", RungC, "a same-family review is rung C"},
		{"TestCapSameFamilyThroughARouterCannotGiveRungA", "gpt-5", "openai/gpt-4o", RungC, "of the builder's own family (openai"},
		{"TestCapAnotherFamilyMayGiveRungA", "claude-sonnet-4-5", "gpt-5", RungA, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			rung, why := Cap(c.builder, c.reviewer)
			if rung != c.rung || (c.why == "") != (why == "") || !strings.Contains(why, c.why) {
				t.Errorf("Cap(%q, %q) = %s %q, want %s with %q", c.builder, c.reviewer, rung, why, c.rung, c.why)
			}
		})
	}
}

// TestDecideCapsTheModelsRungByFamily: a model's rung A stands only for a
// reviewer of another family than the builder's; a same-family review and
// an unknown builder are rung C, Capped saying why, and a judgement read
// back claiming more than its families allow is refused.
func TestDecideCapsTheModelsRungByFamily(t *testing.T) {
	for _, c := range []struct {
		builder, reviewer, rung string
	}{{"claude-sonnet-4-5", "gpt-5", RungA}, {"gpt-5", "gpt-4o", RungC}, {"", "gpt-5", RungC}} {
		j := Judgement{Version: Version, PR: 4, Head: "abc", Criteria: Judge(facts()), Builder: c.builder, ReviewerModel: c.reviewer}
		for i := range j.Criteria {
			j.Criteria[i].Rung, j.Criteria[i].Shown = RungA, true
		}
		j.Decide(true, "", 0)
		if state, desc := j.Status(); j.Rung != c.rung || state != "success" || !strings.HasPrefix(desc, "rung "+c.rung+": ") || (c.rung == RungC) != (j.Capped != "") {
			t.Errorf("builder %q, reviewer %q: rung %s (%s %q), capped %q", c.builder, c.reviewer, j.Rung, state, desc, j.Capped)
		}
		if err := j.Validate(4, "abc"); err != nil {
			t.Errorf("builder %q, reviewer %q: %v", c.builder, c.reviewer, err)
		}
	}
	forged := Judgement{Version: Version, PR: 4, Head: "abc", Rung: RungA, Builder: "gpt-5", ReviewerModel: "gpt-4o"}
	if err := forged.Validate(4, "abc"); err == nil || !strings.Contains(err.Error(), "is above rung C, the most its families allow") {
		t.Errorf("a rung A judgement of a same-family review: %v", err)
	}
}
