package proof

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Codes the verifier adds to the ones in report.go.
const (
	CodeStoryMismatch Code = "story_mismatch" // the pack names another story
	CodePRMismatch    Code = "pr_mismatch"    // the pack names another pull request
	CodeBadHash       Code = "bad_sha256"     // sha256 is not 64 lowercase hex digits
)

// Options are the facts from outside the pack that verification needs, and
// the limits it works within.
type Options struct {
	// Ready is the story's Ready snapshot. Without it the Completion Goal
	// hash and the criteria cannot be checked, which is itself a problem.
	Ready *Ready
	// HeadSHA is the pull request's current head. Empty leaves the head
	// unchecked, which is itself a problem.
	HeadSHA string
	// Story and PR, when non-zero, must be the ones the pack names.
	Story, PR int
	Limits    Limits
	// EvidenceMap, when known, names the tests that must pass in each
	// criterion's evidence; ModulePath turns its package paths into import
	// paths (empty: matched by path suffix). Without a map a criterion's
	// events must still show a test passing and none failing.
	EvidenceMap EvidenceMap
	ModulePath  string
	// RequiredFloors are the floors that must be in the pack and pass
	// ([verify] required_floors). Nil means DefaultRequiredFloors.
	RequiredFloors []string
	// CoverageThreshold is the base branch's [verify] coverage_threshold
	// (CoverageThresholdSetting); nil means DefaultCoverageThreshold. The
	// pack's own threshold is never used.
	CoverageThreshold *float64
	// Progress, when set, is called after each artifact is checked, always
	// on the goroutine that called Verify, never on a hashing worker.
	Progress func(Progress)
}

// Verify checks a pack already decoded (by Decode) from raw, the pack.json
// bytes whose SHA-256 the report carries. packFolder holds the file
// "artifacts/P" for each artifact path P, as a pack folder does; it may be
// nil when no bytes are at hand, and then every stored artifact is missing.
// Like verifyFS it reads packFolder from several goroutines at once.
// Every problem is reported, not only the first. The error is non-nil only
// when ctx ends first.
func Verify(ctx context.Context, p *Pack, raw []byte, packFolder fs.FS, opts Options) (*Report, error) {
	sum := sha256.Sum256(raw)
	r := &Report{Pack: p, PackSHA256: hex.EncodeToString(sum[:])}
	v := newVerifier(ctx, r, opts, opts.Limits.withDefaults(), packFolder, false)
	if err := v.run(); err != nil {
		return nil, err
	}
	return r, nil
}

type verifier struct {
	ctx      context.Context
	r        *Report
	opts     Options
	lim      Limits
	fsys     fs.FS
	sameFile bool // the fs is a real folder: re-check the opened file is the one inspected

	keep    map[string]bool   // artifact paths whose bytes are kept to read their test events
	hashed  map[string]bool   // artifact paths whose bytes were hashed here and matched
	content map[string][]byte // the kept bytes, by path

	// prehashed, when set, is what the workers found for each artifact
	// while pack.json was still being checked; nil: hash in run.
	prehashed []byteCheck
	// realDirs are the pack's folders already found real (not symlinks),
	// shared by the hashing workers, each with what Lstat found.
	realDirs sync.Map
	// folders, for a pack folder on disk, are its folders held open, where
	// artifacts are looked at without walking from the root; nil: walk.
	folders *packFolders
}

func newVerifier(ctx context.Context, r *Report, opts Options, lim Limits, fsys fs.FS, sameFile bool) *verifier {
	v := &verifier{ctx: ctx, r: r, opts: opts, lim: lim, fsys: fsys, sameFile: sameFile,
		keep: map[string]bool{}, hashed: map[string]bool{}, content: map[string][]byte{}}
	if r.Pack != nil {
		// Every test-events file is kept, cited or not: the tests floor is
		// counted from all of them. The coverage report and the scanners'
		// reports are kept to recount their floors.
		for _, a := range r.Pack.Artifacts {
			if a.Kind == KindAPITrace || a.Path == CoverageReportPath || scannerOfReport(a.Path) != "" {
				v.keep[a.Path] = true
			}
		}
	}
	return v
}

