package ship

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gaterun"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/proof/attest"
	"github.com/aayudha/aayu/proof/sigstore"
	"github.com/google/go-github/v66/github"
)

// The merge gate's workflow and the artifact it uploads.
const (
	GateWorkflowFile = gaterun.WorkflowFile
	GateWorkflowPath = gaterun.WorkflowPath
	PackArtifactName = "aayudha-pack"
)

// gatePack is the run ship took and the pack it verified.
type gatePack struct {
	run       *github.WorkflowRun
	artifact  *github.Artifact
	zipSHA256 string
	dir       string
	pack      *proof.Pack
	raw       []byte
	report    *proof.Report
	ready     string // the ledger path of the Ready snapshot
	// attestation is who signed the pack, when its attestation verified;
	// unattested says in words why there is none (only when the base
	// branch does not require one).
	attestation *attest.Identity
	unattested  string
}

// checkPack is gate 3, gatePack: the newest pull_request_target run of the
// merge gate bound to exactly this head whose aayudha-pack artifact is
// there, safe, matches pack.json, names this story, pull request and head,
// verifies against the ledger's Ready snapshot, and whose floors hold.
func (r *run) checkPack() (gateOutcome, error) {
	runs, err := r.listGateRuns()
	if err != nil {
		return gateOutcome{}, err
	}
	gp, err := r.selectRun(runs)
	var detail []string
	for _, p := range r.res.Passed {
		detail = append(detail, "passed over "+p.String())
	}
	if err != nil {
		return gateOutcome{detail: detail}, err
	}
	if gp == nil {
		r.floorOnly = false
		return gateOutcome{
			words: fmt.Sprintf("nothing qualifies: no successful pull_request_target run of %s proves head %s with a pack that verifies", GateWorkflowFile, gitsha.Short(r.target.head)),
			refusals: []string{fmt.Sprintf("nothing qualifies: no successful pull_request_target run of %s proves head %s with a pack that verifies (%d runs passed over)",
				GateWorkflowFile, gitsha.Short(r.target.head), len(r.res.Passed))},
			detail: detail,
		}, nil
	}
	r.evidence.pack = gp
	r.res.PackDir, r.res.Pack = gp.dir, gp.report
	if r.target.story == 0 {
		r.target.story = gp.pack.Story
	}
	holds := "every floor holds"
	if !gp.report.FloorsHold {
		// A floor that does not hold ships only under an accepted floor
		// waiver for exactly this head and floor (model/waiver).
		waived, unwaived, err := r.waivedFloors(gp.report.FailedFloors)
		if err != nil {
			return gateOutcome{detail: detail}, err
		}
		if len(unwaived) > 0 {
			var floors []string
			policy := r.packRules().floors
			for _, c := range gp.report.FailedFloors {
				floors = append(floors, floorWords(c, policy))
			}
			if len(floors) == 0 {
				floors = []string{"the pack lists no checks"}
			}
			return gateOutcome{refusals: []string{fmt.Sprintf("run %d's pack verifies but a floor does not hold (%s), and it is not waived: %s",
				gp.run.GetID(), strings.Join(floors, "; "), strings.Join(unwaived, "; "))},
				detail: detail}, nil
		}
		r.evidence.waivers = waived
		holds = "every floor holds but what is waived: " + waiverWords(waived)
	}
	words := fmt.Sprintf("run %d on head %s: the pack verifies (%s; pack.json sha256 %s) and %s",
		gp.run.GetID(), gitsha.Short(r.target.head), gp.report.HashedWords(), gitsha.Short(gp.report.PackSHA256), holds)
	switch {
	case gp.attestation != nil:
		words += "; attested, " + gp.attestation.Words()
	case gp.unattested != "":
		detail = append(detail, "note: "+gp.unattested)
	}
	if refusal := r.checkMedia(); refusal != "" {
		r.floorOnly = false
		return gateOutcome{refusals: []string{refusal}, detail: detail}, nil
	}
	return gateOutcome{words: words, detail: detail}, nil
}

