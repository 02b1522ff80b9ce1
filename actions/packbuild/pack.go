package packbuild

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/proof"
)

// Pack fields every pack verify writes carries.
const (
	Seat = "verify"
	Host = "cli"
)

// PackDir is where a story's local pack lives in a checkout.
func PackDir(checkout string, story int) string {
	return filepath.Join(checkout, ".aayudha", "proof", strconv.Itoa(story))
}

// pack assembles the pack, writes it with proof.WriteLocal and verifies the
// folder it wrote.
func (r *runner) pack(ctx context.Context, evidence []proof.CriterionEvidence, shots []webArtifact, checks []proof.Check) (*Outcome, error) {
	req := r.req
	footprint, err := r.footprint(ctx)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	byID := map[int][]string{}
	var artifacts []proof.Artifact
	for _, e := range evidence {
		files[e.Path] = e.Bytes
		byID[e.ID] = append(byID[e.ID], e.Path)
		artifacts = append(artifacts, proof.ArtifactFromBytes(e.Path, proof.KindAPITrace, e.Bytes))
	}
	for _, w := range shots {
		// Screenshots and transcripts are media: their bytes stay in the
		// pack folder (the run artifact), and they are store none, so the
		// ledger keeps only their hash (proof.CheckMediaStore).
		files[w.Path] = w.Bytes
		byID[w.ID] = append(byID[w.ID], w.Path)
		a := proof.ArtifactFromBytes(w.Path, w.Kind, w.Bytes)
		a.Store = proof.StoreNone
		artifacts = append(artifacts, a)
	}
	if r.testEvents != nil {
		files[proof.TestsEventsPath] = r.testEvents
		artifacts = append(artifacts, proof.ArtifactFromBytes(proof.TestsEventsPath, proof.KindAPITrace, r.testEvents))
	}
	if r.coverageReport != nil {
		files[proof.CoverageReportPath] = r.coverageReport
		artifacts = append(artifacts, proof.ArtifactFromBytes(proof.CoverageReportPath, proof.KindReport, r.coverageReport))
	}
	for p, b := range r.scanReports {
		files[p] = b
		artifacts = append(artifacts, proof.ArtifactFromBytes(p, proof.KindReport, b))
	}
	slices.SortFunc(artifacts, func(a, b proof.Artifact) int { return strings.Compare(a.Path, b.Path) })

	// Every criterion of the Ready snapshot and of the evidence map is
	// listed, with or without evidence, so verification names each gap.
	var ids []int
	for _, c := range r.ready.Criteria {
		ids = append(ids, c.ID)
	}
	for _, c := range r.evidenceMap {
		ids = append(ids, c.ID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	criteria := make([]proof.Criterion, 0, len(ids))
	for _, id := range ids {
		c := proof.Criterion{ID: id, Evidence: []string{}}
		if p, ok := byID[id]; ok {
			c.Evidence = p
		}
		criteria = append(criteria, c)
	}

	p := &proof.Pack{
		Schema: proof.SchemaVersion, Repo: req.Repo, Story: req.Story, PR: req.PR,
		PRHeadSHA: r.head, BaseSHA: r.base, Seat: Seat, Host: Host,
		Identity: proof.IdentityHuman, Authority: r.authority(),
		CompletionGoalHash: r.ready.RecordedHash, Footprint: footprint,
		Criteria: criteria, Artifacts: artifacts, Checks: checks,
		Links:     r.links(),
		CreatedAt: req.now().UTC().Truncate(time.Second).Format(time.RFC3339),
		Warnings:  r.warnings,
	}
	if req.CI {
		p.Identity = proof.IdentityCI
	}
	if p.Checkpoint, p.Model, err = r.builderTrailers(ctx); err != nil {
		return nil, err
	}
	if p.Artifacts == nil {
		p.Artifacts = []proof.Artifact{}
	}

	dir := req.packDir()
	if req.PackOut == "" {
		if err := keepOutOfIndex(filepath.Dir(dir)); err != nil {
			return nil, err
		}
	}
	sum, err := proof.WriteLocal(dir, p, files)
	if err != nil {
		return nil, fmt.Errorf("writing the pack to %s: %w", dir, err)
	}
	report, err := proof.VerifyDir(ctx, dir, proof.Options{Ready: r.ready, HeadSHA: r.head, Story: req.Story, PR: req.PR,
		EvidenceMap: r.evidenceMap, ModulePath: r.modulePath, RequiredFloors: r.set.requiredFloors,
		CoverageThreshold: &r.set.coverageThreshold})
	if err != nil {
		return nil, fmt.Errorf("verifying the pack just written to %s: %w", dir, err)
	}
	days, note := proof.ArtifactRetention(r.set.retentionDays, req.Private, req.getenv)
	if req.CI {
		// The merge gate's upload step keeps the pack for these days
		// (retention-days: ${{ steps.pack.outputs.retention_days }}).
		if err := StepOutput(req.getenv("GITHUB_OUTPUT"), "retention_days", strconv.Itoa(days)); err != nil {
			return nil, err
		}
	}
	out := &Outcome{Dir: dir, PackSHA256: sum, Pack: p, Report: report, Head: r.head, Base: r.base,
		Network: r.network, RetentionDays: days, RetentionNote: note}
	switch {
	case !report.Verified():
		out.ExitCode = ExitRefused
	case !report.FloorsHold:
		out.ExitCode = ExitFloor
	default:
		out.ExitCode = ExitOK
	}
	return out, nil
}

// authority is always advisory: only ship makes a pack authoritative. In
// CI the run that built it is recorded so ship can find it again.
func (r *runner) authority() proof.Authority {
	a := proof.Authority{Kind: proof.AuthorityAdvisory, Writer: "aayu verify"}
	if !r.req.CI {
		return a
	}
	a.Writer = "aayu verify --ci"
	if id, err := strconv.ParseInt(r.req.getenv("GITHUB_RUN_ID"), 10, 64); err == nil && id > 0 {
		a.RunID = id
	}
	// GITHUB_WORKFLOW_REF is OWNER/REPO/.github/workflows/FILE@REF.
	if ref := r.req.getenv("GITHUB_WORKFLOW_REF"); ref != "" {
		ref, _, _ = strings.Cut(ref, "@")
		if i := strings.Index(ref, ".github/workflows/"); i >= 0 && proof.CheckPath(ref[i:]) == nil {
			a.Workflow = ref[i:]
		}
	}
	return a
}

func (r *runner) links() proof.Links {
	l := proof.Links{ReadySnapshot: fmt.Sprintf("specs/%d/ready.md", r.req.Story)}
	if r.req.Repo != "" {
		l.Issue = fmt.Sprintf("%s#%d", r.req.Repo, r.req.Story)
		if r.req.PR != 0 {
			l.PR = fmt.Sprintf("%s#%d", r.req.Repo, r.req.PR)
		}
	}
	return l
}

// footprint is the set of layers whose globs, from the base commit's
// LAYERS.md, match a path the pull request changes. No LAYERS.md on the
// base means no footprint; a LAYERS.md that cannot be read is an error,
// so a footprint is never computed from a table half read.
func (r *runner) footprint(ctx context.Context) ([]string, error) {
	md, err := r.t.git(ctx, r.req.Dir, "show", r.base+":LAYERS.md")
	if err != nil {
		return nil, nil
	}
	layers, err := pass.ParseLayers(string(md))
	if err != nil {
		return nil, fmt.Errorf("the base commit's LAYERS.md: %w", err)
	}
	out, err := r.t.git(ctx, r.req.Dir, "diff", "--name-status", "--find-renames", "-z", r.base, r.head)
	if err != nil {
		return nil, err
	}
	return pass.Footprint(parseNameStatus(out), layers), nil
}

// parseNameStatus reads git diff --name-status -z: a status, then one path
// (two for a rename or copy), each NUL-terminated.
func parseNameStatus(out []byte) []pass.ChangedFile {
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	var files []pass.ChangedFile
	for i := 0; i < len(fields); {
		status := fields[i]
		if status == "" {
			break
		}
		if (status[0] == 'R' || status[0] == 'C') && i+2 < len(fields) {
			files = append(files, pass.ChangedFile{PreviousPath: fields[i+1], Path: fields[i+2]})
			i += 3
			continue
		}
		if i+1 < len(fields) {
			files = append(files, pass.ChangedFile{Path: fields[i+1]})
		}
		i += 2
	}
	return files
}

// packResult sums up the pack step for the screen.
func packResult(o *Outcome) (string, string) {
	r := o.Report
	if !r.Verified() {
		words := make([]string, 0, len(r.Problems))
		for _, p := range r.Problems {
			words = append(words, p.Message)
		}
		return proof.ResultFail, fmt.Sprintf("written, but it does not verify: %s", strings.Join(words, " "))
	}
	if !r.FloorsHold {
		return proof.ResultPass, "written and verified (" + r.HashedWords() + "); a floor does not hold"
	}
	return proof.ResultPass, "written and verified (" + r.HashedWords() + ")"
}

// StepOutput appends KEY=VALUE to the file Actions names in GITHUB_OUTPUT,
// which makes it the step's output; with no such file (not in Actions) it
// does nothing. The value is aayu's own (a number), never event text, so
// it cannot smuggle a second line in.
func StepOutput(file, key, value string) error {
	if file == "" {
		return nil
	}
	if strings.ContainsAny(key+value, "\r\n") {
		return fmt.Errorf("the step output %s holds a line break", key)
	}
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("writing the step output %s: %w", key, err)
	}
	if _, err := fmt.Fprintf(f, "%s=%s\n", key, value); err != nil {
		f.Close()
		return fmt.Errorf("writing the step output %s: %w", key, err)
	}
	return f.Close()
}
