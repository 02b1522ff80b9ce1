package proof

import (
	"fmt"
	"strconv"
	"strings"
)

// The verification contract. Verify and VerifyDir fill a Report; the pack
// screen, ship and the merge gate's comment read it. Every problem found is
// listed, never only the first.

// Code names a class of problem so tests and callers can tell them apart
// without parsing words.
type Code string

const (
	CodeHashMismatch      Code = "hash_mismatch"    // bytes do not match sha256
	CodeSizeMismatch      Code = "size_mismatch"    // file size differs from declared size
	CodeMissingFile       Code = "missing_file"     // a stored artifact's file is absent
	CodeDuplicatePath     Code = "duplicate_path"   // a path listed twice
	CodeUncleanPath       Code = "unclean_path"     // path.Clean(p) != p, "." or ".." element, empty
	CodeAbsolutePath      Code = "absolute_path"    // path starts with /
	CodeBackslashPath     Code = "backslash_path"   // path holds a backslash
	CodeEscapingPath      Code = "escaping_path"    // path leaves the pack (.., symlink leaving)
	CodeNotRegular        Code = "not_regular_file" // symlink, FIFO, device, directory
	CodeEvidenceUnknown   Code = "evidence_unknown" // evidence path names no artifact
	CodeCriterionNoEvid   Code = "criterion_without_evidence"
	CodeCriterionOutside  Code = "criterion_outside_ready"
	CodeCriterionMissing  Code = "criterion_missing"   // a Ready criterion absent from the pack
	CodeGoalHash          Code = "goal_hash_mismatch"  // completion_goal_hash != snapshot's
	CodeReadyHash         Code = "ready_hash_mismatch" // snapshot's recorded hash != its own body
	CodeHeadMismatch      Code = "head_mismatch"       // pr_head_sha != current head
	CodeEmpty             Code = "empty_set"           // no criteria, no artifacts or no checks
	CodeTooLarge          Code = "too_large"           // a cap exceeded
	CodeNewerSchema       Code = "newer_schema"
	CodeSchema            Code = "schema_violation"
	CodeDuplicateKey      Code = "duplicate_key"
	CodeMalformed         Code = "malformed_json"
	CodeMediaRefused      Code = "media_refused"
	CodeNotMediaKind      Code = "not_its_kind" // media bytes that are not what their kind says (a recording that is not WebM)
	CodeDuplicateCriteria Code = "duplicate_criterion"
	CodeNoReady           Code = "ready_unavailable" // no snapshot given: goal and criteria unchecked
	CodeNoHead            Code = "head_unavailable"  // no head given: head unchecked
	// A criterion whose evidence shows nothing: no bytes hashed here, no go
	// test events, a failed or absent mapped test, or the same file twice.
	CodeEvidenceNotHashed  Code = "evidence_not_hashed"      // no cited evidence byte was read and hashed here
	CodeEvidenceNotEvents  Code = "evidence_not_test_events" // an api-trace that is not go test -json events
	CodeEvidenceTestFailed Code = "evidence_test_failed"     // the events record a fail
	CodeEvidenceTestAbsent Code = "evidence_test_absent"     // a mapped test has no pass in the events
	CodeDuplicateEvidence  Code = "duplicate_evidence"       // one criterion cites a path twice
)

// Problem is one reason a pack does not verify, in words a person reads.
type Problem struct {
	Code      Code
	Path      string // the artifact path concerned, if any
	Criterion int    // the criterion concerned, if any
	Message   string // complete sentence naming the problem
}

func (p Problem) String() string { return p.Message }

// ArtifactVerdict is the per-artifact outcome shown on the pack screen.
type ArtifactVerdict string

const (
	VerdictVerified  ArtifactVerdict = "verified"   // bytes present and matching
	VerdictNotStored ArtifactVerdict = "not stored" // store none / tombstone, bytes absent
	VerdictFailed    ArtifactVerdict = "failed"     // a problem names this artifact
	VerdictUnchecked ArtifactVerdict = "unchecked"  // e.g. bucket object not fetched
)

// ArtifactResult pairs an artifact with its verdict and, when failed, why.
type ArtifactResult struct {
	Artifact Artifact
	Verdict  ArtifactVerdict
	Reason   string
}

// CriterionResult is one criterion's verdict against the Ready snapshot.
type CriterionResult struct {
	ID       int
	Text     string // from the Ready snapshot when known
	Evidence []string
	Proven   bool   // evidence bytes hashed here whose test events show every mapped test passing
	Reason   string // why not, in words
}

// Report is the full outcome of verifying one pack.
type Report struct {
	Pack               *Pack // nil when pack.json could not be decoded
	PackSHA256         string
	Problems           []Problem
	Artifacts          []ArtifactResult
	Criteria           []CriterionResult
	ArtifactsNotStored int
	FloorsHold         bool
	// FailedFloors are the checks that do not hold, each Detail starting
	// with why (a required floor that is missing is a Check with Result
	// "missing"), so callers print them as they are.
	FailedFloors []Check
	// FilesHashed and BytesHashed count the artifact files whose bytes were
	// read and hashed here and matched pack.json: the number behind
	// "verified".
	FilesHashed int
	BytesHashed int64
	// Rules says which rules judged the pack: RulesCurrent, or RulesBefore02
	// for a pack with LFS media or tombstones.
	Rules string
}

// The rule sets a report names.
const (
	RulesCurrent  = "0.2 (each criterion proven by evidence bytes hashed here whose tests pass)"
	RulesBefore02 = "pre-0.2 (LFS media and tombstones accepted for media; evidence bytes still hashed here)"
)

// HashedWords is the number behind "verified", e.g. "12 files, 48,213
// bytes hashed".
func (r *Report) HashedWords() string {
	if r == nil {
		return "0 files, 0 bytes hashed"
	}
	return fmt.Sprintf("%s %s, %s %s hashed", groupDigits(int64(r.FilesHashed)), plural(r.FilesHashed, "file", "files"),
		groupDigits(r.BytesHashed), plural(int(min(r.BytesHashed, 2)), "byte", "bytes"))
}

// groupDigits writes n with a comma between each group of three digits.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Verified reports whether the pack has no integrity problem. Floors do not
// count: a pack can verify and still not ship.
func (r *Report) Verified() bool { return r != nil && r.Pack != nil && len(r.Problems) == 0 }

// Progress is sent while artifacts are hashed so a screen never freezes on a
// large pack.
type Progress struct {
	DoneFiles, TotalFiles int
	DoneBytes, TotalBytes int64
}
