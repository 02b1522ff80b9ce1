package ship

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/proof"
)

// TestPlanCarriesThePacksTestFramingWarning: a TestMain the pull request
// adds is in the gate pack's warnings; the confirmation's plan carries it,
// so the person sees it before the yes.
func TestPlanCarriesThePacksTestFramingWarning(t *testing.T) {
	t.Parallel()
	w := proof.Warning{Name: proof.WarningTestFraming, Detail: "TestMain in deductible/main_test.go (added)\x1b[2J"}
	r := &run{pr: 4, target: targetFacts{head: strings.Repeat("d", 40), baseRef: "dev"},
		evidence: evidenceFacts{pack: &gatePack{report: &proof.Report{Pack: &proof.Pack{Warnings: []proof.Warning{w}}}}}}
	p := r.writesPlan()
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0].String(), "test-framing: TestMain in deductible/main_test.go (added)") {
		t.Fatalf("plan warnings %q, want the pack's test-framing warning", p.Warnings)
	}
	if strings.Contains(p.Warnings[0].String(), "\x1b") {
		t.Errorf("the warning reaches the screen raw: %q", p.Warnings[0].String())
	}
	r.evidence.pack.report.Pack.Warnings = nil
	if p := r.writesPlan(); len(p.Warnings) != 0 {
		t.Errorf("warnings %q on a pack without any", p.Warnings)
	}
}
