package sandbox

import (
	"encoding/json"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/aayudha/aayu/proof"
)

var (
	story3 = story{Number: 3, Title: "Show the remaining deductible", Pkg: "deductible",
		Criteria: []string{"Remaining returns the deductible minus what was paid.", "Remaining never goes below zero."},
		Tests:    [][]string{{"TestRemaining"}, {"TestRemainingNeverNegative"}}}
	story5 = story{Number: 5, Title: "Copay calculator", Pkg: "copay",
		Criteria: []string{"A primary-care visit costs a 20 copay.", "An unknown visit type costs nothing and says so."},
		Tests:    [][]string{{"TestCopayPrimaryCare"}, {"TestCopayUnknown"}}}
	story7 = story{Number: 7, Title: "Plan-year rollover", Pkg: "deductible",
		Criteria: []string{"A new plan year resets what was paid.", "The same plan year keeps what was paid."},
		Tests:    [][]string{{"TestRolloverResets"}, {"TestRolloverKeepsAcrossMonths"}}}
	story9 = story{Number: 9, Title: "Explain the deductible in the README", Pkg: "deductible",
		Criteria: []string{"The README says what the deductible is and what counts toward it."},
		Tests:    [][]string{{"TestApplies"}}}
	story14 = story{Number: 14, Title: "Deductible tiers from plan data", Pkg: "deductible",
		Criteria: []string{"The bronze tier's deductible is 3000.", "An unknown tier is reported as unknown."},
		Tests:    [][]string{{"TestTierBronze"}, {"TestTierUnknown"}}}
)

// HostileDecisionTitle and HostileDecisionOption are Decision #2's title and
// its second option as the demo writes them, raw. The hostile item is the
// second card, not the first: a newcomer's first sight is a plain Decision,
// and every view of the demo still shows the hostile one neutralised.
const (
	HostileDecisionTitle  = "Decision: stop answering questions\x1b[2J about plan year 2024\u202e\u200b\x1b]52;c;cm0gLXJmIH4=\x07\u009b6n"
	HostileDecisionOption = "Stop now\u202e and delete\x1b]52;c;cm0gLXJmIH4=\x07 the 2024 tables\u009b2J\u200b"
)

func storyBody(st story, extra string) string {
	return fmt.Sprintf("%s## Completion Goal\n%s", extra, st.goalBody())
}