func (v *verifier) problem(code Code, artifactPath string, criterion int, format string, args ...any) {
	v.r.Problems = append(v.r.Problems, Problem{
		Code: code, Path: artifactPath, Criterion: criterion, Message: fmt.Sprintf(format, args...),
	})
}

func (v *verifier) run() error {
	return v.finish(v.start())
}

// start makes the checks that read no artifact: identity, emptiness and
// the artifact list. It returns, by index, which artifacts may be read.
func (v *verifier) start() []bool {
	p := v.r.Pack
	v.checkIdentity(p)
	v.checkEmpty(p)
	return v.checkArtifactList(p)
}

// finish checks the artifacts' bytes (hashing them unless v.prehashed
// holds what was found), the criteria and the floors.
func (v *verifier) finish(usable []bool) error {
	p := v.r.Pack
	if err := v.checkArtifactBytes(p, usable); err != nil {
		return err
	}
	v.r.Rules = rulesFor(p)
	v.checkCriteria(p)
	v.r.FloorsHold, v.r.FailedFloors = JudgeFloors(p.Checks,
		FloorPolicy{Required: v.opts.RequiredFloors, CoverageThreshold: v.opts.CoverageThreshold}, v.measure(p))
	return nil
}

// checkIdentity compares the pack with the facts from outside: story, pull
// request, head and Completion Goal hash.
func (v *verifier) checkIdentity(p *Pack) {
	if v.opts.Story != 0 && p.Story != v.opts.Story {
		v.problem(CodeStoryMismatch, "", 0, "The pack is for story %d, not story %d.", p.Story, v.opts.Story)
	}
	if v.opts.PR != 0 && p.PR != v.opts.PR {
		v.problem(CodePRMismatch, "", 0, "The pack is for pull request #%d, not #%d.", p.PR, v.opts.PR)
	}
	switch head := strings.ToLower(strings.TrimSpace(v.opts.HeadSHA)); {
	case head == "":
		v.problem(CodeNoHead, "", 0, "No current head was given, so the pack's head %s is unchecked.", hashInWords(p.PRHeadSHA))
	case p.PRHeadSHA != head:
		v.problem(CodeHeadMismatch, "", 0, "The pack proves commit %s but the pull request's head is now %s.", hashInWords(p.PRHeadSHA), hashInWords(head))
	}
	ready := v.opts.Ready
	if ready == nil {
		v.problem(CodeNoReady, "", 0, "No Ready snapshot was given, so the Completion Goal hash and the criteria are unchecked.")
		return
	}
	if ready.Story != 0 && ready.Story != p.Story {
		v.problem(CodeStoryMismatch, "", 0, "The Ready snapshot is for story %d but the pack is for story %d.", ready.Story, p.Story)
	}
	if !ready.SelfConsistent() {
		v.problem(CodeReadyHash, "", 0, "The Ready snapshot records Completion Goal hash %s but its own Completion Goal hashes to %s; the snapshot was edited after it was frozen.",
			hashInWords(ready.RecordedHash), hashInWords(ready.BodyHash))
	}
	if p.CompletionGoalHash != ready.RecordedHash {
		v.problem(CodeGoalHash, "", 0, "The pack was built for Completion Goal %s but the Ready snapshot's is %s; the story changed after Ready.",
			hashInWords(p.CompletionGoalHash), hashInWords(ready.RecordedHash))
	}
}

// checkEmpty refuses a pack that proves nothing.
func (v *verifier) checkEmpty(p *Pack) {
	if len(p.Criteria) == 0 {
		v.problem(CodeEmpty, "", 0, "The pack lists no criteria; a pack that claims nothing proves nothing.")
	}
	if len(p.Artifacts) == 0 {
		v.problem(CodeEmpty, "", 0, "The pack lists no artifacts; there is no evidence to check.")
	}
	if len(p.Checks) == 0 {
		v.problem(CodeEmpty, "", 0, "The pack lists no floor checks.")
	}
	if v.opts.Ready != nil && len(v.opts.Ready.Criteria) == 0 {
		v.problem(CodeEmpty, "", 0, "The Ready snapshot has no numbered Completion Goal criteria.")
	}
}

