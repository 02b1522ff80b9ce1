package inbox

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/model/waiver"
)

func waiverIssue(body string, labels ...untrusted.Label) Issue {
	return Issue{Number: 21, Title: "Floor waiver: coverage on #6", State: "open", Author: founder,
		Labels: append([]untrusted.Label{LabelDecision, waiver.Label}, labels...), Body: untrusted.Text(body)}
}

// TestFloorWaiverDecisionLandsItsRecordFirst: accepting a floor-waiver
// Decision's option 1 writes the waiver's record on the ledger before
// the Decision's own writes, naming the accepting person, and after them
// asks for the merge gate's re-run on the waived head; option 2 (keep the
// floor) writes no record and re-runs nothing; both are one-way doors.
func TestFloorWaiverDecisionLandsItsRecordFirst(t *testing.T) {
	q := waiver.Request{PR: 6, Head: headA, Floor: "coverage", Why: "drilled by hand", Story: 5}
	s := base()
	s.Issues = append(s.Issues, waiverIssue(waiver.Body(q)))
	st, ok := Find(Derive(s), "decision#21")
	if !ok || st.Problem != "" {
		t.Fatalf("no acceptable card: %+v", st)
	}
	waive, keep := st.Choices[0], st.Choices[1]
	first := waive.Writes[0]
	if first.Kind != WriteLedgerWaiver || first.Path != waiver.Path(6, headA, "coverage") || first.Login != "founder" || first.Number != 21 || first.Waiver != q {
		t.Fatalf("option 1's first write: %+v", first)
	}
	if last := waive.Writes[len(waive.Writes)-1]; last.Kind != WriteGateRerun || last.Number != 6 || last.CommitID != headA || waive.Writes[len(waive.Writes)-2].Kind != WriteClose {
		t.Fatalf("option 1 does not end by re-running the gate on #6's head once the Decision is closed: %+v", waive.Writes)
	}
	if !waive.OneWay || !waive.NeedsConfirm || !strings.Contains(waive.Confirm, "write "+first.Path+" on the ledger") {
		t.Fatalf("option 1 is not a confirmed one-way door naming its record: %+v", waive)
	}
	for _, w := range keep.Writes {
		if w.Kind == WriteLedgerWaiver || w.Kind == WriteGateRerun {
			t.Fatalf("keeping the floor writes a waiver record: %+v", keep.Writes)
		}
	}
}

// TestFloorWaiverThatNamesNoHeadOnlyOpens and
// TestFloorWaiverOnATwoWayDoorOnlyOpens: a floor-waiver Decision whose
// body does not say what it waives, or that is not a one-way door,
// cannot be accepted from the inbox.
func TestFloorWaiverThatNamesNoHeadOnlyOpens(t *testing.T) {
	s := base()
	s.Issues = append(s.Issues, waiverIssue("## Options\n1. Waive it (recommended)\n2. Keep it\n\nDoor: one-way\n"))
	st, _ := Find(Derive(s), "decision#21")
	if !strings.Contains(st.Problem, "exactly one a Pull request: #N line") || len(st.Choices) != 2 || st.Choices[0].Writes[0].Kind != WriteOpen {
		t.Fatalf("card: %+v", st)
	}
}

func TestFloorWaiverOnATwoWayDoorOnlyOpens(t *testing.T) {
	body := strings.Replace(waiver.Body(waiver.Request{PR: 6, Head: headA, Floor: "coverage", Why: "x"}), "Door: one-way", "Door: two-way", 1)
	s := base()
	s.Issues = append(s.Issues, waiverIssue(body))
	st, _ := Find(Derive(s), "decision#21")
	if !strings.Contains(st.Problem, "a floor waiver is a one-way door") {
		t.Fatalf("card: %+v", st)
	}
}

// TestProvisionalDecisionRecommendsRatify: a provisional Decision (V8)
// is acted on already; its card recommends ratifying that option.
func TestProvisionalDecisionRecommendsRatify(t *testing.T) {
	s := base()
	withDecision(&s)
	s.Issues[0].Labels = append(s.Issues[0].Labels, LabelProvisional)
	st, _ := Find(Derive(s), "decision#324")
	if st.Recommendation.Label != "ratify: accept option 1: Add the seat" || st.Recommendation.JSONLabel() != "ratify: accept option 1: Add the seat" {
		t.Fatalf("recommendation %q", st.Recommendation.Label)
	}
	if st.Choices[1].Label != "accept option 2: Wait a quarter" {
		t.Fatalf("the other option reads %q", st.Choices[1].Label)
	}
	plain := base()
	withDecision(&plain)
	if st, _ := Find(Derive(plain), "decision#324"); strings.HasPrefix(st.Recommendation.Label, "ratify") {
		t.Fatalf("a Decision that is not provisional recommends %q", st.Recommendation.Label)
	}
}

