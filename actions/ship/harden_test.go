package ship

import (
	"context"
	"fmt"
	"net/http"
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
	t.Parallel()
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
			t.Parallel()
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
	t.Parallel()
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

// keyedFaults is a sandbox.FaultPlan that answers the first times requests
// of each method and path match picks with fault, then lets that request
// through: every run sees the same faults on the same requests, whichever
// order ship's side-by-side reads arrive in.
func keyedFaults(match func(*http.Request) bool, fault sandbox.Fault, times int) sandbox.FaultPlan {
	seen := map[string]int{} // the sandbox calls a plan one request at a time
	return func(r *http.Request) sandbox.Fault {
		if !match(r) {
			return sandbox.NoFault
		}
		key := r.Method + " " + r.URL.Path
		if seen[key] >= times {
			return sandbox.NoFault
		}
		seen[key]++
		return fault
	}
}

// request matches one REST request; anyRead every GET; anyWrite every other
// REST request (POST /graphql is a query, not a write).
func request(method, path string) func(*http.Request) bool {
	return func(r *http.Request) bool { return r.Method == method && r.URL.Path == path }
}

func anyRead(r *http.Request) bool { return r.Method == http.MethodGet }

func anyWrite(r *http.Request) bool {
	return r.Method != http.MethodGet && r.Method != http.MethodHead && r.URL.Path != "/graphql"
}

// shipTry is what one run of ship 4 --solo-bypass must end with, and what
// the repository must hold after it.
type shipTry struct {
	exit                    int
	merged, shipped, resumd bool
	says                    string // words the error or the unfinished step carries; "" for none
	squash, bypass, records int    // squash commits of #4, bypass comments, ship.json for the head
}

// TestShipUnderHeavyFaultsEndsWithItsRecord: ship 4 --solo-bypass against
// a sandbox that fails chosen requests, each case keyed on the request
// (sandbox.FaultPlan), so each run ends one way only. Every read failing
// three times in a row, or every write refused twice or its answer lost
// three times, is absorbed within one run; a read or a write that fails
// through all its attempts fails the run with what did and did not land,
// and the person's next run (as the failure tells them) finishes it. No
// write is ever doubled: one squash merge, one bypass comment, one record.
func TestShipUnderHeavyFaultsEndsWithItsRecord(t *testing.T) {
	t.Parallel()
	const (
		pr       = "/repos/acme/benefits/pulls/4"
		bypass   = "/repos/acme/benefits/issues/4/comments"
		merge    = "/repos/acme/benefits/pulls/4/merge"
		story    = "/repos/acme/benefits/issues/3"
		shipped  = "/repos/acme/benefits/issues/3/comments"
		recorded = "its record is on the ledger"
	)
	done := shipTry{exit: ExitShipped, merged: true, shipped: true, squash: 1, bypass: 1, records: 1}
	resumed := done
	resumed.resumd = true
	cases := []struct {
		name  string
		match func(*http.Request) bool
		fault sandbox.Fault
		times int
		tries []shipTry
	}{
		{"every read fails three times, then answers", anyRead, sandbox.FaultBadGateway, 3, []shipTry{done}},
		{"every read's answer is cut off three times", anyRead, sandbox.FaultDrop, 3, []shipTry{done}},
		{"every write is refused twice", anyWrite, sandbox.FaultBadGateway, 2, []shipTry{done}},
		{"every write's answer is lost three times", anyWrite, sandbox.FaultDrop, 3, []shipTry{done}},
		{"the pull request cannot be read through every attempt", request(http.MethodGet, pr), sandbox.FaultBadGateway, 4, []shipTry{
			{exit: ExitFailed, says: "reading pull request #4"}, done}},
		{"the bypass comment is refused three times", request(http.MethodPost, bypass), sandbox.FaultBadGateway, 3, []shipTry{
			{exit: ExitFailed, says: "nothing was posted and nothing was merged"}, done}},
		{"the merge is refused four times", request(http.MethodPut, merge), sandbox.FaultBadGateway, 4, []shipTry{
			{exit: ExitFailed, says: "so nothing was merged", bypass: 1}, done}},
		{"the Story's comment is refused through every attempt", request(http.MethodPost, shipped), sandbox.FaultBadGateway, afterMergeAttempts, []shipTry{
			{exit: ExitFailed, merged: true, says: recorded, squash: 1, bypass: 1, records: 1}, resumed}},
		{"the Story's labels are refused through every attempt", request(http.MethodPatch, story), sandbox.FaultBadGateway, afterMergeAttempts, []shipTry{
			{exit: ExitFailed, merged: true, says: recorded, squash: 1, bypass: 1, records: 1}, resumed}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, _, base := conformance.StartSandbox(t, sandbox.Options{StateDir: seededCopy(t, false),
				FaultPlan: keyedFaults(tc.match, tc.fault, tc.times)})
			f := &fixture{t: t, srv: srv, base: base, clients: map[string]*github.Client{}, logDir: t.TempDir()}
			head := srv.HeadSHA(sandbox.DemoPRReady)
			for i, want := range tc.tries {
				cfg := f.config("founder")
				cfg.SoloBypass = true
				res, _, err := f.ship(cfg, sandbox.DemoPRReady)
				words := res.Unfinished
				if err != nil {
					words += " " + err.Error()
				}
				out, _ := f.git("ls-tree", "-r", "--name-only", "ledger", "proof/3/")
				got := shipTry{exit: res.ExitCode, merged: res.Merged, shipped: res.Shipped, resumd: res.Resumed,
					squash: f.squashCommits(sandbox.DemoPRReady), bypass: f.bypassComments(sandbox.DemoPRReady, head),
					records: strings.Count(out, head+"/authoritative/ship.json")}
				if want.says != "" && strings.Contains(words, want.says) {
					got.says = want.says
				}
				if got != want {
					t.Fatalf("run %d ended %+v (%q), want %+v", i+1, got, words, want)
				}
				if (err == nil) != (want.exit == ExitShipped) {
					t.Fatalf("run %d: exit %d with error %v", i+1, res.ExitCode, err)
				}
			}
		})
	}
}
