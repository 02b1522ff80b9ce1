package sandbox

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/aayudha/aayu/proof"
)

// AddRunPackMedia adds one media artifact (path, kind, its bytes, store
// none as a gate's pack keeps media) to run runID's aayudha-pack artifact:
// pack.json lists it with its hash and size, the zip holds its bytes, and
// the run's attestation is signed again over the new pack.json as its pack
// job would have. For tests of ship copying a pack's media to the [proof]
// media bucket.
func (s *Server) AddRunPackMedia(runID int64, path, kind string, b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ensureDemoAttested()
	run := s.runByID(runID)
	if run == nil {
		return fmt.Errorf("no run %d", runID)
	}
	var art *artifactRec
	for i := len(s.st.Artifacts) - 1; i >= 0 && art == nil; i-- {
		if a := s.st.Artifacts[i]; a.RunID == runID && a.Name == "aayudha-pack" {
			art = a
		}
	}
	if art == nil {
		return fmt.Errorf("run %d has no aayudha-pack artifact", runID)
	}
	zr, err := zip.NewReader(bytes.NewReader(art.Zip), int64(len(art.Zip)))
	if err != nil {
		return err
	}
	folder := packFolder{Artifacts: map[string][]byte{}}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return err
		}
		body, err := io.ReadAll(rc)
		_ = rc.Close()
		if err != nil {
			return err
		}
		if f.Name == "pack.json" {
			folder.PackJSON = body
		} else {
			folder.Artifacts[strings.TrimPrefix(f.Name, "artifacts/")] = body
		}
	}
	p, err := proof.Decode(folder.PackJSON)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	p.Artifacts = append(p.Artifacts, proof.Artifact{Path: path, Kind: kind, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(b)), Store: proof.StoreNone})
	raw, _ := json.MarshalIndent(p, "", "  ")
	folder.PackJSON, folder.Artifacts[path] = append(raw, '\n'), b
	art.Zip = zipPack(folder, art.CreatedAt)
	s.dropAttestations(func(a *attestationRec) bool { return a.DemoRun == runID })
	bundle, err := s.signRunPack(run, nil)
	if err != nil {
		return err
	}
	if _, err := s.storeAttestationAs(bundle, runID); err != nil {
		return err
	}
	return s.save()
}
