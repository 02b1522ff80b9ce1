package ship

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/untrusted"
)

// TestShipReadyToShipComment: a ship refused only for the human pass
// comments "Ready to ship" for the head once, as the person, in words the
// inbox reads; any other refusal, --ci, or a missing presence posts nothing.
func TestShipReadyToShipComment(t *testing.T) {
	t.Parallel()
	pr := sandbox.DemoPRReady
	t.Run("not in solo mode, no review", func(t *testing.T) {
		t.Parallel()
		f := newBotFixture(t)
		f.clearReadyToShip(pr)
		cfg := f.config("founder")
		cfg.SoloBypass = true // as the program sets it
		before := f.snapshot(pr)
		head := before.head

		res, events, err := f.ship(cfg, pr)
		if err != nil || res.ExitCode != ExitRefused || res.Merged {
			t.Fatalf("err %v, exit %d, merged %v, refusals %q", err, res.ExitCode, res.Merged, res.Refusals)
		}
		last := lastEvent(events)
		for _, g := range []GateID{GatePR, GatePolicy, GatePack} {
			if last[g].State != Passed {
				t.Errorf("%s: %s %q; only the human pass should refuse", g, last[g].State, last[g].Words)
			}
		}
		hp := last[GateHumanPass]
		if hp.State != Refused || !hasWords(hp.Detail, "commented Ready to ship on #4 for head "+head) {
			t.Errorf("human pass line %s %q %q; want it refused and naming the comment", hp.State, hp.Words, hp.Detail)
		}
		assertReviewFirst(t, res.Refusals)
		posted := f.readyComments(pr, head)
		if len(posted) != 1 {
			t.Fatalf("%d Ready to ship comments for the head, want 1", len(posted))
		}
		c := posted[0]
		want := "Ready to ship: every gate passed on head " + head + "; only the human pass is missing."
		if c.GetUser().GetLogin() != "founder" || !strings.HasPrefix(c.GetBody(), want) ||
			!strings.Contains(c.GetBody(), "Needed: an approving review of this head by @founder (the [autonomy] approver).") {
			t.Errorf("comment by @%s: %q", c.GetUser().GetLogin(), c.GetBody())
		}
		if res.ReadyToShip != c.GetHTMLURL() || res.ReadyToShip == "" {
			t.Errorf("Result.ReadyToShip = %q, want %q", res.ReadyToShip, c.GetHTMLURL())
		}
		if writes := f.loggedWrites("commented Ready to ship"); len(writes) != 1 || !strings.Contains(writes[0], head) {
			t.Errorf("actions log writes %q; want one naming the head", writes)
		}
		f.assertUnchanged(before, pr)

		res, events, err = f.ship(cfg, pr)
		if err != nil || res.ExitCode != ExitRefused {
			t.Fatalf("second run: err %v, exit %d", err, res.ExitCode)
		}
		if n := len(f.readyComments(pr, head)); n != 1 {
			t.Errorf("after a second run %d Ready to ship comments for the head, want still 1", n)
		}
		if d := lastEvent(events)[GateHumanPass].Detail; !hasWords(d, "already commented") {
			t.Errorf("second run's human pass detail %q; want it to say the comment is already there", d)
		}
		if writes := f.loggedWrites("commented Ready to ship"); len(writes) != 1 {
			t.Errorf("after a second run the actions log has %d comment writes, want 1", len(writes))
		}

		found, ok := inbox.ReadyToShipComment(f.inboxComments(pr), head, []string{"agent-bot[bot]"})
		if !ok || found.Author.Login != "founder" || found.URL != c.GetHTMLURL() {
			t.Errorf("the inbox does not read it as ready to ship: %v %+v", ok, found)
		}
	})

	t.Run("solo mode without --solo-bypass names the flag and comments Ready to ship only", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.solo()
		f.clearReadyToShip(pr)
		before := f.snapshot(pr)
		res, events, err := f.ship(f.config("founder"), pr) // without --solo-bypass
		if err != nil || res.ExitCode != ExitRefused || res.Plan != nil {
			t.Fatalf("err %v, exit %d, plan %v, refusals %q", err, res.ExitCode, res.Plan, res.Refusals)
		}
		if !hasWords(res.Refusals, "aayu ship 4 --solo-bypass") {
			t.Errorf("the refusal does not name the flag: %q", res.Refusals)
		}
		if st := lastEvent(events)[GatePresence].State; st != Skipped {
			t.Errorf("the presence gate is %s; a refused ship asks nobody", st)
		}
		// The bypass is the only pass in solo mode, so the inbox learns the
		// head is ready to ship; the bypass itself is not taken.
		if n := len(f.readyComments(pr, f.srv.HeadSHA(pr))); n != 1 {
			t.Errorf("%d Ready to ship comments; a solo ship not asked for the bypass posts one", n)
		}
		if n := f.bypassComments(pr, f.srv.HeadSHA(pr)); n != 0 {
			t.Errorf("%d Solo-mode bypass comments; a bypass not asked for is not taken", n)
		}
		f.assertUnchanged(before, pr)
	})

	none := []struct {
		name  string
		pr    int
		setup func(f *fixture, cfg *Config)
	}{
		{"refused on the pack", sandbox.DemoPRStopped, nil},
		{"refused on the pack with a review", sandbox.DemoPRStopped, func(f *fixture, _ *Config) {
			f.review("founder", sandbox.DemoPRStopped, "APPROVE", "")
		}},
		{"with --ci", pr, func(_ *fixture, cfg *Config) { cfg.CI = true }},
		{"refused for presence", pr, func(_ *fixture, cfg *Config) { cfg.Terminal = false }},
		{"refused for an agent lane", pr, func(_ *fixture, cfg *Config) {
			cfg.Env = envOf(map[string]string{"AAYU_AGENT": "1"})
		}},
		{"refused on the policy too", pr, func(_ *fixture, cfg *Config) {
			cfg.Local.Set = []string{"autonomy.approver=writer"}
		}},
	}
	for _, tc := range none {
		t.Run("nothing posted: "+tc.name, func(t *testing.T) {
			t.Parallel()
			f := newBotFixture(t)
			f.clearReadyToShip(tc.pr)
			cfg := f.config("founder")
			cfg.SoloBypass = true
			if tc.setup != nil {
				tc.setup(f, &cfg)
			}
			head := f.srv.HeadSHA(tc.pr)
			res, events, err := f.ship(cfg, tc.pr)
			if err != nil || res.ExitCode == ExitShipped || res.Merged {
				t.Fatalf("err %v, exit %d, merged %v", err, res.ExitCode, res.Merged)
			}
			if n := len(f.readyComments(tc.pr, head)); n != 0 {
				t.Errorf("%d Ready to ship comments posted; want none", n)
			}
			if res.ReadyToShip != "" || hasWords(lastEvent(events)[GateHumanPass].Detail, "Ready to ship") {
				t.Errorf("a run that posted nothing reports a comment: %q", res.ReadyToShip)
			}
			if writes := f.loggedWrites("Ready to ship"); len(writes) != 0 {
				t.Errorf("actions log writes %q; want none", writes)
			}
		})
	}
}