// seedItems writes the fifteen demo issues and pull requests, their
// branches, statuses, reviews, the ledger and the merge-gate runs.
func (sd *seeder) seedItems(root plumbing.Hash) {
	bot := sd.agent
	decision := sd.issue(bot, "Decision: keep deductible tables in Go code or load them from data",
		sd.agentMsg("The tiers story (#14) needs a deductible per plan tier. Where should the amounts live?\n\n"+
			"## Options\n1. Keep them in Go code, reviewed like any change (recommended)\n2. Load them from a YAML file at start-up\n"+
			"3. Fetch them from the plan administrator's API\n\nDoor: two-way\n\n"+
			"Recommendation: option 1. Three tiers change once a year, and code review is the control we already have.\n"),
		[]string{"type:decision", "status:proposed"}, sd.ago(300))
	sd.comment(decision, "writer", "<!-- aayu counsel --post -->\nCounsel: option 1 is the cheapest to reverse and keeps every change reviewed. "+
		"Option 3 adds a network dependency the service does not have today.", sd.ago(290))
	// Decision #2 is the demo's hostile item: its title and body carry what
	// a hostile writer could put in an issue (a screen clear, an OSC 52
	// clipboard write, a C1 CSI, a bidi override, a zero-width space), so
	// every view of the demo shows them neutralised.
	sd.issue(bot, HostileDecisionTitle,
		sd.agentMsg("Members still ask about 2024 claims.\x1b[2J\u202e\n\n## Options\n1. Keep answering 2024 questions until March (recommended)\n"+
			"2. "+HostileDecisionOption+"\n\nDoor: one-way\n\nDeleting the tables cannot be undone without the plan administrator.\n"),
		[]string{"type:decision", "status:proposed"}, sd.ago(296))

	// Story 3 and PR 4: ready to ship.
	s3 := sd.issue("founder", "Story: show the remaining deductible", storyBody(story3, "Members want to know how much of the deductible is left.\n\n"),
		[]string{"type:story", "status:building", "aayu:lease"}, sd.ago(352))
	old4 := sd.commit(root, map[string]string{"deductible/remaining.go": fileRemainingV1, "deductible/remaining_test.go": fileRemainingTestV1,
		".aayudha/evidence/3.toml": fileEvidence3}, sd.agentMsg("deductible: add Remaining\n\nRefs #3"), bot, sd.ago(340))
	head4 := sd.commit(old4, map[string]string{"deductible/remaining.go": fileRemaining, "deductible/remaining_test.go": fileRemainingTest},
		sd.agentMsg("deductible: Remaining never goes below zero\n\nRefs #3"), bot, sd.ago(80))
	sd.branch("story/3-remaining-deductible", head4)
	pr4 := sd.pull(bot, "Show the remaining deductible", sd.agentMsg("Refs #3\n\nAdds `deductible.Remaining` with its tests and the evidence map."),
		"story/3-remaining-deductible", "dev", nil, sd.ago(340))
	touch(s3, sd.ago(340))

	// Story 5 and PR 6: waits for the founder's review.
	sd.issue("founder", "Story: copay calculator", storyBody(story5, "Members ask what a visit will cost.\n\n"),
		[]string{"type:story", "status:building", "aayu:lease"}, sd.ago(330))
	c6 := sd.commit(root, map[string]string{"copay/copay.go": fileCopay}, sd.agentMsg("copay: add Copay\n\nRefs #5"), bot, sd.ago(320))
	head6 := sd.commit(c6, map[string]string{"copay/copay_test.go": fileCopayTest, ".aayudha/evidence/5.toml": fileEvidence5},
		sd.agentMsg("copay: tests and evidence map\n\nRefs #5"), bot, sd.ago(60))
	sd.branch("story/5-copay", head6)
	pr6 := sd.pull(bot, "Copay calculator", sd.agentMsg("Refs #5\n\nAdds the copay package."), "story/5-copay", "dev", nil, sd.ago(320))

	// Story 7 and PR 8: review stopped after three rounds.
	sd.issue("founder", "Story: plan-year rollover", storyBody(story7, "What was paid resets at the plan-year boundary.\n\n"),
		[]string{"type:story", "status:building", "aayu:lease"}, sd.ago(310))
	c8a := sd.commit(root, map[string]string{"deductible/rollover.go": fileRollover}, sd.agentMsg("deductible: add Rollover\n\nRefs #7"), bot, sd.ago(305))
	c8b := sd.commit(c8a, map[string]string{"deductible/rollover_test.go": fileRolloverTest}, sd.agentMsg("deductible: Rollover tests\n\nRefs #7"), bot, sd.ago(150))
	head8 := sd.commit(c8b, map[string]string{".aayudha/evidence/7.toml": fileEvidence7}, sd.agentMsg("Evidence map for story 7\n\nRefs #7"), bot, sd.ago(40))
	sd.branch("story/7-plan-year-rollover", head8)
	pr8 := sd.pull(bot, "Plan-year rollover", sd.agentMsg("Refs #7"), "story/7-plan-year-rollover", "dev", nil, sd.ago(305))

	// Story 9 and PR 10: merged into dev without ship.
	s9 := sd.issue("founder", "Story: explain the deductible in the README", storyBody(story9, ""),
		[]string{"type:story", "status:building", "aayu:lease"}, sd.ago(290))
	c10 := sd.commit(root, map[string]string{"README.md": fileReadmeDeductible}, sd.agentMsg("README: explain the deductible\n\nRefs #9"), bot, sd.ago(285))
	sd.branch("story/9-readme-deductible", c10)
	pr10 := sd.pull(bot, "Explain the deductible in the README", sd.agentMsg("Refs #9"), "story/9-readme-deductible", "dev", nil, sd.ago(285))
	sd.merge(pr10, "writer", sd.ago(270))
	touch(s9, sd.ago(270))

	// Bug 11 and PR 12: the fix merged, the bug still open.
	sd.issue("writer", "Bug: Applies ignores upper-case service names",
		"`Applies(\"Hospital\")` says false; `Applies(\"hospital\")` says true.\n\n## Completion Goal\n1. Service names match whatever their case.\n",
		[]string{"type:bug"}, sd.ago(265))
	files12 := map[string]string{"deductible/deductible.go": fileDeductibleFixed, "deductible/case_test.go": fileDeductibleCaseTest}
	for p, b := range bugEvidenceFiles() { // seed_verify.go: the Bugs' evidence maps
		files12[p] = b
	}
	c12 := sd.commit(sd.s.git.branch("dev"), files12, sd.agentMsg("deductible: match service names without case\n\nFixes #11"), bot, sd.ago(262))
	sd.branch("fix/11-applies-case", c12)
	pr12 := sd.pull(bot, "Match service names without case", sd.agentMsg("Fixes #11\n\nRefs #16"), "fix/11-applies-case", "dev", nil, sd.ago(262))
	sd.merge(pr12, "writer", sd.ago(250))

	// 13 replaced by 14; PR 15 merged on proof and waits for its audit.
	sd.issue("founder", "Story: deductible by plan tier", "Show each tier's deductible.\n", []string{"type:story"}, sd.ago(245))
	s14 := sd.issue("founder", "Story: deductible tiers from plan data", storyBody(story14, "Replaces #13\n\n"),
		[]string{"type:story", "status:merged"}, sd.ago(240))
	c15 := sd.commit(sd.s.git.branch("dev"), map[string]string{"deductible/tiers.go": fileTiers, "deductible/tiers_test.go": fileTiersTest,
		".aayudha/evidence/14.toml": fileEvidence14}, sd.agentMsg("deductible: add Tier\n\nRefs #14"), bot, sd.ago(230))
	sd.branch("story/14-plan-tiers", c15)
	pr15 := sd.pull(bot, "Deductible tiers from plan data", sd.agentMsg("Refs #14"), "story/14-plan-tiers", "dev", []string{"aayu:audit"}, sd.ago(230))
	base15 := sd.s.git.branch("dev")
	run15 := sd.gateRun(RunAuditPR, runRec{Event: "pull_request_target", Status: "completed", Conclusion: "success", HeadBranch: "dev",
		HeadSHA: base15.String(), Actor: bot, CreatedAt: sd.ago(226),
		PRs: []runPR{{15, "story/14-plan-tiers", c15.String(), "dev", base15.String()}}},
		func(id int64) *packFolder {
			f := buildPack(packSpec{Story: story14, PR: 15, Head: c15.String(), Base: base15.String(), Identity: "ci",
				Authority: proof.Authority{Kind: "authoritative", Workflow: gatePath, RunID: id}, Created: sd.ago(225.9)})
			return &f
		}, 30)
	merge15 := sd.merge(pr15, "founder", sd.ago(210))
	sd.close(s14, "completed", "founder", sd.ago(210))

	if sd.err != nil {
		return
	}
	sd.seedLedger(head4, head8, c15, merge15, run15)
	// The gate's statuses on #15's head, posted by its run, as they stood
	// when ship merged it on proof: what dev's tip (#15's merge) was held
	// to by dev's rules (a release judges the tip by them).
	sd.status(c15, GateCheck, "success", "the pack verifies and every floor holds", sd.ago(225))
	sd.status(c15, "aayudha/inspect", "success", "rung A: every criterion is shown by its tests", sd.ago(225.5))
	sd.postedByRun(c15, run15)
	sd.seedSignals(pr4, pr6, pr8, old4, head4, head6, head8, c8b)
	sd.seedRuns(pr4, pr6, pr8, old4, head4, head6, head8, root)
	sd.seedVerifyDemo()    // seed_verify.go: Bug 16 and the Bugs' Ready snapshots
	sd.seedStoryLoopDemo() // seed_storyloop.go: Story 17 waits for Ready, PR 18 for its plan review
	sd.seedWebDemo()       // seed_web.go: Story 19 proved by a screenshot, PR 20 with screens/1.png in its gate pack
}

