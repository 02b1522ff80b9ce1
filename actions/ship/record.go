package ship

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/proof/attest"
)

// ShipRecord is ship.json, the seed's ship record.
type ShipRecord struct {
	Repo             string          `json:"repo"`
	Story            int             `json:"story"`
	PR               int             `json:"pr"`
	PRHeadSHA        string          `json:"pr_head_sha"`
	MergeCommit      string          `json:"merge_commit"`
	GateRun          GateRunRecord   `json:"gate_run"`
	Artifact         ArtifactRecord  `json:"artifact"`
	PackSHA256       string          `json:"pack_sha256"`        // the run artifact's pack.json, as the pull request comment shows it
	LedgerPackSHA256 string          `json:"ledger_pack_sha256"` // the ledger copy's pack.json (writer set, media not stored)
	PackLanded       string          `json:"pack_landed"`
	HumanPass        HumanPassRecord `json:"human_pass"`
	PlanReview       PlanRecord      `json:"plan_review"`
	ActionsSegment   string          `json:"actions_segment"`
	ShippedAt        string          `json:"shipped_at"`
	ShippedBy        string          `json:"shipped_by"`
	// Attestation is who signed the pack (the gate's Sigstore certificate
	// and its transparency log entry); absent for an unattested pack.
	Attestation *attest.Identity `json:"attestation,omitempty"`
	// Proof is what a merge on proof merged on (human_pass.kind "proof"):
	// the head's checks, inspect's rung and the CODEOWNERS paths it
	// merged; absent for any other pass.
	Proof *ProofRecord `json:"proof,omitempty"`
	// Presence says which batch approval stood in for the presence check,
	// when an agent lane's ship was applied from its batch; absent when a
	// person ran ship themselves.
	Presence *PresenceRecord `json:"presence,omitempty"`
	// Waivers are the pack's floors that did not hold and shipped under an
	// accepted floor waiver for this head; absent when every floor held.
	Waivers []WaiverRecord `json:"waivers,omitempty"`
}

// ProofRecord is seed 001's merge on proof in ship.json: "ship records
// the merge as proof, with the checks, the rung, and any CODEOWNERS paths
// it merged".
type ProofRecord struct {
	Checks     []ProofCheck `json:"checks"`
	Rung       string       `json:"rung"`
	Codeowners []string     `json:"codeowners"`
}

