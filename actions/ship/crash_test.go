package ship

import (
	"errors"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestShipCrashResume kills ship after each step that writes (the bypass
// comment, the merge, the ledger commit); a second ship completes what is
// left, merging once, posting the comment once and landing ship.json once.
func TestShipCrashResume(t *testing.T) {
	t.Parallel()
	for _, step := range []GateID{GateBypass, GateMerge, GateLedger} {
		t.Run(step.Title(), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.solo()
			pr := sandbox.DemoPRReady
			head := f.srv.HeadSHA(pr)
			cfg := f.config("founder")
			cfg.SoloBypass = true
			killed := errors.New("killed")
			cfg.AfterStep = func(g GateID) error {
				if g == step {
					return killed
				}
				return nil
			}
			res, _, err := f.ship(cfg, pr)
			if !errors.Is(err, killed) || res.ExitCode != ExitFailed {
				t.Fatalf("first ship: err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
			}
			if step >= GateMerge && (!res.Merged || res.Unfinished == "" && step == GateMerge) {
				t.Errorf("after the merge the result says merged %v, unfinished %q", res.Merged, res.Unfinished)
			}
			if step == GateMerge && !strings.Contains(res.Unfinished, "run aayu ship 4 again") {
				t.Errorf("unfinished = %q", res.Unfinished)
			}

			cfg.AfterStep = nil
			again, _, err := f.ship(cfg, pr)
			if err != nil || again.ExitCode != ExitShipped || !again.Shipped {
				t.Fatalf("second ship: err %v, exit %d, refusals %q", err, again.ExitCode, again.Refusals)
			}
			if again.Resumed != (step >= GateMerge) {
				t.Errorf("resumed = %v after a kill at %s", again.Resumed, step.Title())
			}
			if n := f.squashCommits(pr); n != 1 {
				t.Errorf("dev holds %d squash commits for #4, want 1", n)
			}
			out, err := f.git("ls-tree", "-r", "--name-only", "ledger", "proof/3/")
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(out, "/ship.json"); n != 1 || !strings.Contains(out, "proof/3/"+head+"/authoritative/ship.json") {
				t.Errorf("ledger holds %d ship.json under proof/3:\n%s", n, out)
			}
			if !strings.Contains(out, "proof/3/"+head+"/authoritative/pack.json") {
				t.Errorf("ledger lacks the pack:\n%s", out)
			}
			comments := f.bypassComments(pr, head)
			if comments != 1 {
				t.Errorf("%d Solo-mode bypass: comments for the head, want 1", comments)
			}
			log, _ := f.git("log", "--format=%s", "ledger")
			if n := strings.Count(log, "ledger: ship story 3"); n != 1 {
				t.Errorf("%d ledger commits ship story 3, want 1", n)
			}
		})
	}
}

// TestShipStoppedAfterAWriteSaysWhatLanded: a quit request that stops
// ship once the write under way lands leaves last words read from what
// landed. Stopped after the bypass comment, the result names the comment
// and says nothing merged; after the merge, that the record and the Story
// are left; after the ledger record, the record is there and only the
// Story is left; stopped after the Story's update, the last write, nothing
// is left to stop and the ship is complete.
func TestShipStoppedAfterAWriteSaysWhatLanded(t *testing.T) {
	t.Parallel()
	for _, step := range []GateID{GateBypass, GateMerge, GateLedger, GateStory} {
		t.Run(step.Title(), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.solo()
			pr := sandbox.DemoPRReady
			cfg := f.config("founder")
			cfg.SoloBypass = true
			quit := errors.New("you asked to quit")
			cfg.AfterStep = func(g GateID) error {
				if g == step {
					return quit
				}
				return nil
			}
			res, _, err := f.ship(cfg, pr)
			out, _ := f.git("ls-tree", "-r", "--name-only", "ledger", "proof/3/")
			recorded := strings.Contains(out, "/ship.json")
			switch step {
			case GateBypass:
				if !errors.Is(err, quit) || !res.Stopped || res.Merged || recorded || f.bypassComments(pr, f.srv.HeadSHA(pr)) != 1 ||
					!strings.Contains(res.Unfinished, "the Solo-mode bypass comment for head") ||
					!strings.Contains(res.Unfinished, "nothing was merged, no record is on the ledger and Story #3 is not updated; run aayu ship 4 again") {
					t.Errorf("stopped after the bypass comment: err %v, stopped %v, merged %v, recorded %v, unfinished %q; want the comment said landed and the rest not",
						err, res.Stopped, res.Merged, recorded, res.Unfinished)
				}
			case GateMerge:
				if !errors.Is(err, quit) || !res.Stopped || !res.Merged || res.Recorded || recorded ||
					!strings.Contains(res.Unfinished, "but the record did not reach the ledger and Story #3 is not updated") {
					t.Errorf("stopped after the merge: err %v, merged %v, recorded %v/%v, unfinished %q; want the merge said landed and the record and the Story left",
						err, res.Merged, res.Recorded, recorded, res.Unfinished)
				}
			case GateLedger:
				if !errors.Is(err, quit) || !res.Merged || res.Shipped || !recorded ||
					!strings.Contains(res.Unfinished, "its record is on the ledger, but Story #3 is not updated") {
					t.Errorf("stopped after the record: err %v, merged %v, shipped %v, recorded %v, unfinished %q; want the record said landed and the Story left",
						err, res.Merged, res.Shipped, recorded, res.Unfinished)
				}
			case GateStory:
				if err != nil || !res.Shipped || !res.StoryUpdated || res.ExitCode != ExitShipped || res.Unfinished != "" {
					t.Errorf("stopped after the Story's update: err %v, shipped %v, story %v, exit %d, unfinished %q; want it shipped in full",
						err, res.Shipped, res.StoryUpdated, res.ExitCode, res.Unfinished)
				}
			}
		})
	}
}
