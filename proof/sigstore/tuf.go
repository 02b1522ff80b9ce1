package sigstore

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	_ "embed" // the public-good TUF repository's root, the trust anchor
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/secure-systems-lab/go-securesystemslib/cjson"
)

// PublicGoodTUF is Sigstore's public-good TUF repository, which publishes
// the trusted root GitHub's attestations of public repositories verify
// under.
const PublicGoodTUF = "https://tuf-repo-cdn.sigstore.dev"

// publicGoodRoot is that repository's root.json at version 14, as
// sigstore-go embeds it (pkg/tuf/repository/root.json, Apache-2.0): the
// trust anchor every later root must chain from.
//
//go:embed public-good-tuf-root.json
var publicGoodRoot []byte

// FetchPublicGoodRoot is Sigstore's public-good trusted_root.json, fetched
// through its TUF repository as sigstore-go's root.FetchTrustedRoot does:
// the root chain from the embedded anchor (each new root signed by a
// threshold of the old one's root keys and of its own), then timestamp,
// snapshot and targets, each signed by its role's threshold, unexpired
// and consistent with the one before, then the target itself, held to the
// length and hashes the targets metadata signs. The newest root and the
// versions seen are kept in the user's cache folder, so a repository that
// serves older metadata than aayu has seen is refused.
func FetchPublicGoodRoot() (*TrustedRoot, error) {
	cache := ""
	if dir, err := os.UserCacheDir(); err == nil {
		cache = filepath.Join(dir, "aayu", "sigstore-tuf")
	}
	c := &TUFClient{Base: PublicGoodTUF, HTTP: &http.Client{Timeout: 30 * time.Second}, Anchor: publicGoodRoot, CacheDir: cache, Now: time.Now}
	b, err := c.Target("trusted_root.json")
	if err != nil {
		return nil, err
	}
	return ParseTrustedRoot(b)
}

// TUFClient reads one target from a TUF repository (the TUF 1.0 client
// workflow, for a repository with consistent snapshots and no delegation
// of the target it is asked for).
type TUFClient struct {
	Base     string       // the repository's URL
	HTTP     *http.Client // nil: http.DefaultClient
	Anchor   []byte       // the root.json trusted first
	CacheDir string       // "": keep nothing between runs
	Now      func() time.Time
}

// The most a metadata file or a target may be: Sigstore's are tens of
// kilobytes.
const maxTUFFile = 8 << 20

type tufSigned struct {
	Signed     json.RawMessage `json:"signed"`
	Signatures []struct {
		KeyID string `json:"keyid"`
		Sig   string `json:"sig"`
	} `json:"signatures"`
}

type tufMetaFile struct {
	Version int64             `json:"version"`
	Length  int64             `json:"length,omitempty"`
	Hashes  map[string]string `json:"hashes,omitempty"`
}

type tufCommon struct {
	Type    string    `json:"_type"`
	Version int64     `json:"version"`
	Expires time.Time `json:"expires"`
}

type tufRoot struct {
	tufCommon
	ConsistentSnapshot bool `json:"consistent_snapshot"`
	Keys               map[string]struct {
		KeyType string `json:"keytype"`
		Scheme  string `json:"scheme"`
		KeyVal  struct {
			Public string `json:"public"`
		} `json:"keyval"`
	} `json:"keys"`
	Roles map[string]struct {
		KeyIDs    []string `json:"keyids"`
		Threshold int      `json:"threshold"`
	} `json:"roles"`
}

// tufState is what the client keeps between runs.
type tufState struct {
	Timestamp int64 `json:"timestamp"`
	Snapshot  int64 `json:"snapshot"`
	Targets   int64 `json:"targets"`
}