// packRules are what a gate pack is judged by beyond its own bytes: the
// base branch's [verify] required_floors, and the evidence map and module
// path the head commits, which name the tests each criterion's events must
// show passing. The map is read once per story.
type packRules struct {
	// floors are the base's [verify] floor settings (basepolicy's
	// Floors); the pack's own threshold is never used.
	floors proof.FloorPolicy
	maps   map[int]headEvidence
}

type headEvidence struct {
	evidence   proof.EvidenceMap
	modulePath string
	refusal    string
}

func (r *run) packRules() *packRules {
	rules := &packRules{maps: map[int]headEvidence{}}
	if r.evidence.base != nil {
		rules.floors = r.evidence.base.floors
	}
	return rules
}

// evidenceAt reads story's evidence map at the head. Without one (a head
// that commits none) the criteria are still held to events that show a
// test passing and none failing; a map that cannot be read passes the run
// over, never judges it by less.
func (r *run) evidenceAt(rules *packRules, story int) (headEvidence, error) {
	if he, ok := rules.maps[story]; ok {
		return he, nil
	}
	var he headEvidence
	mapPath := evidencePath(story)
	raw, err := r.readFile(r.target.head, mapPath)
	switch {
	case ghx.IsNotFound(err):
	case err != nil:
		return he, fmt.Errorf("reading %s at head %s: %s", mapPath, gitsha.Short(r.target.head), ghx.Describe(err))
	default:
		if he.evidence, err = proof.LoadEvidenceMap(raw); err != nil {
			he.refusal = fmt.Sprintf("the head's %s cannot be read (%v), so no criterion's tests can be checked", mapPath, err)
			break
		}
		if gomod, err := r.readFile(r.target.head, "go.mod"); err == nil {
			he.modulePath = proof.ModulePathOf(gomod)
		}
	}
	rules.maps[story] = he
	return he, nil
}

// listGateRuns lists the merge gate's runs since the pull request opened.
func (r *run) listGateRuns() ([]*github.WorkflowRun, error) {
	runs, err := r.readGateRuns(gateRunsSince(r.target.pull))
	if ghx.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing the runs of %s: %s", GateWorkflowFile, ghx.Describe(err))
	}
	return runs, nil
}

// selectRun takes the newest run that qualifies; every run of this pull
// request it passes over before that goes into r.res.Passed with its reason.
func (r *run) selectRun(runs []*github.WorkflowRun) (*gatePack, error) {
	rules := r.packRules()
	target := gateTarget(r.pr, r.target.pull)
	for _, run := range runs {
		ours, reason := gaterun.Judge(ghx.GateRunFacts(run), target)
		if !ours {
			continue
		}
		passOver := func(reason string) {
			r.res.Passed = append(r.res.Passed, PassedOver{RunID: run.GetID(), Event: run.GetEvent(), URL: run.GetHTMLURL(), Reason: reason})
		}
		if reason == "" {
			reason = r.notResumed(run)
		}
		if reason != "" {
			passOver(reason)
			continue
		}
		gp, reason, err := r.fetchPack(run, rules)
		if err != nil {
			return nil, err
		}
		if reason != "" {
			passOver(reason)
			continue
		}
		return gp, nil
	}
	return nil, nil
}

// gateRunsSince is the created filter of the merge gate's runs: since the
// day the pull request opened.
func gateRunsSince(pull *github.PullRequest) string {
	if t := pull.GetCreatedAt(); !t.IsZero() {
		return ">=" + t.UTC().Format("2006-01-02")
	}
	return ""
}

// gateTarget is what a merge gate's run must be bound to for pull request pr.
func gateTarget(pr int, pull *github.PullRequest) gaterun.Target {
	return gaterun.Target{PR: pr, Head: pull.GetHead().GetSHA(), HeadRef: pull.GetHead().GetRef(),
		Fork: pull.GetHead().GetRepo().GetID() != pull.GetBase().GetRepo().GetID()}
}

