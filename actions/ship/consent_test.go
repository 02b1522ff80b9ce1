package ship

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/pass"
)

// TestShipAsksOnlyAfterEveryReadOnlyGate: a doomed ship never reaches the
// presence check or the confirmation; a ship that will pass asks for the
// presence check first, then the confirmation, listing every write.
func TestShipAsksOnlyAfterEveryReadOnlyGate(t *testing.T) {
	t.Parallel()
	t.Run("a doomed ship asks nobody", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.solo()
		cfg := f.config("founder")
		cfg.SoloBypass = true
		cfg.Terminal = false
		asked := 0
		cfg.AskPresence = func(context.Context, PresenceRequest) (*identity.Session, error) { asked++; return nil, nil }
		cfg.Confirm = func(context.Context, Plan) (bool, error) { asked++; return true, nil }
		for _, pr := range []int{sandbox.DemoPRReview, sandbox.DemoPRStopped} {
			before := f.snapshot(pr)
			res, _, err := f.ship(cfg, pr)
			if err != nil || res.ExitCode == ExitShipped || res.Plan != nil {
				t.Fatalf("#%d: err %v, exit %d", pr, err, res.ExitCode)
			}
			f.assertUnchanged(before, pr)
		}
		if asked != 0 {
			t.Errorf("a ship that will be refused asked the person %d times", asked)
		}
	})

	t.Run("presence, then the confirmation", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.solo()
		pr := sandbox.DemoPRReady
		cfg := f.config("founder")
		cfg.SoloBypass = true
		cfg.Terminal = false
		var order []string
		cfg.AskPresence = func(_ context.Context, req PresenceRequest) (*identity.Session, error) {
			order = append(order, "presence")
			if req.Need != identity.AccessAdmin || req.MustBe != "founder" {
				t.Errorf("presence asked for %+v; a bypass needs admin and the person who writes", req)
			}
			return &identity.Session{Command: req.Command, Login: "founder", Access: identity.AccessAdmin, Method: "device-flow"}, nil
		}
		var plan Plan
		cfg.Confirm = func(_ context.Context, p Plan) (bool, error) {
			order = append(order, "confirm")
			plan = p
			return true, nil
		}
		res, _, err := f.ship(cfg, pr)
		if err != nil || res.ExitCode != ExitShipped {
			t.Fatalf("err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
		}
		if strings.Join(order, ",") != "presence,confirm" {
			t.Errorf("asked in the order %v", order)
		}
		all := strings.Join(plan.Writes, "\n")
		for _, want := range []string{"Solo-mode bypass: comment", "squash-merges #4 into dev", "ship.json on the ledger", "updates Story #3: status:merged"} {
			if !strings.Contains(all, want) {
				t.Errorf("the confirmation does not list %q:\n%s", want, all)
			}
		}
	})
}

// TestShipAnsweredNoWritesNothing: any answer but yes at the confirmation
// leaves GitHub and the ledger as they were, with exit 4.
func TestShipAnsweredNoWritesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.solo()
	pr := sandbox.DemoPRReady
	cfg := f.config("founder")
	cfg.SoloBypass = true
	cfg.Confirm = func(context.Context, Plan) (bool, error) { return false, nil }
	before := f.snapshot(pr)
	res, events, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitRefused || res.Merged {
		t.Fatalf("err %v, exit %d, merged %v", err, res.ExitCode, res.Merged)
	}
	if !hasWords(res.Refusals, "you did not answer yes; nothing was written") {
		t.Errorf("refusals %q", res.Refusals)
	}
	if last := lastEvent(events); last[GateBypass].State != Skipped || last[GateMerge].State != Skipped {
		t.Errorf("the writes were not skipped: %v", last)
	}
	f.assertUnchanged(before, pr)
	if n := f.bypassComments(pr, before.head); n != 0 {
		t.Errorf("%d bypass comments after a no", n)
	}

	cfg.Confirm = nil // nobody to ask is never a yes
	if res, _, _ := f.ship(cfg, pr); res.ExitCode != ExitRefused || res.Merged {
		t.Errorf("with nobody to confirm: exit %d, merged %v", res.ExitCode, res.Merged)
	}
	f.assertUnchanged(before, pr)
}

