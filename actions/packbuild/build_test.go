package packbuild

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/proof"
)

func checkOf(t *testing.T, p *proof.Pack, floor string) proof.Check {
	t.Helper()
	for _, c := range p.Checks {
		if c.Floor == floor {
			return c
		}
	}
	t.Fatalf("the pack has no %s check: %+v", floor, p.Checks)
	return proof.Check{}
}

// TestVerifyFloorsHold: story 3's pull request, on real go test runs,
// gives a pack that verifies with every floor holding (exit 0).
func TestVerifyFloorsHold(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	req, out, ev := d.directRun(t, 3, beforeBlock)
	if out.ExitCode != ExitOK {
		t.Fatalf("exit %d, want 0; problems %v; evidence %v", out.ExitCode, out.Report.Problems, out.Evidence)
	}
	if !out.Report.Verified() || !out.Report.FloorsHold {
		t.Fatalf("the written pack: verified %v, floors hold %v", out.Report.Verified(), out.Report.FloorsHold)
	}
	p := out.Pack
	if p.PRHeadSHA != d.srv.HeadSHA(sandbox.DemoPRReady) || p.BaseSHA == "" || p.PR != 4 || p.Story != 3 {
		t.Errorf("identity: head %s base %s pr %d story %d", p.PRHeadSHA, p.BaseSHA, p.PR, p.Story)
	}
	if p.Authority.Kind != proof.AuthorityAdvisory || p.Identity != proof.IdentityHuman || p.Seat != Seat || p.Host != Host {
		t.Errorf("authority %+v identity %s seat %s host %s", p.Authority, p.Identity, p.Seat, p.Host)
	}
	if !slices.Equal(p.Footprint, []string{"L05"}) {
		t.Errorf("footprint %v, want [L05] (deductible/** in the base's LAYERS.md)", p.Footprint)
	}
	for _, c := range out.Report.Criteria {
		if !c.Proven {
			t.Errorf("criterion %d not proven: %s", c.ID, c.Reason)
		}
	}
	cov := checkOf(t, p, "coverage")
	if cov.Result != proof.ResultPass || *cov.Value != 100 || *cov.Threshold != 90 || cov.Detail != "5 of 5 changed executable lines covered (go coverprofile)" {
		t.Errorf("coverage check %+v", cov)
	}
	if cov.Network != out.Network || (out.Network != proof.NetworkIsolated && out.Network != proof.NetworkNotIsolated) {
		t.Errorf("network %q on the check, %q for the run", cov.Network, out.Network)
	}
	if out.RetentionDays != 30 || out.RetentionNote == "" {
		t.Errorf("retention %d (%s), want the base config's 30", out.RetentionDays, out.RetentionNote)
	}
	// The screen heard each test as it started.
	var started []string
	for _, e := range ev.list {
		if tr, ok := e.(TestRunning); ok {
			started = append(started, tr.Test)
		}
	}
	if !slices.Contains(started, "TestRemainingNeverNegative") {
		t.Errorf("tests heard starting: %v", started)
	}
	if _, err := os.Stat(filepath.Join(req.Dir, ".aayudha", "proof", "3", "artifacts", "evidence", "criterion-2.jsonl")); err != nil {
		t.Errorf("criterion 2's evidence is not in the pack folder: %v", err)
	}
	// The floors are recounted from the pack's own bytes, so it carries them.
	report := readFile(t, filepath.Join(out.Dir, "artifacts", filepath.FromSlash(proof.CoverageReportPath)))
	if string(report) != "deductible/remaining.go: 5 of 5 changed executable lines covered\n" {
		t.Errorf("coverage report %q", report)
	}
	if events := readFile(t, filepath.Join(out.Dir, "artifacts", filepath.FromSlash(proof.TestsEventsPath))); !bytes.Contains(events, []byte(`"Test":"TestRemainingNeverNegative"`)) {
		t.Errorf("the tests' events lack a test that ran:\n%s", events)
	}
	if len(p.Warnings) != 0 {
		t.Errorf("warnings on a pull request that adds no test framing: %+v", p.Warnings)
	}
}

