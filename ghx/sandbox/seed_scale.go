package sandbox

import (
	"encoding/json"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// seedScale adds n more issues and pull requests, cycling through the
// eight kinds of the seed's table so every kind grows (the Stories wait
// for their Ready snapshots, and half the stopped reviews touch a never
// layer, so the story loop's two kinds grow too). Each pull request adds its own
// notes file, so the branches never conflict and the module still builds.
func (sd *seeder) seedScale(n int) {
	bot := sd.agent
	audits := map[string]string{}
	added := 0
	for i := 0; added < n && sd.err == nil; i++ {
		at := 190 - float64(i%150)
		k := i + 100
		folder := "notes"
		if i%8 == 3 && i%16 == 3 {
			// Every other stopped review touches the never layer L04
			// (policy/**), so the scaled inbox has plan reviews to wait for.
			folder = "policy/notes"
		}
		notes := func(is int) map[string]string {
			// Spread over 100 folders: rewriting one folder of thousands of
			// entries per commit made seeding quadratic.
			return map[string]string{fmt.Sprintf("%s/%02d/item-%d.md", folder, is%100, is): fmt.Sprintf("# Note %d\n\nScaled demo item.\n", is)}
		}
		storyAndPR := func(labels []string) (*issueRec, *issueRec, plumbing.Hash) {
			st := sd.issue("founder", fmt.Sprintf("Story: scaled item %d", k), fmt.Sprintf("## Completion Goal\n1. Note %d exists.\n", k),
				append([]string{"type:story"}, labels...), sd.ago(at))
			base := sd.s.git.branch("dev")
			head := sd.commit(base, notes(st.Number), sd.agentMsg(fmt.Sprintf("notes: item %d\n\nRefs #%d", k, st.Number)), bot, sd.ago(at-1))
			ref := fmt.Sprintf("story/%d-scaled", st.Number)
			sd.branch(ref, head)
			pr := sd.pull(bot, fmt.Sprintf("Scaled item %d", k), sd.agentMsg(fmt.Sprintf("Refs #%d", st.Number)), ref, "dev", nil, sd.ago(at-1))
			added += 2
			return st, pr, head
		}
		switch i % 8 {
		case 0:
			sd.issue(bot, fmt.Sprintf("Decision: scaled choice %d", k),
				sd.agentMsg("## Options\n1. Do the simple thing (recommended)\n2. Do the other thing\n\nDoor: two-way\n"),
				[]string{"type:decision", "status:proposed"}, sd.ago(at))
			added++
		case 1:
			_, pr, head := storyAndPR([]string{"status:building"})
			sd.comment(pr, "founder", fmt.Sprintf("Ready to ship: %s\n\n<!-- aayu:ready-to-ship head=%s -->", head, head), sd.ago(at-2))
		case 2:
			_, _, head := storyAndPR([]string{"status:building"})
			sd.gateStatus(head, "pending", "human rung: no reviewer could review this head", sd.ago(at-2))
		case 3:
			_, _, head := storyAndPR([]string{"status:building"})
			sd.gateStatus(head, "failure", "stopped after 3 rounds on distinct heads without converging", sd.ago(at-2))
		case 4:
			_, pr, _ := storyAndPR([]string{"status:building", "aayu:lease"})
			sd.merge(pr, "writer", sd.ago(at-2))
		case 5:
			bug := sd.issue("writer", fmt.Sprintf("Bug: scaled defect %d", k), "Something is off.\n", []string{"type:bug"}, sd.ago(at))
			head := sd.commit(sd.s.git.branch("dev"), notes(bug.Number), sd.agentMsg(fmt.Sprintf("notes: fix %d\n\nFixes #%d", k, bug.Number)), bot, sd.ago(at-1))
			ref := fmt.Sprintf("fix/%d-scaled", bug.Number)
			sd.branch(ref, head)
			pr := sd.pull(bot, fmt.Sprintf("Fix scaled defect %d", k), sd.agentMsg(fmt.Sprintf("Fixes #%d", bug.Number)), ref, "dev", nil, sd.ago(at-1))
			sd.merge(pr, "writer", sd.ago(at-2))
			added += 2
		case 6:
			old := sd.issue("founder", fmt.Sprintf("Story: scaled idea %d", k), "An early idea.\n", []string{"type:story"}, sd.ago(at))
			sd.issue("founder", fmt.Sprintf("Story: scaled idea %d, reworked", k), fmt.Sprintf("Replaces #%d\n", old.Number), []string{"type:story"}, sd.ago(at-1))
			added += 2
		case 7:
			st, pr, head := storyAndPR([]string{"status:merged"})
			sd.s.addIssueLabels(pr, []string{"aayu:audit"})
			m := sd.merge(pr, "founder", sd.ago(at-2))
			b, _ := json.MarshalIndent(map[string]any{"pr": pr.Number, "story": st.Number, "head": head.String(),
				"merge_commit": m.String(), "kind": "proof", "rung": "A", "author": pr.User, "layers": []string{"L01"}, "merged_at": ts(sd.ago(at - 2)), "merged_by": "founder"}, "", "  ")
			audits[fmt.Sprintf("autonomy/audit/%d.json", pr.Number)] = string(b) + "\n"
		}
	}
	if len(audits) > 0 && sd.err == nil {
		tip := sd.commit(sd.s.git.branch("ledger"), audits, "ledger: audit entries for scaled merges", "founder", sd.ago(1))
		sd.branch("ledger", tip)
	}
}
