package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aayudha/aayu/tui"
)

// shipAsPersonWithoutTerminal runs `aayu --sandbox --plain ship PR` as a
// person with no terminal: the presence check comes first and is approved
// on the sandbox's device page.
func shipAsPersonWithoutTerminal(t *testing.T, home string, pr string) (int, string) {
	t.Helper()
	a := startAayu(t, map[string]string{"HOME": home}, "--sandbox", "--plain", "ship", pr)
	m := a.waitFor(`open (http://127\.0\.0\.1:\d+/login/device) and enter ([A-Z0-9]{4}-[A-Z0-9]{4})`)
	approveOnSandbox(t, m[1], m[2], "founder")
	a.waitFor(`result: exit \d`)
	code := a.exit()
	return code, a.out.String()
}

func TestShipOnSandboxWithoutTerminal(t *testing.T) {
	home := t.TempDir()
	code, out := shipAsPersonWithoutTerminal(t, home, "4")
	if code != tui.ExitOK {
		t.Fatalf("ship 4 exited %d:\n%s", code, out)
	}
	ledgerDir := regexp.MustCompile(`the record is on the ledger at (proof/3/([0-9a-f]{40})/authoritative)`).FindStringSubmatch(out)
	if ledgerDir == nil {
		t.Fatalf("no ledger path in:\n%s", out)
	}
	git := filepath.Join(home, ".cache", "aayu", "sandbox", "benefits.git")
	shipJSON, err := runCmd("git", "--git-dir", git, "show", "ledger:"+ledgerDir[1]+"/ship.json")
	if err != nil {
		t.Fatalf("no ship.json on the ledger: %v %s", err, shipJSON)
	}
	var rec struct {
		PR        int    `json:"pr"`
		PRHead    string `json:"pr_head_sha"`
		Merge     string `json:"merge_commit"`
		HumanPass struct {
			Kind       string `json:"kind"`
			Login      string `json:"login"`
			CommentURL string `json:"comment_url"`
			Commit     string `json:"commit"`
		} `json:"human_pass"`
	}
	if err := json.Unmarshal([]byte(shipJSON), &rec); err != nil {
		t.Fatal(err)
	}
	hp := rec.HumanPass
	if rec.PR != 4 || rec.PRHead != ledgerDir[2] || hp.Kind != "solo-bypass" || hp.Login != "founder" || hp.Commit != ledgerDir[2] || !strings.Contains(hp.CommentURL, "#issuecomment-") {
		t.Fatalf("ship.json does not record a solo-bypass pass naming the comment and the head:\n%s", shipJSON)
	}
	packJSON, err := runCmd("git", "--git-dir", git, "show", "ledger:"+ledgerDir[1]+"/pack.json")
	if err != nil || !strings.Contains(packJSON, `"kind": "authoritative"`) || !strings.Contains(packJSON, "founder (aayu ship)") {
		t.Fatalf("the authoritative pack.json is not on the ledger: %v\n%s", err, packJSON)
	}
	if log, _ := runCmd("git", "--git-dir", git, "log", "--format=%s", "dev"); strings.Count(log, "(#4)") != 1 {
		t.Fatalf("dev does not hold exactly one squash commit of #4:\n%s", log)
	}

	// Every other open demo pull request is refused, with its reason.
	for pr, why := range map[string]string{
		"6": "5 of 7 changed executable lines covered", // its pack verifies; its coverage floor does not hold
		"8": "the merge gate's pack for this head: refused",
	} {
		code, out := shipAsPersonWithoutTerminal(t, home, pr)
		if code != tui.ExitRefused && code != tui.ExitFloor {
			t.Errorf("ship %s exited %d, want 3 or 4:\n%s", pr, code, out)
		}
		if !strings.Contains(out, why) || !strings.Contains(out, "refused: nothing was merged and nothing landed") {
			t.Errorf("ship %s does not say %q:\n%s", pr, why, out)
		}
	}
}
