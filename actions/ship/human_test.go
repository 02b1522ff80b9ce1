package ship

import (
	"context"
	"strings"
	"testing"

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
	t.Run("a bypass approved by the presence check", func(t *testing.T) {
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
// answer the run took, not its own look at the process. A terminal with no
// marker is a person by itself; told instead that this process needs the
// presence check, or is refused, ship refuses with that answer's words.
func TestShipRefusesWithTheOneAnswerInEveryGate(t *testing.T) {
	for _, c := range []struct {
		name    string
		outcome identity.Outcome
		want    string
	}{
		{"needs the presence check", identity.NeedsPresence, "the one answer; run aayu ship 4 with the presence check and approve its code as @founder"},
		{"refused", identity.Refused, "the one answer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.solo()
			cfg := f.config("founder")
			cfg.SoloBypass = true
			decided := 0
			cfg.Human = countingHuman(&decided, func(identity.HumanCheck) identity.Decision {
				return identity.Decision{Outcome: c.outcome, Reason: "the one answer"}
			})
			pr := sandbox.DemoPRReady
			before := f.snapshot(pr)
			res, events, err := f.ship(cfg, pr)
			if err != nil || res.ExitCode != ExitRefused || res.Merged {
				t.Fatalf("err %v, exit %d, merged %v, refusals %q", err, res.ExitCode, res.Merged, res.Refusals)
			}
			if !hasWords(res.Refusals, c.want) {
				t.Errorf("refusals %q, want %q", res.Refusals, c.want)
			}
			if e := lastEvent(events)[GatePresence]; e.State != Refused || !strings.Contains(strings.Join(e.Detail, "\n")+e.Words, "the one answer") {
				t.Errorf("the presence gate reads %+v", e)
			}
			f.assertUnchanged(before, pr)
			if decided != 1 {
				t.Errorf("decided %d times; want 1", decided)
			}
		})
	}
}