// assertReviewFirst checks that, outside solo mode, the refusal says first
// that the review is missing and only then that no bypass is on offer, and
// never that a bypass the person did not ask for was refused.
func assertReviewFirst(t *testing.T, refusals []string) {
	t.Helper()
	review, bypass := -1, -1
	for i, s := range refusals {
		switch {
		case strings.Contains(s, "the solo-mode bypass is refused"):
			t.Errorf("refusal %q reads as if a bypass had been tried", s)
		case strings.Contains(s, "the pass must come from the [autonomy] approver, @founder, who has not approved head"):
			review = i
		case strings.Contains(s, "the solo-mode bypass is not available") && strings.Contains(s, "this repository has a bot identity"):
			bypass = i
		}
	}
	if review < 0 || bypass < 0 || review > bypass {
		t.Errorf("refusals %q; want the missing review first, then that the bypass is not available", refusals)
	}
}

// clearReadyToShip edits the demo's own "Ready to ship" comments on pr, so
// a test starts from a pull request ship never commented on.
func (f *fixture) clearReadyToShip(pr int) {
	f.t.Helper()
	list, _, err := f.client("founder").Issues.ListComments(context.Background(), owner, repo, pr, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		f.t.Fatal(err)
	}
	for _, c := range list {
		if strings.HasPrefix(c.GetBody(), ReadyToShipPrefix) {
			_, _, err := f.client("founder").Issues.EditComment(context.Background(), owner, repo, c.GetID(), &github.IssueComment{Body: github.String("An earlier note.")})
			if err != nil {
				f.t.Fatal(err)
			}
		}
	}
}

// readyComments are pr's comments starting "Ready to ship" that name head.
func (f *fixture) readyComments(pr int, head string) []*github.IssueComment {
	f.t.Helper()
	list, _, err := f.client("reader").Issues.ListComments(context.Background(), owner, repo, pr, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		f.t.Fatal(err)
	}
	var out []*github.IssueComment
	for _, c := range list {
		if strings.HasPrefix(c.GetBody(), ReadyToShipPrefix) && strings.Contains(c.GetBody(), head) {
			out = append(out, c)
		}
	}
	return out
}

// inboxComments reads pr's comments as the inbox's reader does: each
// author with their permission on the repository.
func (f *fixture) inboxComments(pr int) []identity.Comment {
	f.t.Helper()
	ctx := context.Background()
	c := f.client("founder")
	list, _, err := c.Issues.ListComments(ctx, owner, repo, pr, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		f.t.Fatal(err)
	}
	var out []identity.Comment
	for _, ic := range list {
		login := ic.GetUser().GetLogin()
		lvl, _, err := c.Repositories.GetPermissionLevel(ctx, owner, repo, login)
		if err != nil {
			f.t.Fatalf("reading @%s's permission: %v", login, err)
		}
		out = append(out, identity.Comment{ID: ic.GetID(), Body: untrusted.Text(ic.GetBody()), CreatedAt: ic.GetCreatedAt().Time, URL: ic.GetHTMLURL(),
			Author: identity.Account{Login: login, Bot: ic.GetUser().GetType() == "Bot", Permission: lvl.GetPermission()}})
	}
	return out
}

// loggedWrites are the writes in the fixture's actions log containing words.
func (f *fixture) loggedWrites(words string) []string {
	f.t.Helper()
	files, err := filepath.Glob(filepath.Join(f.logDir, "*.jsonl"))
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, name := range files {
		fh, err := os.Open(name)
		if err != nil {
			f.t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			var rec actions.Record
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				f.t.Fatalf("%s: %v", name, err)
			}
			for _, w := range rec.Writes {
				if strings.Contains(w, words) {
					out = append(out, w)
				}
			}
		}
		fh.Close()
	}
	return out
}
