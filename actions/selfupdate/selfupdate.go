package selfupdate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gaterun"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/untrusted"
	"github.com/aayudha/aayu/proof/attest"
	"github.com/aayudha/aayu/proof/sigstore"
)

// DefaultRepository is aayu's own repository, whose releases self-update
// reads unless [update] repository names another (a mirror on GitHub
// Enterprise Server, say).
const DefaultRepository = "aayudha/aayu"

// DefaultMaxBytes caps the file downloaded: aayu is tens of megabytes.
const DefaultMaxBytes = 512 << 20

// Refusal is a reason the binary was not replaced, in words; nothing was
// changed.
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return r.Reason }

func refuse(format string, args ...any) error { return &Refusal{Reason: fmt.Sprintf(format, args...)} }

// IsRefusal reports whether err is a Refusal.
func IsRefusal(err error) bool {
	var r *Refusal
	return errors.As(err, &r)
}

// Config is what one self-update works with.
type Config struct {
	Client      *github.Client
	Owner, Repo string // the repository whose releases are aayu's
	// ServerURL is the web host the release workflow's certificate names
	// ("" is https://github.com).
	ServerURL string
	// Trusted gives the Sigstore roots the attestation is checked with;
	// nil, or a nil root, is a refusal.
	Trusted func() (*sigstore.TrustedRoot, error)
	// Exe is the running binary, symlinks resolved: the file replaced.
	Exe          string
	GOOS, GOARCH string
	// Version is this aayu's module version (v0.4.0, or (devel)): a
	// release whose tag it is is already current.
	Version  string
	MaxBytes int64 // 0: DefaultMaxBytes
}

// AssetName is the release file built for goos/goarch.
func AssetName(goos, goarch string) string {
	name := "aayu_" + goos + "_" + goarch
	if goos == "windows" {
		name += ".exe"
	}
	return name
}

// Found is the newest release's file for this platform, downloaded and
// proved (or already current: UpToDate, and nothing else is set but Tag).
type Found struct {
	Tag      string // neutralised
	Asset    string
	SHA256   string
	Identity attest.Identity
	UpToDate bool
	bytes    []byte
}

// Check finds the newest release's file for this platform and proves it:
// the binary's folder is writable, the release has the file, its bytes are
// the file GitHub recorded, and its build attestation verifies. It changes
// nothing.
func Check(ctx context.Context, cfg Config) (*Found, error) {
	if err := writableBeside(cfg.Exe); err != nil {
		return nil, err
	}
	tag, asset, err := newest(ctx, cfg)
	if err != nil {
		return nil, err
	}
	name := asset.Name
	current, err := fileSHA256(cfg.Exe)
	if err != nil {
		return nil, fmt.Errorf("reading the running aayu %s: %w", cfg.Exe, err)
	}
	recorded := ""
	if asset.Digest != nil {
		recorded = strings.ToLower(strings.TrimPrefix(*asset.Digest, "sha256:"))
	}
	if cfg.Version == tag || recorded == current {
		return &Found{Tag: tag, Asset: name, SHA256: current, UpToDate: true}, nil
	}
	b, err := download(ctx, cfg, tag, asset)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	got := hex.EncodeToString(sum[:])
	if got == current {
		return &Found{Tag: tag, Asset: name, SHA256: got, UpToDate: true}, nil
	}
	if recorded != "" && recorded != got {
		return nil, refuse("%s as downloaded (sha256 %s) is not the file GitHub recorded for release %s (sha256 %s): it was changed on the way or where it is stored",
			name, gitsha.Short(got), tag, gitsha.Short(recorded))
	}
	id, err := prove(ctx, cfg, tag, name, got)
	if err != nil {
		return nil, err
	}
	return &Found{Tag: tag, Asset: name, SHA256: got, Identity: id, bytes: b}, nil
}

// newest is the latest release's tag (one aayu can name as it is) and its
// file for this platform.
func newest(ctx context.Context, cfg Config) (string, *ghx.ReleaseAsset, error) {
	repo := cfg.Owner + "/" + cfg.Repo
	rel, ok, err := ghx.LatestRelease(ctx, cfg.Client, cfg.Owner, cfg.Repo)
	if err != nil {
		return "", nil, fmt.Errorf("reading aayu's newest release: %s", ghx.Describe(err))
	}
	if !ok {
		return "", nil, refuse("%s has no published release, so there is nothing to update to", repo)
	}
	tag := untrusted.Line(rel.TagName)
	if tag == "" || tag != rel.TagName || strings.ContainsAny(tag, " \t") {
		return "", nil, refuse("the newest release of %s names a tag aayu cannot take (%q)", repo, tag)
	}
	name := AssetName(cfg.GOOS, cfg.GOARCH)
	for i := range rel.Assets {
		if rel.Assets[i].Name == name {
			return tag, &rel.Assets[i], nil
		}
	}
	return "", nil, refuse("release %s of %s has no file for %s/%s (%s)", tag, repo, cfg.GOOS, cfg.GOARCH, name)
}

// download reads the release file, at most cfg.MaxBytes of it.
func download(ctx context.Context, cfg Config, tag string, asset *ghx.ReleaseAsset) ([]byte, error) {
	max := cfg.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	var buf bytes.Buffer
	if _, err := ghx.DownloadReleaseAsset(ctx, cfg.Client, cfg.Owner, cfg.Repo, asset.ID, &buf, max); err != nil {
		return nil, fmt.Errorf("downloading %s of release %s: %s", asset.Name, tag, ghx.Describe(err))
	}
	return buf.Bytes(), nil
}

// prove checks the file's build attestation: the bundles GitHub keeps
// under its digest, one of which must be the release workflow's at tag.
func prove(ctx context.Context, cfg Config, tag, name, sum string) (attest.Identity, error) {
	repo := cfg.Owner + "/" + cfg.Repo
	bundles, err := ghx.ListAttestations(ctx, cfg.Client, cfg.Owner, cfg.Repo, sum)
	if err != nil {
		return attest.Identity{}, fmt.Errorf("reading the attestations of %s: %s", name, ghx.Describe(err))
	}
	var trusted *sigstore.TrustedRoot
	if cfg.Trusted != nil {
		if trusted, err = cfg.Trusted(); err != nil {
			return attest.Identity{}, fmt.Errorf("reading Sigstore's trusted root to check %s's attestation: %w", name, err)
		}
	}
	if trusted == nil && len(bundles) > 0 {
		return attest.Identity{}, refuse("no Sigstore trusted root is known for this host, so %s's attestation cannot be checked; set [proof] trusted_root to the host's trusted_root.json", name)
	}
	exp := attest.BuildExpect{ServerURL: cfg.ServerURL, Repo: repo, WorkflowPath: gaterun.ReleaseWorkflowPath, Tag: tag, Name: name, SHA256: sum}
	id, err := attest.VerifyBuild(trusted, bundles, exp)
	switch {
	case err == nil:
		return id, nil
	case attest.IsRefusal(err):
		return attest.Identity{}, refuse("release %s's %s is not proven built by %s's release workflow: %s", tag, name, repo, untrusted.Line(err.Error()))
	}
	return attest.Identity{}, fmt.Errorf("checking %s's attestation: %w", name, err)
}

// writableBeside refuses a binary whose folder aayu cannot write: the new
// binary is written beside it and renamed over it.
func writableBeside(exe string) error {
	f, err := os.CreateTemp(filepath.Dir(exe), ".aayu-write-check-*")
	if err != nil {
		return refuse("aayu cannot write beside %s (%v), so it cannot replace it; run aayu self-update as the account that installed it, or install the release by hand", exe, pathErrWords(err))
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func pathErrWords(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
