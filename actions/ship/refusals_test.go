package ship

import (
	"context"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/google/go-github/v66/github"
)

// TestShipRefusals has one case per refusal the seeds name. Each asserts
// the refusal's words, exit 4, that nothing merged and nothing landed.
func TestShipRefusals(t *testing.T) {
	t.Parallel()
	t.Run("each run kind alone", testRunKinds)

	founderApproves := func(f *fixture, _ *Config) { f.review("founder", sandbox.DemoPRReady, "APPROVE", "") }
	cases := []struct {
		name  string
		pr    int
		setup func(f *fixture, cfg *Config)
		words string // in a refusal, a run passed over, or a gate's detail
	}{
		{"pack of PR 8 does not verify", sandbox.DemoPRStopped, func(f *fixture, _ *Config) {
			f.review("founder", sandbox.DemoPRStopped, "APPROVE", "")
		}, "its pack does not verify"},
		{"nothing qualifies for PR 8", sandbox.DemoPRStopped, nil, "nothing qualifies"},
		{"head moved since the gate ran", sandbox.DemoPRReady, func(f *fixture, _ *Config) {
			f.commit("story/3-remaining-deductible", map[string]string{"deductible/extra.go": "package deductible\n"})
			f.review("founder", sandbox.DemoPRReady, "APPROVE", "")
		}, "proves another commit"},
		{"no human pass", sandbox.DemoPRReady, nil, "the pass must come from the [autonomy] approver, @founder, who has not approved head"},
		{"a bot's review", 0, func(f *fixture, _ *Config) {
			f.baseConfig(`approver = "founder"`, `approver = ""`)
			n := f.writerPR("writer-change", map[string]string{"deductible/writer.go": "package deductible\n"})
			f.review("agent-bot", n, "APPROVE", "")
		}, "@agent-bot[bot] is a bot"},
		{"the author's review", sandbox.DemoPRReady, func(f *fixture, _ *Config) {
			f.baseConfig(`approver = "founder"`, `approver = "agent-bot[bot]"`)
		}, "who is the author; an author's review never counts"},
		{"the founder's review refused as the author's in the solo demo", sandbox.DemoPRReady, func(f *fixture, _ *Config) {
			f.review("writer", sandbox.DemoPRReady, "COMMENT", "")
		}, "who is the author; an author's review never counts"},
		{"only the bypass in the solo demo", sandbox.DemoPRReady, nil, "only your Solo-mode bypass could pass head"},
		{"a review of an older commit", sandbox.DemoPRReady, func(f *fixture, _ *Config) {
			f.baseConfig(`approver = "founder"`, `approver = "writer"`)
		}, "@writer reviewed an older commit"},
		{"a looser approver by --set", sandbox.DemoPRReady, func(f *fixture, cfg *Config) {
			founderApproves(f, cfg)
			cfg.Local.Set = []string{"autonomy.approver=writer"}
		}, "a --set flag sets autonomy.approver"},
		{"a lower streak in the user file", sandbox.DemoPRReady, func(f *fixture, cfg *Config) {
			founderApproves(f, cfg)
			cfg.Local.User = []byte("[autonomy]\nstreak = 1\n")
		}, "your config file sets autonomy.streak"},
		{"never layers dropped in the checkout", sandbox.DemoPRReady, func(f *fixture, cfg *Config) {
			founderApproves(f, cfg)
			cfg.Local.Repo = []byte("[autonomy]\napprover = \"founder\"\nnever = []\n")
		}, "your checkout's .aayudha/config.toml sets autonomy.never"},
		{"a never-layer path without a CODEOWNER's approval", sandbox.DemoPRReady, func(f *fixture, _ *Config) {
			f.baseConfig(`approver = "founder"`, `approver = "writer"`)
			f.commit("story/3-remaining-deductible", map[string]string{"policy/limits.go": "package policy\n"})
			f.review("writer", sandbox.DemoPRReady, "APPROVE", "")
		}, "policy/limits.go is in never layer L04 and needs a pass"},
		{"a never layer without a plan review", sandbox.DemoPRReady, func(f *fixture, _ *Config) {
			f.commit("story/3-remaining-deductible", map[string]string{"policy/limits.go": "package policy\n"})
			f.review("founder", sandbox.DemoPRReady, "APPROVE", "")
		}, "never layer L04 needs a plan-time review"},
		{"an always_person path on an autonomous streak", sandbox.DemoPRReady, func(f *fixture, _ *Config) {
			f.baseConfig(`streak = 10`, `streak = 1`, `always_person = [".aayudha/config.toml", ".github/**"]`,
				`always_person = [".aayudha/config.toml", ".github/**", "deductible/**"]`)
			f.commit("ledger", map[string]string{SamplesPath: `{"pr":15,"correction":false,"layers":["L05"],"rung":"A","author":"agent-bot[bot]"}` + "\n"})
		}, "needs a person: deductible/remaining.go is in autonomy.always_person"},
		{"an unparseable workflow", sandbox.DemoPRReady, func(f *fixture, _ *Config) {
			f.commit("story/3-remaining-deductible", map[string]string{".github/workflows/extra.yml": "on: push\njobs:\n\tbuild: {}\n"})
			f.review("founder", sandbox.DemoPRReady, "APPROVE", "")
		}, "cannot be parsed, so it counts as holding a credential"},
		{"a CODEOWNERS rule ship cannot evaluate", sandbox.DemoPRReady, func(f *fixture, cfg *Config) {
			founderApproves(f, cfg)
			f.commit("dev", map[string]string{"CODEOWNERS": "* @founder\n!/docs/ @writer\n"})
		}, "has a rule aayu cannot evaluate"},
		{"CI never ships", sandbox.DemoPRReady, func(f *fixture, cfg *Config) {
			founderApproves(f, cfg)
			cfg.CI = true
		}, "CI"},
		{"an agent lane", sandbox.DemoPRReady, func(f *fixture, cfg *Config) {
			founderApproves(f, cfg)
			cfg.Env = envOf(map[string]string{"AAYU_AGENT": "1"})
		}, "AAYU_AGENT"},
		{"an agent host's shell without the presence check", sandbox.DemoPRReady, func(f *fixture, cfg *Config) {
			founderApproves(f, cfg)
			cfg.Env = envOf(map[string]string{"CLAUDECODE": "1"})
		}, "with the presence check"},
		{"read access cannot merge", sandbox.DemoPRReady, func(f *fixture, cfg *Config) {
			f.review("founder", sandbox.DemoPRReady, "APPROVE", "")
			*cfg = f.config("reader")
		}, "merging needs write access"},
		{"merged without ship", sandbox.DemoPRMergedNoShip, nil, "without aayu ship"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// The founder's review is the pass only where a bot wrote the
			// pull request, so each refusal after the pass is checked with
			// a bot identity; a case named "… in the solo demo" runs on the
			// demo as seeded, where the founder is the author.
			var f *fixture
			if strings.HasSuffix(tc.name, "in the solo demo") {
				f = newFixture(t)
			} else {
				f = newBotFixture(t)
			}
			cfg := f.config("founder")
			pr := tc.pr
			if tc.setup != nil {
				tc.setup(f, &cfg)
				if pr == 0 {
					pr = f.lastPR
				}
			}
			before := f.snapshot(pr)
			res, events, err := f.ship(cfg, pr)
			if err != nil {
				t.Fatalf("ship failed instead of refusing: %v", err)
			}
			if res.ExitCode != ExitRefused || res.Merged {
				t.Fatalf("exit %d, merged %v, refusals %q; want exit 4 and nothing merged", res.ExitCode, res.Merged, res.Refusals)
			}
			if !mentions(res, events, tc.words) {
				t.Errorf("no refusal says %q:\nrefusals %q\npassed over %v\nevents %v", tc.words, res.Refusals, res.Passed, lastEvent(events))
			}
			f.assertUnchanged(before, pr)
			if last := lastEvent(events); last[GateMerge].State != Skipped || last[GateLedger].State != Skipped {
				t.Errorf("merge %s, ledger %s after a refusal; want both skipped", last[GateMerge].State, last[GateLedger].State)
			}
		})
	}

	t.Run("the head moves just before the merge", func(t *testing.T) {
		t.Parallel()
		f := newBotFixture(t)
		f.review("founder", sandbox.DemoPRReady, "APPROVE", "")
		cfg := f.config("founder")
		cfg.AfterStep = func(g GateID) error {
			if g == GateBypass || g == GatePresence {
				f.commit("story/3-remaining-deductible", map[string]string{"deductible/late.go": "package deductible\n"})
				cfg.AfterStep = nil
			}
			return nil
		}
		dev, ledger := f.srv.BranchSHA("dev"), f.srv.BranchSHA("ledger")
		res, _, err := f.ship(cfg, sandbox.DemoPRReady)
		if err != nil || res.ExitCode != ExitRefused || res.Merged || !hasWords(res.Refusals, "the head moved") || !hasWords(res.Refusals, "nothing was merged") {
			t.Fatalf("err %v, exit %d, merged %v, refusals %q", err, res.ExitCode, res.Merged, res.Refusals)
		}
		if f.srv.BranchSHA("dev") != dev || f.srv.BranchSHA("ledger") != ledger {
			t.Error("a refused merge changed dev or the ledger")
		}
	})
}

