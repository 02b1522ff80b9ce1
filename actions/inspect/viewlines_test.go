package inspect

import (
	"strings"
	"testing"

	model "github.com/aayudha/aayu/model/inspect"
)

// TestViewLinesNeutraliseOutsideText: the title, the status's words, the
// criterion, the tests and the reviewer's reasons come from outside aayu;
// no escape sequence or line break of theirs reaches the terminal, and the
// human rung names the person's next command.
func TestViewLinesNeutraliseOutsideText(t *testing.T) {
	v := View{PR: 6, Head: strings.Repeat("a", 40), Title: "Copay\x1b[2J", Found: true, State: "pending",
		Summary: "human rung: no reviewer app or paid model could review this head",
		Judgement: &model.Judgement{Reviewer: "openai m\nat x", Criteria: []model.Criterion{{ID: 1, Text: "greets\x1b]8;;evil\x07",
			Tests: []string{"greet:TestShout"}, Problems: []string{"greet:TestShout did not run\r\nfake: line"}, Rung: "A", Shown: true, Reasons: "ok\x1b[31m"}}}}
	lines := ViewLines(v)
	all := strings.Join(lines, "\n")
	if strings.Contains(all, "\x1b") || strings.Contains(all, "\r") || strings.Contains(all, "\x07") {
		t.Errorf("outside text reached the terminal raw:\n%q", all)
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "fake:") {
			t.Errorf("a problem's line break started a line of its own: %q", l)
		}
	}
	if !strings.Contains(all, "next: aayu inspect 6 --approve --note") || !strings.Contains(all, "reviewer: rung A, shown: ok") {
		t.Errorf("the view:\n%s", all)
	}
}