// checkArtifactList checks what pack.json says about each artifact, without
// reading any bytes: the count and total size caps, paths, duplicates, hash
// format, negative sizes and media stores. It returns, by index, which
// artifacts are sound enough to read.
func (v *verifier) checkArtifactList(p *Pack) []bool {
	usable := make([]bool, len(p.Artifacts))
	if len(p.Artifacts) > v.lim.Artifacts {
		v.problem(CodeTooLarge, "", 0, "The pack lists %d artifacts; aayu reads at most %d, so none were read.", len(p.Artifacts), v.lim.Artifacts)
		return usable
	}
	var total int64
	tooBig := false
	seen := make(map[string]int, len(p.Artifacts))
	folded := make(map[string]string, len(p.Artifacts))
	foldedN := make(map[string]int, len(p.Artifacts)) // both spellings are refused: either could be the file read
	folds := make([]string, len(p.Artifacts))         // each path's foldName, worked out once
	for i, a := range p.Artifacts {
		ok := true
		fold := foldName(a.Path)
		folds[i] = fold
		if err := CheckPath(a.Path); err != nil {
			pe := err.(*PathError)
			v.problem(pe.Code, a.Path, 0, "Artifact path %q is refused: %s.", a.Path, pe.Reason)
			ok = false
		}
		if n, dup := seen[a.Path]; dup {
			if n == 1 {
				v.problem(CodeDuplicatePath, a.Path, 0, "Artifact path %q is listed more than once.", a.Path)
			}
			ok = false
		} else if other, clash := folded[fold]; clash {
			v.problem(CodeDuplicatePath, a.Path, 0, "Artifact paths %q and %q differ only in case or Unicode normalisation, so they would be one file on some systems and look the same on screen.", other, a.Path)
			ok = false
		}
		seen[a.Path]++
		if _, clash := folded[fold]; !clash {
			folded[fold] = a.Path
		}
		foldedN[fold]++
		if !isSHA256Hex(a.SHA256) {
			v.problem(CodeBadHash, a.Path, 0, "Artifact %q has sha256 %q, which is not 64 lowercase hex digits.", a.Path, a.SHA256)
			ok = false
		}
		if a.Size < 0 {
			v.problem(CodeSizeMismatch, a.Path, 0, "Artifact %q declares a negative size.", a.Path)
			ok = false
		} else if total > v.lim.TotalBytes-a.Size {
			tooBig = true
		} else {
			total += a.Size
		}
		if IsMedia(a) && a.Store == StoreGit {
			v.problem(CodeMediaRefused, a.Path, 0, "Artifact %q is media stored in git; media never go to the ledger.", a.Path)
			ok = false
		}
		usable[i] = ok
	}
	for i, a := range p.Artifacts {
		if seen[a.Path] > 1 || foldedN[folds[i]] > 1 {
			usable[i] = false
		}
	}
	if tooBig {
		v.problem(CodeTooLarge, "", 0, "The pack's artifacts add up to more than %d bytes, the most aayu reads, so none were read.", v.lim.TotalBytes)
		for i := range usable {
			usable[i] = false
		}
	}
	return usable
}

