package gatecomment_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/actions/ledgerpack"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/model/waiver"
	"github.com/aayudha/aayu/proof"
)

// failCoverage makes the gate's pack of #4 verify with its coverage floor
// failing, as a pull request's untested lines would.
func failCoverage(p *proof.Pack) {
	v := 61.5
	for i := range p.Checks {
		if p.Checks[i].Floor == "coverage" {
			p.Checks[i].Result, p.Checks[i].Value = proof.ResultFail, &v
		}
	}
}

// waiverBy opens a floor-waiver Decision of floor coverage for #4 at head,
// as opener, accepts its waiving option in a comment posted by poster
// naming accepter, closes it as accepted, and lands its record (naming
// accepter) on the ledger, as a pusher could: an agent's account can do
// every one of these writes. It returns the Decision's number.
func (f *fixture) waiverBy(base, opener, poster, accepter, head string) int {
	f.t.Helper()
	c := client(f.t, base, opener)
	labels := []string{waiver.LabelDecision, waiver.Label}
	q := waiver.Request{PR: sandbox.DemoPRReady, Head: head, Floor: "coverage", Why: "the specialist case is drilled by hand"}
	is, _, err := c.Issues.Create(f.ctx, owner, repo, &github.IssueRequest{Title: github.String(waiver.Title(q)), Body: github.String(waiver.Body(q)), Labels: &labels})
	if err != nil {
		f.t.Fatal(err)
	}
	n := is.GetNumber()
	accept := fmt.Sprintf("Accepted option 1 (Waive floor coverage for head %s) by @%s\n%s", head[:12], accepter,
		waiver.TextLine(waiver.TextHash(waiver.Title(q), waiver.Body(q))))
	if _, _, err := client(f.t, base, poster).Issues.CreateComment(f.ctx, owner, repo, n, &github.IssueComment{Body: &accept}); err != nil {
		f.t.Fatal(err)
	}
	if _, _, err := c.Issues.AddLabelsToIssue(f.ctx, owner, repo, n, []string{waiver.LabelAccepted}); err != nil {
		f.t.Fatal(err)
	}
	if _, _, err := c.Issues.Edit(f.ctx, owner, repo, n, &github.IssueRequest{State: github.String("closed"), StateReason: github.String("completed")}); err != nil {
		f.t.Fatal(err)
	}
	rec, err := json.Marshal(waiver.Record{Decision: n, PR: q.PR, Head: head, Floor: q.Floor, Why: q.Why, AcceptedBy: accepter,
		AcceptedAt: time.Now().UTC(), Via: "aayu decide"})
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := ghx.CommitFiles(f.ctx, c, owner, repo, ledgerpack.LedgerBranch, map[string][]byte{waiver.Path(q.PR, head, q.Floor): rec},
		"waiver", ghx.CommitOptions{}); err != nil {
		f.t.Fatal(err)
	}
	return n
}

// gateWithWaiver runs aayu comment 4 --ci with the commit status on a pack
// of #4 whose coverage floor fails, after set has written what the ledger
// and the Decisions hold; it returns the verdict, the comment and the
// status aayudha/merge-gate set on the head.
func gateWithWaiver(t *testing.T, set func(f *fixture, base, head string) int) (code int, body string, decision int, status *github.RepoStatus) {
	t.Helper()
	return gateWithWaiverOn(t, sandbox.Options{ShareSeed: true}, set)
}

