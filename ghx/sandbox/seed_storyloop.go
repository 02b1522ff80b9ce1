package sandbox

import "fmt"

// The story loop's two human-only steps in the demo, after Bug 16 so every
// earlier number stays: Story 17, whose goal nobody froze yet (no
// specs/17/ready.md on the ledger), and PR 18, which builds it and touches
// the never layer L04 (policy/**) with no plan review recorded.
const (
	DemoStoryNotReady = 17 // open Story with a Completion Goal and a Plan, no Ready snapshot
	DemoPRNeedsPlan   = 18 // open, links Story 17, changes policy/limits.go (L04); no plan review
)

// fileLimits is PR 18's change in the never layer L04.
const fileLimits = `// Package policy holds the plan's limits.
package policy

// DentalCap is the most dental care the plan pays for in one plan year.
const DentalCap = 1500
`

// seedStoryLoopDemo adds Story 17 and PR 18 (seedItems calls it last).
func (sd *seeder) seedStoryLoopDemo() {
	if sd.err != nil {
		return
	}
	bot := sd.agent
	sd.issue("founder", "Story: cap dental claims per plan year",
		"Members ask how much dental care the plan pays for.\n\n## Plan\n- `policy/limits.go`: the dental cap\n\n"+
			"## Completion Goal\n1. The plan pays at most 1500 for dental care in one plan year.\n",
		[]string{"type:story", "status:proposed"}, sd.ago(30))
	head := sd.commit(sd.s.git.branch("dev"), map[string]string{"policy/limits.go": fileLimits},
		sd.agentMsg(fmt.Sprintf("policy: the dental cap\n\nRefs #%d", DemoStoryNotReady)), bot, sd.ago(25))
	sd.branch("story/17-dental-cap", head)
	sd.pull(bot, "Cap dental claims per plan year", sd.agentMsg(fmt.Sprintf("Refs #%d\n\nAdds `policy.DentalCap`.", DemoStoryNotReady)),
		"story/17-dental-cap", "dev", nil, sd.ago(25))
}