// TestVerifyWarnsOfTestMainAdded: a TestMain the pull request adds in a
// mapped test's package can report a pass the test did not earn; the pack
// names it in a test-framing warning, and still verifies.
func TestVerifyWarnsOfTestMainAdded(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	req := d.request(t, 3, beforeBlock)
	main := "package deductible\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(m.Run()) }\n"
	if err := os.WriteFile(filepath.Join(req.Dir, "deductible", "main_test.go"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCommit(t, req.Dir)
	out, _ := run(t, req)
	if !out.Report.Verified() {
		t.Fatalf("the pack does not verify: %v", out.Report.Problems)
	}
	if len(out.Pack.Warnings) != 1 || out.Pack.Warnings[0].Name != proof.WarningTestFraming ||
		!strings.Contains(out.Pack.Warnings[0].Detail, "TestMain in deductible/main_test.go (added)") {
		t.Fatalf("warnings %+v, want one test-framing warning naming the TestMain", out.Pack.Warnings)
	}
}

// TestVerifyCoverageFloorFails: story 5 leaves Copay's specialist case
// unrun, so the coverage floor fails (exit 3) though the pack verifies.
// It also runs without the network namespace, and says so.
func TestVerifyCoverageFloorFails(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	ev := &events{}
	out, err := Run(context.Background(), Tools{NoIsolation: true}, d.request(t, 5, beforeBlock), ev.add)
	if err != nil {
		t.Fatal(err)
	}
	if out.ExitCode != ExitFloor || !out.Report.Verified() {
		t.Fatalf("exit %d verified %v, want 3 and a pack that verifies", out.ExitCode, out.Report.Verified())
	}
	cov := checkOf(t, out.Pack, "coverage")
	if cov.Result != proof.ResultFail || cov.Detail != "5 of 7 changed executable lines covered (go coverprofile); below the threshold of 90%" || *cov.Value != 71.4 {
		t.Errorf("coverage check %+v (value %v)", cov, *cov.Value)
	}
	if cov.Network != proof.NetworkNotIsolated || out.Network != proof.NetworkNotIsolated {
		t.Errorf("network %q, want %q: no namespace was used", cov.Network, proof.NetworkNotIsolated)
	}
	if got := ev.ended()[StepCoverage]; got.Result != proof.ResultFail || !strings.Contains(got.Detail, "5 of 7") {
		t.Errorf("the coverage step ended %+v", got)
	}
}

// TestVerifyEvidenceMissing: story 7 maps criterion 2 to a test that does
// not exist; the criterion gets nothing, the problem names the test, and
// the pack does not verify (exit 4).
func TestVerifyEvidenceMissing(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	out, ev := run(t, d.request(t, 7, beforeBlock))
	if out.ExitCode != ExitRefused || out.Report.Verified() {
		t.Fatalf("exit %d, want 4 with a pack that does not verify", out.ExitCode)
	}
	if len(out.Evidence) != 1 || out.Evidence[0].Criterion != 2 || !strings.Contains(out.Evidence[0].Message, "TestRolloverKeepsAcrossMonths") {
		t.Errorf("evidence problems %+v, want criterion 2 naming TestRolloverKeepsAcrossMonths", out.Evidence)
	}
	found := false
	for _, p := range out.Report.Problems {
		found = found || (p.Code == proof.CodeCriterionNoEvid && p.Criterion == 2)
	}
	if !found {
		t.Errorf("verification problems %+v, want criterion 2 without evidence", out.Report.Problems)
	}
	if got := ev.ended()[StepPack]; got.Result != proof.ResultFail || !strings.Contains(got.Detail, "does not verify") {
		t.Errorf("the pack step ended %+v", got)
	}
}

// addInconclusiveFix commits, on the checkout, a new function with its test
// and maps criterion 1 to that test: on the base it does not build.
func addInconclusiveFix(t *testing.T, dir string) {
	t.Helper()
	files := map[string]string{
		"deductible/discount.go":      "package deductible\n\n// Discount is the member discount in percent.\nfunc Discount() int { return 10 }\n",
		"deductible/discount_test.go": "package deductible\n\nimport \"testing\"\n\nfunc TestDiscount(t *testing.T) {\n\tif Discount() != 10 {\n\t\tt.Error(\"10 percent\")\n\t}\n}\n",
		".aayudha/evidence/11.toml":   "[[criterion]]\nid = 1\ntests = [\"deductible:TestDiscount\"]\n",
	}
	for p, b := range files {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"add", "-A"}, {"-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-q", "-m", "add Discount"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
}

// TestRedOnBase runs each outcome on real go test runs: Bug 11's test
// fails on the base (red: shows the fix), Bug 16's passes there (green:
// advisory before the blocking date, failing from it), and a test of a new
// function does not build there (inconclusive, never failing).
func TestRedOnBase(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	cases := []struct {
		name   string
		story  int
		now    string
		change func(t *testing.T, dir string)
		class  string
		result string
		exit   int
	}{
		{"red before the blocking date", sandbox.DemoBug, "before", nil, "criterion 1: red on base", proof.ResultPass, ExitOK},
		{"red from the blocking date", sandbox.DemoBug, "after", nil, "criterion 1: red on base", proof.ResultPass, ExitOK},
		{"green is advisory before the blocking date", sandbox.DemoBugGreenOnBase, "before", nil, "criterion 1: green on base", proof.ResultPass, ExitOK},
		{"green fails from the blocking date", sandbox.DemoBugGreenOnBase, "after", nil, "criterion 1: green on base", proof.ResultFail, ExitFloor},
		{"inconclusive when the test does not build on base", sandbox.DemoBug, "after", addInconclusiveFix, "criterion 1: inconclusive", proof.ResultPass, ExitOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			now := beforeBlock
			if tc.now == "after" {
				now = afterBlock
			}
			// An unchanged story's run is the one other tests read too.
			req, out, ev := d.directRun(t, tc.story, now)
			if tc.change != nil {
				req = d.request(t, tc.story, now)
				tc.change(t, req.Dir)
				out, ev = run(t, req)
			}
			rob := checkOf(t, out.Pack, proof.FloorRedOnBase)
			if rob.Result != tc.result || !strings.Contains(rob.Detail, tc.class) || out.ExitCode != tc.exit {
				t.Errorf("red-on-base %s: %s (exit %d); want %s with %q, exit %d", rob.Result, rob.Detail, out.ExitCode, tc.result, tc.class, tc.exit)
			}
			if tc.now == "before" && !strings.HasPrefix(rob.Detail, "advisory until 2026-11-13") {
				t.Errorf("before the blocking date the check says %q", rob.Detail)
			}
			if tc.change != nil && !strings.Contains(rob.Detail, "does not build on base") {
				t.Errorf("the inconclusive detail does not say why: %q", rob.Detail)
			}
			if got := ev.ended()[StepRedOnBase]; got.Result != rob.Result {
				t.Errorf("the red-on-base step ended %+v", got)
			}
			// The checkout is untouched: no worktree, nothing modified.
			status, _ := exec.Command("git", "-C", req.Dir, "status", "--porcelain", "--untracked-files=no").Output()
			worktrees, _ := exec.Command("git", "-C", req.Dir, "worktree", "list", "--porcelain").Output()
			if len(bytes.TrimSpace(status)) > 0 || bytes.Count(worktrees, []byte("worktree ")) != 1 {
				t.Errorf("red on base touched the checkout: status %q worktrees %q", status, worktrees)
			}
		})
	}
}

var createdAtLine = regexp.MustCompile(`"created_at": "[^"]*"`)

// TestVerifyTwiceIsByteIdentical: two runs on the same commit give the same
// evidence bytes and the same pack.json but for created_at; with the same
// clock, the same pack hash.
func TestVerifyTwiceIsByteIdentical(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	req := d.request(t, 3, beforeBlock)
	read := func(out *Outcome) (packJSON []byte, evidence [][]byte) {
		packJSON = readFile(t, filepath.Join(out.Dir, "pack.json"))
		for _, a := range out.Pack.Artifacts {
			evidence = append(evidence, readFile(t, filepath.Join(out.Dir, "artifacts", filepath.FromSlash(a.Path))))
		}
		return createdAtLine.ReplaceAll(packJSON, []byte(`"created_at": ""`)), evidence
	}
	first, _ := run(t, req)
	pack1, ev1 := read(first)
	second, _ := run(t, req)
	pack2, ev2 := read(second)
	req.Now = func() time.Time { return afterBlock }
	third, _ := run(t, req)
	pack3, ev3 := read(third)

	if first.PackSHA256 != second.PackSHA256 {
		t.Errorf("same commit, same clock: pack hashes %s and %s differ", first.PackSHA256, second.PackSHA256)
	}
	if !bytes.Equal(pack1, pack3) || !bytes.Equal(pack1, pack2) {
		t.Errorf("pack.json differs beyond created_at:\n%s\n---\n%s", pack1, pack3)
	}
	if len(ev1) != 4 || !slices.EqualFunc(ev1, ev3, bytes.Equal) || !slices.EqualFunc(ev1, ev2, bytes.Equal) {
		t.Errorf("evidence files differ between runs (%d, %d, %d files)", len(ev1), len(ev2), len(ev3))
	}
	for _, ev := range ev1 {
		if bytes.Contains(ev, []byte(`"Time"`)) || bytes.Contains(ev, []byte(`"Elapsed"`)) {
			t.Errorf("evidence keeps Time or Elapsed: %s", ev)
		}
	}
}