// seedSignals writes the statuses, reviews and comments the inbox reads.
func (sd *seeder) seedSignals(pr4, pr6, pr8 *issueRec, old4, head4, head6, head8, mid8 plumbing.Hash) {
	sd.status(head4, "aayudha/merge-gate", "success", "the pack verifies and every floor holds", sd.ago(74))
	sd.status(head4, "aayudha/inspect", "success", "rung B: converged after one round", sd.ago(73))
	sd.status(head6, "aayudha/merge-gate", "success", "the pack verifies and every floor holds", sd.ago(54))
	sd.status(head6, "aayudha/inspect", "pending", "human rung: no reviewer app or paid model could review this head", sd.ago(53))
	sd.status(head8, "aayudha/merge-gate", "failure", "the pack does not verify: criterion 2 has no evidence", sd.ago(34))
	sd.status(head8, "aayudha/inspect", "failure", "stopped after 3 rounds on distinct heads without converging; the builder should step back", sd.ago(33))

	sd.s.st.Reviews = append(sd.s.st.Reviews,
		&reviewRec{ID: sd.s.st.newID(), PR: pr4.Number, User: sd.agent, State: "COMMENTED", Body: sd.agentMsg("inspect round 1: every criterion is shown by its tests."),
			CommitID: head4.String(), SubmittedAt: sd.ago(73)},
		&reviewRec{ID: sd.s.st.newID(), PR: pr4.Number, User: "writer", State: "APPROVED", Body: "Looked at the first version.",
			CommitID: old4.String(), SubmittedAt: sd.ago(200)},
		&reviewRec{ID: sd.s.st.newID(), PR: pr8.Number, User: "writer", State: "CHANGES_REQUESTED", Body: "Criterion 2 has no test.",
			CommitID: mid8.String(), SubmittedAt: sd.ago(140)},
	)
	touch(pr4, sd.ago(73))
	touch(pr8, sd.ago(140))
	sd.comment(pr4, "founder", fmt.Sprintf("Ready to ship: %s\n\nEvery gate passed on this head except the human pass.\n\n<!-- aayu:ready-to-ship head=%s -->",
		head4, head4), sd.ago(50))
	sd.comment(pr6, sd.agent, sd.agentMsg("inspect: waiting at the human rung for "+head6.String()+"."), sd.ago(53))
	sd.comment(pr8, sd.agent, sd.agentMsg("inspect stopped after 3 rounds on distinct heads without converging."), sd.ago(33))
}

