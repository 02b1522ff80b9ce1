package proof

import (
	"fmt"
	"strings"
)

// A verdict is earned, never defaulted. A criterion is proven only when
//
//   - it cites at least one artifact whose bytes were read and hashed here
//     (a hash in pack.json alone proves nothing: store none, a bucket not
//     fetched, a tombstone or a Git LFS pointer are not bytes);
//   - every api-trace it cites is go test -json events, and at least one of
//     them was hashed here (under pre-0.2 rules, media bytes hashed here
//     stand in, as 0.1 proved web criteria by screenshots);
//   - those events record no fail, and show every test the evidence map
//     names for it passing (without a map: at least one test passing);
//   - it cites no path twice, and none of its evidence failed its check.
//
// Each way a criterion falls short is a problem in words, so a pack whose
// criteria prove nothing never verifies.

// rulesFor says which rules judge a pack: a pack with LFS media or a
// tombstone was written before 0.2.
func rulesFor(p *Pack) string {
	for _, a := range p.Artifacts {
		if a.Store == StoreLFS || a.Tombstone != nil {
			return RulesBefore02
		}
	}
	return RulesCurrent
}

// judgeCriterion decides one criterion of the pack, adding a problem for
// each reason it is not proven.
func (v *verifier) judgeCriterion(c Criterion, arts map[string]Artifact, verdicts map[string]ArtifactVerdict) CriterionResult {
	res := CriterionResult{ID: c.ID, Evidence: c.Evidence}
	if len(c.Evidence) == 0 {
		res.Reason = "no evidence"
		return res
	}
	fail := func(code Code, path, reason string) {
		if res.Reason == "" {
			res.Reason = reason
		}
		v.problem(code, path, c.ID, "Criterion %d %s.", c.ID, reason)
	}
	seen := map[string]bool{}
	for _, e := range c.Evidence {
		if seen[foldName(e)] {
			fail(CodeDuplicateEvidence, e, fmt.Sprintf("cites %q more than once (spellings that differ only in case or Unicode normalisation are one file); each file counts once", e))
		}
		seen[foldName(e)] = true
	}
	var unhashed []string
	tally := newEventTally()
	var traces, mediaHashed, notStoredMedia int
	for _, e := range c.Evidence {
		switch verdicts[e] {
		case VerdictFailed:
			if res.Reason == "" {
				res.Reason = fmt.Sprintf("evidence %q failed its check", e)
			}
			return res
		case "":
			if res.Reason == "" {
				res.Reason = fmt.Sprintf("evidence %q is not an artifact of the pack", e)
			}
			return res
		}
		a := arts[e]
		if !v.hashed[e] {
			if IsMedia(a) {
				notStoredMedia++
			} else {
				unhashed = append(unhashed, fmt.Sprintf("%q %s", e, whyNotHashed(a)))
			}
			continue
		}
		if a.Kind != KindAPITrace {
			if IsMedia(a) {
				mediaHashed++
			}
			continue
		}
		data, ok := v.content[e]
		if !ok {
			fail(CodeEvidenceNotEvents, e, fmt.Sprintf("cites %q, which is larger than the %d bytes aayu reads for test events", e, maxEvidenceRead))
			continue
		}
		if why := tally.read(data); why != "" {
			fail(CodeEvidenceNotEvents, e, fmt.Sprintf("cites %q as test evidence, but it is not go test -json events: %s", e, why))
			continue
		}
		traces++
	}
	if len(unhashed) > 0 && res.Reason == "" && traces == 0 {
		fail(CodeEvidenceNotHashed, "", "has no evidence whose bytes were hashed here: "+strings.Join(unhashed, "; "))
	}
	if res.Reason != "" {
		return res
	}
	if traces == 0 {
		if v.r.Rules == RulesBefore02 && mediaHashed > 0 {
			res.Proven, res.Reason = true, "pre-0.2 rules: proven by media bytes hashed here"
			return res
		}
		what := "cites no go test events (an api-trace artifact) whose bytes were hashed here"
		if notStoredMedia > 0 {
			what += fmt.Sprintf("; its %d media %s kept by hash only, and media never prove a criterion alone", notStoredMedia, plural(notStoredMedia, "file is", "files are"))
		}
		fail(CodeEvidenceNotHashed, "", what)
		return res
	}
	if failures := tally.failures(); len(failures) > 0 {
		fail(CodeEvidenceTestFailed, "", "is not proven: its test events record a fail for "+clipText(strings.Join(failures, ", ")))
		return res
	}
	if v.opts.EvidenceMap != nil {
		mc, ok := mappedCriterion(v.opts.EvidenceMap, c.ID)
		if !ok {
			fail(CodeEvidenceTestAbsent, "", "is not in the evidence map, so no test is named to prove it")
			return res
		}
		var absent []string
		for _, ref := range mc.Tests {
			if !tally.passes(ref, v.opts.ModulePath) {
				absent = append(absent, ref.String())
			}
		}
		if len(absent) > 0 {
			fail(CodeEvidenceTestAbsent, "", "is not proven: its test events do not show "+clipText(strings.Join(absent, ", "))+" running and passing, as the evidence map requires")
			return res
		}
		if shot := ScreenPath(c.ID); mc.Screenshot != "" && !seen[foldName(shot)] {
			fail(CodeEvidenceTestAbsent, shot, fmt.Sprintf("is not proven: the evidence map names a screenshot of %s, and its evidence has no %s (the web floor did not capture it)", clipText(mc.Screenshot), shot))
			return res
		}
		if tr := TranscriptPath(c.ID); mc.Transcript && !seen[foldName(tr)] {
			fail(CodeEvidenceTestAbsent, tr, fmt.Sprintf("is not proven: the evidence map asks for a screen-reader transcript of %s, and its evidence has no %s (the web floor did not read it)", clipText(mc.Screenshot), tr))
			return res
		}
		if rec := RecordingPath(c.ID); mc.Recording && !seen[foldName(rec)] {
			fail(CodeEvidenceTestAbsent, rec, fmt.Sprintf("is not proven: the evidence map asks for a recording of %s, and its evidence has no %s (the web floor did not record it)", clipText(mc.Screenshot), rec))
			return res
		}
	} else if !tally.anyPass() {
		fail(CodeEvidenceTestAbsent, "", "is not proven: its test events show no test passing")
		return res
	}
	res.Proven = true
	if notStoredMedia > 0 {
		res.Reason = fmt.Sprintf("%d media %s kept by hash only", notStoredMedia, plural(notStoredMedia, "file", "files"))
	}
	return res
}

// whyNotHashed says why an artifact's bytes were not read here.
func whyNotHashed(a Artifact) string {
	switch {
	case a.Tombstone != nil:
		return "was purged (tombstone)"
	case a.Store == StoreNone:
		return "is store none (only its hash is kept)"
	case a.Store == StoreBucket:
		return "is in a media bucket that was not fetched"
	case a.Store == StoreLFS:
		return "is only a Git LFS pointer; its bytes were not hashed"
	}
	return "was not read"
}

func mappedCriterion(m EvidenceMap, id int) (MappedCriterion, bool) {
	for _, c := range m {
		if c.ID == id {
			return c, true
		}
	}
	return MappedCriterion{}, false
}
