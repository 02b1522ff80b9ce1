package approve

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
)

func sandboxClient(t *testing.T, base, login string) *github.Client {
	t.Helper()
	c, err := ghx.NewClient(ghx.ClientOptions{APIURL: base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+login, "test")})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestApplyRefusesAPlanStepOnADeviceCodeWithoutTheOwnToken: a device code
// proves the person and writes nothing as them; applied with the agent's
// token (the bot's), a plan step is refused with the reason and the next
// step, and no plan review is written. With a token that is not the
// approver's own either, the same.
func TestApplyRefusesAPlanStepOnADeviceCodeWithoutTheOwnToken(t *testing.T) {
	t.Parallel()
	_, _, base := conformance.StartSandbox(t, sandbox.Options{StateDir: t.TempDir(), BotIdentity: true})
	bot := sandboxClient(t, base, "agent-bot")
	ctx := context.Background()
	rec, err := NewRecordOf("acme/benefits", []Item{NewPlanItem(3, []string{"L04"}, "Story", "body", false)}, "founder", sandbox.BotLogin, WayDevice, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	posted, err := Post(ctx, Ledger{Client: bot, Owner: "acme", Repo: "benefits"}, rec, "")
	if err != nil {
		t.Fatal(err)
	}
	hash := posted.Stored.Hash
	for _, tc := range []struct {
		writer string
		own    bool
	}{{"agent-bot", false}, {"writer", true}} {
		_, err = Apply(ctx, ApplyOptions{Ledger: Ledger{Client: sandboxClient(t, base, tc.writer), Owner: "acme", Repo: "benefits"}, Hash: hash,
			Approver: identity.Account{Login: "founder"}, Method: WayDevice, OwnToken: tc.own})
		var r *Refusal
		if !errors.As(err, &r) || r.Check != CheckPlanOwnComment {
			t.Fatalf("writer %s: a plan step on a device code was not refused as needing the person's own comment: %v", tc.writer, err)
		}
	}
	if _, err := ghx.ReadFile(ctx, bot, "acme", "benefits", "ledger", pass.PlanRecordPath(3)); !ghx.IsNotFound(err) {
		t.Fatalf("a plan review was written (%v)", err)
	}
	if _, found, err := (Ledger{Client: bot, Owner: "acme", Repo: "benefits"}).Applied(ctx, hash); err != nil || found {
		t.Fatalf("a refused plan batch was marked applied (%v, %v)", found, err)
	}
}

// TestRenderPlanBatchNamesTheOnlyWays: a plan batch on the device code
// says a plan review is the person's own comment and names aayu approve
// HASH at their own terminal; on the reply, that the reply is the review.
func TestRenderPlanBatchNamesTheOnlyWays(t *testing.T) {
	t.Parallel()
	rec, err := NewRecordOf("acme/benefits", []Item{NewPlanItem(3, []string{"L04"}, "Story", "body", false)}, "founder", app, WayDevice, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, way := range []string{WayDevice, WayReply} {
		rec.Way = way
		want := "Your reply is your review of the plan"
		if way == WayDevice {
			want = "run `aayu approve " + rec.Hash() + "` at your own terminal"
		}
		if got := Render(rec); !strings.Contains(got, want) || strings.Contains(got, "approve the device code below") {
			t.Errorf("%s: the plan batch does not say %q:\n%s", way, want, got)
		}
	}
}