// TestShipCompletesTheStory: the Story a ship ships reads status:merged,
// loses its lease and carries one comment naming the pack, the record and
// the human pass; the inbox then files nothing as merged without ship.
func TestShipCompletesTheStory(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.solo()
	pr, story := sandbox.DemoPRReady, 3
	cfg := f.config("founder")
	cfg.SoloBypass = true
	res, _, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitShipped || !res.StoryUpdated {
		t.Fatalf("err %v, exit %d, story updated %v, refusals %q", err, res.ExitCode, res.StoryUpdated, res.Refusals)
	}
	is, _, err := f.client("reader").Issues.Get(context.Background(), owner, repo, story)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, l := range is.Labels {
		labels = append(labels, l.GetName())
	}
	joined := strings.Join(labels, ",")
	if !strings.Contains(joined, inbox.LabelMerged) || strings.Contains(joined, inbox.LabelLease) || strings.Contains(joined, "status:building") ||
		!strings.Contains(joined, "type:story") {
		t.Errorf("Story #3's labels are %v", labels)
	}
	head := f.srv.HeadSHA(pr)
	shipped := f.shippedComments(story, pr, head)
	if len(shipped) != 1 {
		t.Fatalf("%d shipped comments on the Story, want 1", len(shipped))
	}
	for _, want := range []string{"pack.json sha256 ", "ledger:proof/3/" + head + "/authoritative/ship.json", "solo-mode bypass by @founder", "#issuecomment-"} {
		if !strings.Contains(shipped[0], want) {
			t.Errorf("the shipped comment lacks %q:\n%s", want, shipped[0])
		}
	}
	// Finishing again writes nothing twice.
	if res, _, err := f.ship(cfg, pr); err != nil || res.ExitCode != ExitShipped {
		t.Fatalf("second run: err %v, exit %d", err, res.ExitCode)
	}
	if n := len(f.shippedComments(story, pr, head)); n != 1 {
		t.Errorf("%d shipped comments after a second run", n)
	}
}

func (f *fixture) shippedComments(story, pr int, head string) []string {
	f.t.Helper()
	list, err := f.srvComments(story)
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, c := range list {
		if strings.Contains(c, ShippedMarker(pr, head)) {
			out = append(out, c)
		}
	}
	return out
}

func (f *fixture) srvComments(n int) ([]string, error) {
	list, _, err := f.client("reader").Issues.ListComments(context.Background(), owner, repo, n, nil)
	var out []string
	for _, c := range list {
		out = append(out, c.GetBody())
	}
	return out, err
}

