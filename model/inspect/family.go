package inspect

import (
	"fmt"
	"strings"
)

// families names a model's family by the first word of its name (before
// the first "-", ".", ":" or "@"), or by the provider a routed name starts
// with ("anthropic/claude-…"). The family is the maker: a reviewer of the
// builder's own family is not a second opinion (seed 001).
var families = map[string]string{
	"anthropic": "anthropic", "claude": "anthropic",
	"openai": "openai", "gpt": "openai", "chatgpt": "openai", "codex": "openai", "o1": "openai", "o3": "openai", "o4": "openai",
	"google": "google", "gemini": "google", "gemma": "google",
	"meta": "meta", "meta-llama": "meta", "llama": "meta",
	"mistral": "mistral", "mistralai": "mistral", "codestral": "mistral", "devstral": "mistral", "magistral": "mistral",
	"deepseek": "deepseek", "deepseek-ai": "deepseek",
	"qwen": "qwen", "alibaba": "qwen",
	"xai": "xai", "x-ai": "xai", "grok": "xai",
	// The sandbox's deterministic reviewer is a family of its own, so the
	// demo and the tests reach every rung with no network.
	"sandbox": "sandbox",
}

// Family is the family of the model named name, or "" when aayu cannot
// tell (no name, or a name no family is known by).
func Family(name string) string {
	s := strings.ToLower(strings.TrimSpace(name))
	if s == "" {
		return ""
	}
	if provider, rest, ok := strings.Cut(s, "/"); ok {
		if f, known := families[provider]; known {
			return f
		}
		s = rest
	}
	if f, ok := families[s]; ok {
		return f
	}
	word, _, _ := strings.Cut(strings.Map(func(r rune) rune {
		if strings.ContainsRune(".:@_", r) {
			return '-'
		}
		return r
	}, s), "-")
	return families[word]
}

// Cap is the best rung a review of a builder's work can stand at, by seed
// 001's rule, and why, in words ("" when nothing caps it): a builder whose
// family is unknown caps it at rung C (no reviewer can be shown to differ
// from it); so does a reviewer whose family is unknown, and a reviewer of
// the builder's own family (a same-family review is rung C). Only a
// reviewer of another known family can give rung A. builder is the pack's
// model (the head commit's Aayudha-Model trailer), reviewer the [inspect]
// model.
func Cap(builder, reviewer string) (rung, why string) {
	b, r := Family(builder), Family(reviewer)
	switch {
	case strings.TrimSpace(builder) == "":
		return RungC, "the builder's family is unknown: the head commit names no Aayudha-Model, so no reviewer can be shown to differ from it"
	case b == "":
		return RungC, fmt.Sprintf("the builder's family is unknown: no family is known by the model name %q, so no reviewer can be shown to differ from it", builder)
	case r == "":
		return RungC, fmt.Sprintf("the reviewer's family is unknown: no family is known by the model name %q, so it cannot be shown to differ from the builder's (%s)", reviewer, b)
	case r == b:
		return RungC, fmt.Sprintf("the reviewer (%s) is of the builder's own family (%s, %s): a same-family review is rung C", reviewer, b, builder)
	}
	return RungA, ""
}