// testRunKinds gives gatePack each of PR 4's merge-gate runs alone: only
// the qualifying one is taken; every other is passed over with its reason.
func testRunKinds(t *testing.T) {
	f := newFixture(t)
	want := map[string]string{
		sandbox.RunQualifying:  "",
		sandbox.RunPullRequest: "the pull request's own copy of the gate (pull_request)",
		sandbox.RunOlderHead:   "proves another commit",
		sandbox.RunFailed:      "failed",
		sandbox.RunInProgress:  "still running",
		sandbox.RunExpired:     "its artifact expired",
		sandbox.RunTampered:    "its artifact does not match pack.json: Artifact \"evidence/criterion-1.jsonl\"",
	}
	for situation, words := range want {
		t.Run(situation, func(t *testing.T) {
			s, err := New(f.config("founder"))
			if err != nil {
				t.Fatal(err)
			}
			r := &run{s: s, cfg: s.cfg, ctx: context.Background(), pr: sandbox.DemoPRReady}
			if out, err := r.checkPR(); err != nil || len(out.refusals) > 0 {
				t.Fatalf("reading PR 4: %v %q", err, out.refusals)
			}
			runs, err := r.listGateRuns()
			if err != nil {
				t.Fatal(err)
			}
			var alone []*github.WorkflowRun
			for _, run := range runs {
				if run.GetID() == f.srv.RunID(situation) {
					alone = append(alone, run)
				}
			}
			if len(alone) != 1 {
				t.Fatalf("the sandbox lists %d runs for %s", len(alone), situation)
			}
			gp, err := r.selectRun(alone)
			if err != nil {
				t.Fatal(err)
			}
			if words == "" {
				if gp == nil || !gp.report.Verified() {
					t.Fatalf("the qualifying run was passed over: %v", r.res.Passed)
				}
				return
			}
			if gp != nil || len(r.res.Passed) != 1 || !strings.Contains(r.res.Passed[0].Reason, words) {
				t.Errorf("run %s: taken %v, passed over %v; want the reason %q", situation, gp != nil, r.res.Passed, words)
			}
		})
	}
}

func mentions(res Result, events []Event, words string) bool {
	if hasWords(res.Refusals, words) {
		return true
	}
	for _, p := range res.Passed {
		if strings.Contains(p.Reason, words) {
			return true
		}
	}
	for _, e := range events {
		if strings.Contains(e.Words, words) || hasWords(e.Detail, words) {
			return true
		}
	}
	return false
}

// writerPR opens a pull request by the writer from a new branch off dev.
func (f *fixture) writerPR(branch string, files map[string]string) int {
	f.t.Helper()
	ctx := context.Background()
	gh := f.client("writer")
	if _, _, err := gh.Git.CreateRef(ctx, owner, repo, &github.Reference{Ref: github.String("refs/heads/" + branch),
		Object: &github.GitObject{SHA: github.String(f.srv.BranchSHA("dev"))}}); err != nil {
		f.t.Fatal(err)
	}
	f.commit(branch, files)
	pr, _, err := gh.PullRequests.Create(ctx, owner, repo, &github.NewPullRequest{Title: github.String("A writer's change"),
		Head: github.String(branch), Base: github.String("dev"), Body: github.String("Refs #3")})
	if err != nil {
		f.t.Fatal(err)
	}
	f.lastPR = pr.GetNumber()
	return pr.GetNumber()
}
