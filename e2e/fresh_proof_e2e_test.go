package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/tui"
)

// setProof merges a policy pull request, as the founder would after
// reading it, that turns [autonomy] proof on, sets [inspect] reviewer to
// the sandbox's OpenAI-compatible endpoint and adds the product's layer
// L02 (greet/**) to LAYERS.md, so an agent's change to greet/ has a
// footprint a streak can count. rungs, when not "", replaces init's
// proof_rungs (A, B and C).
func (f *freshLoop) setProof(rungs string) {
	f.t.Helper()
	founder := f.agentClone()
	founder.auth.Password = "sandbox-founder"
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(founder.dir, filepath.FromSlash(p)))
		if err != nil {
			f.t.Fatal(err)
		}
		return string(b)
	}
	cfg := read(".aayudha/config.toml")
	if !strings.Contains(cfg, "\nproof = false\n") {
		f.t.Fatalf("init's policy has no [autonomy] proof = false to turn on:\n%s", cfg)
	}
	cfg = strings.Replace(cfg, "\nproof = false\n", "\nproof = true\n", 1)
	if rungs != "" {
		const def = `proof_rungs = ["A", "B", "C"]`
		if !strings.Contains(cfg, def) {
			f.t.Fatalf("init's policy has no %s to narrow:\n%s", def, cfg)
		}
		cfg = strings.Replace(cfg, def, "proof_rungs = "+rungs, 1)
	}
	cfg += fmt.Sprintf("\n[inspect]\nreviewer = \"openai\"\nendpoint = %q\nmodel = %q\n", f.base+sandbox.ReviewerPath, sandbox.ReviewerModel)
	layers := strings.TrimRight(read("LAYERS.md"), "\n") + "\n| L02 | greet | greet/** |\n"
	founder.commit("policy/proof", "policy: merge on proof, judged by the sandbox's reviewer", map[string]string{".aayudha/config.toml": cfg, "LAYERS.md": layers})
	founder.push("policy/proof")
	f.merge(f.openPR("policy/proof", "main", "merge on proof", "Merge on proof with the sandbox's reviewer; greet is layer L02."))
}

// shipRecord reads ship.json of a shipped head from the ledger.
type freshShipRecord struct {
	HumanPass struct {
		Kind string `json:"kind"`
	} `json:"human_pass"`
	Proof *struct {
		Rung   string `json:"rung"`
		Checks []struct {
			Name   string `json:"name"`
			Result string `json:"result"`
		} `json:"checks"`
	} `json:"proof"`
}

func (f *freshLoop) shipRecord(story int, head string) (freshShipRecord, string) {
	f.t.Helper()
	var rec freshShipRecord
	b := f.ledgerFile(fmt.Sprintf("proof/%d/%s/authoritative/ship.json", story, head))
	if err := json.Unmarshal([]byte(b), &rec); err != nil {
		f.t.Fatalf("ship.json of %s on the ledger (%v):\n%s", head, err, b)
	}
	return rec, b
}