// ProofCheck is one check of the merged head as ship judged it.
type ProofCheck struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`   // "status" or "check run"
	State  string `json:"state"`  // GitHub's conclusion or state, as given
	By     string `json:"by"`     // the status's creator, or the check run's app
	Result string `json:"result"` // green, pending or failing, as ship judged it
}

// GateRunRecord ties the pack to the merge-gate run that built it.
type GateRunRecord struct {
	Workflow   string `json:"workflow"`
	RunID      int64  `json:"run_id"`
	RunAttempt int    `json:"run_attempt,omitempty"`
	Event      string `json:"event"`
	URL        string `json:"url"`
}

// ArtifactRecord is the aayudha-pack run artifact the pack came from.
type ArtifactRecord struct {
	ID            int64  `json:"id"`
	Name          string `json:"name"`
	SHA256        string `json:"sha256"` // of the zip as downloaded
	ExpiresAt     string `json:"expires_at,omitempty"`
	RetentionDays int    `json:"retention_days"`
	Retention     string `json:"retention"` // which rule decided, in words
}

// HumanPassRecord is who gave the pass. A bypass names the human, the
// comment, the commit and a note saying no review happened.
type HumanPassRecord struct {
	Kind       string   `json:"kind"`
	Login      string   `json:"login"`
	ReviewURL  string   `json:"review_url,omitempty"`
	CommentURL string   `json:"comment_url,omitempty"`
	Commit     string   `json:"commit"`
	Note       string   `json:"note,omitempty"`
	Footprint  []string `json:"footprint,omitempty"`
}

// PlanRecord is the never-layer plan review: the record aayu plan landed
// (specs/N/plan-review.json, named by Record) copied in, as a review or,
// in the seed's shape, a bypass.
type PlanRecord struct {
	Required bool        `json:"required"`
	Layers   []string    `json:"layers,omitempty"`
	Reviewer string      `json:"reviewer,omitempty"`
	Record   string      `json:"record,omitempty"`
	Review   *PlanReview `json:"review,omitempty"`
	Bypass   *PlanBypass `json:"bypass,omitempty"`
}

// PlanReview records a plan a person who is not the builder reviewed.
type PlanReview struct {
	Reviewer   string   `json:"reviewer"`
	Layers     []string `json:"layers"`
	RecordedBy string   `json:"recorded_by"`
	RecordedAt string   `json:"recorded_at"`
	CommentURL string   `json:"comment_url"`
	Note       string   `json:"note,omitempty"`
}

// PlanBypass records a plan that went through a solo-mode bypass.
type PlanBypass struct {
	As         string   `json:"as"`
	Reviewer   string   `json:"reviewer"`
	Layers     []string `json:"layers,omitempty"`
	RecordedBy string   `json:"recorded_by"`
	RecordedAt string   `json:"recorded_at,omitempty"`
	CommentURL string   `json:"comment_url,omitempty"`
	Note       string   `json:"note"`
}

// land is gate 8: pack.json (authoritative, writer the person), its data
// artifacts (never media), ship.json, an audit entry for an unreviewed
// merge, and this ship's actions log segment, as one ledger commit under
// the person's identity. Landing twice is impossible: a ship.json already
// there for this head ends the step.
func (r *run) land() (gateOutcome, error) {
	dir := ledgerDir(r.target.story, r.target.head)
	r.res.LedgerDir = dir
	if r.res.Resumed {
		// Only a merge an earlier run made can have its record landed
		// already: it is looked for before anything is written. For a merge
		// made now (or by a concurrent run a moment ago) the commit's own
		// check at the ledger's tip (unless, below) is the one read needed.
		existing, err := ghx.ReadFile(r.ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, LedgerBranch, dir+"/ship.json")
		if err == nil {
			r.res.ShipRecord = existing
			return gateOutcome{words: "the record was already on the ledger"}, nil
		}
		if !ghx.IsNotFound(err) {
			return gateOutcome{}, fmt.Errorf("reading the ledger: %s", ghx.Describe(err))
		}
	}
	if refusal := r.copyMedia("the record lands with its media store none"); refusal != "" {
		// Merged by an earlier run, whose copy never happened: the record
		// still lands, its media store none (their bytes in the run
		// artifact), and the log says why.
		r.record("failed", nil, refusal)
	}
	files, ledgerSHA, err := r.packFiles(dir)
	if err != nil {
		return gateOutcome{}, err
	}
	now := r.cfg.Now().UTC()
	segment := fmt.Sprintf("actions/%s/ship-%d-%s.jsonl", now.Format("2006-01-02"), r.pr, now.Format("20060102T150405Z"))
	rec := r.shipRecord(ledgerSHA, segment, now)
	shipJSON, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return gateOutcome{}, fmt.Errorf("encoding ship.json: %w", err)
	}
	shipJSON = append(shipJSON, '\n')
	files[dir+"/ship.json"] = shipJSON
	if k := r.passing.pass.Kind; k == pass.KindAutonomous || k == pass.KindProof {
		// The rung and the author go into the sample the audit writes, and
		// decide whether it counts toward a streak (pass.SampleCounts).
		audit, _ := json.MarshalIndent(map[string]any{"pr": r.pr, "story": r.target.story, "head": r.target.head, "merge_commit": r.res.MergeCommit,
			"kind": k, "rung": r.evidence.rung, "author": r.target.author, "layers": r.passing.pass.Footprint, "merged_at": rec.ShippedAt, "merged_by": r.cfg.Viewer}, "", "  ")
		files[fmt.Sprintf("autonomy/audit/%d.json", r.pr)] = append(audit, '\n')
	}
	landing := fmt.Sprintf("landed %s/{pack.json,ship.json,artifacts} and %s on the ledger", dir, segment)
	seg, err := r.segment(actions.Record{Time: now, Command: r.command(), Repo: r.repoName(), Item: r.item(), Who: r.cfg.Viewer,
		Outcome: "done", Writes: []string{landing}})
	if err != nil {
		return gateOutcome{}, err
	}
	files[segment] = seg
	msg := fmt.Sprintf("ledger: ship story %d (PR #%d) at %s\n\nAuthoritative pack of run %d, landed by %s through aayu ship.",
		r.target.story, r.pr, gitsha.Short(r.target.head), r.evidence.pack.run.GetID(), r.cfg.Viewer)
	trailers := []string{fmt.Sprintf("Aayudha-Identity: human (%s, aayu ship)", r.cfg.Viewer)}
	if a := r.cfg.Approval; a != nil {
		// Written by whoever holds the token (the bot, in an agent lane),
		// on the person's approval: the human is the approver.
		trailers = append([]string{fmt.Sprintf("Aayudha-Identity: human (%s, aayu ship, batch %s)", a.Login, a.Batch)}, a.Trailers...)
	}
	// Each attempt re-reads the ledger's tip for this head's ship.json, so a
	// retry after a lost answer, or a concurrent ship, never lands it twice.
	unless := func(ctx context.Context, tip string) (bool, error) {
		_, err := ghx.ReadFile(ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, tip, dir+"/ship.json")
		if ghx.IsNotFound(err) {
			return false, nil
		}
		return err == nil, err
	}
	_, err = ghx.CommitFiles(r.ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, LedgerBranch, files, actions.Neutralize(msg),
		ghx.CommitOptions{Trailers: trailers, Unless: unless, Tip: r.takeLedgerTip()})
	if errors.Is(err, ghx.ErrAlreadyThere) {
		if existing, rerr := ghx.ReadFile(r.ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, LedgerBranch, dir+"/ship.json"); rerr == nil {
			r.res.ShipRecord = existing
		}
		return gateOutcome{words: "the record was already on the ledger"}, nil
	}
	if err != nil {
		return gateOutcome{}, &storyError{err: err, words: fmt.Sprintf("landing the record on the ledger: %s The pull request is merged; run the same aayu ship again to land its record", ghx.Describe(err))}
	}
	r.res.ShipRecord = shipJSON
	r.record("done", []string{landing}, "")
	return gateOutcome{words: fmt.Sprintf("%s: pack.json, %d data artifacts, ship.json", dir, len(files)-3)}, nil
}

// packFiles is the ledger copy of the gate's pack: media never reach the
// ledger (those copied to the [proof] media bucket name their object),
// data artifacts go with the bytes that were verified.
func (r *run) packFiles(dir string) (map[string][]byte, string, error) {
	p := proof.LedgerCopy(*r.evidence.pack.pack)
	r.ledgerMedia(&p)
	p.Authority = proof.Authority{Kind: proof.AuthorityAuthoritative, Workflow: GateWorkflowPath, RunID: r.evidence.pack.run.GetID(),
		Writer: r.cfg.Viewer + " (aayu ship)"}
	if p.Identity == "" {
		p.Identity = proof.IdentityCI
	}
	packJSON, err := proof.Encode(&p)
	if err != nil {
		return nil, "", fmt.Errorf("encoding the ledger's pack.json: %w", err)
	}
	files := map[string][]byte{dir + "/pack.json": packJSON}
	root, err := os.OpenRoot(r.evidence.pack.dir)
	if err != nil {
		return nil, "", fmt.Errorf("reopening the verified pack: %w", err)
	}
	defer root.Close()
	for _, a := range p.Artifacts {
		if proof.IsMedia(a) || a.Store != proof.StoreGit {
			continue
		}
		b, err := fs.ReadFile(root.FS(), path.Join("artifacts", a.Path))
		if err != nil {
			return nil, "", fmt.Errorf("reading verified artifact %s: %w", a.Path, err)
		}
		if int64(len(b)) != a.Size {
			return nil, "", fmt.Errorf("artifact %s changed on disk after it was verified", a.Path)
		}
		files[dir+"/artifacts/"+a.Path] = b
	}
	return files, sha256Hex(packJSON), nil
}

// planRecord copies the plan review record ship checked into ship.json.
func (r *run) planRecord() PlanRecord {
	plan := PlanRecord{Required: r.passing.pass.Plan.Required, Layers: r.passing.pass.Plan.Layers, Reviewer: r.passing.pass.Plan.By}
	rec := r.passing.plan.Record
	if rec != nil {
		plan.Record = pass.PlanRecordPath(rec.Story)
	}
	switch {
	case r.passing.pass.Plan.Bypass && rec != nil:
		plan.Bypass = &PlanBypass{As: pass.KindSoloBypass, Reviewer: rec.Reviewer, Layers: rec.Layers, RecordedBy: rec.RecordedBy, RecordedAt: rec.RecordedAt,
			CommentURL: rec.CommentURL, Note: rec.Note}
	case r.passing.pass.Plan.Bypass:
		// An earlier run merged on it (passFromTrailers) and the record can
		// no longer be read: the facts ship holds, nothing invented.
		plan.Bypass = &PlanBypass{As: pass.KindSoloBypass, Reviewer: pass.NoPlanReviewer, RecordedBy: r.cfg.Viewer, CommentURL: r.passing.plan.CommentURL, Note: pass.PlanBypassNote}
	case r.passing.pass.Plan.By != "" && rec != nil:
		plan.Review = &PlanReview{Reviewer: rec.Reviewer, Layers: rec.Layers, RecordedBy: rec.RecordedBy, RecordedAt: rec.RecordedAt, CommentURL: rec.CommentURL, Note: rec.Note}
	}
	return plan
}

func (r *run) shipRecord(ledgerSHA, segment string, now time.Time) ShipRecord {
	gp := r.evidence.pack
	days, note := proof.ArtifactRetention(r.evidence.base.cfg.Int("proof.retention_days"), r.evidence.base.private, r.cfg.Env)
	hp := HumanPassRecord{Kind: r.passing.pass.Kind, Login: r.passing.pass.Login, ReviewURL: r.passing.pass.ReviewURL, CommentURL: r.passing.pass.CommentURL,
		Commit: r.target.head, Note: r.passing.pass.Note, Footprint: r.passing.pass.Footprint}
	if hp.Login == "" {
		hp.Login = r.cfg.Viewer
	}
	plan := r.planRecord()
	rec := ShipRecord{
		Repo: r.repoName(), Story: r.target.story, PR: r.pr, PRHeadSHA: r.target.head, MergeCommit: r.res.MergeCommit,
		GateRun: GateRunRecord{Workflow: GateWorkflowPath, RunID: gp.run.GetID(), RunAttempt: gp.run.GetRunAttempt(), Event: gp.run.GetEvent(),
			URL: gp.run.GetHTMLURL()},
		Artifact:   ArtifactRecord{ID: gp.artifact.GetID(), Name: gp.artifact.GetName(), SHA256: gp.zipSHA256, RetentionDays: days, Retention: note},
		PackSHA256: gp.report.PackSHA256, LedgerPackSHA256: ledgerSHA,
		PackLanded: fmt.Sprintf("run %d of the base branch's %s; landed by %s through aayu ship, because CI writes nothing to the ledger",
			gp.run.GetID(), GateWorkflowFile, r.cfg.Viewer),
		HumanPass: hp, PlanReview: plan, ActionsSegment: segment,
		ShippedAt: now.Format(time.RFC3339), ShippedBy: r.cfg.Viewer,
	}
	if t := gp.artifact.GetExpiresAt(); !t.IsZero() {
		rec.Artifact.ExpiresAt = t.UTC().Format(time.RFC3339)
	}
	rec.Attestation = gp.attestation
	rec.Presence = r.presenceRecord()
	rec.Waivers = r.evidence.waivers
	if hp.Kind == pass.KindProof {
		rec.Proof = r.proofRecord()
	}
	return rec
}

// proofRecord is ship.json's proof: the checks merge on proof judged, the
// rung it took and the CODEOWNERS paths it merged (untrusted names made
// one neutral line each, as every record field).
func (r *run) proofRecord() *ProofRecord {
	out := &ProofRecord{Checks: []ProofCheck{}, Rung: r.evidence.rung, Codeowners: []string{}}
	for _, c := range r.evidence.proofChecks {
		out.Checks = append(out.Checks, ProofCheck{Name: untrusted.RecordLine(c.Name), Kind: c.Kind, State: untrusted.RecordLine(c.Detail),
			By: untrusted.RecordLine(c.By), Result: string(c.State)})
	}
	for _, p := range r.evidence.codeownerPaths {
		out.Codeowners = append(out.Codeowners, untrusted.RecordLine(p))
	}
	return out
}

// segment is this ship's part of the actions log: the records of this run,
// those an earlier run of the same ship kept in the local log (a resumed
// ship), and the landing itself, which is true exactly when the commit
// holding the segment lands.
func (r *run) segment(landing actions.Record) ([]byte, error) {
	var lines [][]byte
	seen := map[string]bool{}
	add := func(rec actions.Record) error {
		b, err := json.Marshal(rec)
		if err != nil {
			return fmt.Errorf("encoding the actions log segment: %w", err)
		}
		if !seen[string(b)] {
			seen[string(b)] = true
			lines = append(lines, b)
		}
		return nil
	}
	if r.target.resume != nil && r.cfg.Log != nil {
		for _, t := range []time.Time{r.target.pull.GetMergedAt().Time, r.cfg.Now()} {
			for _, rec := range r.earlierRecords(t) {
				if err := add(rec); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, rec := range append(append([]actions.Record(nil), r.landing.records...), landing) {
		if err := add(rec); err != nil {
			return nil, err
		}
	}
	return append(bytes.Join(lines, []byte("\n")), '\n'), nil
}

// earlierRecords reads this ship's writes from the local log of one day.
func (r *run) earlierRecords(day time.Time) []actions.Record {
	if day.IsZero() {
		return nil
	}
	f, err := os.Open(r.cfg.Log.Segment(day))
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return nil
	}
	defer f.Close()
	var out []actions.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var rec actions.Record
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Command == r.command() && rec.Repo == r.repoName() &&
			rec.Outcome == "done" && strings.Contains(strings.Join(rec.Writes, " "), r.target.head) {
			out = append(out, rec)
		}
	}
	return out
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

type tipRead struct {
	tip ghx.Tip
	err error
}

// readLedgerTip reads the ledger's tip at the yes, beside the first
// writes' own reads, so the record's commit after the merge starts from it
// instead of reading the branch then: two round trips fewer after the
// merge. It is a starting point, never a lock: the branch moves without
// force, so a ledger that moved since is refused by GitHub and read again
// (ghx.CommitOptions.Tip), and the commit's own check for this head's
// ship.json (land's Unless) is made at the tip the commit is built on.
func (r *run) readLedgerTip() {
	ch := make(chan tipRead, 1)
	r.landing.ledgerTip = ch
	r.round().ahead(func() {
		tip, err := ghx.ReadTip(r.reads.ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, LedgerBranch)
		ch <- tipRead{tip, err}
	})
}

// takeLedgerTip is the tip read at the yes, once; nil when none was read
// (or the read failed), and for every later attempt.
func (r *run) takeLedgerTip() *ghx.Tip {
	ch := r.landing.ledgerTip
	r.landing.ledgerTip = nil
	if ch == nil {
		return nil
	}
	select {
	case t := <-ch:
		if t.err != nil {
			return nil
		}
		return &t.tip
	case <-r.ctx.Done():
		return nil
	}
}
