package ship

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/identity"
)

// countingHuman is a Config.Human that counts how often ship asks whether a
// person is here and answers with decide.
func countingHuman(n *int, decide func(identity.HumanCheck) identity.Decision) func(identity.HumanCheck) identity.Decision {
	return func(in identity.HumanCheck) identity.Decision {
		*n++
		return decide(in)
	}
}

// TestShipDecidesWhetherAPersonIsHereOnce: the bypass, the presence check,
// its gate and the readiness comment all read one answer per run (issue
// #21: ship used to ask RequireHuman at four places).
func TestShipDecidesWhetherAPersonIsHereOnce(t *testing.T) {
	t.Parallel()
	t.Run("a bypass approved by the presence check", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.solo()
		cfg := f.config("founder")
		cfg.SoloBypass = true
		cfg.Terminal = false
		asked := 0
		cfg.AskPresence = func(_ context.Context, req PresenceRequest) (*identity.Session, error) {
			asked++
			return &identity.Session{Command: req.Command, Login: "founder", Access: identity.AccessAdmin, Method: "device-flow"}, nil
		}
		decided := 0
		cfg.Human = countingHuman(&decided, identity.Here)
		res, _, err := f.ship(cfg, sandbox.DemoPRReady)
		if err != nil || res.ExitCode != ExitShipped {
			t.Fatalf("err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
		}
		if decided != 1 || asked != 1 {
			t.Errorf("one ship decided whether a person is here %d times and asked for the presence check %d times; want 1 and 1", decided, asked)
		}
	})
	t.Run("refused for the human pass, with the readiness comment", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		f.solo()
		cfg := f.config("founder")
		decided := 0
		cfg.Human = countingHuman(&decided, identity.Here)
		res, _, err := f.ship(cfg, sandbox.DemoPRReady)
		if err != nil || res.ExitCode != ExitRefused {
			t.Fatalf("err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
		}
		if decided != 1 {
			t.Errorf("one refused ship decided whether a person is here %d times; want 1", decided)
		}
	})
}

// TestShipRefusesWithTheOneAnswerInEveryGate: every gate follows the one
// answer the run took, not its own look at the process. The process here
// is a terminal with no marker, a person by itself; told instead that an
// agent host's marker is set, or that this is CI, the bypass, the presence
// check and its gate all act on that answer.
func TestShipRefusesWithTheOneAnswerInEveryGate(t *testing.T) {
	t.Parallel()
	lane := identity.Decision{Outcome: identity.NeedsPresence, Marker: "CLAUDECODE", Reason: "the one answer"}
	ci := identity.Decision{Outcome: identity.Refused, Reason: "the one answer"}
	for _, c := range []struct {
		name    string
		here    identity.Decision
		approve bool   // the presence check is shown and approved as an admin
		refusal string // "" when ship merges
		asked   int
	}{
		{"an agent host's marker, nobody to approve", lane, false, "this shell carries an agent host's marker (CLAUDECODE); the bypass needs you to approve it by the presence check as an admin", 0},
		{"an agent host's marker, approved", lane, true, "", 1},
		{"CI", ci, true, "CI (--ci) can never bypass the human pass", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.solo()
			cfg := f.config("founder")
			cfg.SoloBypass = true
			asked := 0
			if c.approve {
				cfg.AskPresence = func(_ context.Context, req PresenceRequest) (*identity.Session, error) {
					asked++
					return &identity.Session{Command: req.Command, Login: "founder", Access: req.Need, Method: "device-flow"}, nil
				}
			}
			decided := 0
			cfg.Human = countingHuman(&decided, func(identity.HumanCheck) identity.Decision { return c.here })
			pr := sandbox.DemoPRReady
			before := f.snapshot(pr)
			res, events, err := f.ship(cfg, pr)
			if err != nil {
				t.Fatal(err)
			}
			if asked != c.asked || decided != 1 {
				t.Errorf("asked for the presence check %d times (want %d); decided %d times (want 1)", asked, c.asked, decided)
			}
			if c.refusal == "" {
				if res.ExitCode != ExitShipped {
					t.Fatalf("exit %d, refusals %q", res.ExitCode, res.Refusals)
				}
				if w := lastEvent(events)[GatePresence].Words; !strings.Contains(w, "approved by @founder by the presence check") {
					t.Errorf("the presence gate reads %q", w)
				}
				return
			}
			if res.ExitCode != ExitRefused || res.Merged || !hasWords(res.Refusals, c.refusal) {
				t.Fatalf("exit %d, merged %v, refusals %q; want %q", res.ExitCode, res.Merged, res.Refusals, c.refusal)
			}
			f.assertUnchanged(before, pr)
		})
	}
}

// permRewriter answers the founder's permission read with body, as GitHub
// answers for an account with that role (a maintainer reads as
// permission "write", role_name "maintain").
type permRewriter struct {
	base http.RoundTripper
	body string
}

func (p permRewriter) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/collaborators/founder/permission") {
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(bytes.NewReader([]byte(p.body))), ContentLength: int64(len(p.body)), Request: req}, nil
	}
	return p.base.RoundTrip(req)
}

// asRole is the founder shipping while GitHub reports their role as role.
func (f *fixture) asRole(t *testing.T, permission, role string) Config {
	body := `{"permission":"` + permission + `","role_name":"` + role + `","user":{"login":"founder","id":1001,"type":"User"}}`
	c, err := ghx.NewClient(ghx.ClientOptions{
		APIURL: f.base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"founder", "test"),
		Retry: ghx.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond},
		Base:  permRewriter{base: http.DefaultTransport, body: body},
	})
	if err != nil {
		t.Fatal(err)
	}
	return Config{Client: c, Owner: owner, Repo: repo, Viewer: "founder", Log: actions.OpenLog(f.logDir, nil),
		WorkDir: t.TempDir(), Terminal: true, Env: envOf(nil), Confirm: yes}
}

// TestShipRefusesAMaintainerTheBypassThatNeedsAdmin: maintain is below
// admin, so a maintainer's --solo-bypass is refused and nothing written.
func TestShipRefusesAMaintainerTheBypassThatNeedsAdmin(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.solo()
	pr := sandbox.DemoPRReady
	cfg := f.asRole(t, "write", "maintain")
	cfg.SoloBypass = true
	before := f.snapshot(pr)
	res, events, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitRefused || res.Merged || !mentions(res, events, "needs a person with admin access") {
		t.Fatalf("a maintainer's bypass: err %v, exit %d, merged %v, refusals %q", err, res.ExitCode, res.Merged, res.Refusals)
	}
	f.assertUnchanged(before, pr)
	if n := f.bypassComments(pr, before.head); n != 0 {
		t.Errorf("a refused bypass posted %d comments", n)
	}
}

// TestShipRefusesToMergeWithoutWriteAccess: ship's own check of the
// person's access. The founder's review passes the human pass, but GitHub
// now reports them as triage: ship refuses before anything is written.
func TestShipRefusesToMergeWithoutWriteAccess(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	pr := sandbox.DemoPRReady
	f.baseConfig(`approver = "founder"`, `approver = "writer"`)
	f.review("writer", pr, "APPROVE", "")
	before := f.snapshot(pr)
	res, events, err := f.ship(f.asRole(t, "read", "triage"), pr)
	if err != nil || res.ExitCode != ExitRefused || res.Merged || !mentions(res, events, "@founder has triage access to acme/benefits; merging needs write access") {
		t.Fatalf("a triage account: err %v, exit %d, merged %v, refusals %q", err, res.ExitCode, res.Merged, res.Refusals)
	}
	f.assertUnchanged(before, pr)
}
