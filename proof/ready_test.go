package proof

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// hashOf1a2b is `printf '1. a\n2. b' | sha256sum`, computed outside Go so
// GoalHash is checked against an independent tool.
const hashOf1a2b = "36abf07c8fe5b0cacdbe0e1bee36703e7daad0a5019ce8ec3c76de25980fb779"

func TestGoalHash(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"plain", "1. a\n2. b", hashOf1a2b},
		{"final newline dropped", "1. a\n2. b\n", hashOf1a2b},
		{"CRLF turned to LF", "1. a\r\n2. b\r\n", hashOf1a2b},
		{"leading and trailing blank lines dropped", "\n \n1. a\n2. b\n\n\t\n", hashOf1a2b},
		{"empty", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := GoalHash(tc.body); got != tc.want {
				t.Fatalf("GoalHash(%q) = %s, want %s", tc.body, got, tc.want)
			}
		})
	}
	// An inner blank line and trailing spaces are content, not layout.
	for _, body := range []string{"1. a\n\n2. b", "1. a \n2. b", "1. a\n 2. b"} {
		if GoalHash(body) == hashOf1a2b {
			t.Errorf("GoalHash(%q) equals the hash of %q", body, "1. a\n2. b")
		}
	}
}

func TestParseReadyStory131(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "ready", "131.md"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseReady(b)
	if err != nil {
		t.Fatalf("ParseReady: %v", err)
	}
	if r.Story != 131 || r.Title != "Benefits Q&A answers cite their passage" {
		t.Errorf("story %d title %q", r.Story, r.Title)
	}
	if !r.SelfConsistent() {
		t.Errorf("recorded hash %s (from sha256sum) differs from body hash %s", r.RecordedHash, r.BodyHash)
	}
	if want := time.Date(2026, 10, 12, 7, 30, 0, 0, time.UTC); !r.FrozenAt.Equal(want) {
		t.Errorf("frozen_at %v, want %v", r.FrozenAt, want)
	}
	want := []ReadyCriterion{
		{1, "The dental question is answered from the dental-deductible passage, quoted with its plan and section, and grounded."},
		{2, "Questions about another person's records or asking for advice are refused before retrieval (never looked up),\nwith a reason and a message."},
		{3, "An answer the retriever cannot ground says so and quotes nothing."},
	}
	if !reflect.DeepEqual(r.Criteria, want) {
		t.Errorf("criteria\n got %+v\nwant %+v", r.Criteria, want)
	}
}

// snapshot builds a snapshot text with the given goal body and a recorded
// hash computed from it, so each case varies one thing.
func snapshot(title, goal string) string {
	return title + "\ncompletion_goal_hash: " + GoalHash(goal) + "\nfrozen_at: 2026-10-12T07:30:00Z\n\n## Completion Goal\n" + goal
}

func TestParseReadyAccepts(t *testing.T) {
	tests := []struct {
		name       string
		text       string
		story      int
		title      string
		criteria   []string
		consistent bool
	}{
		{"em dash", snapshot("# Ready: story 131 — Cite passages", "1. a\n2. b\n"), 131, "Cite passages", []string{"a", "b"}, true},
		{"hyphen", snapshot("# Ready: story 7 - Fix", "1. a\n"), 7, "Fix", []string{"a"}, true},
		{"en dash", snapshot("# Ready: story 7 – Fix", "1. a\n"), 7, "Fix", []string{"a"}, true},
		{"no title text", snapshot("# Ready: story 7", "1. a\n"), 7, "", []string{"a"}, true},
		{"CRLF", strings.ReplaceAll(snapshot("# Ready: story 7 — T", "1. a\n2. b\n"), "\n", "\r\n"), 7, "T", []string{"a", "b"}, true},
		{"continuations and blank lines", snapshot("# Ready: story 7 — T", "\n1. first\n   more of first\n\n\tstill first\n2. second\n\n"), 7, "T", []string{"first\nmore of first\nstill first", "second"}, true},
		{"prose before items", snapshot("# Ready: story 7 — T", "Done when:\n\n1. a\n"), 7, "T", []string{"a"}, true},
		{"section ends at next heading", snapshot("# Ready: story 7 — T", "1. a\n") + "\n## Notes\nnot a criterion\n3. nor this\n", 7, "T", []string{"a"}, true},
		{"subheading inside is content", snapshot("# Ready: story 7 — T", "1. a\n   ### detail\n"), 7, "T", []string{"a\n### detail"}, true},
		{"body edited after freezing", strings.Replace(snapshot("# Ready: story 7 — T", "1. a\n"), "1. a", "1. b", 1), 7, "T", []string{"b"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseReady([]byte(tc.text))
			if err != nil {
				t.Fatalf("ParseReady refused: %v", err)
			}
			if r.Story != tc.story || r.Title != tc.title {
				t.Errorf("story %d title %q, want %d %q", r.Story, r.Title, tc.story, tc.title)
			}
			var got []string
			for i, c := range r.Criteria {
				if c.ID != i+1 {
					t.Errorf("criterion %d has id %d", i+1, c.ID)
				}
				got = append(got, c.Text)
			}
			if !reflect.DeepEqual(got, tc.criteria) {
				t.Errorf("criteria %q, want %q", got, tc.criteria)
			}
			if r.SelfConsistent() != tc.consistent {
				t.Errorf("SelfConsistent() = %v, want %v (recorded %s, body %s)", r.SelfConsistent(), tc.consistent, r.RecordedHash, r.BodyHash)
			}
		})
	}
}

