package proof

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// FuzzParseReady checks that ParseReady never panics and that whatever it
// accepts is described faithfully: the body hash is the hash of the section
// as an independent reading finds it, and rendering the parsed snapshot
// reads back to the same story, title and criteria.
func FuzzParseReady(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "ready", "131.md")); err == nil {
		f.Add(b)
	}
	f.Add(RenderReady(7, "T", time.Time{}, []string{"a", "b\nc"}))
	f.Add([]byte("# Ready: story 1 - x\r\ncompletion_goal_hash: " + strings.Repeat("0", 64) + "\r\n## Completion Goal\r\n1. a\r\n\t b\r\n## Next\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseReady(data)
		if err != nil {
			if r != nil {
				t.Fatalf("ParseReady returned a snapshot with its error %v", err)
			}
			return
		}
		if want := GoalHash(independentGoalSection(string(data))); r.BodyHash != want {
			t.Fatalf("BodyHash %s, but the section hashes to %s", r.BodyHash, want)
		}
		if len(r.Criteria) == 0 {
			t.Fatal("accepted a snapshot with no criteria")
		}
		texts := make([]string, len(r.Criteria))
		for i, c := range r.Criteria {
			if c.ID != i+1 || c.Text == "" || c.Text != normalizeCriterion(c.Text) {
				t.Fatalf("criterion %d is %+v: ids run 1…n and texts are normalised and non-empty", i+1, c)
			}
			texts[i] = c.Text
		}
		again, err := ParseReady(RenderReady(r.Story, r.Title, r.FrozenAt, texts))
		if err != nil {
			t.Fatalf("rendering the accepted snapshot gives one ParseReady refuses: %v", err)
		}
		if !again.SelfConsistent() {
			t.Fatal("a rendered snapshot is not self-consistent")
		}
		if again.Story != r.Story || again.Title != strings.Join(strings.Fields(r.Title), " ") {
			t.Fatalf("round trip changed story/title: %d %q → %d %q", r.Story, r.Title, again.Story, again.Title)
		}
		if !again.FrozenAt.Equal(r.FrozenAt.Truncate(time.Second)) {
			t.Fatalf("round trip changed frozen_at: %v → %v", r.FrozenAt, again.FrozenAt)
		}
		if !reflect.DeepEqual(again.Criteria, r.Criteria) {
			t.Fatalf("round trip changed criteria:\n%+v\n%+v", r.Criteria, again.Criteria)
		}
	})
}

// independentGoalSection finds the Completion Goal body by a different route
// than ParseReady: searching the text rather than walking lines.
func independentGoalSection(s string) string {
	s = "\n" + strings.ReplaceAll(s, "\r\n", "\n")
	heading := "\n## Completion Goal"
	i := strings.Index(s, heading)
	for i >= 0 {
		rest := s[i+len(heading):]
		eol := strings.IndexByte(rest, '\n')
		if eol < 0 {
			return ""
		}
		if strings.Trim(rest[:eol], " \t") == "" {
			body := rest[eol+1:]
			if j := strings.Index("\n"+body, "\n## "); j >= 0 {
				body = body[:max(j-1, 0)]
			}
			return body
		}
		next := strings.Index(rest, heading)
		if next < 0 {
			return ""
		}
		i += len(heading) + next
	}
	return ""
}
