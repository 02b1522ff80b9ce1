package sandbox

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// The demo data `aayu verify` needs beyond the inbox's: the Bugs' evidence
// maps (committed on PR 12's branch) and Ready snapshots, and a second Bug
// whose mapped test is green on the base commit. With the stories above,
// `aayu --sandbox verify N` shows every outcome on real go test runs:
//
//   - story 3 (PR 4): every floor holds;
//   - story 5 (PR 6): the coverage floor fails (Copay's specialist case is
//     never run by the tests);
//   - story 7 (PR 8): criterion 2 maps a test that does not exist, so the
//     pack does not verify;
//   - Bug 11 (PR 12): its test fails on the base commit (red on base: it
//     shows the fix);
//   - Bug 16 (PR 12, "Refs #16"): its test passes on the base commit too
//     (green on base: it does not show a fix).

// DemoBugGreenOnBase is a closed Bug whose mapped test passes on the base.
const DemoBugGreenOnBase = 16

var (
	bug11 = story{Number: DemoBug, Title: "Applies ignores upper-case service names", Pkg: "deductible",
		Criteria: []string{"Service names match whatever their case."},
		Tests:    [][]string{{"TestAppliesIgnoresCase"}}}
	bug16 = story{Number: DemoBugGreenOnBase, Title: "Hospital stays must count toward the deductible", Pkg: "deductible",
		Criteria: []string{"A hospital stay counts toward the deductible; dental care does not."},
		Tests:    [][]string{{"TestApplies"}}}
)

const fileEvidence11 = `[[criterion]]
id = 1 # service names match whatever their case
tests = ["deductible:TestAppliesIgnoresCase"]
`

// fileEvidence16 maps a test that already passed before the fix, which is
// what the red-on-base floor exists to catch.
const fileEvidence16 = `[[criterion]]
id = 1 # a hospital stay counts toward the deductible; dental care does not
tests = ["deductible:TestApplies"]
`

// bugEvidenceFiles are added to PR 12's commit.
func bugEvidenceFiles() map[string]string {
	return map[string]string{
		".aayudha/evidence/11.toml": fileEvidence11,
		".aayudha/evidence/16.toml": fileEvidence16,
	}
}

// seedVerifyDemo adds Bug 16 (after #15, so every earlier number stays) and
// the Bugs' Ready snapshots on top of the ledger.
func (sd *seeder) seedVerifyDemo() {
	if sd.err != nil {
		return
	}
	b16 := sd.issue("writer", "Bug: "+bug16.Title, storyBody(bug16, "A member says a hospital stay did not count.\n\n"),
		[]string{"type:bug", "status:done"}, sd.ago(264))
	sd.close(b16, "completed", "writer", sd.ago(249))
	tip := sd.s.git.branch("ledger")
	files := map[string]string{}
	for _, st := range []story{bug11, bug16} {
		files[fmt.Sprintf("specs/%d/ready.md", st.Number)] = st.readyMarkdown(sd.ago(263))
	}
	if tip == plumbing.ZeroHash {
		return
	}
	l := sd.commit(tip, files, "ledger: Ready snapshots for Bugs 11 and 16", "founder", sd.ago(38))
	sd.branch("ledger", l)
}
