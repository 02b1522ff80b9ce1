package gatecomment_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/proof"
)

// rewriteEvidence replaces the bytes of one evidence file in the pack
// folder dir and re-hashes it in pack.json, as a forger would.
func rewriteEvidence(t *testing.T, dir, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "artifacts", filepath.FromSlash(path)), data, 0o600); err != nil {
		t.Fatal(err)
	}
	p, _, err := proof.ReadPackDir(dir, proof.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range p.Artifacts {
		if a.Path == path {
			store := a.Store
			p.Artifacts[i] = proof.ArtifactFromBytes(a.Path, a.Kind, data)
			p.Artifacts[i].Store = store
		}
	}
	b, err := proof.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestProofCommentRefusesEvidenceTheHeadsMapDoesNotShowPassing: criterion
// 1's events are swapped for a passing run of another test. By the minimum
// rules that would prove it; the head's .aayudha/evidence/3.toml names
// TestRemaining for it, so the gate, like ship, refuses.
func TestProofCommentRefusesEvidenceTheHeadsMapDoesNotShowPassing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	dir := f.gatePack(sandbox.RunQualifying, nil)
	other := `{"Action":"run","Package":"example.com/benefits/deductible","Test":"TestRemainingNeverNegative"}
{"Action":"pass","Package":"example.com/benefits/deductible","Test":"TestRemainingNeverNegative"}
`
	rewriteEvidence(t, dir, "evidence/criterion-1.jsonl", []byte(other))
	if rep, err := proof.VerifyDir(f.ctx, dir, proof.Options{}); err != nil || !proofHolds(rep, 1) {
		t.Fatalf("without the map criterion 1 should count as proven (the test must show the map is what refuses it): %v", err)
	}
	code, body := f.run(dir, "", nil)
	if code != gatecomment.ExitRefused || !strings.Contains(body, "TestRemaining") || !strings.Contains(body, "the pack does not verify") {
		t.Fatalf("exit %d, want 4 naming the mapped test:\n%s", code, body)
	}
}

func proofHolds(r *proof.Report, id int) bool {
	for _, c := range r.Criteria {
		if c.ID == id {
			return c.Proven
		}
	}
	return false
}

// TestProofCommentRefusesFloorTheBaseBranchRequires: the base branch's
// config requires a red-on-base floor the pack does not have, so the gate
// exits 3 and names it, as ship would.
func TestProofCommentRefusesFloorTheBaseBranchRequires(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	founder := client(t, strings.TrimSuffix(f.bot.BaseURL.String(), "/"), "founder")
	b, err := ghx.ReadFile(f.ctx, founder, owner, repo, "dev", ".aayudha/config.toml")
	if err != nil || !strings.Contains(string(b), "coverage_threshold = 90") {
		t.Fatalf("the demo's config: %v", err)
	}
	s := strings.Replace(string(b), "coverage_threshold = 90", "coverage_threshold = 90\nrequired_floors = [\"tests\", \"coverage\", \"vet\", \"red-on-base\"]", 1)
	if _, err := ghx.CommitFiles(f.ctx, founder, owner, repo, "dev", map[string][]byte{".aayudha/config.toml": []byte(s)}, "require red-on-base", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	code, body := f.run(f.gatePack(sandbox.RunQualifying, nil), "", nil)
	if code != gatecomment.ExitFloor || !strings.Contains(body, "red-on-base") {
		t.Fatalf("exit %d, want 3 naming the missing red-on-base floor:\n%s", code, body)
	}
}

// TestProofCommentFailsClosedOnAnUnreadablePolicy: a base branch config
// that cannot be read leaves no floors to judge by; the comment says so
// and the gate exits 4 rather than using the defaults.
func TestProofCommentFailsClosedOnAnUnreadablePolicy(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	founder := client(t, strings.TrimSuffix(f.bot.BaseURL.String(), "/"), "founder")
	if _, err := ghx.CommitFiles(f.ctx, founder, owner, repo, "dev", map[string][]byte{".aayudha/config.toml": []byte("[verify]\nrequired_floors = \"tests\"\n")}, "break the policy", ghx.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	code, body := f.run(f.gatePack(sandbox.RunQualifying, nil), "", nil)
	if code != gatecomment.ExitRefused || !strings.Contains(body, "cannot be read") || !strings.Contains(body, "fails closed") {
		t.Fatalf("exit %d, want 4 saying the policy cannot be read:\n%s", code, body)
	}
}

// TestProofCommentSaysWhatWasHashed: the comment carries the number behind
// "verifies" and the rules that judged the pack.
func TestProofCommentSaysWhatWasHashed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	code, body := f.run(f.gatePack(sandbox.RunQualifying, nil), "", nil)
	if code != gatecomment.ExitOK {
		t.Fatalf("exit %d:\n%s", code, body)
	}
	rep, err := proof.VerifyDir(f.ctx, f.gatePack(sandbox.RunQualifying, nil), proof.Options{})
	if err != nil || rep.FilesHashed == 0 {
		t.Fatalf("the pack hashed nothing: %v", err)
	}
	want := "verified: " + rep.HashedWords() + " · rules: 0.2"
	if !strings.Contains(body, want) {
		t.Fatalf("the comment does not say %q:\n%s", want, body)
	}
	_, tampered := f.run(f.gatePack(sandbox.RunTampered, nil), "", nil)
	if !strings.Contains(tampered, "checked: ") || strings.Contains(tampered, "verified: ") {
		t.Fatalf("a pack that does not verify must say checked, not verified:\n%s", tampered)
	}
}