// readyPath is a story's Ready snapshot on the ledger.
func readyPath(story int) string { return fmt.Sprintf("specs/%d/ready.md", story) }

// evidencePath is a story's evidence map in the repository.
func evidencePath(story int) string { return fmt.Sprintf(".aayudha/evidence/%d.toml", story) }

// notResumed passes over, when ship resumes a merge it recorded, every run
// but the one that merge took; which runs qualify is model/gaterun's rule.
func (r *run) notResumed(run *github.WorkflowRun) string {
	if r.target.resume != nil && r.target.resume.RunID != 0 && run.GetID() != r.target.resume.RunID {
		return fmt.Sprintf("not the run the merge recorded (run %d)", r.target.resume.RunID)
	}
	return ""
}

// fetchPack downloads, unpacks and verifies a run's aayudha-pack artifact.
// A reason means the run is passed over; an error is a failure.
func (r *run) fetchPack(run *github.WorkflowRun, rules *packRules) (*gatePack, string, error) {
	arts, err := r.readArtifacts(run.GetID())
	if err != nil {
		return nil, "", fmt.Errorf("listing the artifacts of run %d: %s", run.GetID(), ghx.Describe(err))
	}
	art, reason := r.packArtifact(arts)
	if reason != "" {
		return nil, reason, nil
	}
	gp := &gatePack{run: run, artifact: art, dir: r.runDir(run.GetID())}
	zipPath := gp.dir + ".zip"
	dl, err := r.readZip(art.GetID(), zipPath)
	sum, reason := dl.sum, dl.reason
	if err != nil || reason != "" {
		return nil, reason, err
	}
	gp.zipSHA256 = sum
	_ = os.RemoveAll(gp.dir)
	if err := unzipPack(zipPath, gp.dir, r.cfg.Caps); err != nil {
		return nil, "its artifact is not a safe zip: " + err.Error(), nil
	}
	return r.verifyPack(gp, rules)
}

// packArtifact is a run's newest aayudha-pack artifact, or why the run is
// passed over for it.
func (r *run) packArtifact(arts *github.ArtifactList) (*github.Artifact, string) {
	var art *github.Artifact
	for _, a := range arts.Artifacts {
		if a.GetName() == PackArtifactName && (art == nil || a.GetCreatedAt().After(art.GetCreatedAt().Time)) {
			art = a
		}
	}
	now := r.cfg.Now()
	switch {
	case art == nil:
		return nil, "no " + PackArtifactName + " artifact"
	case art.GetExpired() || (!art.GetExpiresAt().IsZero() && !now.Before(art.GetExpiresAt().Time)):
		return nil, "its artifact expired"
	case art.GetSizeInBytes() > r.cfg.Caps.ZipBytes:
		return nil, fmt.Sprintf("its artifact is %d bytes, more than ship accepts (%d)", art.GetSizeInBytes(), r.cfg.Caps.ZipBytes)
	}
	return art, ""
}

// runDir is where a run's pack is unpacked (its zip beside it).
func (r *run) runDir(runID int64) string {
	return filepath.Join(r.cfg.WorkDir, fmt.Sprintf("run-%d", runID))
}

func (r *run) download(id int64, zipPath string) (string, string, error) {
	if err := os.MkdirAll(filepath.Dir(zipPath), 0o700); err != nil {
		return "", "", fmt.Errorf("preparing the work folder: %w", err)
	}
	f, err := os.OpenFile(zipPath, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return "", "", fmt.Errorf("preparing the work folder: %w", err)
	}
	h := sha256.New()
	n, err := ghx.DownloadArtifact(r.ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, id, io.MultiWriter(f, h), r.cfg.Caps.ZipBytes)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case ghx.IsExpired(err):
		return "", "its artifact expired", nil
	case err != nil && n > r.cfg.Caps.ZipBytes:
		return "", fmt.Sprintf("its artifact is larger than ship accepts (%d bytes)", r.cfg.Caps.ZipBytes), nil
	case err != nil:
		return "", "", fmt.Errorf("downloading artifact %d: %s", id, ghx.Describe(err))
	}
	return hex.EncodeToString(h.Sum(nil)), "", nil
}

