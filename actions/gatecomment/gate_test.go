package gatecomment_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/actions/ledgerpack"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/conformance"
	"github.com/aayudha/aayu/proof"
)

const owner, repo = sandbox.RepoOwner, sandbox.RepoName

type fixture struct {
	t   *testing.T
	srv *sandbox.Server
	v   *conformance.Validator
	bot *github.Client // the gate's account here
	ctx context.Context
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	srv, v, base := conformance.StartSandbox(t, sandbox.Options{ShareSeed: true})
	return &fixture{t: t, srv: srv, v: v, bot: client(t, base, "agent-bot"), ctx: context.Background()}
}

func client(t *testing.T, base, login string) *github.Client {
	t.Helper()
	c, err := ghx.NewClient(ghx.ClientOptions{APIURL: base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+login, "test"),
		Retry: ghx.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// gatePack unpacks a demo merge-gate run's aayudha-pack artifact, as the
// aayudha/pack job does before it comments; edit may change its pack.json.
func (f *fixture) gatePack(situation string, edit func(*proof.Pack)) string {
	f.t.Helper()
	dir := filepath.Join(f.t.TempDir(), "pack")
	_, err := ledgerpack.GateArtifact(f.ctx, f.bot, owner, repo, sandbox.DemoPRReady, f.srv.HeadSHA(sandbox.DemoPRReady), dir,
		ledgerpack.GateOptions{RunID: f.srv.RunID(situation)})
	if err != nil {
		f.t.Fatal(err)
	}
	if edit != nil {
		p, _, err := proof.ReadPackDir(dir, proof.Limits{})
		if err != nil {
			f.t.Fatal(err)
		}
		edit(p)
		b, err := proof.Encode(p)
		if err != nil {
			f.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "pack.json"), b, 0o600); err != nil {
			f.t.Fatal(err)
		}
	}
	return dir
}

func (f *fixture) env(run string) func(string) string {
	vars := map[string]string{"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": owner + "/" + repo,
		"GITHUB_RUN_ID": strconv.FormatInt(f.srv.RunID(run), 10)}
	return func(k string) string { return vars[k] }
}

func (f *fixture) gateComments() []*github.IssueComment {
	f.t.Helper()
	cs, err := ghx.ListAll(f.ctx, func(o *github.ListOptions) ([]*github.IssueComment, *github.Response, error) {
		return f.bot.Issues.ListComments(f.ctx, owner, repo, sandbox.DemoPRReady, &github.IssueListCommentsOptions{ListOptions: *o})
	})
	if err != nil {
		f.t.Fatal(err)
	}
	var out []*github.IssueComment
	for _, c := range cs {
		if slices.Contains(strings.Split(c.GetBody(), "\n"), gatecomment.Marker) {
			out = append(out, c)
		}
	}
	return out
}

// run is `aayu comment 4 --ci` on the pack folder dir ("" finds it in the
// checkout), checking that the ledger did not move.
func (f *fixture) run(dir, checkout string, env func(string) string) (int, string) {
	f.t.Helper()
	before := f.srv.BranchSHA(ledgerpack.LedgerBranch)
	code, body, err := gatecomment.Run(f.ctx, gatecomment.Config{Client: f.bot, Owner: owner, Repo: repo, PR: sandbox.DemoPRReady,
		Dir: dir, Checkout: checkout, Getenv: env})
	if err != nil {
		f.t.Fatalf("aayu comment: %v", err)
	}
	if after := f.srv.BranchSHA(ledgerpack.LedgerBranch); after != before {
		f.t.Fatalf("aayu comment moved the ledger from %s to %s", before, after)
	}
	return code, body
}

func TestProofCommentInMergeGate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		run  string
		edit func(*proof.Pack)
		code int
		says []string
	}{
		{"verifies", sandbox.RunQualifying, nil, gatecomment.ExitOK, []string{"the pack verifies and every floor holds", "| 1 | proven |"}},
		{"tampered", sandbox.RunTampered, nil, gatecomment.ExitRefused, []string{"the pack does not verify (exit 4)", "evidence/criterion-1.jsonl", "**not proven**"}},
		{"floor fails", sandbox.RunQualifying, func(p *proof.Pack) {
			v := 61.5
			p.Checks[0].Result, p.Checks[0].Value = proof.ResultFail, &v
		}, gatecomment.ExitFloor, []string{"a floor does not hold (exit 3)", "| coverage | **fail** | 61.5 | 90 |", "Floors that do not hold: coverage."}},
		{"head moved", sandbox.RunOlderHead, nil, gatecomment.ExitRefused, []string{"does not verify"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			code, body := f.run(f.gatePack(c.run, c.edit), "", f.env(c.run))
			if code != c.code {
				t.Fatalf("exit %d, want %d:\n%s", code, c.code, body)
			}
			for _, s := range c.says {
				if !strings.Contains(body, s) {
					t.Errorf("the comment does not say %q:\n%s", s, body)
				}
			}
			runURL := "https://github.com/acme/benefits/actions/runs/" + strconv.FormatInt(f.srv.RunID(c.run), 10)
			for _, s := range []string{"pack.json SHA-256: `", runURL + ")", runURL + "/artifacts/"} {
				if !strings.Contains(body, s) {
					t.Errorf("the comment lacks %q:\n%s", s, body)
				}
			}
			got := f.gateComments()
			if len(got) != 1 || got[0].GetBody() != body {
				t.Fatalf("%d gate comments on #4, want exactly the one written", len(got))
			}
		})
	}
}

