package ship

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"

	"github.com/aayudha/aayu/actions/mediastore"
	"github.com/aayudha/aayu/proof"
)

// packMedia is ship's copy of the authoritative pack's media to the
// private bucket the base branch's [proof] media names (seed 000: "ship
// and proof push --media copy media there, and object holds the key"):
// the store, and the key of each media artifact once copied.
type packMedia struct {
	store *mediastore.Store
	keys  map[string]string // artifact path → object key, once copied
	note  string            // the lifecycle rule's outcome when it was not set
}

// checkMedia opens the base branch's media bucket with the credential in
// the environment and looks each media artifact's object up, reading only,
// so a missing or wrong credential is refused at the pack gate, before
// anything is written. It returns the refusal, or "" (no bucket named is
// not one: media then stay in the run artifact, store none).
func (r *run) checkMedia() string {
	if r.evidence.base == nil || r.evidence.pack == nil {
		return ""
	}
	mediaURL := r.evidence.base.cfg.String("proof.media")
	if mediaURL == "" {
		return ""
	}
	refuse := func(err error) string {
		return fmt.Sprintf("the base branch's [proof] media bucket cannot take the pack's media: %v; nothing was merged", err)
	}
	if err := proof.CheckMediaBucket(mediaURL); err != nil {
		return refuse(err)
	}
	cred, err := mediastore.CredentialFromEnv(mediaURL, r.cfg.Env)
	if err != nil {
		return refuse(err)
	}
	store, err := mediastore.Open(mediaURL, cred)
	if err != nil {
		return refuse(err)
	}
	m := &packMedia{store: store}
	for _, a := range r.mediaArtifacts() {
		if _, err := store.Stat(r.ctx, m.key(r, a)); err != nil && !errors.Is(err, mediastore.ErrNotFound) {
			return refuse(err)
		}
	}
	r.evidence.media = m
	return ""
}

func (m *packMedia) key(r *run, a proof.Artifact) string {
	return m.store.Key(r.cfg.Owner, r.cfg.Repo, a.SHA256, a.Path)
}

// mediaArtifacts are the verified pack's media whose bytes the run
// artifact holds.
func (r *run) mediaArtifacts() []proof.Artifact {
	var out []proof.Artifact
	for _, a := range r.evidence.pack.pack.Artifacts {
		if !proof.IsMedia(a) || a.Tombstone != nil {
			continue
		}
		if fi, err := os.Lstat(path.Join(r.evidence.pack.dir, "artifacts", a.Path)); err != nil || !fi.Mode().IsRegular() {
			continue // kept by hash only, as the pack says
		}
		out = append(out, a)
	}
	return out
}

// copyMedia copies the media to the bucket before the merge, each read
// from the verified run artifact and checked against its hash again, and
// sets the bucket's lifecycle rule to [proof] retention_days where the
// credential can. An object without a ledger record is harmless (the
// lifecycle rule expires it); a ledger record naming an object that never
// landed is not, so a failed copy refuses the merge.
//
// after says what follows a failure: "nothing was merged" before the
// merge, what becomes of the record after it.
func (r *run) copyMedia(after string) string {
	m := r.evidence.media
	if m == nil || m.keys != nil {
		return ""
	}
	root, err := os.OpenRoot(path.Join(r.evidence.pack.dir, "artifacts"))
	if err != nil {
		return fmt.Sprintf("reopening the verified pack's media: %v; %s", err, after)
	}
	defer root.Close()
	keys := map[string]string{}
	for _, a := range r.mediaArtifacts() {
		b, err := fs.ReadFile(root.FS(), a.Path)
		sum := sha256.Sum256(b)
		if err != nil || hex.EncodeToString(sum[:]) != a.SHA256 {
			return fmt.Sprintf("media %s changed on disk after it was verified; %s", a.Path, after)
		}
		key := m.key(r, a)
		if err := m.store.Put(r.ctx, key, b); err != nil {
			return fmt.Sprintf("copying media %s to the [proof] media bucket: %v; %s", a.Path, err, after)
		}
		keys[a.Path] = key
	}
	m.keys = keys
	if len(keys) > 0 {
		if err := m.store.SetRetention(r.ctx, r.evidence.base.cfg.Int("proof.retention_days")); err != nil {
			m.note = err.Error() + "; the objects stay until removed by hand"
		}
		r.record("done", []string{fmt.Sprintf("copied %d media to %s", len(keys), m.store.Where())}, m.note)
	}
	return ""
}

// ledgerMedia makes the ledger copy's media that were copied say store
// bucket and name their object; the rest stay store none.
func (r *run) ledgerMedia(p *proof.Pack) {
	m := r.evidence.media
	if m == nil {
		return
	}
	for i, a := range p.Artifacts {
		if key, ok := m.keys[a.Path]; ok && proof.IsMedia(a) {
			p.Artifacts[i].Store, p.Artifacts[i].Object = proof.StoreBucket, key
		}
	}
}