// verifyPack checks the unpacked pack names this story, pull request, head
// and run, then verifies it against the ledger's Ready snapshot.
func (r *run) verifyPack(gp *gatePack, rules *packRules) (*gatePack, string, error) {
	p, raw, err := proof.ReadPackDir(gp.dir, proof.Limits{})
	if err != nil {
		return nil, "its pack.json cannot be read: " + err.Error(), nil
	}
	gp.pack, gp.raw = p, raw
	switch {
	case p.PR != 0 && p.PR != r.pr:
		return nil, fmt.Sprintf("its pack names pull request #%d", p.PR), nil
	case p.PRHeadSHA != r.target.head:
		return nil, "proves another commit " + gitsha.Short(p.PRHeadSHA), nil
	case r.target.story != 0 && p.Story != r.target.story:
		return nil, fmt.Sprintf("its pack names story %d; the pull request links story %d", p.Story, r.target.story), nil
	case p.Authority.RunID != 0 && p.Authority.RunID != gp.run.GetID():
		return nil, fmt.Sprintf("its pack says run %d built it", p.Authority.RunID), nil
	}
	gp.ready = readyPath(p.Story)
	readyBytes, err := r.readFile(LedgerBranch, gp.ready)
	if ghx.IsNotFound(err) {
		return nil, fmt.Sprintf("story %d has no Ready snapshot on the ledger (%s); a person freezes its goal with aayu ready %d", p.Story, gp.ready, p.Story), nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("reading %s on the ledger: %s", gp.ready, ghx.Describe(err))
	}
	ready, err := proof.ParseReady(readyBytes)
	if err != nil {
		return nil, fmt.Sprintf("the ledger's %s cannot be read: %v", gp.ready, err), nil
	}
	he, err := r.evidenceAt(rules, p.Story)
	if err != nil {
		return nil, "", err
	}
	if he.refusal != "" {
		return nil, he.refusal, nil
	}
	// The attestation is checked beside the pack's hashing, not after it:
	// it needs only pack.json's bytes, read already, and its request and
	// signature checks then cost no wall time on a pack worth hashing. Its
	// answer counts only for the pack.json VerifyDir hashes, the same bytes.
	sum := sha256.Sum256(gp.raw)
	packSHA := hex.EncodeToString(sum[:])
	type attested struct {
		reason string
		err    error
	}
	att := make(chan attested, 1)
	go func() {
		reason, err := r.checkAttestation(gp, packSHA)
		att <- attested{reason, err}
	}()
	rep, err := proof.VerifyDir(r.ctx, gp.dir, proof.Options{Ready: ready, HeadSHA: r.target.head, Story: p.Story, PR: r.pr,
		EvidenceMap: he.evidence, ModulePath: he.modulePath, RequiredFloors: rules.floors.Required,
		CoverageThreshold: rules.floors.CoverageThreshold})
	a := <-att
	if err != nil {
		return nil, "", fmt.Errorf("verifying the pack of run %d: %w", gp.run.GetID(), err)
	}
	gp.report = rep
	if !rep.Verified() {
		return nil, verifyReason(rep.Problems), nil
	}
	if rep.PackSHA256 != packSHA {
		return nil, "its pack.json changed while it was read", nil
	}
	if a.err != nil || a.reason != "" {
		return nil, a.reason, a.err
	}
	return gp, "", nil
}

