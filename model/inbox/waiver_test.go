package inbox

import (
	"strings"
	"testing"

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
