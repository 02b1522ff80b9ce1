package ship

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/google/go-github/v66/github"
)

// TestShipRefusesPolicyItCannotRead: a base branch whose policy holds a
// value of the wrong kind (a string where a list belongs) is refused with
// the file and key named, never read as "no never layers".
func TestShipRefusesPolicyItCannotRead(t *testing.T) {
	cases := []struct {
		name, old, new, words string
	}{
		{"never as a string", `never = ["L04", "L07", "L09"]`, `never = "L04"`, "the base branch's .aayudha/config.toml: autonomy.never must be a list of strings"},
		{"always_person as a string", `always_person = [".aayudha/config.toml", ".github/**"]`, `always_person = ".aayudha/config.toml"`,
			"the base branch's .aayudha/config.toml: autonomy.always_person must be a list of strings"},
		{"a mis-cased key", `streak = 10`, `STREAK = 0`, "autonomy.STREAK is not a setting; keys are lower case: autonomy.streak"},
		{"nesting beyond the limit", `streak = 10`, `x = ` + nested(40), "nests tables or lists more than 32 deep"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newBotFixture(t)
			f.review("founder", sandbox.DemoPRReady, "APPROVE", "")
			f.baseConfig(tc.old, tc.new)
			before := f.snapshot(sandbox.DemoPRReady)
			res, events, err := f.ship(f.config("founder"), sandbox.DemoPRReady)
			if err != nil {
				t.Fatalf("ship failed instead of refusing: %v", err)
			}
			if res.ExitCode != ExitRefused || res.Merged {
				t.Fatalf("exit %d, merged %v; want a refusal", res.ExitCode, res.Merged)
			}
			if !mentions(res, events, tc.words) || !mentions(res, events, "fails closed") {
				t.Errorf("no refusal says %q and that ship fails closed:\n%q", tc.words, res.Refusals)
			}
			f.assertUnchanged(before, sandbox.DemoPRReady)
		})
	}
}

func nested(n int) string {
	s := "1"
	for i := 0; i < n; i++ {
		s = "[" + s + "]"
	}
	return s
}

// TestTwoConcurrentShipsLeaveOneBypassComment runs two ships of PR 4 with
// --solo-bypass at once, both past every check before either posts: one
// Solo-mode bypass comment stays for the head, one squash merge, one
// record, and neither run's words hide a comment it posted.
func TestTwoConcurrentShipsLeaveOneBypassComment(t *testing.T) {
	f := newFixture(t)
	f.solo()
	pr := sandbox.DemoPRReady
	head := f.srv.HeadSHA(pr)
	var arrived sync.WaitGroup
	arrived.Add(2)
	release := make(chan struct{})
	go func() { arrived.Wait(); close(release) }()
	cfgs := make([]Config, 2)
	for i := range cfgs {
		cfgs[i] = f.config("founder")
		cfgs[i].Client = f.freshClient("founder")
		cfgs[i].SoloBypass = true
		cfgs[i].AfterStep = func(g GateID) error {
			if g == GatePresence {
				arrived.Done()
				<-release
			}
			return nil
		}
	}
	type outcome struct {
		res    Result
		events []Event
		err    error
	}
	outs := make([]outcome, 2)
	var done sync.WaitGroup
	for i := range cfgs {
		done.Add(1)
		go func() {
			defer done.Done()
			s, err := New(cfgs[i])
			if err != nil {
				outs[i].err = err
				return
			}
			events := make(chan Event, 1024)
			outs[i].res, outs[i].err = s.Run(context.Background(), pr, events)
			close(events)
			for e := range events {
				outs[i].events = append(outs[i].events, e)
			}
		}()
	}
	done.Wait()
	if n := f.bypassComments(pr, head); n != 1 {
		t.Errorf("%d Solo-mode bypass: comments for the head, want 1", n)
	}
	if n := f.squashCommits(pr); n != 1 {
		t.Errorf("%d squash commits of #4, want 1", n)
	}
	out, err := f.git("ls-tree", "-r", "--name-only", "ledger", "proof/3/")
	if err != nil || strings.Count(out, "/ship.json") != 1 {
		t.Errorf("ledger holds %d ship.json under proof/3 (%v)", strings.Count(out, "/ship.json"), err)
	}
	shipped := 0
	for i, o := range outs {
		bypass := lastEvent(o.events)[GateBypass]
		t.Logf("run %d: exit %d err %v refusals %q; bypass: %s; merge: %s", i, o.res.ExitCode, o.err, o.res.Refusals, bypass.Words, lastEvent(o.events)[GateMerge].Words)
		if strings.Contains(bypass.Words, "deleted the one it posted") {
			words := strings.Join(o.res.Refusals, " ") + fmt.Sprint(o.err)
			if o.res.ExitCode != ExitShipped && strings.Contains(words, "nothing was posted") {
				t.Errorf("run %d posted and deleted a duplicate, yet says nothing was posted: %s", i, words)
			}
		}
		if o.res.ExitCode == ExitShipped {
			shipped++
		}
	}
	if shipped == 0 {
		t.Errorf("neither concurrent ship finished")
	}
}

