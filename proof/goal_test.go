package proof

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestCompletionGoalReadsTheSectionsItems: only the Completion Goal's
// numbered items are taken, CRLF or LF, with continuations joined and the
// prose before the list and the sections around it left out.
func TestCompletionGoalReadsTheSectionsItems(t *testing.T) {
	body := "Intro prose.\r\n\r\n## Completion Goal\r\nWhat done means:\r\n\r\n1. Employees see their balance\r\n2. Managers approve\r\n   within a day\r\n\r\n## Plan\r\n1. not a criterion\r\n"
	got, err := CompletionGoal("Story #7's body", body)
	if err != nil {
		t.Fatal(err)
	}
	want := []ReadyCriterion{{1, "Employees see their balance"}, {2, "Managers approve\nwithin a day"}}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("item %d: got %+v, want %+v", i+1, got[i], want[i])
		}
	}
}

// TestCompletionGoalRefusals: no section, a section without numbered
// items, two sections, items out of order and stray prose after the list
// are each refused with a reason naming the body.
func TestCompletionGoalRefusals(t *testing.T) {
	cases := []struct {
		name, body, want string
		is               error
	}{
		{"no section", "## Why\nBecause.\n", "no \"## Completion Goal\" section", ErrNoGoalSection},
		{"heading of another level", "# Completion Goal\n1. x\n", "no \"## Completion Goal\" section", ErrNoGoalSection},
		{"no items", "## Completion Goal\nIt should work.\n", "no numbered items", ErrNoGoalItems},
		{"empty section", "## Completion Goal\n\n## Plan\n1. a\n", "no numbered items", ErrNoGoalItems},
		{"two sections", "## Completion Goal\n1. a\n## Completion Goal\n1. b\n", "two", nil},
		{"out of order", "## Completion Goal\n1. a\n3. c\n", "numbered 3 where 2 was expected", nil},
		{"prose after the list", "## Completion Goal\n1. a\nand more\n", "neither a numbered item", nil},
		{"empty item", "## Completion Goal\n1.\n", "has no text", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := CompletionGoal("Story #7's body", c.body)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "Story #7's body") {
				t.Fatalf("error %v, want one naming the body and saying %q", err, c.want)
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %v does not wrap %v", err, c.is)
			}
		})
	}
}

// TestCompletionGoalHashIsTheSnapshots: the snapshot rendered from the
// items reads back with the same criteria and a hash that is its own, and
// the hash ignores CRLF and blank lines around the body but not the text.
func TestCompletionGoalHashIsTheSnapshots(t *testing.T) {
	items, err := CompletionGoal("body", "## Completion Goal\r\n1. a\r\n2. b\r\n")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, it := range items {
		texts = append(texts, it.Text)
	}
	snap := RenderReady(7, "Leave balance", time.Date(2026, 10, 12, 7, 30, 0, 0, time.UTC), texts)
	r, err := ParseReady(snap)
	if err != nil {
		t.Fatal(err)
	}
	if !r.SelfConsistent() || len(r.Criteria) != 2 || r.Criteria[1].Text != "b" {
		t.Fatalf("the snapshot does not read back: %+v", r)
	}
	if r.BodyHash != GoalHash("1. a\n2. b") || GoalHash("\r\n1. a\r\n2. b\r\n\r\n") != GoalHash("1. a\n2. b") {
		t.Errorf("the hash depends on CRLF or surrounding blank lines")
	}
	if GoalHash("1. a\n2. b") == GoalHash("1. a\n2. c") || GoalHash("1. a\n\n2. b") == GoalHash("1. a\n2. b") {
		t.Errorf("the hash ignores a change inside the body")
	}
}