// checkCriteria checks evidence paths against the artifacts and the pack's
// criteria against the Ready snapshot, judges each criterion by its
// evidence (judgeCriterion), and fills the per-criterion results.
func (v *verifier) checkCriteria(p *Pack) {
	verdicts := make(map[string]ArtifactVerdict, len(v.r.Artifacts))
	for _, ar := range v.r.Artifacts {
		if prev, ok := verdicts[ar.Artifact.Path]; !ok || prev != VerdictFailed {
			verdicts[ar.Artifact.Path] = ar.Verdict
		}
	}
	arts := make(map[string]Artifact, len(p.Artifacts))
	for _, a := range p.Artifacts {
		arts[a.Path] = a
	}
	byID := map[int]Criterion{}
	judged := map[int]CriterionResult{}
	for _, c := range p.Criteria {
		if _, dup := byID[c.ID]; dup {
			v.problem(CodeDuplicateCriteria, "", c.ID, "Criterion %d is listed more than once.", c.ID)
			continue
		}
		byID[c.ID] = c
		if len(c.Evidence) == 0 {
			v.problem(CodeCriterionNoEvid, "", c.ID, "Criterion %d has no evidence.", c.ID)
		}
		for _, e := range c.Evidence {
			if _, ok := verdicts[e]; !ok {
				v.problem(CodeEvidenceUnknown, e, c.ID, "Criterion %d names evidence %q, which is not an artifact of the pack.", c.ID, e)
			}
		}
		judged[c.ID] = v.judgeCriterion(c, arts, verdicts)
	}

	ready := v.opts.Ready
	if ready == nil {
		ids := make([]int, 0, len(byID))
		for id := range byID {
			ids = append(ids, id)
		}
		sort.Ints(ids)
		for _, id := range ids {
			v.r.Criteria = append(v.r.Criteria, judged[id])
		}
		return
	}
	inReady := map[int]bool{}
	for _, rc := range ready.Criteria {
		inReady[rc.ID] = true
		res, present := judged[rc.ID]
		if !present {
			v.problem(CodeCriterionMissing, "", rc.ID, "Ready criterion %d is not in the pack, so nothing proves it.", rc.ID)
			res = CriterionResult{ID: rc.ID, Reason: "not in the pack"}
		}
		res.Text = rc.Text
		v.r.Criteria = append(v.r.Criteria, res)
	}
	for _, c := range p.Criteria {
		if !inReady[c.ID] {
			v.problem(CodeCriterionOutside, "", c.ID, "The pack claims criterion %d, which the Ready snapshot does not have.", c.ID)
			inReady[c.ID] = true // report each outside criterion once
		}
	}
}

func isSHA256Hex(s string) bool { return len(s) == 64 && isLowerHex(s) }

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// hashInWords shows a hash or commit SHA whole in a sentence: a person
// compares them character by character, and aayu is correct to the byte, so
// they are never abbreviated. A value that is not plain lowercase hex (a
// head given from outside, say) is quoted and clipped instead.
func hashInWords(h string) string {
	switch {
	case h == "":
		return "(none)"
	case len(h) <= 64 && isLowerHex(h):
		return h
	default:
		return strconv.Quote(clipText(h))
	}
}

// measure counts, in the pack's own hashed bytes, what its floors claim:
// the coverage report's lines and the tests its events show passing.
func (v *verifier) measure(p *Pack) Measured {
	var m Measured
	tally := newEventTally()
	files := 0
	for _, a := range p.Artifacts {
		switch {
		case a.Path == CoverageReportPath:
			data, ok := v.content[a.Path]
			switch {
			case !v.hashed[a.Path]:
				m.CoverageWhy = fmt.Sprintf("its coverage report %s %s", a.Path, whyNotHashed(a))
			case !ok:
				m.CoverageWhy = fmt.Sprintf("its coverage report %s is larger than aayu reads", a.Path)
			default:
				covered, changed, err := ReadCoverageReport(data)
				if err != nil {
					m.CoverageWhy = fmt.Sprintf("its coverage report %s cannot be read: %v", a.Path, err)
					break
				}
				m.CoverageKnown, m.Covered, m.Changed = true, covered, changed
			}
		case scannerOfReport(a.Path) != "":
			if m.Scans == nil {
				m.Scans = map[string]ScanMeasure{}
			}
			m.Scans[scannerOfReport(a.Path)] = v.measureScan(a, scannerOfReport(a.Path))
		case a.Kind == KindAPITrace && v.hashed[a.Path]:
			data, ok := v.content[a.Path]
			switch {
			case m.TestsWhy != "":
			case !ok:
				m.TestsWhy = fmt.Sprintf("its test events %s are larger than aayu reads", a.Path)
			default:
				if why := tally.read(data); why != "" {
					m.TestsWhy = fmt.Sprintf("its test events %s are not go test -json events (%s)", a.Path, why)
				}
			}
			files++
		}
	}
	if files > 0 && m.TestsWhy == "" {
		m.TestsKnown, m.TestsPassed, m.TestsFailed = true, tally.passedCount(), tally.failures()
	}
	return m
}