// freshClient is a client of its own, so two runs share no cache.
func (f *fixture) freshClient(login string) *github.Client {
	f.t.Helper()
	c, err := ghx.NewClient(ghx.ClientOptions{
		APIURL: f.base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+login, "test"),
		Retry: ghx.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond},
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

// TestShipUnderHeavyFaultsEndsWithItsRecord: seven rounds of ship 4
// --solo-bypass against a sandbox that answers 30% of requests with a 5xx
// and drops 10% mid-body. The person runs ship again after a failure (as
// the failure tells them to). Every round ends merged once, with its
// record on the ledger once and one bypass comment; a failure after the
// merge is never the last word.
func TestShipUnderHeavyFaultsEndsWithItsRecord(t *testing.T) {
	for round := 1; round <= 7; round++ {
		t.Run(fmt.Sprintf("round %d", round), func(t *testing.T) {
			srv, _, base := conformance.StartSandbox(t, sandbox.Options{StateDir: t.TempDir(),
				Faults: sandbox.FaultSpec{ServerError: 0.3, Drop: 0.1, Seed: uint64(round)}})
			f := &fixture{t: t, srv: srv, base: base, clients: map[string]*github.Client{}, logDir: t.TempDir()}
			pr := sandbox.DemoPRReady
			head := srv.HeadSHA(pr)
			var last Result
			// Up to 15 tries: with 30% 5xx and 10% drops, a GET fails
			// through its 4 attempts about 3% of the time, ship's first
			// round reads about 40 things side by side, and a POST is
			// never retried, so a try whose every request lands is a
			// matter of luck; each try keeps what earlier ones landed,
			// and 6 tries ran out now and then on a loaded machine. What
			// is tested is that every try leaves no half-done write and
			// that ship does finish, not how lucky a try is.
			tries := 0
			for tries < 15 {
				tries++
				cfg := f.config("founder")
				cfg.SoloBypass = true
				res, _, err := f.ship(cfg, pr)
				last = res
				if err == nil && res.ExitCode == ExitShipped {
					break
				}
				t.Logf("try %d: exit %d, merged %v: %v", tries, res.ExitCode, res.Merged, err)
				if res.Merged && !res.Shipped {
					// A try may stop after the merge (the next one
					// finishes it), but never before its record landed
					// unless it says so.
					out, _ := f.git("ls-tree", "-r", "--name-only", "ledger", "proof/3/")
					landed := strings.Contains(out, head+"/authoritative/ship.json")
					if landed != strings.Contains(res.Unfinished, "its record is on the ledger") {
						t.Errorf("try %d merged, record on the ledger %v, but it says %q (%v)", tries, landed, res.Unfinished, err)
					}
				}
				if res.ExitCode == ExitRefused || res.ExitCode == ExitFloor {
					t.Fatalf("try %d refused under faults: %q", tries, res.Refusals)
				}
			}
			if last.ExitCode != ExitShipped {
				t.Fatalf("after %d tries ship has not finished: %+v", tries, last)
			}
			t.Logf("shipped in %d tries", tries)
			if n := f.squashCommits(pr); n != 1 {
				t.Errorf("%d squash commits of #4, want 1", n)
			}
			out, err := f.git("ls-tree", "-r", "--name-only", "ledger", "proof/3/")
			if err != nil || strings.Count(out, "/ship.json") != 1 || !strings.Contains(out, head+"/authoritative/ship.json") {
				t.Errorf("ledger holds %d ship.json for the head (%v):\n%s", strings.Count(out, "/ship.json"), err, out)
			}
			if n := f.bypassCommentsRaw(pr, head); n != 1 {
				t.Errorf("%d Solo-mode bypass: comments for the head, want 1", n)
			}
		})
	}
}

// bypassCommentsRaw counts bypass comments from the sandbox's git-free
// state through a client that retries its reads past the faults.
func (f *fixture) bypassCommentsRaw(pr int, head string) int {
	f.t.Helper()
	for i := 0; i < 10; i++ {
		list, _, err := f.client("reader").Issues.ListComments(context.Background(), owner, repo, pr, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}})
		if err != nil {
			continue
		}
		n := 0
		for _, c := range list {
			if strings.HasPrefix(c.GetBody(), "Solo-mode bypass:") && strings.Contains(c.GetBody(), head) {
				n++
			}
		}
		return n
	}
	f.t.Fatal("the comments could not be read through the faults")
	return 0
}