// TestShipNeverCountsTheAuthorsReviewRecordInTheSoloDemo: in the solo demo
// agents wrote #4 under the founder's token, so the founder is its author.
// Their review record on the ledger (what "approve its head" writes where
// GitHub refuses the author's own review) is an author's review: neither a
// record of another head nor one of this head passes it (seed 001), and
// only the recorded bypass ships it, recorded as no review.
func TestShipNeverCountsTheAuthorsReviewRecordInTheSoloDemo(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.solo()
	pr := sandbox.DemoPRReady
	head := f.srv.HeadSHA(pr)
	record := func(h string) {
		b, _ := json.Marshal(actions.ReviewRecord{PR: pr, Login: "founder", Head: h, Time: time.Now().UTC(), Checked: "read the diff", Via: "aayu inbox"})
		if _, err := ghx.CommitFiles(context.Background(), f.client("founder"), owner, repo, LedgerBranch,
			map[string][]byte{ReviewRecordPath(pr, head): b}, "ledger: review", ghx.CommitOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	before := f.snapshot(pr)
	for _, h := range []string{strings.Repeat("a", 40), head} { // another head at this head's path, then this head
		record(h)
		res, _, err := f.ship(f.config("founder"), pr) // no --solo-bypass
		if err != nil || res.ExitCode != ExitRefused || res.Merged {
			t.Fatalf("a record of %s by the author: err %v, exit %d, merged %v", h, err, res.ExitCode, res.Merged)
		}
		if !hasWords(res.Refusals, "who is the author; an author's review never counts") || !hasWords(res.Refusals, "only your Solo-mode bypass could pass head") {
			t.Errorf("a record of %s: refusals %q; want the author's review refused and the bypass named", h, res.Refusals)
		}
		before.ledger = f.srv.BranchSHA(LedgerBranch) // the record itself is the test's write
		f.assertUnchanged(before, pr)
	}

	cfg := f.config("founder")
	cfg.SoloBypass = true
	res, _, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitShipped {
		t.Fatalf("the bypass: err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
	}
	var rec ShipRecord
	if err := json.Unmarshal(res.ShipRecord, &rec); err != nil {
		t.Fatal(err)
	}
	hp := rec.HumanPass
	if hp.Kind != pass.KindSoloBypass || hp.ReviewURL != "" || strings.Contains(hp.Note, "review by record") {
		t.Errorf("human_pass = %+v; want the bypass, with no review claimed", hp)
	}
	if n := f.bypassComments(pr, head); n != 1 {
		t.Errorf("%d bypass comments, want 1", n)
	}
}

// TestShipFinishesAStoryLeftUnfinished: a ship stopped after the ledger
// leaves the Story without its update; the next run asks for a yes and
// finishes only the Story, each write once.
func TestShipFinishesAStoryLeftUnfinished(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.solo()
	pr, story := sandbox.DemoPRReady, 3
	cfg := f.config("founder")
	cfg.SoloBypass = true
	cfg.AfterStep = func(g GateID) error {
		if g == GateLedger {
			return errors.New("killed")
		}
		return nil
	}
	if res, _, err := f.ship(cfg, pr); err == nil || !res.Merged || res.StoryUpdated {
		t.Fatalf("the stopped run: err %v, merged %v, story updated %v", err, res.Merged, res.StoryUpdated)
	}
	cfg.AfterStep = nil
	asked := 0
	cfg.Confirm = func(_ context.Context, p Plan) (bool, error) {
		asked++
		if len(p.Writes) != 1 || !strings.Contains(p.Writes[0], "updates Story #3") {
			t.Errorf("the plan lists %q; only the Story's update is left", p.Writes)
		}
		return true, nil
	}
	res, _, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitShipped || !res.StoryUpdated || asked != 1 {
		t.Fatalf("the finishing run: err %v, exit %d, story updated %v, asked %d", err, res.ExitCode, res.StoryUpdated, asked)
	}
	head := f.srv.HeadSHA(pr)
	if n := len(f.shippedComments(story, pr, head)); n != 1 {
		t.Errorf("%d shipped comments, want 1", n)
	}
	if f.squashCommits(pr) != 1 {
		t.Error("the finishing run merged again")
	}
	if _, _, err := f.ship(cfg, pr); err != nil || asked != 1 {
		t.Errorf("a third run asked again (%d) or failed: %v", asked, err)
	}
}

// TestShipRefusesAForgedReviewRecordNamingSomeoneElse: the login in a
// ledger review record is the file's own word. In the solo demo an agent
// lane writes the ledger with the founder's token, so it could record
// "writer approved this head"; ship counts a record only for the person
// running it, never for the login the file names.
func TestShipRefusesAForgedReviewRecordNamingSomeoneElse(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.solo()
	// With no [autonomy] approver, any human who is not the author is the
	// pass: exactly what a forged record would claim.
	f.baseConfig(`approver = "founder"`, `approver = ""`)
	pr := sandbox.DemoPRReady
	head := f.srv.HeadSHA(pr)
	b, _ := json.Marshal(actions.ReviewRecord{PR: pr, Login: "writer", Head: head, Time: time.Now().UTC(), Checked: "read the diff", Via: "aayu inbox"})
	if _, err := ghx.CommitFiles(context.Background(), f.client("founder"), owner, repo, LedgerBranch,
		map[string][]byte{ReviewRecordPath(pr, head): b}, "ledger: review", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	before := f.snapshot(pr)
	res, _, err := f.ship(f.config("founder"), pr) // no --solo-bypass
	if err != nil || res.ExitCode != ExitRefused || res.Merged {
		t.Fatalf("a forged record naming @writer: err %v, exit %d, merged %v, refusals %q", err, res.ExitCode, res.Merged, res.Refusals)
	}
	if !hasWords(res.Refusals, "only your Solo-mode bypass could pass head") {
		t.Errorf("refusals %q; want the bypass named as the only pass", res.Refusals)
	}
	f.assertUnchanged(before, pr)
}
