package approve

import (
	"testing"
	"time"

	"github.com/aayudha/aayu/model/identity"
)

// deviceBatch is a device-code batch as the waiting aayu posted it: the
// rendered text and the code's line, unedited.
func deviceBatch(code string) (Stored, *Comment) {
	rec := twoWayRecord()
	rec.Way, rec.PostedBy = WayDevice, "founder"
	rendered := Render(rec)
	st := Stored{Hash: rec.Hash(), Record: rec, Rendered: rendered}
	body := rendered + DeviceLines(code, "https://github.com/login/device", t0.Add(15*time.Minute))
	return st, &Comment{ID: 10, Author: identity.Account{Login: "founder"}, Body: body, CreatedAt: t0, UpdatedAt: t0}
}

func shownAs(t *testing.T, r *Refusal, check string) {
	t.Helper()
	if r == nil || r.Check != check || r.Reason == "" || r.Next == "" {
		t.Fatalf("got %+v, want the refusal %q with a reason and a next step", r, check)
	}
}

func TestShownPassesTheCommentAsPosted(t *testing.T) {
	st, c := deviceBatch("ABCD-1234")
	if r := CheckShown(c, st, st.Hash, "ABCD-1234", ""); r != nil {
		t.Fatalf("the comment as posted was refused: %+v", r)
	}
}

func TestShownRefusedAnEditedComment(t *testing.T) {
	st, c := deviceBatch("ABCD-1234")
	c.UpdatedAt = c.CreatedAt.Add(time.Second)
	shownAs(t, CheckShown(c, st, st.Hash, "", ""), CheckEditedBatch)
}

func TestShownRefusedAnotherCodeThanTheOnePolledFor(t *testing.T) {
	st, c := deviceBatch("WXYZ-9999")
	shownAs(t, CheckShown(c, st, st.Hash, "ABCD-1234", ""), CheckRendered)
}

func TestShownRefusedTextBeyondTheCode(t *testing.T) {
	st, c := deviceBatch("ABCD-1234")
	c.Body += "\n\nAlso: option 2 is the safe one."
	shownAs(t, CheckShown(c, st, st.Hash, "", ""), CheckRendered)
}

func TestShownRefusedAReplyBatchCarryingACode(t *testing.T) {
	st, c := deviceBatch("ABCD-1234")
	st.Record.Way = WayReply
	st.Hash = st.Record.Hash()
	st.Rendered = Render(st.Record)
	c.Body = st.Rendered + DeviceLines("ABCD-1234", "https://github.com/login/device", t0)
	shownAs(t, CheckShown(c, st, st.Hash, "", ""), CheckRendered)
}

func TestShownRefusedACommentByAnotherAccount(t *testing.T) {
	st, c := deviceBatch("ABCD-1234")
	c.Author.Login = "writer"
	shownAs(t, CheckShown(c, st, st.Hash, "", ""), CheckNotBot)
}

func TestShownRefusedAMissingComment(t *testing.T) {
	st, _ := deviceBatch("ABCD-1234")
	shownAs(t, CheckShown(nil, st, st.Hash, "", ""), CheckNoBatch)
}

func TestOneStepEachRefusesTwoOptionsOfADecision(t *testing.T) {
	rec := twoWayRecord()
	second := rec.Items[0]
	second.Option, second.Command = 2, "aayu decide 324 --accept 2"
	rec.Items = append(rec.Items, second)
	r := rec.OneStepEach()
	shownAs(t, r, CheckOneStepEach)
	if _, _, err := Join(twoWayRecord(), Record{Items: []Item{second}}); err == nil {
		t.Fatal("Join took a second option of Decision #324")
	}
}
