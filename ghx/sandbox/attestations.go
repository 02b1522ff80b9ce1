package sandbox

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox/vsigstore"
	"github.com/aayudha/aayu/proof/sigstore"
)

// Artifact attestations, as GitHub keeps them: actions/attest signs an
// in-toto Statement with a certificate naming the run's workflow and
// stores the Sigstore bundle under each subject's digest;
// GET /repos/{owner}/{repo}/attestations/sha256:HEX lists them. Here the
// signer is the sandbox's virtual Sigstore (vsigstore), whose root only a
// caller talking to this sandbox is handed (TrustedRoot).

// attestationRec is one stored bundle and the subject digests it is
// listed under ("sha256:HEX").
type attestationRec struct {
	ID        int64           `json:"id"`
	Digests   []string        `json:"digests"`
	Bundle    json.RawMessage `json:"bundle"`
	CreatedAt time.Time       `json:"created_at"`
	// DemoRun is the seeded merge-gate run whose pack this attestation
	// signs, as that run's pack job would have (ensureDemoAttested); 0
	// for one the runner's actions/attest or a caller stored.
	DemoRun int64 `json:"demo_run,omitempty"`
}

// demoAttestationBase puts a seeded run's attestation id beside its run
// id (30000000000 + n) without taking an id from the state's sequence,
// so attesting the demo moves no other id.
const demoAttestationBase = 10000000000

// TrustedRootFile is where the sandbox writes its virtual Sigstore's
// trusted root (trusted_root.json format) under its state folder, for
// `gh attestation verify --custom-trusted-root` or aayu's
// [proof] trusted_root.
const TrustedRootFile = "sigstore-trusted-root.json"

// TrustedRoot is what verifies the bundles this sandbox signs, and
// nothing else's.
func (s *Server) TrustedRoot() *sigstore.TrustedRoot { return s.sig.TrustedRoot() }

// writeTrustedRoot keeps the current root beside the state, replacing the
// root of an earlier run of the sandbox (its keys are gone).
func (s *Server) writeTrustedRoot() error {
	if s.opts.StateDir == "" {
		return nil
	}
	b, err := s.sig.TrustedRootJSON()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.opts.StateDir, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.opts.StateDir, TrustedRootFile), b, 0o600)
}

func (s *Server) routeAttestations(m *http.ServeMux) {
	m.HandleFunc("POST /repos/{owner}/{repo}/attestations", s.createAttestation)
	m.HandleFunc("GET /repos/{owner}/{repo}/attestations/{digest}", s.listAttestations)
}

