package inbox

import (
	"fmt"
	"sort"

	"github.com/aayudha/aayu/model/identity"

	"github.com/aayudha/aayu/model/untrusted"
)

// atOrAfterMerged are the status labels that mean a Story is no longer
// "before status:merged".
var atOrAfterMerged = []string{LabelMerged, LabelDone, LabelCancelled}

// mergedSteps finds open Stories and Bugs that a pull request merged into
// the integration branch links: one step per issue, naming every such pull
// request, the most recently merged first.
func mergedSteps(s Snapshot) []Step {
	issues := issueIndex(s)
	merged := map[int][]PullRequest{}
	for _, pr := range s.PullRequests {
		if !pr.Merged || pr.BaseRef.Raw() != s.integrationBranch() {
			continue
		}
		for _, n := range LinkedIssues(pr.HeadRef.Raw(), pr.Body.Raw()) {
			merged[n] = append(merged[n], pr)
		}
	}
	var out []Step
	for n, prs := range merged {
		is, ok := issues[n]
		if !ok || !is.Open() {
			continue
		}
		sort.Slice(prs, func(i, j int) bool {
			if !prs[i].MergedAt.Equal(prs[j].MergedAt) {
				return prs[i].MergedAt.After(prs[j].MergedAt)
			}
			return prs[i].Number > prs[j].Number
		})
		fix := prs[0]
		var links []Link
		for _, pr := range prs {
			links = append(links, Link{Number: pr.Number, Title: pr.Title, IsPR: true, Role: "merged into " + s.integrationBranch()})
		}
		item := Item{Number: is.Number, Title: is.Title}
		if is.HasLabel(LabelStory) && !anyLabel(is.Labels, atOrAfterMerged) {
			// A merge aayu ship made and did not finish is that ship's
			// one card, never also a merge without ship.
			if st, ok := mergedStopped(s, is, prs); ok {
				out = append(out, st)
				continue
			}
		}
		if is.HasLabel(LabelStory) {
			// Only a merge no ship record covers leaves a Story uncovered.
			prs = uncovered(s, prs)
			if len(prs) == 0 {
				continue
			}
			fix, links = prs[0], links[:0]
			for _, pr := range prs {
				links = append(links, Link{Number: pr.Number, Title: pr.Title, IsPR: true, Role: "merged into " + s.integrationBranch()})
			}
		}
		switch {
		case is.HasLabel(LabelStory) && !anyLabel(is.Labels, atOrAfterMerged):
			// status:merged goes last: it is what takes the Story off the
			// inbox, so writes that land only in part leave the card (in
			// this run and the next) for Enter to finish.
			writes := []Write{
				{Kind: WriteComment, Number: is.Number, Body: fmt.Sprintf("Merged in #%d without aayu ship, so no proof pack covers it; it stays uncovered.", fix.Number)},
			}
			if is.HasLabel(LabelLease) {
				writes = append(writes, Write{Kind: WriteRemoveLabel, Number: is.Number, Label: LabelLease})
			}
			writes = append(writes, StatusWrites(is.Number, is.Labels, LabelMerged)...)
			out = append(out, Step{Kind: KindMergedWithoutShip, Item: item, Links: links,
				Counsel: untrusted.Text(fmt.Sprintf("Pull request #%d merged into %s and links this Story, which is still before %s. It shipped without aayu ship, so no proof covers it; marking it merged says so.", fix.Number, s.integrationBranch(), LabelMerged)),
				Choices: []Choice{{Key: "1", Label: "mark it merged without proof (it stays uncovered)", Recommended: true, Writes: writes}}})
		case is.HasLabel(LabelBug):
			out = append(out, Step{Kind: KindBugFixMerged, Item: item, Links: links,
				Counsel: untrusted.Text(fmt.Sprintf("Pull request #%d merged into %s and links this Bug, which is still open.", fix.Number, s.integrationBranch())),
				Choices: []Choice{{Key: "1", Label: "close it as completed", Recommended: true, Writes: append(StatusWrites(is.Number, is.Labels, LabelDone),
					Write{Kind: WriteComment, Number: is.Number, Body: fmt.Sprintf("Fixed in #%d", fix.Number)},
					Write{Kind: WriteClose, Number: is.Number, Reason: "completed"},
				)}}})
		}
	}
	return out
}

