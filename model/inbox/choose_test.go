package inbox

import (
	"reflect"
	"strings"
	"testing"
)

func TestSelectionRules(t *testing.T) {
	s := base()
	withAll(&s)
	steps := Derive(s)
	for _, st := range steps {
		ok, refusal := Selectable(st)
		if st.Group == Housekeeping {
			if !ok || refusal != "" {
				t.Errorf("%s: housekeeping must be selectable, got %v %q", st.ID(), ok, refusal)
			}
			continue
		}
		if ok || !strings.Contains(refusal, "needs you") || !strings.Contains(refusal, "never selected or done in bulk") {
			t.Errorf("%s: x must refuse in words, got %v %q", st.ID(), ok, refusal)
		}
	}
	var all []string
	for _, i := range SelectAll(steps) {
		all = append(all, steps[i].ID())
	}
	if want := []string{"merged-without-ship#120", "bug-fix-merged#170", "replaced#90"}; !reflect.DeepEqual(all, want) {
		t.Fatalf("X selects %v, want %v", all, want)
	}

	lines := BulkConfirm(steps, "founder")
	if len(lines) != 4 {
		t.Fatalf("bulk confirmation has %d lines, want a question and 3 items: %q", len(lines), lines)
	}
	if !strings.Contains(lines[0], "written as @founder") || !strings.Contains(lines[0], "not undone later") {
		t.Errorf("question = %q", lines[0])
	}
	for _, l := range lines[1:] {
		if strings.Contains(l, "Decision") || strings.Contains(l, "audit") {
			t.Errorf("a needs-you step leaked into the bulk list: %q", l)
		}
	}
	if !strings.Contains(lines[3], `comment on #90: "Replaced by #95"`) {
		t.Errorf("item line should say what it writes: %q", lines[3])
	}
	if BulkConfirm(steps[:1], "founder") != nil {
		t.Error("no housekeeping selected asks nothing")
	}

	// Housekeeping recommendations never ask twice; every card has skip.
	for _, i := range SelectAll(steps) {
		if steps[i].Recommendation.NeedsConfirm {
			t.Errorf("%s: the housekeeping recommendation should not need a second Enter", steps[i].ID())
		}
	}
	for _, st := range steps {
		if c, refusal := Pick(st, SkipKey); refusal != "" || len(c.Writes) != 0 {
			t.Errorf("%s: skip = %+v %q", st.ID(), c, refusal)
		}
		if _, refusal := Pick(st, "9"); refusal == "" {
			t.Errorf("%s: an unknown key is refused", st.ID())
		}
	}
}

func TestDecisionConfirmations(t *testing.T) {
	cases := []struct {
		name        string
		add         func(*Snapshot)
		key         string
		wantConfirm bool
		says        []string
	}{
		{"recommended two-way", withDecision, "enter", false, nil},
		{"recommended by number", withDecision, "1", false, nil},
		{"not recommended, two-way", withDecision, "2", true, []string{
			"Accept option 2: Wait a quarter on Decision #324", "not the recommendation (accept option 1: Add the seat)",
			`comment on #324: "Accepted option 2 (Wait a quarter) by @founder"`, "add the label status:accepted to #324", "close #324 as completed", "Press y to apply it"}},
		{"recommended one-way", withOneWayDecision, "enter", true, []string{"one-way door: it cannot be undone later", `"Accepted option 1 (Keep the queue) by @founder"`}},
		{"not recommended, one-way", withOneWayDecision, "3", true, []string{"not the recommendation", "and a one-way door", "Accepted option 3 (Drop it)"}},
		{"housekeeping recommendation", withReplaced, "enter", false, nil},
		{"opening a PR needs no confirmation", withNeedsReview, "1", false, nil},
		{"approving a head confirms", withNeedsReview, "2", true, []string{"approve pull request #150 at head " + headB, "write reviews/150/" + headB + ".json on the ledger"}},
		{"correction confirms", withAudit, "2", true, []string{"open a pull request into dev that reverts #160"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := base()
			c.add(&s)
			ch, refusal := Pick(Derive(s)[0], c.key)
			if refusal != "" {
				t.Fatal(refusal)
			}
			if ch.NeedsConfirm != c.wantConfirm {
				t.Fatalf("NeedsConfirm = %v, want %v (%q)", ch.NeedsConfirm, c.wantConfirm, ch.Confirm)
			}
			if !c.wantConfirm && ch.Confirm != "" {
				t.Errorf("no confirmation expected, got %q", ch.Confirm)
			}
			if strings.Contains(ch.Confirm, "\n") {
				t.Errorf("the confirmation is one line: %q", ch.Confirm)
			}
			for _, w := range c.says {
				if !strings.Contains(ch.Confirm, w) {
					t.Errorf("confirmation %q does not say %q", ch.Confirm, w)
				}
			}
		})
	}
}

func TestApproveHeadOnlyForApprover(t *testing.T) {
	cases := []struct {
		name, approver, viewer, author string
		refusal                        string
	}{
		{"the approver", "founder", "founder", "agent-author", ""},
		{"approver login case", "@Founder", "founder", "agent-author", ""},
		{"no approver set", "", "founder", "agent-author", "none is set"},
		{"someone else", "ana", "founder", "agent-author", "@ana"},
		{"own pull request", "founder", "founder", "founder", "refuses an author's own approval"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := base()
			s.Approver, s.Viewer = c.approver, c.viewer
			withNeedsReview(&s)
			s.PullRequests[0].Author.Login = c.author
			st := Derive(s)[0]
			_, refusal := Pick(st, "2")
			if c.refusal == "" && refusal != "" || !strings.Contains(refusal, c.refusal) {
				t.Fatalf("refusal = %q, want %q", refusal, c.refusal)
			}
			if c.refusal != "" && st.Choices[1].Disabled == "" {
				t.Error("a disabled choice stays on the card with its reason")
			}
		})
	}
}