// TestFloorWaiverAcceptanceCarriesTheTextItAccepts: each option's comment
// on a floor-waiver Decision says, on its second line, the hash of the
// Decision's title and body as the card read them, and Acceptance reads
// the option, the login and that hash back; a body edited before the
// write changes the comment, so the re-read before writing refuses it. A
// comment with anything more, or a hash that is not 64 hex, is not an
// acceptance.
func TestFloorWaiverAcceptanceCarriesTheTextItAccepts(t *testing.T) {
	q := waiver.Request{PR: 6, Head: headA, Floor: "coverage", Why: "drilled by hand"}
	s := base()
	s.Issues = append(s.Issues, waiverIssue(waiver.Body(q)))
	st, _ := Find(Derive(s), "decision#21")
	hash := waiver.TextHash("Floor waiver: coverage on #6", waiver.Body(q))
	for i, c := range st.Choices[:2] {
		var body string
		for _, w := range c.Writes {
			if w.Kind == WriteComment {
				body = w.Body
			}
		}
		if !strings.HasSuffix(body, ") by @founder\n"+waiver.TextLine(hash)) {
			t.Fatalf("option %d's comment does not carry the text's hash %s:\n%s", i+1, hash, body)
		}
		if a, ok := Acceptance(body); !ok || a.Option != i+1 || a.Login != "founder" || a.TextHash != hash {
			t.Fatalf("option %d's comment reads back as %+v %v", i+1, a, ok)
		}
	}
	edited := base()
	edited.Issues = append(edited.Issues, waiverIssue(waiver.Body(q)+"\nAlso vet.\n"))
	now, _ := Find(Derive(edited), "decision#21")
	if changed, what := Reread(st, now); !changed || !strings.Contains(what, "changed; nothing was written") {
		t.Fatalf("a body edited before the write: changed %v %q", changed, what)
	}
	for _, body := range []string{
		"Accepted option 1 (Waive) by @founder\n" + waiver.TextLine(hash) + "\nmore",
		"Accepted option 1 (Waive) by @founder\n" + waiver.TextLine(hash[:40]),
		"Accepted option 1 (Waive) by @founder\nAccepted text: " + hash,
	} {
		if a, ok := Acceptance(body); ok {
			t.Errorf("%q reads as an acceptance: %+v", body, a)
		}
	}
	if a, ok := Acceptance("Accepted option 2 (Keep) by @founder"); !ok || a.Option != 2 || a.TextHash != "" {
		t.Errorf("a one-line acceptance reads as %+v %v", a, ok)
	}
}

// TestHalfDoneWaiverEditedSinceItsCommentSaysSo: the person's acceptance
// comment is on a floor-waiver Decision that is still open, and its body
// was edited after that comment: the half-done card says finishing
// accepts it as it reads now, and finishing posts the acceptance of that
// text (the old comment's hash is not the card's).
func TestHalfDoneWaiverEditedSinceItsCommentSaysSo(t *testing.T) {
	q := waiver.Request{PR: 6, Head: headA, Floor: "coverage", Why: "drilled by hand"}
	old := "Accepted option 1 (Waive) by @founder\n" + waiver.TextLine(waiver.TextHash("Floor waiver: coverage on #6", waiver.Body(q)))
	for _, tc := range []struct {
		name, body, want string
	}{
		{"unchanged", waiver.Body(q), ""},
		{"edited", waiver.Body(q) + "\nAlso vet.\n", "Its title or body was edited after that comment: finishing accepts #21 as it reads now, so read it first."},
	} {
		s := base()
		s.Issues = append(s.Issues, waiverIssue(tc.body))
		s.IssueComments = map[int][]identity.Comment{21: {{Author: founder, Body: untrusted.Text(old)}}}
		st, _ := Find(Derive(s), "decision#21")
		said := strings.Contains(st.HalfDone, "edited after that comment")
		if !strings.HasPrefix(st.HalfDone, "Half done: option 1 was accepted") || said != (tc.want != "") || !strings.HasSuffix(st.HalfDone, tc.want) {
			t.Fatalf("%s: half done %q", tc.name, st.HalfDone)
		}
	}
}