// replacedSteps finds open issues another issue says it replaces. Only a
// body written by an account with write access counts, so an outsider's
// issue cannot queue someone else's for closing. The newest replacing
// issue is named.
func replacedSteps(s Snapshot) []Step {
	issues := issueIndex(s)
	by := map[int]Issue{}
	for _, m := range s.Issues {
		if m.Author.Access() < identity.AccessWrite {
			continue
		}
		for _, n := range ReplacedIssues(m.Body.Raw()) {
			if prev, seen := by[n]; n != m.Number && (!seen || m.Number > prev.Number) {
				by[n] = m
			}
		}
	}
	var out []Step
	for n, m := range by {
		is, ok := issues[n]
		if !ok || !is.Open() {
			continue
		}
		out = append(out, Step{Kind: KindReplaced, Item: Item{Number: n, Title: is.Title},
			Links:   []Link{{Number: m.Number, Title: m.Title, Role: "replaced by"}},
			Counsel: untrusted.Text(fmt.Sprintf("#%d says it replaces this issue, which is still open.", m.Number)),
			Choices: []Choice{{Key: "1", Label: "close it as not planned", Recommended: true, Writes: append(StatusWrites(n, is.Labels, LabelCancelled),
				Write{Kind: WriteComment, Number: n, Body: fmt.Sprintf("Replaced by #%d", m.Number)},
				Write{Kind: WriteClose, Number: n, Reason: "not_planned"},
			)}}})
	}
	return out
}

// SamplesPath and AuditPath are the ledger files an audit step writes.
const SamplesPath = "autonomy/samples.jsonl"

// AuditPath is the ledger entry of one unreviewed merge.
func AuditPath(pr int) string { return fmt.Sprintf("autonomy/audit/%d.json", pr) }

// auditStep: a merged pull request with its audit entry on the ledger.
// "looks right" appends a clean sample and removes the label and the
// entry; "correction" appends a correction sample, adds aayu:correction,
// opens the revert pull request into the integration branch, then removes
// the label and the entry so the card leaves.
//
// The entry alone keeps the card, and it is removed last: a look that
// landed only in part (the label gone, the entry not) is still on the
// inbox in the next run, and Enter makes only what is missing (the sample
// and the revert pull request are reused). Only ship writes the ledger,
// so an entry is never the work of a hand-put label.
func auditStep(s Snapshot, pr PullRequest) (Step, bool) {
	if !pr.Merged || !s.AuditEntries[pr.Number] {
		return Step{}, false
	}
	clear := []Write{
		{Kind: WriteRemoveLabel, Number: pr.Number, Label: LabelAudit},
		{Kind: WriteLedgerRemove, Number: pr.Number, Path: AuditPath(pr.Number)},
	}
	right := append([]Write{{Kind: WriteLedgerAppend, Number: pr.Number, Path: SamplesPath}}, clear...)
	correction := append([]Write{
		{Kind: WriteLedgerAppend, Number: pr.Number, Path: SamplesPath, Correction: true},
		{Kind: WriteAddLabel, Number: pr.Number, Label: LabelCorrection},
		{Kind: WriteRevertPR, Number: pr.Number, Base: s.integrationBranch()},
	}, clear...)
	counsel := fmt.Sprintf("aayu ship merged #%d into %s with no person's review; every such merge is audited. A correction resets the streak of each layer it touched.", pr.Number, pr.BaseRef)
	if line := s.AuditTampering[pr.Number]; line != "" {
		counsel = line + "; its audit entry counts as still there. " + counsel
	}
	return Step{Kind: KindAudit, Item: Item{Number: pr.Number, Title: pr.Title, IsPR: true}, Head: pr.MergeCommitSHA,
		Counsel: untrusted.Text(counsel),
		Choices: []Choice{
			{Key: "1", Label: "looks right", Recommended: true, Writes: right},
			{Key: "2", Label: "correction: revert it", Writes: correction},
		}}, true
}

// uncovered keeps the merged pull requests no ship record covers.
func uncovered(s Snapshot, prs []PullRequest) []PullRequest {
	var out []PullRequest
	for _, pr := range prs {
		if !s.ShipRecords[pr.Number] {
			out = append(out, pr)
		}
	}
	return out
}

func anyLabel(labels []untrusted.Label, want []string) bool {
	for _, w := range want {
		if hasLabel(labels, w) {
			return true
		}
	}
	return false
}