// listAttestations answers 200 with every bundle stored under the
// digest, newest first, and an empty list when there is none (GitHub's
// description documents no 404 for an unknown digest).
func (s *Server) listAttestations(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	s.ensureDemoAttested()
	digest := strings.ToLower(r.PathValue("digest"))
	out := []map[string]any{}
	for i := len(s.st.Attestations) - 1; i >= 0; i-- {
		a := s.st.Attestations[i]
		for _, d := range a.Digests {
			if d == digest {
				out = append(out, map[string]any{"bundle": a.Bundle, "repository_id": s.repoID(),
					"bundle_url": fmt.Sprintf("%s/_blob/attestations/%d", strings.TrimSuffix(baseURL(r), "/"), a.ID)})
				break
			}
		}
	}
	if len(out) == 0 {
		// GitHub answers a digest nothing attests with 404, not an empty
		// list (gh attestation verify reports "HTTP 404: Not Found").
		writeErrorDoc(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest/repos/repos#list-attestations")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"attestations": out})
}

// createAttestation stores a bundle the caller signed (actions/attest's
// upload), listed under its Statement's subjects.
func (s *Server) createAttestation(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	if c := callerOf(r); !c.canPush() {
		writeError(w, http.StatusForbidden, notAccessible)
		return
	}
	var body struct {
		Bundle json.RawMessage `json:"bundle"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 16<<20)).Decode(&body); err != nil || len(body.Bundle) == 0 {
		writeValidation(w, fieldError{Resource: "Attestation", Field: "bundle", Code: "missing_field"})
		return
	}
	a, err := s.storeAttestation(body.Bundle)
	if err != nil {
		writeValidation(w, fieldError{Resource: "Attestation", Field: "bundle", Code: "invalid"})
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"id": a.ID})
}

// storeAttestation lists a bundle under the sha256 digests of its
// Statement's subjects; call with s.mu held and the repository current.
func (s *Server) storeAttestation(bundle []byte) (*attestationRec, error) {
	return s.storeAttestationAs(bundle, 0)
}

// storeAttestationAs is storeAttestation for a seeded run's pack (demoRun,
// its id derived from the run's) or, with demoRun 0, any other bundle.
func (s *Server) storeAttestationAs(bundle []byte, demoRun int64) (*attestationRec, error) {
	var b struct {
		Dsse struct {
			Payload []byte `json:"payload"`
		} `json:"dsseEnvelope"`
	}
	if err := json.Unmarshal(bundle, &b); err != nil {
		return nil, err
	}
	var st struct {
		Subject []struct {
			Digest map[string]string `json:"digest"`
		} `json:"subject"`
	}
	if err := json.Unmarshal(b.Dsse.Payload, &st); err != nil {
		return nil, err
	}
	a := &attestationRec{Bundle: bundle, CreatedAt: s.now(), DemoRun: demoRun}
	if demoRun != 0 {
		a.ID = demoAttestationBase + demoRun
	}
	for _, sub := range st.Subject {
		if d := sub.Digest["sha256"]; d != "" {
			a.Digests = append(a.Digests, "sha256:"+strings.ToLower(d))
		}
	}
	if len(a.Digests) == 0 {
		return nil, errors.New("the statement has no sha256 subject")
	}
	if a.ID == 0 {
		a.ID = s.st.newID()
	}
	s.st.Attestations = append(s.st.Attestations, a)
	return a, nil
}

// gateClaims are the OIDC claims GitHub gives a pull_request_target run
// of the merge gate: the workflow file at the base branch, read at the
// base's tip.
func (j *runJob) gateClaims() vsigstore.Claims {
	c := vsigstore.Claims{Repository: RepoOwner + "/" + j.repo, RepositoryID: RepoID, OwnerID: ownerID, WorkflowPath: gatePath,
		Ref: "refs/heads/" + j.baseRef, SHA: j.run.HeadSHA, Event: "pull_request_target", RunID: j.run.ID, RunAttempt: max(j.run.RunAttempt, 1), Visibility: "public"}
	if j.repo == FreshRepoName {
		c.RepositoryID = freshRepoID
	}
	return c
}

// attest is actions/attest on the runner: the job must hold id-token:
// write (no OIDC token otherwise) and attestations: write (the upload is
// refused otherwise); the Statement's subject is subject-path's file, its
// predicate predicate-path's JSON; the bundle is stored under the
// subject's digest and written to RUNNER_TEMP, its path the step's
// bundle-path output.
func (j *runJob) attest(st gateStep, with map[string]string) error {
	switch {
	case j.perms["id-token"] != "write":
		return errors.New("Error: Unable to get ACTIONS_ID_TOKEN_REQUEST_URL env variable (the job needs id-token: write)")
	case j.perms["attestations"] != "write":
		return errors.New("Error: Failed to persist attestation: Resource not accessible by integration (the job needs attestations: write)")
	case with["subject-path"] == "" || with["predicate-type"] == "" || with["predicate-path"] == "":
		return errors.New("the sandbox runner emulates actions/attest with subject-path, predicate-type and predicate-path only")
	}
	subject, err := os.ReadFile(j.inJob(with["subject-path"]))
	if err != nil {
		return fmt.Errorf("Error: could not find subject at path %s", with["subject-path"])
	}
	predicate, err := os.ReadFile(j.inJob(with["predicate-path"]))
	if err != nil {
		return fmt.Errorf("Error: could not read predicate at path %s", with["predicate-path"])
	}
	statement, err := vsigstore.ActionsStatement(path.Base(filepath.ToSlash(with["subject-path"])), subject, with["predicate-type"], predicate)
	if err != nil {
		return err
	}
	bundle, err := j.s.sig.Attest(statement, j.gateClaims())
	if err != nil {
		return err
	}
	var a *attestationRec
	j.s.inRepoLocked(j.repo, func() {
		a, err = j.s.storeAttestation(bundle)
		if err == nil {
			err = j.s.save()
		}
	})
	if err != nil {
		return err
	}
	bundlePath := filepath.Join(j.env["RUNNER_TEMP"], fmt.Sprintf("attestation-%d.json", a.ID))
	if err := os.WriteFile(bundlePath, bundle, 0o600); err != nil {
		return err
	}
	fmt.Fprintf(&j.log, "attest: attestation %d for %s (%s)\n", a.ID, with["subject-path"], strings.Join(a.Digests, ", "))
	if st.ID != "" {
		j.outputs[st.ID] = map[string]string{"bundle-path": bundlePath, "attestation-id": fmt.Sprint(a.ID),
			"attestation-url": fmt.Sprintf("%s/%s/%s/attestations/%d", j.url, RepoOwner, j.repo, a.ID)}
	}
	return nil
}

// AttestRunPack signs the aayudha-pack artifact's pack.json of run runID
// as that run's merge gate would (actions/attest in its pack job), with
// the claims changed by edit when edit is not nil, and stores it in place
// of the run's seeded attestation: for tests of what ship makes of a run's
// attestation, including one a gate on another branch made (seed threat
// model, T4).
func (s *Server) AttestRunPack(runID int64, edit func(*vsigstore.Claims)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ensureDemoAttested()
	run := s.runByID(runID)
	if run == nil {
		return fmt.Errorf("no run %d", runID)
	}
	s.dropAttestations(func(a *attestationRec) bool { return a.DemoRun == runID })
	bundle, err := s.signRunPack(run, edit)
	if err != nil {
		return err
	}
	if _, err := s.storeAttestation(bundle); err != nil {
		return err
	}
	return s.save()
}

// UnattestRunPack removes every attestation listed under run runID's
// pack.json, the seeded one among them: a run whose pack job never
// attested, for tests of an unattested pack.
func (s *Server) UnattestRunPack(runID int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ensureDemoAttested()
	packJSON, err := s.packOfRun(runID)
	if err != nil {
		return err
	}
	digest := "sha256:" + sha256Hex(packJSON)
	s.dropAttestations(func(a *attestationRec) bool { return slices.Contains(a.Digests, digest) })
	return s.save()
}

// ensureDemoAttested signs the packs of the demo's seeded merge-gate runs
// as each run's pack job would have (actions/attest, with the claims
// GitHub gives that run): every successful pull_request_target run with
// an aayudha-pack artifact. The virtual Sigstore's keys live only as long
// as this process, so the bundles an earlier process stored no longer
// verify: each process signs the seeded runs' packs anew, once, the
// first time an attestation is asked for, in place of the earlier ones.
// Call with s.mu held.
func (s *Server) ensureDemoAttested() {
	if s.demoAttested || s.cur == FreshRepoName || s.st == nil || s.sig == nil {
		return
	}
	s.demoAttested = true
	s.dropAttestations(func(a *attestationRec) bool { return a.DemoRun != 0 })
	for _, run := range s.st.Runs {
		if run.Situation == "" || run.Situation == "runner" || run.Situation == "dispatch" ||
			run.Event != "pull_request_target" || run.Conclusion != "success" {
			continue
		}
		if _, err := s.packOfRun(run.ID); err != nil {
			continue // the run built no pack, so its pack job attested none
		}
		bundle, err := s.signRunPack(run, nil)
		if err == nil {
			_, err = s.storeAttestationAs(bundle, run.ID)
		}
		if err != nil {
			s.logf("sandbox: attesting the pack of the demo's run %d: %v", run.ID, err)
		}
	}
}

// dropAttestations removes the stored attestations drop names; call with
// s.mu held.
func (s *Server) dropAttestations(drop func(*attestationRec) bool) {
	kept := make([]*attestationRec, 0, len(s.st.Attestations))
	for _, a := range s.st.Attestations {
		if !drop(a) {
			kept = append(kept, a)
		}
	}
	s.st.Attestations = kept
}

// runClaims are the OIDC claims GitHub gives run's merge gate, as Fulcio
// copies them into its certificate: the gate file of this repository at
// the pull request's base branch, read at the base's tip (run.HeadSHA for
// pull_request_target), and the run's event. Call with s.mu held.
func (s *Server) runClaims(run *runRec) vsigstore.Claims {
	base := run.HeadBranch
	if len(run.PRs) > 0 {
		base = run.PRs[0].BaseRef
	}
	repo := RepoName
	if s.cur == FreshRepoName {
		repo = FreshRepoName
	}
	return vsigstore.Claims{Repository: RepoOwner + "/" + repo, RepositoryID: s.repoID(), OwnerID: ownerID, WorkflowPath: gatePath,
		Ref: "refs/heads/" + base, SHA: run.HeadSHA, Event: run.Event, RunID: run.ID, RunAttempt: 1, Visibility: "public"}
}

// signRunPack signs the pack.json of run's aayudha-pack artifact as the
// run's pack job does (actions/attest: subject pack.json, predicate the
// same file), with the claims changed by edit when it is not nil. Call
// with s.mu held.
func (s *Server) signRunPack(run *runRec, edit func(*vsigstore.Claims)) ([]byte, error) {
	packJSON, err := s.packOfRun(run.ID)
	if err != nil {
		return nil, err
	}
	claims := s.runClaims(run)
	if edit != nil {
		edit(&claims)
	}
	statement, err := vsigstore.ActionsStatement("pack.json", packJSON, "https://aayudha.dev/proof-pack/v1", packJSON)
	if err != nil {
		return nil, err
	}
	return s.sig.Attest(statement, claims)
}

// runByID is the run of that id, or nil; call with s.mu held.
func (s *Server) runByID(id int64) *runRec {
	for _, r := range s.st.Runs {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// RunPackJSON is pack.json of run runID's aayudha-pack artifact.
func (s *Server) RunPackJSON(runID int64) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.packOfRun(runID)
}

// packOfRun reads pack.json from run runID's aayudha-pack artifact; call
// with s.mu held.
func (s *Server) packOfRun(runID int64) ([]byte, error) {
	for i := len(s.st.Artifacts) - 1; i >= 0; i-- {
		a := s.st.Artifacts[i]
		if a.RunID == runID && a.Name == "aayudha-pack" {
			return fileInZip(a.Zip, "pack.json")
		}
	}
	return nil, fmt.Errorf("run %d has no aayudha-pack artifact", runID)
}

// fileInZip reads one file of a zip archive.
func fileInZip(b []byte, name string) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	f, err := zr.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 16<<20))
}
