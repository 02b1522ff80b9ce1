package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
)

// TestBuildPrintsCriteriaAndMap: in aayu's own agent lane, `aayu build 3`
// prints Story 3's frozen criteria and an evidence map that parses as the
// map format with one table per criterion; a Story not yet frozen says so;
// GitHub's text reaches the terminal neutral; nothing is written on GitHub.
func TestBuildPrintsCriteriaAndMap(t *testing.T) {
	t.Parallel()
	sb := startCountingSandbox(t)
	api := []string{"--api-url", sb.url + "/", "--repo", "acme/benefits"}
	agent := func() map[string]string {
		return map[string]string{"HOME": t.TempDir(), "AAYU_AGENT": "1", "AAYU_GITHUB_TOKEN": "sandbox-founder"}
	}
	code, out, errOut := runAayuEnv(t, agent(), append(api, "build", "3")...)
	if code != tui.ExitOK || !strings.Contains(out, "frozen in the Ready snapshot (completion_goal_hash ") {
		t.Fatalf("build 3: exit %d, want 0 with the frozen criteria:\n%s%s", code, out, errOut)
	}
	i := strings.Index(out, "# Evidence map of Story #3")
	if i < 0 || !strings.Contains(out, "Commit this evidence map as .aayudha/evidence/3.toml") {
		t.Fatalf("build 3 printed no evidence map:\n%s", out)
	}
	m, err := proof.LoadEvidenceMap([]byte(out[i:]))
	if err != nil {
		t.Fatalf("the printed map does not parse as the evidence map: %v\n%s", err, out[i:])
	}
	ready := demoReady(t, sb, 3)
	if len(m) != len(ready.Criteria) || len(m) == 0 {
		t.Fatalf("map of %d criteria, the snapshot has %d", len(m), len(ready.Criteria))
	}
	for k, c := range ready.Criteria {
		if m[k].ID != c.ID || !strings.Contains(out, "  "+itoa(c.ID)+". ") {
			t.Errorf("criterion %d is not printed and mapped in order:\n%s", c.ID, out)
		}
	}

	code, out, errOut = runAayuEnv(t, agent(), append(api, "build", "17")...)
	if code != tui.ExitOK || !strings.Contains(out, "not frozen yet") || !strings.Contains(out, "aayu ready 17") {
		t.Errorf("build 17: exit %d, want 0 saying the goal is not frozen:\n%s%s", code, out, errOut)
	}
	if strings.ContainsRune(out+errOut, 0x1b) {
		t.Errorf("an escape from GitHub reached the output:\n%q", out)
	}
	if w := sb.writes(); len(w) > 0 {
		t.Errorf("aayu build wrote on GitHub: %v", w)
	}
}

// TestBuildRefusesAWrongMap: --check with a map naming a criterion the
// snapshot does not have and leaving one out is refused, exit 4, in words;
// a map naming every criterion with real tests is accepted.
func TestBuildRefusesAWrongMap(t *testing.T) {
	t.Parallel()
	sb := startCountingSandbox(t)
	api := []string{"--api-url", sb.url + "/", "--repo", "acme/benefits"}
	vars := map[string]string{"HOME": t.TempDir(), "CLAUDECODE": "1", "AAYU_GITHUB_TOKEN": "sandbox-founder"}
	ready := demoReady(t, sb, 3)
	dir := t.TempDir()
	wrong := filepath.Join(dir, "wrong.toml")
	if err := os.WriteFile(wrong, []byte("[[criterion]]\nid = 1\ntests = [\"deductible:TestShows\"]\n\n[[criterion]]\nid = 99\ntests = [\"deductible:TestOther\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runAayuEnv(t, vars, append(api, "build", "3", "--check", wrong)...)
	if code != tui.ExitRefused || !strings.Contains(errOut, "criterion 99 is not in Story #3's Ready snapshot") ||
		(len(ready.Criteria) > 1 && !strings.Contains(errOut, "criterion 2 (")) {
		t.Errorf("wrong map: exit %d, want 4 naming criterion 99 and the unmapped one:\n%s%s", code, out, errOut)
	}
	var good strings.Builder
	for _, c := range ready.Criteria {
		good.WriteString("[[criterion]]\nid = " + itoa(c.ID) + "\ntests = [\"deductible:TestCriterion" + itoa(c.ID) + "\"]\n")
	}
	fit := filepath.Join(dir, "good.toml")
	if err := os.WriteFile(fit, []byte(good.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runAayuEnv(t, vars, append(api, "build", "3", "--check", fit)...)
	if code != tui.ExitOK || !strings.Contains(out, "maps every criterion to tests and names no other") {
		t.Errorf("fitting map: exit %d, want 0:\n%s%s", code, out, errOut)
	}
	if w := sb.writes(); len(w) > 0 {
		t.Errorf("aayu build wrote on GitHub: %v", w)
	}
}

// demoReady is the demo Story's Ready snapshot on the sandbox's ledger,
// read through its contents API.
func demoReady(t *testing.T, sb *countingSandbox, story int) *proof.Ready {
	t.Helper()
	gh, err := ghx.NewClient(ghx.ClientOptions{APIURL: sb.url + "/", Token: ghx.NewToken("sandbox-founder", "test")})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ghx.ReadFile(context.Background(), gh, "acme", "benefits", "ledger", "specs/"+itoa(story)+"/ready.md")
	if err != nil {
		t.Fatal(err)
	}
	r, err := proof.ParseReady(b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestBuildNeutralisesTheStorysText: a Story whose title and goal carry
// escape sequences prints them as neutral text, in the criteria and the map.
func TestBuildNeutralisesTheStorysText(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	story := newStoryIssue(t, home, "Story: leave \x1b[31mbalance\x1b[0m",
		"## Completion Goal\n1. An employee sees \x1b]8;;http://evil\x07their\x1b]8;;\x07 leave balance\n", "type:story")
	code, out, errOut := runAayuEnv(t, map[string]string{"HOME": home, "AAYU_AGENT": "1"}, "--sandbox", "build", itoa(story))
	if code != tui.ExitOK || !strings.Contains(out, "balance") || !strings.Contains(out, "leave balance") {
		t.Fatalf("exit %d, want 0 with the Story's text:\n%s%s", code, out, errOut)
	}
	if strings.ContainsAny(out+errOut, "\x1b\x07") {
		t.Errorf("an escape sequence from the issue reached the output:\n%q", out)
	}
}