// checkAttestation is the pack's signed provenance (issue 22): the
// bundles GitHub keeps under pack.json's sha256, one of which must verify
// as the merge gate's signature over this pack at the pull request's base
// branch (proof/attest). When the base branch's [proof]
// require_attestation is on, a pack without one is passed over with the
// reason; off, the pack is taken and said to be unattested.
func (r *run) checkAttestation(gp *gatePack, packSHA string) (string, error) {
	required := r.evidence.base != nil && r.evidence.base.cfg.Bool("proof.require_attestation")
	unattested := func(why string) (string, error) {
		if required {
			return why, nil
		}
		gp.unattested = "pack is unattested: " + why
		return "", nil
	}
	bundles, err := ghx.ListAttestations(r.ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, packSHA)
	if err != nil {
		if required {
			return "", fmt.Errorf("reading the attestations of run %d's pack: %s", gp.run.GetID(), ghx.Describe(err))
		}
		return unattested("its attestations could not be read (" + ghx.Describe(err) + ")")
	}
	if len(bundles) == 0 {
		return unattested(fmt.Sprintf("no attestation signs its pack.json (sha256 %s): the merge gate did not attest it", gitsha.Short(packSHA)))
	}
	var trusted *sigstore.TrustedRoot
	if r.cfg.TrustedRoot != nil {
		if trusted, err = r.cfg.TrustedRoot(); err != nil {
			if required {
				return "", fmt.Errorf("reading Sigstore's trusted root to check the pack's attestation: %w", err)
			}
			return unattested("Sigstore's trusted root could not be read (" + err.Error() + ")")
		}
	}
	if trusted == nil {
		if required {
			return "", errors.New("no Sigstore trusted root is known for this host, so the pack's attestation cannot be checked; set [proof] trusted_root to the host's trusted_root.json (aayu sandbox prints the path of its own; a sandbox on this machine is found without it)")
		}
		return unattested("no Sigstore trusted root is known for this host to check its attestation")
	}
	exp := attest.Expect{Repo: r.cfg.Owner + "/" + r.cfg.Repo, BaseRef: r.target.pull.GetBase().GetRef(), PackSHA256: packSHA, PackJSON: gp.raw, Head: r.target.head}
	id, err := attest.VerifyAny(trusted, bundles, exp)
	switch {
	case err == nil:
		gp.attestation = &id
		return "", nil
	case attest.IsRefusal(err):
		return unattested(err.Error())
	}
	return "", fmt.Errorf("checking the attestation of run %d's pack: %w", gp.run.GetID(), err)
}

// verifyReason puts a pack's problems in words: bytes that do not match
// pack.json first, as the seed names a tampered artifact.
func verifyReason(problems []proof.Problem) string {
	var bytesWrong, other []string
	for _, p := range problems {
		switch p.Code {
		case proof.CodeHashMismatch, proof.CodeSizeMismatch, proof.CodeMissingFile, proof.CodeNotRegular:
			bytesWrong = append(bytesWrong, p.Message)
		default:
			other = append(other, p.Message)
		}
	}
	if len(bytesWrong) > 0 {
		return "its artifact does not match pack.json: " + strings.Join(bytesWrong, "; ")
	}
	return "its pack does not verify: " + strings.Join(other, "; ")
}

// floorWords says why one floor does not hold: its result, its value
// against the threshold it was judged by (the base branch's, never the
// threshold the pack carries), and the tool's own detail.
func floorWords(c proof.Check, policy proof.FloorPolicy) string {
	s := fmt.Sprintf("floor %s: %s", c.Floor, c.Result)
	if t := policy.Threshold(c.Floor); c.Value != nil && t != nil {
		s += fmt.Sprintf(", %s against the base branch's threshold of %s",
			strconv.FormatFloat(*c.Value, 'f', -1, 64), strconv.FormatFloat(*t, 'f', -1, 64))
	}
	if c.Detail != "" {
		s += ": " + c.Detail
	}
	return s
}
