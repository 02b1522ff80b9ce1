package gatecomment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	inspectjob "github.com/aayudha/aayu/actions/inspect"
	"github.com/aayudha/aayu/model/inspect"
)

// TestGateCommentRefusesAJudgementOfAnotherHead: the comment job posts
// inspect's judgement only when it is of this pull request's head; one of
// another head is named in the comment and never posted.
func TestGateCommentRefusesAJudgementOfAnotherHead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	j := inspect.Judgement{Version: inspect.Version, PR: 4, Head: strings.Repeat("a", 40), Rung: inspect.RungHuman,
		Criteria: []inspect.Criterion{{ID: 1, Text: "greets", Tests: []string{"greet:TestShout"}}}}
	if err := inspectjob.Write(dir, j); err != nil {
		t.Fatal(err)
	}
	got := readInspect(Config{InspectDir: dir}, 4, strings.Repeat("a", 40))
	if got.j == nil || got.why != "" {
		t.Fatalf("the judgement of the head was not read: %+v", got)
	}
	var b strings.Builder
	writeInspect(&b, got)
	if !strings.Contains(b.String(), "### aayudha/inspect: human rung: no reviewer app or paid model could review this head") ||
		!strings.Contains(b.String(), "- Criterion 1 (`greet:TestShout`): the mapped tests ran, passed, exist at the head and can fail") {
		t.Errorf("the section:\n%s", b.String())
	}
	other := readInspect(Config{InspectDir: dir}, 4, strings.Repeat("b", 40))
	if other.j != nil || !strings.Contains(other.why, "not the pull request's head") {
		t.Errorf("a judgement of another head was taken: %+v", other)
	}
	if none := readInspect(Config{InspectDir: filepath.Join(dir, "absent")}, 4, "x"); none.j != nil || none.why != "" {
		t.Errorf("no judgement file: %+v", none)
	}
	if err := os.WriteFile(filepath.Join(dir, inspectjob.File), []byte(`{"version":1,"pr":4,"head":"`+strings.Repeat("a", 40)+`","rung":"human","criteria":[],"spend":{"tokens_in":0,"tokens_out":0,"usd":0},"merge":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if extra := readInspect(Config{InspectDir: dir}, 4, strings.Repeat("a", 40)); extra.j != nil || !strings.Contains(extra.why, "unknown field") {
		t.Errorf("a judgement with a field aayu never writes was taken: %+v", extra)
	}
}

// TestGateCommentShowsTheBuilderFamilyCap: a same-family review the model
// judged rung A is posted as rung C, and the comment names the builder
// and why the rung was capped; a judgement file claiming rung A for it is
// refused, never posted.
func TestGateCommentShowsTheBuilderFamilyCap(t *testing.T) {
	t.Parallel()
	head := strings.Repeat("a", 40)
	j := inspect.Judgement{Version: inspect.Version, PR: 4, Head: head, Builder: "gpt-5", ReviewerModel: "gpt-4o", Reviewer: "openai gpt-4o",
		Criteria: []inspect.Criterion{{ID: 1, Text: "greets", Tests: []string{"greet:TestShout"}, Rung: inspect.RungA, Shown: true, Reasons: "asserts"}}}
	j.Decide(true, "", 0)
	dir := t.TempDir()
	if err := inspectjob.Write(dir, j); err != nil {
		t.Fatal(err)
	}
	got := readInspect(Config{InspectDir: dir}, 4, head)
	var b strings.Builder
	writeInspect(&b, got)
	for _, want := range []string{"### aayudha/inspect: rung C: every criterion's mapped tests show its promise", "builder gpt-5",
		"Rung capped at C: the reviewer \\(gpt-4o\\) is of the builder's own family \\(openai, gpt-5\\): a same-family review is rung C."} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the section lacks %q:\n%s", want, b.String())
		}
	}
	j.Rung, j.Capped = inspect.RungA, ""
	if err := inspectjob.Write(dir, j); err != nil {
		t.Fatal(err)
	}
	if forged := readInspect(Config{InspectDir: dir}, 4, head); forged.j != nil || !strings.Contains(forged.why, "is above rung C, the most its families allow") {
		t.Errorf("a rung A judgement of a same-family review was taken: %+v", forged)
	}
}