// gateWithWaiverOn is gateWithWaiver on a sandbox started with opts.
func gateWithWaiverOn(t *testing.T, opts sandbox.Options, set func(f *fixture, base, head string) int) (code int, body string, decision int, status *github.RepoStatus) {
	t.Helper()
	srv, v, base := conformance.StartSandbox(t, opts)
	f := &fixture{t: t, srv: srv, v: v, bot: client(t, base, "agent-bot"), ctx: t.Context()}
	head := srv.HeadSHA(sandbox.DemoPRReady)
	decision = set(f, base, head)
	before := srv.BranchSHA(ledgerpack.LedgerBranch)
	code, body, err := gatecomment.Run(f.ctx, gatecomment.Config{Client: f.bot, Owner: owner, Repo: repo, PR: sandbox.DemoPRReady,
		Dir: f.gatePack(sandbox.RunQualifying, failCoverage), Login: sandbox.ActionsBotLogin, SetStatus: true})
	if err != nil {
		t.Fatalf("aayu comment: %v", err)
	}
	if after := srv.BranchSHA(ledgerpack.LedgerBranch); after != before {
		t.Fatalf("aayu comment moved the ledger from %s to %s", before, after)
	}
	sts, _, err := f.bot.Repositories.ListStatuses(f.ctx, owner, repo, head, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sts {
		if s.GetContext() == gatecomment.StatusContext {
			return code, body, decision, s
		}
	}
	t.Fatalf("no %s status on %s", gatecomment.StatusContext, head)
	return
}

// TestGateCommentTakesAFloorWaivedForItsHead: a pack that verifies with
// its coverage floor failing, and on the ledger the person's accepted
// waiver of that floor for this pull request and head: the gate's verdict
// is 0, aayudha/merge-gate is success naming the Decision, and the
// comment shows the floor waived by it.
func TestGateCommentTakesAFloorWaivedForItsHead(t *testing.T) {
	t.Parallel()
	code, body, n, st := gateWithWaiver(t, func(f *fixture, base, head string) int {
		return f.waiverBy(base, "founder", "founder", "founder", head)
	})
	if code != gatecomment.ExitOK || st.GetState() != "success" || !strings.Contains(st.GetDescription(), fmt.Sprintf("coverage by Decision #%d", n)) {
		t.Fatalf("exit %d, status %s %q:\n%s", code, st.GetState(), st.GetDescription(), body)
	}
	for _, want := range []string{"every floor holds but what an accepted waiver for this head waives",
		fmt.Sprintf("| coverage | **fail**, `waived` by Decision #%d |", n),
		fmt.Sprintf("- coverage: `waived`, waived by Decision \\#%d, accepted by \\@founder", n)} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
}

// TestGateCommentRefusesAWaiverForAnotherHead: the person's accepted
// waiver of the same floor for another head changes nothing: exit 3,
// aayudha/merge-gate failure, and the comment says why in words.
func TestGateCommentRefusesAWaiverForAnotherHead(t *testing.T) {
	t.Parallel()
	other := strings.Repeat("ab", 20)
	code, body, n, st := gateWithWaiver(t, func(f *fixture, base, _ string) int {
		return f.waiverBy(base, "founder", "founder", "founder", other)
	})
	if code != gatecomment.ExitFloor || st.GetState() != "failure" || strings.Contains(body, "`waived`") ||
		!strings.Contains(body, fmt.Sprintf("- coverage: not waived: the ledger's waiver of floor coverage \\(Decision \\#%d\\) is for head %s", n, other[:12])) {
		t.Fatalf("exit %d, status %s:\n%s", code, st.GetState(), body)
	}
}

// TestGateCommentRefusesAWaiverAnAgentWrote: an agent's account can push
// a record to the ledger naming the person, and open, label and close a
// waiver Decision, but the acceptance the rule reads is a comment by the
// person the record names: the agent's comment in the person's words
// waives nothing, and neither does a waiver the agent accepted as itself.
func TestGateCommentRefusesAWaiverAnAgentWrote(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, accepter, want string
	}{
		{"in the person's name", "founder", "carries no acceptance by \\@founder"},
		{"as itself", sandbox.BotLogin, "a floor waiver is a person's act, never a bot's"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, body, _, st := gateWithWaiver(t, func(f *fixture, base, head string) int {
				return f.waiverBy(base, "agent-bot", "agent-bot", c.accepter, head)
			})
			if code != gatecomment.ExitFloor || st.GetState() != "failure" || !strings.Contains(body, c.want) {
				t.Fatalf("exit %d, status %s, want %q:\n%s", code, st.GetState(), c.want, body)
			}
		})
	}
}

