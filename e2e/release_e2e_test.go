package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/actions/release"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/tui"
)

// devGreen stages dev's CI reporting the merge gate's check green on
// dev's tip, as a push-triggered run of another workflow would, so what
// blocks a release on the demo is only what a test puts there.
func devGreen(t *testing.T, home string) {
	t.Helper()
	srv, err := newSandbox(sandbox.Options{StateDir: filepath.Join(home, ".cache", "aayu", "sandbox")})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if _, err := srv.ReportCheckRun("dev", "aayudha/merge-gate", "success"); err != nil {
		t.Fatal(err)
	}
}

// devRed stages a run on dev's tip reporting the merge gate's check
// failed: the tip's own checks are then what a release judges.
func devRed(t *testing.T, home string) {
	t.Helper()
	srv, err := newSandbox(sandbox.Options{StateDir: filepath.Join(home, ".cache", "aayu", "sandbox")})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if _, err := srv.ReportCheckRun("dev", "aayudha/merge-gate", "failure"); err != nil {
		t.Fatal(err)
	}
}

// TestReleaseJudgesATipByThePullRequestThatMergedIt: on GitHub a squash
// merge's commit carries none of the gate's checks (the gate runs on the
// pull request), so dev's tip, #15's merge, is judged by the checks on
// #15's head, which its rules held it to: the demo releases as seeded,
// and says where it read them.
func TestReleaseJudgesATipByThePullRequestThatMergedIt(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	_, dev, _ := tips(t, home)
	code, out := releaseAsFounder(t, home, "--tag", "v1.0.1")
	if code != tui.ExitOK || strings.Contains(out, "required checks are not green") {
		t.Fatalf("the demo as seeded does not release: exit %d:\n%s", code, out)
	}
	if main, _, _ := tips(t, home); main != dev {
		t.Fatalf("main is at %s, not dev's tip %s", main, dev)
	}
}

// tips reads main's and dev's tips, and the ledger's, as the demo holds them.
func tips(t *testing.T, home string) (main, dev, ledger string) {
	t.Helper()
	c := sandboxState(t, home)
	read := func(b string) string {
		ref, _, err := c.Git.GetRef(context.Background(), "acme", "benefits", "heads/"+b)
		if err != nil {
			t.Fatal(err)
		}
		return ref.GetObject().GetSHA()
	}
	main, dev, ledger = read("main"), read("dev"), read("ledger")
	closeSandboxes(t)
	return main, dev, ledger
}

// releaseRefusedAtOnce runs aayu release --to main with vars and checks it
// ends at once, refused, naming what the person runs, asking nothing and
// moving nothing.
func releaseRefusedAtOnce(t *testing.T, vars map[string]string, want ...string) string {
	t.Helper()
	home := t.TempDir()
	vars["HOME"] = home
	devGreen(t, home)
	main0, _, ledger0 := tips(t, home)
	a := startAayu(t, vars, "--sandbox", "--plain", "release", "--to", "main")
	code := a.exit()
	out := a.out.String()
	if code != tui.ExitRefused || strings.Contains(out, "/login/device") || strings.Contains(out, "Type y and Enter") {
		t.Fatalf("exit %d (want %d, nothing asked):\n%s", code, tui.ExitRefused, out)
	}
	for _, w := range append([]string{"aayu release --to main", "Nothing was done."}, want...) {
		if !strings.Contains(out, w) {
			t.Errorf("the refusal lacks %q:\n%s", w, out)
		}
	}
	if main1, _, ledger1 := tips(t, home); main1 != main0 || ledger1 != ledger0 {
		t.Errorf("a refused release moved main (%s → %s) or the ledger (%s → %s)", main0, main1, ledger0, ledger1)
	}
	return out
}

// TestReleaseRefusesAgentLaneAtOnce: aayu's own lane (AAYU_AGENT=1) and a
// host agent's lane with no terminal are refused at once, say how the
// person releases, and move nothing.
func TestReleaseRefusesAgentLaneAtOnce(t *testing.T) {
	t.Parallel()
	releaseRefusedAtOnce(t, map[string]string{"AAYU_AGENT": "1"}, "aayu's own unattended lane")
	releaseRefusedAtOnce(t, map[string]string{"CLAUDECODE": "1"}, "agent host's lane (CLAUDECODE)", "never waits")
}

// TestReleaseRefusesCI: a CI run has no person to approve a release.
func TestReleaseRefusesCI(t *testing.T) {
	t.Parallel()
	releaseRefusedAtOnce(t, map[string]string{"GITHUB_ACTIONS": "true"}, "CI run")
}