func TestProofCommentKeepsOneComment(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	// Someone else plants the gate's marker, and an agent's advisory
	// comment is already there: neither is the gate's comment.
	writer := client(t, strings.TrimSuffix(f.bot.BaseURL.String(), "/"), "writer")
	fake := gatecomment.Marker + "\n## aayudha/pack: the pack verifies and every floor holds"
	if _, _, err := writer.Issues.CreateComment(f.ctx, owner, repo, sandbox.DemoPRReady, &github.IssueComment{Body: &fake}); err != nil {
		t.Fatal(err)
	}
	adv := gatecomment.AdvisoryMarker + "\nadvisory preview"
	if _, _, err := f.bot.Issues.CreateComment(f.ctx, owner, repo, sandbox.DemoPRReady, &github.IssueComment{Body: &adv}); err != nil {
		t.Fatal(err)
	}
	good := f.gatePack(sandbox.RunQualifying, nil)
	if code, _ := f.run(good, "", f.env(sandbox.RunQualifying)); code != 0 {
		t.Fatalf("exit %d", code)
	}
	mine := func() []*github.IssueComment {
		var out []*github.IssueComment
		for _, c := range f.gateComments() {
			if c.GetUser().GetLogin() == sandbox.BotLogin {
				out = append(out, c)
			}
		}
		return out
	}
	first := mine()
	if len(first) != 1 || len(f.gateComments()) != 2 {
		t.Fatalf("after the first run: %d gate comments by the gate's account, %d in all; want 1 and 2 (the planted one untouched)", len(first), len(f.gateComments()))
	}
	// The same verdict again: nothing new.
	f.run(good, "", f.env(sandbox.RunQualifying))
	if again := mine(); len(again) != 1 || again[0].GetID() != first[0].GetID() {
		t.Fatalf("a second run left %d gate comments", len(again))
	}

	// A new verdict updates that one comment in place.
	code, body := f.run(f.gatePack(sandbox.RunTampered, nil), "", f.env(sandbox.RunTampered))
	after := mine()
	if code != gatecomment.ExitRefused || len(after) != 1 || after[0].GetID() != first[0].GetID() || after[0].GetBody() != body {
		t.Fatalf("exit %d; %d gate comments; want the first one updated to say the pack does not verify", code, len(after))
	}
}

func TestProofCommentFindsThePackInTheCheckout(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	checkout := t.TempDir()
	// No pack in the checkout: the gate fails and says so.
	code, body := f.run("", checkout, nil)
	if code != gatecomment.ExitRefused || !strings.Contains(body, "No pack folder was found") || !strings.Contains(body, ".aayudha/proof/3/") {
		t.Fatalf("exit %d:\n%s", code, body)
	}
	if !strings.Contains(body, "not written from a GitHub Actions run") {
		t.Errorf("without Actions variables the comment should say there is no run link:\n%s", body)
	}
	// The story's local pack, found through the pull request's link.
	if err := os.MkdirAll(filepath.Join(checkout, ".aayudha", "proof"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(f.gatePack(sandbox.RunQualifying, nil), filepath.Join(checkout, ".aayudha", "proof", "3")); err != nil {
		t.Fatal(err)
	}
	if code, body := f.run("", checkout, nil); code != gatecomment.ExitOK || !strings.Contains(body, "Story 3 · pull request #4") {
		t.Fatalf("with the pack in the checkout: exit %d:\n%s", code, body)
	}
}