// lookRight runs one plain inbox session as the person that answers
// "looks right" on the audit card of #pr, passing over every other card,
// approving the presence check's device code when it comes.
func (f *freshLoop) lookRight(pr int) string {
	f.t.Helper()
	a := startAayu(f.t, f.person(), f.args("inbox")...)
	ask := regexp.MustCompile(deviceCodeLine + `|card \d+ of \d+: ([^\n]*?) #(\d+)\. Choose[^\n]*\n$|No more cards\.[^\n]*\n$|failed: |Nothing was done\.`)
	seen := 0
	for deadline := time.Now().Add(e2eWait); time.Now().Before(deadline); {
		out := a.out.String()
		m := ask.FindStringSubmatch(out[seen:])
		if m == nil {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		seen = len(out)
		switch {
		case m[1] != "":
			approveOnSandbox(f.t, m[1], m[2], "founder")
			continue
		case m[4] == "":
			a.send("q")
			a.exit()
			f.t.Fatalf("the inbox ended before the audit card of #%d was asked about:\n%s", pr, a.out.String())
		case m[4] != itoa(pr):
			a.send("s")
			continue
		}
		if !strings.HasPrefix(m[3], "Merged unreviewed, to audit") {
			f.t.Fatalf("the card of #%d is %q, want the audit card:\n%s", pr, m[3], out)
		}
		a.send("1")
		ended := fmt.Sprintf(`(?m)^(?:done|not done): [^\n]*#%d`, pr)
		if a.waitForAny(ended, `\(y applies it; anything else cancels\)`) == "(y applies it; anything else cancels)" {
			a.send("y")
			a.waitForAny(ended)
		}
		a.send("q")
		a.exit()
		return a.out.String()
	}
	f.t.Fatalf("the audit card of #%d was never asked about:\n%s", pr, a.out.String())
	return ""
}

// sample is the one line of the ledger's autonomy/samples.jsonl for #pr.
func (f *freshLoop) sample(pr int) (pass.StreakSample, string) {
	f.t.Helper()
	all := f.ledgerFile(freshSamplesPath)
	for _, line := range strings.Split(all, "\n") {
		var s pass.StreakSample
		if json.Unmarshal([]byte(line), &s) == nil && s.PR == pr {
			return s, all
		}
	}
	f.t.Fatalf("autonomy/samples.jsonl on the ledger has no sample of #%d:\n%s", pr, all)
	return pass.StreakSample{}, all
}

const freshSamplesPath = "autonomy/samples.jsonl"

// TestFreshRungAMergesOnProofAndMovesTheStreak: on acme/fresh, once a
// reviewed policy pull request turns [autonomy] proof on with the
// sandbox's reviewer, an agent's pull request whose mapped test asserts
// (rung A) ships on proof with no review: ship.json records the proof kind
// with the rung and the checks; the inbox shows its audit card; "looks
// right" lands a clean sample with rung A and the agent as author, and the
// streak of the layer it touched is 1.
func TestFreshRungAMergesOnProofAndMovesTheStreak(t *testing.T) {
	t.Parallel()
	f := startFreshLoop(t)
	f.setUp()
	f.setProof("")
	pr, head := freshInspectPR(t, f, nil)
	if c := f.gateComment(pr); !strings.Contains(c, "rung A: every criterion's mapped tests show its promise") {
		t.Fatalf("the gate's comment on #%d does not record rung A:\n%s", pr, c)
	}

	code, out := f.personWithPresence("ship", itoa(pr))
	if code != tui.ExitOK || !strings.Contains(out, "merged into main on proof with no review") {
		t.Fatalf("aayu ship %d on a rung-A head exited %d, want a merge on proof:\n%s", pr, code, out)
	}
	story := pr - 1 // freshInspectPR opens the Story just before its pull request
	rec, raw := f.shipRecord(story, head)
	if rec.HumanPass.Kind != pass.KindProof || rec.Proof == nil || rec.Proof.Rung != "A" || len(rec.Proof.Checks) == 0 {
		t.Fatalf("ship.json of the merge on proof:\n%s", raw)
	}

	code, out = f.aayu(f.person(), "", "inbox", "--list")
	if code != tui.ExitOK || !strings.Contains(out, "Merged unreviewed, to audit") || !strings.Contains(out, "#"+itoa(pr)) {
		t.Fatalf("aayu inbox --list after the merge on proof exited %d, want the audit card of #%d:\n%s", code, pr, out)
	}
	out = f.lookRight(pr)
	if !regexp.MustCompile(`(?m)^done: [^\n]*#` + itoa(pr)).MatchString(out) {
		t.Fatalf("looks right on #%d did not end done:\n%s", pr, out)
	}
	s, all := f.sample(pr)
	if s.Correction || s.Rung != "A" || s.Author != sandbox.BotLogin || len(s.Layers) != 1 || s.Layers[0] != "L02" {
		t.Fatalf("the sample of #%d is %+v, want a clean rung-A sample by %s in L02:\n%s", pr, s, sandbox.BotLogin, all)
	}
	if got := pass.Streaks([]byte(all), nil)["L02"]; got != 1 {
		t.Errorf("L02's streak after looks right on #%d is %d, want 1:\n%s", pr, got, all)
	}
	if code, out = f.aayu(f.person(), "", "inbox", "--list"); code != tui.ExitOK || strings.Contains(out, "Merged unreviewed, to audit") {
		t.Errorf("the audit card is still there after looks right (exit %d):\n%s", code, out)
	}
}

// freshSameFamilyBody is a Story whose criterion steers the sandbox's
// reviewer to answer as one of the builder's own family: shown, rung C.
const freshSameFamilyBody = `Hello should be able to shout.

## Completion Goal
1. Shout greets a name in capitals ` + sandbox.ReviewerSameFamily + `
`

// TestFreshRungCMergesOnProofButNeverMovesTheStreak: with the default
// proof_rungs (A, B and C: seed 001, a same-family review is enough for
// merge on proof), an agent's pull request the reviewer judges shown at
// rung C ships on proof and its audit card appears; "looks right" lands a
// clean sample with rung C, and the streak of the layer it touched stays 0,
// for the reason pass.SampleCounts gives.
func TestFreshRungCMergesOnProofButNeverMovesTheStreak(t *testing.T) {
	t.Parallel()
	f := startFreshLoop(t)
	f.setUp()
	f.setProof("")
	pr, head := freshStoryPR(t, f, freshSameFamilyBody, nil)
	if c := f.gateComment(pr); !strings.Contains(c, "rung C: every criterion's mapped tests show its promise") {
		t.Fatalf("the gate's comment on #%d does not record rung C:\n%s", pr, c)
	}
	code, out := f.personWithPresence("ship", itoa(pr))
	if code != tui.ExitOK || !strings.Contains(out, "merged into main on proof with no review") {
		t.Fatalf("aayu ship %d on a rung-C head exited %d, want a merge on proof (proof_rungs holds C):\n%s", pr, code, out)
	}
	if rec, raw := f.shipRecord(pr-1, head); rec.HumanPass.Kind != pass.KindProof || rec.Proof == nil || rec.Proof.Rung != "C" {
		t.Fatalf("ship.json of the merge on proof:\n%s", raw)
	}
	out = f.lookRight(pr)
	if !regexp.MustCompile(`(?m)^done: [^\n]*#` + itoa(pr)).MatchString(out) {
		t.Fatalf("looks right on #%d did not end done:\n%s", pr, out)
	}
	s, all := f.sample(pr)
	if s.Correction || s.Rung != "C" || s.Author != sandbox.BotLogin || len(s.Layers) != 1 || s.Layers[0] != "L02" {
		t.Fatalf("the sample of #%d is %+v, want a clean rung-C sample by %s in L02:\n%s", pr, s, sandbox.BotLogin, all)
	}
	if got := pass.Streaks([]byte(all), nil)["L02"]; got != 0 {
		t.Errorf("L02's streak after looks right on the rung-C #%d is %d, want 0:\n%s", pr, got, all)
	}
	if counts, why := pass.SampleCounts(s, nil); counts || !strings.Contains(why, "rung C") {
		t.Errorf("SampleCounts(%+v) = %v %q, want it refused for rung C", s, counts, why)
	}
}

// TestFreshRungCNeverMergesOnProofWhenProofRungsAreAB: with proof_rungs
// narrowed to A and B by the reviewed policy, the same rung-C judgement
// grants nothing: ship refuses with no review and says why merge on proof
// did not apply, nothing is merged, and no audit card appears.
func TestFreshRungCNeverMergesOnProofWhenProofRungsAreAB(t *testing.T) {
	t.Parallel()
	f := startFreshLoop(t)
	f.setUp()
	f.setProof(`["A", "B"]`)
	pr, head := freshStoryPR(t, f, freshSameFamilyBody, nil)
	if c := f.gateComment(pr); !strings.Contains(c, "rung C: every criterion's mapped tests show its promise") {
		t.Fatalf("the gate's comment on #%d does not record rung C:\n%s", pr, c)
	}
	code, out := f.personWithPresence("ship", itoa(pr))
	if code != tui.ExitRefused || strings.Contains(out, "on proof with no review") {
		t.Fatalf("aayu ship %d on a rung-C head with proof_rungs A, B exited %d, want a refusal:\n%s", pr, code, out)
	}
	if want := "merge on proof does not apply: inspect judged head " + head[:12] + " at rung C, and the base branch's autonomy.proof_rungs allows A, B"; !strings.Contains(out, want) {
		t.Errorf("ship's refusal does not say why merge on proof did not apply (%q):\n%s", want, out)
	}
	got, _, err := f.client("founder").PullRequests.Get(context.Background(), "acme", "fresh", pr)
	if err != nil || got.GetMerged() {
		t.Fatalf("#%d merged (%v) after ship refused", pr, err)
	}
	if code, out = f.aayu(f.person(), "", "inbox", "--list"); code != tui.ExitOK || strings.Contains(out, "Merged unreviewed, to audit") {
		t.Errorf("an audit card after a refused ship (exit %d):\n%s", code, out)
	}
}