// releaseAsFounder runs aayu release --to main with no terminal, approves
// its device code as founder and answers y.
func releaseAsFounder(t *testing.T, home string, extra ...string) (int, string) {
	t.Helper()
	a := startAayu(t, map[string]string{"HOME": home}, append([]string{"--sandbox", "--plain", "release", "--to", "main"}, extra...)...)
	m := a.waitFor(deviceCodeLine + `|result: exit \d`)
	if m[1] == "" {
		return a.exit(), a.out.String()
	}
	approveOnSandbox(t, m[1], m[2], "founder")
	a.waitFor(`Type y and Enter to write all of these|result: exit \d`)
	if strings.Contains(a.out.String(), "Type y and Enter") {
		a.send("y")
	}
	a.waitFor(`result: exit \d`)
	return a.exit(), a.out.String()
}

// TestReleaseFounderPromotesDevToMain: on the demo, the founder's release,
// after the device code, brings main to dev's tip, lands the promotion
// record naming @founder (via device-flow) with Story 14's pack and ship
// record, names what dev carries without proof (PR 10 and PR 12 merged
// without ship, PR 15's open audit) on the screen and in the record, and
// tags and publishes the release.
func TestReleaseFounderPromotesDevToMain(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	devGreen(t, home)
	_, dev, _ := tips(t, home)
	code, out := releaseAsFounder(t, home, "--tag", "v1.0.0")
	if code != tui.ExitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, w := range []string{"#14 Story: deductible tiers from plan data", "#10 merged without aayu ship", "#12 merged without aayu ship",
		"#15 merged unreviewed", "promoted: main is at", "releases/v1.0.0.json", "approved by @founder", "tagged v1.0.0", "released: ", "the release workflow (aayudha-release.yml) has no run for v1.0.0 yet"} {
		if !strings.Contains(out, w) {
			t.Errorf("the screen lacks %q:\n%s", w, out)
		}
	}
	main, _, _ := tips(t, home)
	if main != dev {
		t.Fatalf("main is at %s, not dev's tip %s", main, dev)
	}
	c := sandboxState(t, home)
	ctx := context.Background()
	b, err := ghx.ReadFile(ctx, c, "acme", "benefits", "ledger", "releases/v1.0.0.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec release.Record
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.ApprovedBy != "founder" || rec.Via != "device-flow" || rec.From != "dev" || rec.To != "main" || rec.FromSHA != dev || rec.ToSHA == "" || rec.ToSHA == dev {
		t.Errorf("the record: %+v", rec)
	}
	if len(rec.Stories) != 1 || rec.Stories[0].Story != 14 || rec.Stories[0].PR != 15 || rec.Stories[0].PackSHA256 == "" || !strings.HasSuffix(rec.Stories[0].ShipRecord, "/ship.json") {
		t.Errorf("the record's stories: %+v", rec.Stories)
	}
	why := map[int]string{}
	for _, u := range rec.Unproven {
		why[u.PR] += u.Why + ";"
	}
	if !strings.Contains(why[10], "without aayu ship") || !strings.Contains(why[12], "without aayu ship") || !strings.Contains(why[15], "merged unreviewed") {
		t.Errorf("the record's unproven: %+v", rec.Unproven)
	}
	ref, _, err := c.Git.GetRef(ctx, "acme", "benefits", "tags/v1.0.0")
	if err != nil || ref.GetObject().GetSHA() != dev {
		t.Errorf("the tag v1.0.0: %v %v", ref, err)
	}
	rel, _, err := c.Repositories.GetReleaseByTag(ctx, "acme", "benefits", "v1.0.0")
	if err != nil || !strings.Contains(rel.GetBody(), "deductible tiers from plan data") || !strings.Contains(rel.GetBody(), "Carried without proof") {
		t.Errorf("the release: %v %v", rel.GetBody(), err)
	}
	closeSandboxes(t)

	// TestReleaseRefusesNothingNew: main holds dev's tip now.
	code, out = releaseAsFounder(t, home)
	if code != tui.ExitRefused || !strings.Contains(out, "nothing new") || strings.Contains(out, "/login/device") {
		t.Errorf("a second release: exit %d:\n%s", code, out)
	}
}

// TestReleaseRefusesPackThatNoLongerVerifies: a Story whose pack on the
// ledger no longer verifies blocks the release, in words, before any
// device code; nothing is written.
func TestReleaseRefusesPackThatNoLongerVerifies(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	devGreen(t, home)
	c := sandboxAs(t, home, "founder")
	ctx := context.Background()
	dir := "proof/14"
	heads, err := ghx.ListTree(ctx, c, "acme", "benefits", "ledger", dir)
	if err != nil || len(heads) == 0 {
		t.Fatal(heads, err)
	}
	folder := dir + "/" + heads[0].Name + "/authoritative"
	raw, err := ghx.ReadFile(ctx, c, "acme", "benefits", "ledger", folder+"/pack.json")
	if err != nil {
		t.Fatal(err)
	}
	var pack struct {
		Artifacts []struct {
			Path string `json:"path"`
		} `json:"artifacts"`
	}
	if err := json.Unmarshal(raw, &pack); err != nil || len(pack.Artifacts) == 0 {
		t.Fatal(err, string(raw))
	}
	if _, err := ghx.CommitFiles(ctx, c, "acme", "benefits", "ledger", map[string][]byte{folder + "/artifacts/" + pack.Artifacts[0].Path: []byte("not what was verified\n")},
		"ledger: change an artifact", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	closeSandboxes(t)
	main0, _, ledger0 := tips(t, home)
	code, out := releaseAsFounder(t, home)
	if code != tui.ExitRefused || !strings.Contains(out, "Story #14 (pull request #15): its pack no longer verifies") || strings.Contains(out, "/login/device") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if main1, _, ledger1 := tips(t, home); main1 != main0 || ledger1 != ledger0 {
		t.Errorf("a refused release moved main (%s → %s) or the ledger (%s → %s)", main0, main1, ledger0, ledger1)
	}
}

// TestReleaseRefusesWithoutAdmin: a person with write access only is
// refused in words before any code; nothing is written.
func TestReleaseRefusesWithoutAdmin(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	devGreen(t, home)
	a := startAayu(t, map[string]string{"HOME": home, "AAYU_GITHUB_TOKEN": "sandbox-writer"}, "--sandbox", "--plain", "release", "--to", "main")
	a.waitFor(`result: exit \d`)
	code, out := a.exit(), a.out.String()
	if code != tui.ExitRefused || !strings.Contains(out, "@writer has write access") || !strings.Contains(out, "admin") || strings.Contains(out, "/login/device") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// TestReleaseRefusesStableBranchMoved: main moving between the read and
// the yes refuses the promotion in words and writes nothing.
func TestReleaseRefusesStableBranchMoved(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	devGreen(t, home)
	c := sandboxAs(t, home, "founder")
	ctx := context.Background()
	p, err := release.Read(ctx, release.Options{Client: c, Owner: "acme", Repo: "benefits", To: "main", Viewer: "founder", WorkDir: t.TempDir()})
	if err != nil || len(p.Blocks) > 0 {
		t.Fatal(err, p.Blocks)
	}
	// Someone moves main after the screen read it.
	if _, err := ghx.CommitFiles(ctx, c, "acme", "benefits", "main", map[string][]byte{"HOTFIX.md": []byte("a fix straight to main\n")}, "hotfix", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	moved, _, err := c.Git.GetRef(ctx, "acme", "benefits", "heads/main")
	if err != nil {
		t.Fatal(err)
	}
	_, err = release.Apply(ctx, c, p, release.Approval{Login: "founder", Via: "device-flow"}, p2time())
	var refusal *release.Refusal
	if !asRefusal(err, &refusal) || !strings.Contains(refusal.Reason, "main moved since the screen read it") {
		t.Fatalf("Apply after main moved: %v", err)
	}
	now, _, _ := c.Git.GetRef(ctx, "acme", "benefits", "heads/main")
	if now.GetObject().GetSHA() != moved.GetObject().GetSHA() {
		t.Errorf("main moved again: %s", now.GetObject().GetSHA())
	}
	if _, err := ghx.ReadFile(ctx, c, "acme", "benefits", "ledger", release.RecordPath(p.Tag)); !ghx.IsNotFound(err) {
		t.Errorf("a record landed: %v", err)
	}
	if _, _, err := c.Repositories.GetReleaseByTag(ctx, "acme", "benefits", p.Tag); err == nil {
		t.Error("a release was created")
	}
}

func p2time() time.Time { return time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC) }

func asRefusal(err error, r **release.Refusal) bool { return errors.As(err, r) }

// TestReleaseRefusesDevsChecksNotGreen: dev's required checks not green at
// its tip (the demo's tip has no merge-gate check) block the release in
// words, by the one green rule, before any code; nothing is written.
func TestReleaseRefusesDevsChecksNotGreen(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	devRed(t, home)
	main0, _, ledger0 := tips(t, home)
	code, out := releaseAsFounder(t, home)
	if code != tui.ExitRefused || !strings.Contains(out, "dev's required checks are not green at its tip") || !strings.Contains(out, `"aayudha/merge-gate"`) || strings.Contains(out, "/login/device") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if main1, _, ledger1 := tips(t, home); main1 != main0 || ledger1 != ledger0 {
		t.Errorf("a refused release moved main or the ledger")
	}
}