// Target fetches name, verified as the repository's targets metadata says.
func (c *TUFClient) Target(name string) ([]byte, error) {
	rootJSON, root, err := c.updateRoot()
	if err != nil {
		return nil, err
	}
	state := c.loadState()
	ts, err := c.fetchRole("timestamp.json", root, "timestamp", "timestamp", 0, nil)
	if err != nil {
		return nil, err
	}
	var tsBody struct {
		tufCommon
		Meta map[string]tufMetaFile `json:"meta"`
	}
	if err := json.Unmarshal(ts, &tsBody); err != nil {
		return nil, fmt.Errorf("the TUF timestamp: %w", err)
	}
	snapMeta, ok := tsBody.Meta["snapshot.json"]
	if !ok || tsBody.Version < state.Timestamp || snapMeta.Version < state.Snapshot {
		return nil, errors.New("the TUF timestamp is older than one already seen, or names no snapshot")
	}
	snap, err := c.fetchRole(strconv.FormatInt(snapMeta.Version, 10)+".snapshot.json", root, "snapshot", "snapshot", snapMeta.Version, &snapMeta)
	if err != nil {
		return nil, err
	}
	var snapBody struct {
		tufCommon
		Meta map[string]tufMetaFile `json:"meta"`
	}
	if err := json.Unmarshal(snap, &snapBody); err != nil {
		return nil, fmt.Errorf("the TUF snapshot: %w", err)
	}
	targetsMeta, ok := snapBody.Meta["targets.json"]
	if !ok || targetsMeta.Version < state.Targets {
		return nil, errors.New("the TUF snapshot names older targets than already seen, or none")
	}
	tg, err := c.fetchRole(strconv.FormatInt(targetsMeta.Version, 10)+".targets.json", root, "targets", "targets", targetsMeta.Version, &targetsMeta)
	if err != nil {
		return nil, err
	}
	var tgBody struct {
		tufCommon
		Targets map[string]struct {
			Length int64             `json:"length"`
			Hashes map[string]string `json:"hashes"`
		} `json:"targets"`
	}
	if err := json.Unmarshal(tg, &tgBody); err != nil {
		return nil, fmt.Errorf("the TUF targets: %w", err)
	}
	t, ok := tgBody.Targets[name]
	if !ok || t.Hashes["sha256"] == "" {
		return nil, fmt.Errorf("the TUF repository's targets name no %s", name)
	}
	body, err := c.get("targets/" + t.Hashes["sha256"] + "." + name)
	if err != nil {
		return nil, err
	}
	if err := holdsTo(body, tufMetaFile{Length: t.Length, Hashes: t.Hashes}); err != nil {
		return nil, fmt.Errorf("the TUF target %s: %w", name, err)
	}
	c.saveState(rootJSON, tufState{Timestamp: tsBody.Version, Snapshot: snapMeta.Version, Targets: targetsMeta.Version})
	return body, nil
}

// updateRoot walks the root chain from the newest root known (the cached
// one when it is newer than the anchor) to the repository's newest, and
// refuses an expired final root.
func (c *TUFClient) updateRoot() ([]byte, *tufRoot, error) {
	trustedJSON := c.Anchor
	if c.CacheDir != "" {
		if b, err := os.ReadFile(filepath.Join(c.CacheDir, "root.json")); err == nil {
			if cached, err := parseRootDoc(b); err == nil {
				if anchor, err := parseRootDoc(c.Anchor); err == nil && cached.Version > anchor.Version {
					trustedJSON = b
				}
			}
		}
	}
	trusted, err := parseRootDoc(trustedJSON)
	if err != nil {
		return nil, nil, fmt.Errorf("the TUF trust anchor: %w", err)
	}
	for range 1024 {
		next := strconv.FormatInt(trusted.Version+1, 10) + ".root.json"
		b, err := c.get(next)
		if errors.Is(err, errNotFound) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		var doc tufSigned
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, nil, fmt.Errorf("the TUF %s: %w", next, err)
		}
		if err := verifyRole(doc, trusted, "root"); err != nil {
			return nil, nil, fmt.Errorf("the TUF %s is not signed by the root before it: %w", next, err)
		}
		nr, err := parseRootDoc(b)
		if err != nil {
			return nil, nil, err
		}
		if err := verifyRole(doc, nr, "root"); err != nil {
			return nil, nil, fmt.Errorf("the TUF %s is not signed by its own root keys: %w", next, err)
		}
		if nr.Version != trusted.Version+1 {
			return nil, nil, fmt.Errorf("the TUF %s says version %d", next, nr.Version)
		}
		trusted, trustedJSON = nr, b
	}
	if !trusted.Expires.After(c.Now()) {
		return nil, nil, fmt.Errorf("the TUF root (version %d) expired %s", trusted.Version, trusted.Expires.Format(time.RFC3339))
	}
	return trustedJSON, trusted, nil
}

func parseRootDoc(b []byte) (*tufRoot, error) {
	var doc tufSigned
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	var r tufRoot
	if err := json.Unmarshal(doc.Signed, &r); err != nil {
		return nil, err
	}
	if r.Type != "root" {
		return nil, fmt.Errorf("a %q where a root belongs", r.Type)
	}
	return &r, nil
}

// fetchRole fetches a role's metadata, held to meta's length and hashes
// when given, signed by the role's threshold, of the role's type, of
// version want (0: any), unexpired; it returns the signed body.
func (c *TUFClient) fetchRole(file string, root *tufRoot, role, typ string, want int64, meta *tufMetaFile) ([]byte, error) {
	b, err := c.get(file)
	if err != nil {
		return nil, err
	}
	if meta != nil {
		if err := holdsTo(b, *meta); err != nil {
			return nil, fmt.Errorf("the TUF %s: %w", file, err)
		}
	}
	var doc tufSigned
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("the TUF %s: %w", file, err)
	}
	if err := verifyRole(doc, root, role); err != nil {
		return nil, fmt.Errorf("the TUF %s: %w", file, err)
	}
	var com tufCommon
	if err := json.Unmarshal(doc.Signed, &com); err != nil {
		return nil, fmt.Errorf("the TUF %s: %w", file, err)
	}
	switch {
	case com.Type != typ:
		return nil, fmt.Errorf("the TUF %s is a %q, not %s", file, com.Type, typ)
	case want != 0 && com.Version != want:
		return nil, fmt.Errorf("the TUF %s is version %d, not %d", file, com.Version, want)
	case !com.Expires.After(c.Now()):
		return nil, fmt.Errorf("the TUF %s expired %s", file, com.Expires.Format(time.RFC3339))
	}
	return doc.Signed, nil
}