func TestParseReadyRefuses(t *testing.T) {
	const title = "# Ready: story 7 — T"
	good := GoalHash("1. a\n")
	tests := []struct {
		name, text, words string
	}{
		{"no goal section", title + "\ncompletion_goal_hash: " + good + "\n\n## Goal\n1. a\n", "no \"## Completion Goal\" section"},
		{"no numbered items", snapshot(title, "Just prose.\n"), "no numbered items"},
		{"empty section", snapshot(title, ""), "no numbered items"},
		{"duplicate number", snapshot(title, "1. a\n2. b\n2. c\n"), "item number 2 is used twice"},
		{"skipped number", snapshot(title, "1. a\n3. b\n"), "numbered 3 where 2 was expected"},
		{"starts at zero", snapshot(title, "0. a\n"), "numbered 0 where 1 was expected"},
		{"huge number", snapshot(title, "1. a\n99999999999999999999999. b\n"), "where 2 was expected"},
		{"empty item", snapshot(title, "1.\n2. b\n"), "item 1 has no text"},
		{"stray text after items", snapshot(title, "1. a\nnot indented\n"), "neither a numbered item nor an indented continuation"},
		{"two goal sections", snapshot(title, "1. a\n\n## Completion Goal\n1. b\n"), "two \"## Completion Goal\" sections"},
		{"no hash line", title + "\n\n## Completion Goal\n1. a\n", "no completion_goal_hash line"},
		{"short hash", title + "\ncompletion_goal_hash: abc\n\n## Completion Goal\n1. a\n", "not 64 lowercase hex"},
		{"uppercase hash", title + "\ncompletion_goal_hash: " + strings.ToUpper(good) + "\n\n## Completion Goal\n1. a\n", "not 64 lowercase hex"},
		{"two hash lines", title + "\ncompletion_goal_hash: " + good + "\ncompletion_goal_hash: " + good + "\n\n## Completion Goal\n1. a\n", "second completion_goal_hash"},
		{"bad frozen_at", title + "\ncompletion_goal_hash: " + good + "\nfrozen_at: yesterday\n\n## Completion Goal\n1. a\n", "not an RFC 3339 time"},
		{"no title", "completion_goal_hash: " + good + "\n\n## Completion Goal\n1. a\n", "no title line"},
		{"malformed title", snapshot("# Ready story 7", "1. a\n"), "not a title"},
		{"story zero", snapshot("# Ready: story 0 — T", "1. a\n"), "not a positive number"},
		{"too large", snapshot(title, "1. "+strings.Repeat("x", MaxReadyBytes)+"\n"), "more than the 1048576-byte limit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseReady([]byte(tc.text))
			if err == nil {
				t.Fatalf("ParseReady accepted it: %+v", r)
			}
			if !strings.Contains(err.Error(), tc.words) {
				t.Fatalf("error %q does not say %q", err, tc.words)
			}
		})
	}
}

func TestRenderReadyRoundTrip(t *testing.T) {
	frozen := time.Date(2026, 10, 12, 9, 30, 0, 0, time.FixedZone("CEST", 2*3600))
	criteria := []string{
		"The dental question is answered from its passage.",
		"  Refused before retrieval,\r\n\n  with a reason.  ",
		"3. looks like a number but is text",
	}
	b := RenderReady(131, "Benefits\nQ&A", frozen, criteria)
	r, err := ParseReady(b)
	if err != nil {
		t.Fatalf("ParseReady(RenderReady(…)) refused: %v\n%s", err, b)
	}
	if !r.SelfConsistent() {
		t.Fatalf("rendered snapshot is not self-consistent:\n%s", b)
	}
	if r.Story != 131 || r.Title != "Benefits Q&A" || !r.FrozenAt.Equal(frozen) {
		t.Errorf("got story %d title %q frozen %v", r.Story, r.Title, r.FrozenAt)
	}
	want := []ReadyCriterion{
		{1, "The dental question is answered from its passage."},
		{2, "Refused before retrieval,\nwith a reason."},
		{3, "3. looks like a number but is text"},
	}
	if !reflect.DeepEqual(r.Criteria, want) {
		t.Errorf("criteria %+v, want %+v", r.Criteria, want)
	}
	if !strings.Contains(string(b), "frozen_at: 2026-10-12T07:30:00Z\n") {
		t.Errorf("frozen_at not written in UTC:\n%s", b)
	}
}
