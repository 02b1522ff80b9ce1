package ship

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
)

// TestShipMobileWaiverAndSoloBypass covers --solo-bypass: every refusal the
// seed lists, the presence check standing in for a terminal, and the
// Solo-mode bypass: comment posted once, only after every check passed and
// before the merge.
func TestShipMobileWaiverAndSoloBypass(t *testing.T) {
	t.Parallel()
	pr := sandbox.DemoPRReady
	cases := []struct {
		name  string
		setup func(f *fixture, cfg *Config)
		words string
	}{
		{"an agent lane", func(f *fixture, cfg *Config) {
			cfg.Env = envOf(map[string]string{"AAYU_AGENT": "1"})
		}, "aayu's own agent lane (AAYU_AGENT) can never bypass the human pass"},
		{"an agent host's marker without the presence check", func(f *fixture, cfg *Config) {
			cfg.Env = envOf(map[string]string{"AMP_THREAD_ID": "T-1"})
		}, "this shell carries an agent host's marker (AMP_THREAD_ID)"},
		{"no terminal and no presence check", func(f *fixture, cfg *Config) {
			cfg.Terminal = false
		}, "neither an agent marker nor a terminal"},
		{"a bot identity configured", func(f *fixture, cfg *Config) {
			// Only the policy is changed: the refusal reads the base's
			// [identity], whoever wrote the pull request
			// (TestShipWithABotIdentityTakesTheFoundersReviewAndRefusesTheBypass
			// runs the bot demo as a whole).
			f.baseConfig(soloLine, sandbox.BotIdentityTable)
		}, "this repository has a bot identity"},
		{"a second human in a seat", func(f *fixture, cfg *Config) {
			f.baseConfig(soloLine, "[seats]\nengineering_manager = \"writer\"")
		}, "a second human, @writer, holds the Engineering Manager seat"},
		{"no admin access", func(f *fixture, cfg *Config) {
			*cfg = f.config("writer")
			cfg.SoloBypass = true
		}, "the bypass needs a person with admin access"},
		{"a presence check by another account", func(f *fixture, cfg *Config) {
			cfg.Env = envOf(map[string]string{"CLAUDECODE": "1"})
			cfg.Presence = &identity.Session{Command: Command(pr), Login: "writer", Access: identity.AccessAdmin, Method: "device-flow"}
		}, "the presence check was approved by @writer, not by @founder"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.solo()
			cfg := f.config("founder")
			cfg.SoloBypass = true
			tc.setup(f, &cfg)
			before := f.snapshot(pr)
			res, events, err := f.ship(cfg, pr)
			if err != nil || res.ExitCode != ExitRefused || res.Merged {
				t.Fatalf("err %v, exit %d, merged %v, refusals %q", err, res.ExitCode, res.Merged, res.Refusals)
			}
			if !mentions(res, events, tc.words) {
				t.Errorf("no refusal says %q: %q", tc.words, res.Refusals)
			}
			f.assertUnchanged(before, pr)
			if n := f.bypassComments(pr, before.head); n != 0 {
				t.Errorf("a refused bypass posted %d Solo-mode bypass: comments", n)
			}
		})
	}

	t.Run("approved from a phone by the presence check", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.solo()
		cfg := f.config("founder")
		cfg.SoloBypass = true
		cfg.Terminal = false
		cfg.Env = envOf(map[string]string{"AMP_THREAD_ID": "T-1"})
		cfg.Presence = &identity.Session{Command: Command(pr), Login: "founder", Access: identity.AccessAdmin, Method: "device-flow"}
		f.shipSolo(t, cfg)
	})
	t.Run("at a terminal", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.solo()
		cfg := f.config("founder")
		cfg.SoloBypass = true
		f.shipSolo(t, cfg)
	})
}

// shipSolo ships PR 4 by the bypass and checks the comment and the record.
func (f *fixture) shipSolo(t *testing.T, cfg Config) {
	pr := sandbox.DemoPRReady
	head := f.srv.HeadSHA(pr)
	res, events, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitShipped {
		t.Fatalf("err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
	}
	if n := f.bypassComments(pr, head); n != 1 {
		t.Fatalf("%d Solo-mode bypass: comments for the head, want 1", n)
	}
	// Posted only once every check passed: its line passes after presence's.
	order := map[GateID]int{}
	for i, e := range events {
		if e.State == Passed {
			order[e.Gate] = i
		}
	}
	if !(order[GatePresence] < order[GateBypass] && order[GateBypass] < order[GateMerge]) {
		t.Errorf("the comment was not posted between the checks and the merge: %v", order)
	}
	comments, _, _ := f.client("reader").Issues.ListComments(context.Background(), owner, repo, pr, nil)
	pull, _, err := f.client("reader").PullRequests.Get(context.Background(), owner, repo, pr)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range comments {
		if c.GetUser().GetLogin() == "founder" && c.GetCreatedAt().After(pull.GetMergedAt().Add(time.Second)) {
			t.Errorf("a comment was posted after the merge: %q", c.GetBody())
		}
	}
	var rec ShipRecord
	if err := json.Unmarshal(res.ShipRecord, &rec); err != nil {
		t.Fatal(err)
	}
	hp := rec.HumanPass
	if hp.Kind != pass.KindSoloBypass || hp.Login != "founder" || hp.Commit != head || hp.CommentURL == "" || hp.Note != pass.SoloBypassNote {
		t.Errorf("human_pass = %+v; a bypass names the human, the comment, the commit and a note that no review happened", hp)
	}
}

// TestShipEMSeatApprover: with the Engineering Manager seat paired, only
// that person's approval of the head is the pass.
func TestShipEMSeatApprover(t *testing.T) {
	t.Parallel()
	// With a bot identity, so the founder's review is a real one that the
	// seat still outranks (in the solo demo the founder is the author).
	f := newBotFixture(t)
	f.baseConfig(sandbox.BotIdentityTable, sandbox.BotIdentityTable+"\n\n[seats]\nengineering_manager = \"writer\"")
	pr := sandbox.DemoPRReady
	f.review("founder", pr, "APPROVE", "")
	before := f.snapshot(pr)
	res, _, err := f.ship(f.config("founder"), pr)
	if err != nil || res.ExitCode != ExitRefused || !hasWords(res.Refusals, "the pass must come from the Engineering Manager seat's paired human, @writer") {
		t.Fatalf("with only the approver's review: err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
	}
	f.assertUnchanged(before, pr)

	f.review("writer", pr, "APPROVE", "")
	res, _, err = f.ship(f.config("founder"), pr)
	if err != nil || res.ExitCode != ExitShipped {
		t.Fatalf("with the seat's review: err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
	}
	var rec ShipRecord
	if err := json.Unmarshal(res.ShipRecord, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.HumanPass.Kind != pass.KindReview || rec.HumanPass.Login != "writer" {
		t.Errorf("human_pass = %+v, want writer's review", rec.HumanPass)
	}
}