// verifyRole checks doc is signed by at least the role's threshold of its
// keys (distinct key IDs), each over the canonical JSON of the signed part.
func verifyRole(doc tufSigned, root *tufRoot, role string) error {
	r, ok := root.Roles[role]
	if !ok || r.Threshold < 1 {
		return fmt.Errorf("the root names no %s role", role)
	}
	canon, err := cjson.EncodeCanonical(doc.Signed)
	if err != nil {
		return err
	}
	good := map[string]bool{}
	for _, s := range doc.Signatures {
		if good[s.KeyID] || !containsString(r.KeyIDs, s.KeyID) {
			continue
		}
		k, ok := root.Keys[s.KeyID]
		if !ok {
			continue
		}
		sig, err := hex.DecodeString(s.Sig)
		if err != nil || len(sig) == 0 {
			continue
		}
		if tufSignatureHolds(k.KeyType, k.Scheme, k.KeyVal.Public, canon, sig) {
			good[s.KeyID] = true
		}
	}
	if len(good) < r.Threshold {
		return fmt.Errorf("%d of the %s role's keys signed it, not %d", len(good), role, r.Threshold)
	}
	return nil
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func tufSignatureHolds(keyType, scheme, public string, msg, sig []byte) bool {
	switch {
	case (keyType == "ecdsa" || keyType == "ecdsa-sha2-nistp256") && scheme == "ecdsa-sha2-nistp256":
		block, _ := pem.Decode([]byte(public))
		if block == nil {
			return false
		}
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		ek, ok := k.(*ecdsa.PublicKey)
		if err != nil || !ok || ek.Curve.Params().BitSize != 256 {
			return false
		}
		sum := sha256.Sum256(msg)
		return ecdsa.VerifyASN1(ek, sum[:], sig)
	case keyType == "ed25519" && scheme == "ed25519":
		k, err := hex.DecodeString(public)
		return err == nil && len(k) == ed25519.PublicKeySize && ed25519.Verify(k, msg, sig)
	}
	return false
}

// holdsTo checks b against the length and hashes metadata gives for it.
func holdsTo(b []byte, m tufMetaFile) error {
	if m.Length != 0 && int64(len(b)) != m.Length {
		return fmt.Errorf("it is %d bytes, not the %d its metadata signs", len(b), m.Length)
	}
	for alg, want := range m.Hashes {
		var got []byte
		switch alg {
		case "sha256":
			s := sha256.Sum256(b)
			got = s[:]
		case "sha512":
			s := sha512.Sum512(b)
			got = s[:]
		default:
			continue
		}
		w, err := hex.DecodeString(want)
		if err != nil || !bytes.Equal(got, w) {
			return fmt.Errorf("its %s is not the one its metadata signs", alg)
		}
	}
	return nil
}

var errNotFound = errors.New("not found")

func (c *TUFClient) get(path string) ([]byte, error) {
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Get(c.Base + "/" + path)
	if err != nil {
		return nil, fmt.Errorf("fetching the TUF %s: %w", path, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusForbidden:
		// A static host (Sigstore's is a bucket) answers 403 for a file
		// that is not there.
		return nil, errNotFound
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("fetching the TUF %s: %s", path, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxTUFFile+1))
	if err != nil {
		return nil, fmt.Errorf("fetching the TUF %s: %w", path, err)
	}
	if len(b) > maxTUFFile {
		return nil, fmt.Errorf("the TUF %s is over %d bytes", path, maxTUFFile)
	}
	return b, nil
}

func (c *TUFClient) loadState() tufState {
	var s tufState
	if c.CacheDir != "" {
		if b, err := os.ReadFile(filepath.Join(c.CacheDir, "versions.json")); err == nil {
			_ = json.Unmarshal(b, &s)
		}
	}
	return s
}

// saveState keeps the newest root and the versions seen; a failure to
// keep them only costs the next run the walk from the anchor.
func (c *TUFClient) saveState(rootJSON []byte, s tufState) {
	if c.CacheDir == "" || os.MkdirAll(c.CacheDir, 0o700) != nil {
		return
	}
	_ = os.WriteFile(filepath.Join(c.CacheDir, "root.json"), rootJSON, 0o600)
	if b, err := json.Marshal(s); err == nil {
		_ = os.WriteFile(filepath.Join(c.CacheDir, "versions.json"), b, 0o600)
	}
}
