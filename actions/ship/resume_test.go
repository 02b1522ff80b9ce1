package ship

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
	"github.com/google/go-github/v66/github"
)

// presenceCounter approves every presence check as login and counts them,
// as a person approving the device code each time would.
type presenceCounter struct {
	login   string
	asked   int
	approve bool
}

func (p *presenceCounter) ask(_ context.Context, req PresenceRequest) (*identity.Session, error) {
	p.asked++
	if !p.approve {
		return nil, nil
	}
	return &identity.Session{Command: req.Command, Login: p.login, Access: identity.AccessAdmin, Method: "device-flow"}, nil
}

// plainConfig is ship with no terminal: every run needs the presence check.
func (f *fixture) plainConfig(p *presenceCounter) Config {
	cfg := f.config("founder")
	cfg.Terminal = false
	cfg.SoloBypass = true
	cfg.AskPresence = p.ask
	return cfg
}

// TestResumeAfterMergedThenFailedNeedsNoSecondApproval: a plain-mode ship
// that merged and then failed (killed after the merge, or after the ledger
// record) is finished by the next run with no second presence check, and
// says so in words.
func TestResumeAfterMergedThenFailedNeedsNoSecondApproval(t *testing.T) {
	t.Parallel()
	for _, step := range []GateID{GateMerge, GateLedger} {
		t.Run(step.Title(), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.solo()
			pr := sandbox.DemoPRReady
			p := &presenceCounter{login: "founder", approve: true}
			cfg := f.plainConfig(p)
			killed := errors.New("killed")
			cfg.AfterStep = func(g GateID) error {
				if g == step {
					return killed
				}
				return nil
			}
			res, _, err := f.ship(cfg, pr)
			if !errors.Is(err, killed) || !res.Merged || p.asked != 1 {
				t.Fatalf("first ship: err %v, merged %v, asked %d", err, res.Merged, p.asked)
			}

			again, events, err := f.ship(f.plainConfig(p), pr)
			if err != nil || again.ExitCode != ExitShipped || !again.Shipped {
				t.Fatalf("second ship: err %v, exit %d, refusals %q", err, again.ExitCode, again.Refusals)
			}
			if p.asked != 1 {
				t.Errorf("the finishing run asked for %d more presence approvals, want none", p.asked-1)
			}
			got := lastEvent(events)[GatePresence]
			if got.State != Passed || !strings.Contains(got.Words, "finishing the ship you approved at ") ||
				!strings.Contains(got.Words, "no new approval needed") {
				t.Errorf("presence gate: %v %q", got.State, got.Words)
			}
			if n := f.squashCommits(pr); n != 1 {
				t.Errorf("dev holds %d squash commits for #4, want 1", n)
			}
			out, _ := f.git("ls-tree", "-r", "--name-only", "ledger", "proof/3/")
			if n := strings.Count(out, "/ship.json"); n != 1 {
				t.Errorf("ledger holds %d ship.json, want 1:\n%s", n, out)
			}
		})
	}
}

// TestResumeOutsideTheWindowAsksAgain: past ResumeWindow since the merge,
// the finishing run asks for a new approval; refused, it writes nothing.
func TestResumeOutsideTheWindowAsksAgain(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.solo()
	pr := sandbox.DemoPRReady
	p := &presenceCounter{login: "founder", approve: true}
	cfg := f.plainConfig(p)
	killed := errors.New("killed")
	cfg.AfterStep = func(g GateID) error {
		if g == GateMerge {
			return killed
		}
		return nil
	}
	if res, _, err := f.ship(cfg, pr); !errors.Is(err, killed) || !res.Merged {
		t.Fatalf("first ship: err %v, merged %v", err, res.Merged)
	}

	p.approve = false
	late := f.plainConfig(p)
	late.Now = func() time.Time { return time.Now().Add(ResumeWindow + time.Minute) }
	res, events, err := f.ship(late, pr)
	if err != nil || res.ExitCode != ExitRefused || res.Shipped {
		t.Fatalf("late ship: err %v, exit %d, shipped %v", err, res.ExitCode, res.Shipped)
	}
	if p.asked != 2 {
		t.Errorf("presence asked %d times in all, want 2: a late finish must ask again", p.asked)
	}
	if w := lastEvent(events)[GatePresence].Words; strings.Contains(w, "no new approval needed") {
		t.Errorf("late finish skipped the approval: %q", w)
	}
	out, _ := f.git("ls-tree", "-r", "--name-only", "ledger", "proof/3/")
	if strings.Contains(out, "/ship.json") {
		t.Errorf("a refused late finish landed the record:\n%s", out)
	}

	// Approved, the same late run finishes.
	p.approve = true
	if res, _, err := f.ship(late, pr); err != nil || !res.Shipped || p.asked != 3 {
		t.Fatalf("approved late ship: err %v, shipped %v, asked %d", err, res.Shipped, p.asked)
	}
}

// TestEarlierApprovalRefusesWhatItCannotProve: the finish needs no new
// approval only for this person's own merge by ship of this head, within
// the window; anything else asks again.
func TestEarlierApprovalRefusesWhatItCannotProve(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)
	good := func() *run {
		return &run{cfg: Config{Viewer: "founder", Now: func() time.Time { return now }}, target: targetFacts{head: "abc",
			pull: &github.PullRequest{Merged: github.Bool(true), MergedBy: &github.User{Login: github.String("founder")},
				MergedAt: &github.Timestamp{Time: now.Add(-5 * time.Minute)}},
			resume: &mergeTrailers{Head: "abc", PassKind: pass.KindSoloBypass, PassBy: "founder"}}}
	}
	if w := good().earlierApproval(); !strings.Contains(w, "you approved at 14:55 UTC: no new approval needed") {
		t.Fatalf("own merge five minutes ago: %q", w)
	}
	for name, spoil := range map[string]func(*run){
		"merged by another person":  func(r *run) { r.target.pull.MergedBy.Login = github.String("dev") },
		"no merger":                 func(r *run) { r.target.pull.MergedBy = nil },
		"bypass passed by another":  func(r *run) { r.target.resume.PassBy = "dev" },
		"trailers for another head": func(r *run) { r.target.resume.Head = "def" },
		"not a resume":              func(r *run) { r.target.resume = nil },
		"merged past the window":    func(r *run) { r.target.pull.MergedAt.Time = now.Add(-ResumeWindow - time.Second) },
		"merged in the future":      func(r *run) { r.target.pull.MergedAt.Time = now.Add(time.Hour) },
		"no merge time":             func(r *run) { r.target.pull.MergedAt = nil },
		"not merged":                func(r *run) { r.target.pull.Merged = github.Bool(false) },
	} {
		r := good()
		spoil(r)
		if w := r.earlierApproval(); w != "" {
			t.Errorf("%s: needs no approval: %q", name, w)
		}
	}
}