// acceptanceOn is the founder's comment accepting an option of Decision n.
func (f *fixture) acceptanceOn(base string, n int) *github.IssueComment {
	f.t.Helper()
	cs, _, err := client(f.t, base, "founder").Issues.ListComments(f.ctx, owner, repo, n, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, c := range cs {
		if strings.HasPrefix(c.GetBody(), "Accepted option 1 (") && c.GetUser().GetLogin() == "founder" {
			return c
		}
	}
	f.t.Fatalf("no acceptance by @founder on #%d", n)
	return nil
}

// TestGateCommentRefusesAWaiverEditedAfterAcceptance: the person accepted
// the waiver Decision, and then an agent's account (write access) edited
// its body through the REST API: the person's acceptance carries the hash
// of the text they accepted, so the edited Decision waives nothing: exit
// 3, aayudha/merge-gate failure, and the comment says it was edited.
func TestGateCommentRefusesAWaiverEditedAfterAcceptance(t *testing.T) {
	t.Parallel()
	code, body, n, st := gateWithWaiver(t, func(f *fixture, base, head string) int {
		n := f.waiverBy(base, "founder", "founder", "founder", head)
		is, _, err := f.bot.Issues.Get(f.ctx, owner, repo, n)
		if err != nil {
			f.t.Fatal(err)
		}
		edited := strings.Replace(is.GetBody(), "drilled by hand", "not needed at all", 1)
		if _, _, err := client(f.t, base, "agent-bot").Issues.Edit(f.ctx, owner, repo, n, &github.IssueRequest{Body: &edited}); err != nil {
			f.t.Fatal(err)
		}
		return n
	})
	if code != gatecomment.ExitFloor || st.GetState() != "failure" || strings.Contains(body, "`waived`") ||
		!strings.Contains(body, fmt.Sprintf("- coverage: not waived: Decision \\#%d was edited after it was accepted", n)) {
		t.Fatalf("exit %d, status %s:\n%s", code, st.GetState(), body)
	}
}

// TestGateCommentRefusesAWaiverWhoseAcceptanceWasEdited: an agent's
// account edits the Decision and then the person's acceptance comment, so
// its hash line names the edited text: GitHub records the comment as
// changed after it was posted (updated_at later than created_at), and the
// gate takes no edited acceptance.
func TestGateCommentRefusesAWaiverWhoseAcceptanceWasEdited(t *testing.T) {
	t.Parallel()
	var later atomic.Int64 // how far the sandbox's clock is ahead of now
	opts := sandbox.Options{ShareSeed: true, Now: func() time.Time { return time.Now().Add(time.Duration(later.Load())) }}
	code, body, n, st := gateWithWaiverOn(t, opts, func(f *fixture, base, head string) int {
		n := f.waiverBy(base, "founder", "founder", "founder", head)
		agent := client(f.t, base, "agent-bot")
		is, _, err := agent.Issues.Get(f.ctx, owner, repo, n)
		if err != nil {
			f.t.Fatal(err)
		}
		edited := strings.Replace(is.GetBody(), "drilled by hand", "not needed at all", 1)
		if _, _, err := agent.Issues.Edit(f.ctx, owner, repo, n, &github.IssueRequest{Body: &edited}); err != nil {
			f.t.Fatal(err)
		}
		later.Store(int64(2 * time.Second)) // the edit comes seconds after the comment, as it would
		c := f.acceptanceOn(base, n)
		forged := fmt.Sprintf("Accepted option 1 (Waive floor coverage for head %s) by @founder\n%s", head[:12], waiver.TextLine(waiver.TextHash(is.GetTitle(), edited)))
		if _, _, err := agent.Issues.EditComment(f.ctx, owner, repo, c.GetID(), &github.IssueComment{Body: &forged}); err != nil {
			f.t.Fatal(err)
		}
		return n
	})
	if code != gatecomment.ExitFloor || st.GetState() != "failure" || strings.Contains(body, "`waived`") ||
		!strings.Contains(body, fmt.Sprintf("comment accepting Decision \\#%d was edited after it was posted", n)) {
		t.Fatalf("exit %d, status %s:\n%s", code, st.GetState(), body)
	}
}