// seedLedger writes the ledger branch: Ready snapshots, the shipped pack
// of story 14 with its ship record and audit entry, and advisory packs.
func (sd *seeder) seedLedger(head4, head8, head15, merge15 plumbing.Hash, run15 *runRec) {
	files := map[string]string{}
	for _, st := range []story{story3, story5, story7, story9} {
		files[fmt.Sprintf("specs/%d/ready.md", st.Number)] = st.readyMarkdown(sd.ago(300))
	}
	l1 := sd.commit(plumbing.ZeroHash, files, "ledger: Ready snapshots for stories 3, 5, 7 and 9", "founder", sd.ago(300))
	l2 := sd.commit(l1, map[string]string{"specs/14/ready.md": story14.readyMarkdown(sd.ago(238))},
		"ledger: Ready snapshot for story 14", "founder", sd.ago(238))

	dir15 := fmt.Sprintf("proof/14/%s/authoritative", head15)
	pack15 := buildPack(packSpec{Story: story14, PR: 15, Head: head15.String(), Base: run15.HeadSHA, Identity: "ci",
		Authority: proof.Authority{Kind: "authoritative", Workflow: gatePath, RunID: run15.ID, Writer: "founder (aayu ship)"}, Created: sd.ago(225.9)})
	shipped := ledgerFiles(dir15, pack15)
	ship, _ := json.MarshalIndent(map[string]any{
		"repo": RepoOwner + "/" + RepoName, "story": 14, "pr": 15, "pr_head_sha": head15.String(), "merge_commit": merge15.String(),
		"pack_landed": fmt.Sprintf("run %d of the base branch's %s; landed by founder through aayu ship", run15.ID, GateFile),
		"human_pass":  map[string]any{"kind": "proof", "login": "founder", "commit": head15.String(), "note": "merged into dev on proof; audited later"},
		"gate_run":    run15.ID, "artifact": "aayudha-pack", "pack_sha256": sha256Hex(pack15.PackJSON),
		"shipped_at": ts(sd.ago(210)), "shipped_by": "founder",
	}, "", "  ")
	shipped[dir15+"/ship.json"] = string(ship) + "\n"
	audit, _ := json.MarshalIndent(map[string]any{"pr": 15, "story": 14, "head": head15.String(), "merge_commit": merge15.String(),
		"kind": "proof", "rung": "A", "author": sd.agent, "layers": []string{"L05"}, "merged_at": ts(sd.ago(210)), "merged_by": "founder"}, "", "  ")
	shipped["autonomy/audit/15.json"] = string(audit) + "\n"
	l3 := sd.commit(l2, shipped, "ledger: ship story 14 (PR 15) on proof", "founder", sd.ago(209))

	// The agents' advisory packs, written as the bot or, in solo mode,
	// under the founder's token with the human-fallback trailer that
	// aayu audit lists.
	adv4 := buildPack(packSpec{Story: story3, PR: 4, Head: head4.String(), Identity: sd.packIdentity,
		Authority: proof.Authority{Kind: "advisory", Writer: sd.agent + " (aayu proof push)"}, Created: sd.ago(78)})
	l4 := sd.commit(l3, ledgerFiles(fmt.Sprintf("proof/3/%s/advisory", head4), adv4), sd.agentMsg("ledger: advisory pack for story 3"), sd.agent, sd.ago(78))
	adv8 := buildPack(packSpec{Story: story7, PR: 8, Head: head8.String(), Identity: sd.packIdentity, Missing: map[int]bool{2: true},
		Authority: proof.Authority{Kind: "advisory", Writer: sd.agent + " (aayu proof push)"}, Created: sd.ago(39)})
	l5 := sd.commit(l4, ledgerFiles(fmt.Sprintf("proof/7/%s/advisory", head8), adv8), sd.agentMsg("ledger: advisory pack for story 7"), sd.agent, sd.ago(39))
	sd.branch("ledger", l5)
}

// seedRuns stages every kind of merge-gate run SPEC §5 names for PR 4,
// plus one run each for PRs 6 and 8. pull_request_target runs carry the
// base branch's tip as head_sha and name the PR in pull_requests[].
func (sd *seeder) seedRuns(pr4, pr6, pr8 *issueRec, old4, head4, head6, head8, root plumbing.Hash) {
	dev := sd.s.git.branch("dev")
	bot := sd.agent
	ref4 := pr4.PR.Head
	pack := func(st story, pr int, head, base plumbing.Hash, missing map[int]bool, created float64) func(int64) *packFolder {
		return func(id int64) *packFolder {
			f := buildPack(packSpec{Story: st, PR: pr, Head: head.String(), Base: base.String(), Identity: "ci", Missing: missing,
				Authority: proof.Authority{Kind: "authoritative", Workflow: gatePath, RunID: id}, Created: sd.ago(created)})
			return &f
		}
	}
	target := func(at float64, base, head plumbing.Hash, pr int, ref, status, conclusion string) runRec {
		return runRec{Event: "pull_request_target", Status: status, Conclusion: conclusion, HeadBranch: "dev", HeadSHA: base.String(),
			Actor: bot, CreatedAt: sd.ago(at), PRs: []runPR{{pr, ref, head.String(), "dev", base.String()}}}
	}
	sd.gateRun(RunOlderHead, target(330, root, old4, 4, ref4, "completed", "success"), pack(story3, 4, old4, root, nil, 329.9), 30)
	qualifying := sd.gateRun(RunQualifying, target(75, dev, head4, 4, ref4, "completed", "success"), pack(story3, 4, head4, dev, nil, 74.9), 30)
	sd.postedByRun(head4, qualifying)
	sd.gateRun(RunExpired, target(70, dev, head4, 4, ref4, "completed", "success"), pack(story3, 4, head4, dev, nil, 69.9), 2)
	sd.gateRun(RunFailed, target(65, dev, head4, 4, ref4, "completed", "failure"), nil, 30)
	sd.gateRun(RunTampered, target(52, dev, head4, 4, ref4, "completed", "success"), func(id int64) *packFolder {
		f := tampered(*pack(story3, 4, head4, dev, nil, 51.9)(id), "evidence/criterion-1.jsonl")
		return &f
	}, 30)
	own := runRec{Event: "pull_request", Status: "completed", Conclusion: "success", HeadBranch: ref4, HeadSHA: head4.String(),
		Actor: bot, CreatedAt: sd.ago(51), PRs: []runPR{{4, ref4, head4.String(), "dev", dev.String()}}}
	sd.gateRun(RunPullRequest, own, pack(story3, 4, head4, dev, nil, 50.9), 30)
	running := target(1, dev, head4, 4, ref4, "in_progress", "")
	running.UpdatedAt = sd.ago(0.9)
	sd.gateRun(RunInProgress, running, nil, 30)

	// PR 6's pack verifies but its coverage floor does not hold: Copay's
	// specialist case never runs (5 of 7 changed lines), as verify finds.
	review := sd.gateRun(RunReviewPR, target(55, dev, head6, 6, pr6.PR.Head, "completed", "success"), func(id int64) *packFolder {
		f := buildPack(packSpec{Story: story5, PR: 6, Head: head6.String(), Base: dev.String(), Identity: "ci",
			Authority: proof.Authority{Kind: "authoritative", Workflow: gatePath, RunID: id}, Created: sd.ago(54.9), Uncovered: 2, Changed: 7})
		return &f
	}, 30)
	unverified := sd.gateRun(RunUnverifiedPR, target(35, dev, head8, 8, pr8.PR.Head, "completed", "success"),
		pack(story7, 8, head8, dev, map[int]bool{2: true}, 34.9), 30)
	// Inspect's judgements on PRs 6 and 8 are their gate runs' own, as on
	// GitHub: the inbox and ship count inspect from nobody else.
	sd.inspectPostedByRun(head6, review)
	sd.inspectPostedByRun(head8, unverified)
}

// inspectPostedByRun makes inspect's status on head the one that merge-gate
// run posted (as postedByRun does), leaving the gate's own status as it was.
func (sd *seeder) inspectPostedByRun(head plumbing.Hash, run *runRec) {
	for _, st := range sd.s.st.Statuses {
		if st.SHA == head.String() && st.Context == "aayudha/inspect" {
			st.Creator = ActionsBotLogin
			st.TargetURL = fmt.Sprintf("https://github.com/%s/%s/actions/runs/%d", RepoOwner, RepoName, run.ID)
		}
	}
}

// postedByRun makes the gate's statuses on head the ones that merge-gate
// run posted: created by github-actions[bot] (the run's workflow token),
// with the run as their target, as the gate's comment job posts them on
// GitHub. Merge on proof takes inspect's judgement only from such a status.
func (sd *seeder) postedByRun(head plumbing.Hash, run *runRec) {
	for _, st := range sd.s.st.Statuses {
		if st.SHA == head.String() && (st.Context == "aayudha/inspect" || st.Context == GateCheck) {
			st.Creator = ActionsBotLogin
			st.TargetURL = fmt.Sprintf("https://github.com/%s/%s/actions/runs/%d", RepoOwner, RepoName, run.ID)
		}
	}
}
