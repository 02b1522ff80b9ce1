package sigstore

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/secure-systems-lab/go-securesystemslib/cjson"
)

// tufRepo is a TUF repository as Sigstore's is laid out (consistent
// snapshots, ECDSA P-256 keys, one key per role but root, whose threshold
// is two of three), served over HTTP.
type tufRepo struct {
	t     *testing.T
	files map[string][]byte
	keys  map[string]*ecdsa.PrivateKey // by key ID
}

func (r *tufRepo) newKey() string {
	k, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.MarshalPKIXPublicKey(&k.PublicKey)
	sum := sha256.Sum256(der)
	id := hex.EncodeToString(sum[:])
	r.keys[id] = k
	return id
}

func (r *tufRepo) keyJSON(id string) map[string]any {
	der, _ := x509.MarshalPKIXPublicKey(&r.keys[id].PublicKey)
	return map[string]any{"keytype": "ecdsa", "scheme": "ecdsa-sha2-nistp256",
		"keyval": map[string]any{"public": string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))}}
}

// sign writes signed as TUF metadata signed by the keys ids.
func (r *tufRepo) sign(signed map[string]any, ids ...string) []byte {
	r.t.Helper()
	canon, err := cjson.EncodeCanonical(signed)
	if err != nil {
		r.t.Fatal(err)
	}
	sum := sha256.Sum256(canon)
	sigs := []any{}
	for _, id := range ids {
		s, _ := ecdsa.SignASN1(rand.Reader, r.keys[id], sum[:])
		sigs = append(sigs, map[string]any{"keyid": id, "sig": hex.EncodeToString(s)})
	}
	b, _ := json.Marshal(map[string]any{"signed": signed, "signatures": sigs})
	return b
}

func rootSigned(r *tufRepo, version int, rootKeys []string, other string, expires time.Time) map[string]any {
	keys := map[string]any{other: r.keyJSON(other)}
	for _, k := range rootKeys {
		keys[k] = r.keyJSON(k)
	}
	role := func(ids []string, th int) map[string]any { return map[string]any{"keyids": ids, "threshold": th} }
	return map[string]any{"_type": "root", "spec_version": "1.0", "version": version, "expires": expires.UTC().Format(time.RFC3339),
		"consistent_snapshot": true, "keys": keys,
		"roles": map[string]any{"root": role(rootKeys, 2), "timestamp": role([]string{other}, 1), "snapshot": role([]string{other}, 1), "targets": role([]string{other}, 1)}}
}

type tufCase struct {
	anchor     []byte
	root1Keys  []string
	onlineKey  string
	target     []byte
	expires    time.Time
	rootV2     func(r *tufRepo, c *tufCase) []byte // nil: no second root
	tamper     func(r *tufRepo)
	tsExpires  time.Time
	targetVer  int
	targetSize int
}

func newTUFRepo(t *testing.T, target []byte, edit func(r *tufRepo, c *tufCase)) (*tufRepo, *tufCase) {
	r := &tufRepo{t: t, files: map[string][]byte{}, keys: map[string]*ecdsa.PrivateKey{}}
	c := &tufCase{root1Keys: []string{r.newKey(), r.newKey(), r.newKey()}, onlineKey: r.newKey(), target: target,
		expires: time.Now().Add(24 * time.Hour), tsExpires: time.Now().Add(time.Hour), targetVer: 3, targetSize: len(target)}
	c.anchor = r.sign(rootSigned(r, 1, c.root1Keys, c.onlineKey, c.expires), c.root1Keys[0], c.root1Keys[1])
	if edit != nil {
		edit(r, c)
	}
	r.files["1.root.json"] = c.anchor
	if c.rootV2 != nil {
		r.files["2.root.json"] = c.rootV2(r, c)
	}
	sum := sha256.Sum256(target)
	h := hex.EncodeToString(sum[:])
	r.files["targets/"+h+".trusted_root.json"] = target
	r.files["3.targets.json"] = r.sign(map[string]any{"_type": "targets", "spec_version": "1.0", "version": c.targetVer, "expires": c.expires.UTC().Format(time.RFC3339),
		"targets": map[string]any{"trusted_root.json": map[string]any{"length": c.targetSize, "hashes": map[string]any{"sha256": h}}}}, c.onlineKey)
	r.files["2.snapshot.json"] = r.sign(map[string]any{"_type": "snapshot", "spec_version": "1.0", "version": 2, "expires": c.expires.UTC().Format(time.RFC3339),
		"meta": map[string]any{"targets.json": map[string]any{"version": 3}}}, c.onlineKey)
	snapSum := sha256.Sum256(r.files["2.snapshot.json"])
	r.files["timestamp.json"] = r.sign(map[string]any{"_type": "timestamp", "spec_version": "1.0", "version": 5, "expires": c.tsExpires.UTC().Format(time.RFC3339),
		"meta": map[string]any{"snapshot.json": map[string]any{"version": 2, "length": len(r.files["2.snapshot.json"]), "hashes": map[string]any{"sha256": hex.EncodeToString(snapSum[:])}}}}, c.onlineKey)
	if c.tamper != nil {
		c.tamper(r)
	}
	return r, c
}

func (r *tufRepo) serve(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, ok := r.files[strings.TrimPrefix(req.URL.Path, "/")]
		if !ok {
			http.Error(w, "no", http.StatusForbidden) // as Sigstore's bucket answers
			return
		}
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestTUFClientFetchesTheTargetItsMetadataSigns: the client walks a root
// rotation, checks each role's signatures, versions, expiry and hashes,
// and returns the target; each broken link is refused in words.
func TestTUFClientFetchesTheTargetItsMetadataSigns(t *testing.T) {
	t.Parallel()
	target, err := os.ReadFile("testdata/trusted-root-public-good.json")
	if err != nil {
		t.Fatal(err)
	}
	rotate := func(signers func(c *tufCase, newKeys []string) []string) func(r *tufRepo, c *tufCase) {
		return func(r *tufRepo, c *tufCase) {
			c.rootV2 = func(r *tufRepo, c *tufCase) []byte {
				newKeys := []string{r.newKey(), r.newKey(), r.newKey()}
				return r.sign(rootSigned(r, 2, newKeys, c.onlineKey, c.expires), signers(c, newKeys)...)
			}
		}
	}
	for _, tc := range []struct {
		name, refusal string
		edit          func(r *tufRepo, c *tufCase)
	}{
		{name: "a repository as Sigstore's"},
		{name: "a root rotated by the old keys and the new", edit: rotate(func(c *tufCase, n []string) []string { return []string{c.root1Keys[0], c.root1Keys[2], n[0], n[1]} })},
		{name: "a root signed by its own new keys only", refusal: "not signed by the root before it",
			edit: rotate(func(c *tufCase, n []string) []string { return []string{n[0], n[1]} })},
		{name: "a root signed by one old key", refusal: "not signed by the root before it",
			edit: rotate(func(c *tufCase, n []string) []string { return []string{c.root1Keys[0], n[0], n[1]} })},
		{name: "a root the new keys did not sign", refusal: "not signed by its own root keys",
			edit: rotate(func(c *tufCase, n []string) []string { return []string{c.root1Keys[0], c.root1Keys[1], n[0]} })},
		{name: "an expired root", refusal: "expired", edit: func(_ *tufRepo, c *tufCase) {}},
		{name: "an expired timestamp", refusal: "timestamp.json expired", edit: func(_ *tufRepo, c *tufCase) { c.tsExpires = time.Now().Add(-time.Minute) }},
		{name: "a target of another length", refusal: "not the", edit: func(_ *tufRepo, c *tufCase) { c.targetSize++ }},
		{name: "targets of another version than the snapshot names", refusal: "is version 4, not 3", edit: func(_ *tufRepo, c *tufCase) { c.targetVer = 4 }},
		{name: "a target whose bytes were changed", refusal: "sha256 is not the one", edit: func(_ *tufRepo, c *tufCase) {
			c.tamper = func(r *tufRepo) {
				for p, b := range r.files {
					if strings.HasPrefix(p, "targets/") {
						r.files[p] = append([]byte(" "), b[1:]...)
					}
				}
			}
		}},
		{name: "a snapshot changed after the timestamp signed it", refusal: "2.snapshot.json: it is ", edit: func(_ *tufRepo, c *tufCase) {
			c.tamper = func(r *tufRepo) { r.files["2.snapshot.json"] = append(r.files["2.snapshot.json"], ' ') }
		}},
		{name: "a timestamp signed by a root key instead", refusal: "0 of the timestamp role's keys", edit: func(_ *tufRepo, c *tufCase) {
			c.tamper = func(r *tufRepo) {
				var doc map[string]any
				_ = json.Unmarshal(r.files["timestamp.json"], &doc)
				r.files["timestamp.json"] = r.sign(doc["signed"].(map[string]any), c.root1Keys[0])
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := time.Now
			if tc.name == "an expired root" {
				now = func() time.Time { return time.Now().Add(48 * time.Hour) }
			}
			r, c := newTUFRepo(t, target, tc.edit)
			client := &TUFClient{Base: r.serve(t), Anchor: c.anchor, CacheDir: t.TempDir(), Now: now}
			got, err := client.Target("trusted_root.json")
			if tc.refusal == "" {
				if err != nil || string(got) != string(target) {
					t.Fatalf("Target = %d bytes, %v; want the target", len(got), err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.refusal) {
				t.Fatalf("Target: %v; want a refusal saying %q", err, tc.refusal)
			}
		})
	}
}

// TestTUFClientRefusesOlderMetadataThanItHasSeen: once a run saw
// timestamp version 5, a repository serving version 4 is refused.
func TestTUFClientRefusesOlderMetadataThanItHasSeen(t *testing.T) {
	t.Parallel()
	target, _ := os.ReadFile("testdata/trusted-root-public-good.json")
	r, c := newTUFRepo(t, target, nil)
	client := &TUFClient{Base: r.serve(t), Anchor: c.anchor, CacheDir: t.TempDir(), Now: time.Now}
	if _, err := client.Target("trusted_root.json"); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	_ = json.Unmarshal(r.files["timestamp.json"], &doc)
	signed := doc["signed"].(map[string]any)
	signed["version"] = 4
	r.files["timestamp.json"] = r.sign(signed, c.onlineKey)
	if _, err := client.Target("trusted_root.json"); err == nil || !strings.Contains(err.Error(), "older than one already seen") {
		t.Fatalf("a rolled-back timestamp: %v; want it refused", err)
	}
}

// TestTheEmbeddedAnchorIsSigstoresRoot: the embedded anchor is a root of
// the public-good repository signed by a threshold of its own root keys.
func TestTheEmbeddedAnchorIsSigstoresRoot(t *testing.T) {
	t.Parallel()
	r, err := parseRootDoc(publicGoodRoot)
	if err != nil {
		t.Fatal(err)
	}
	var doc tufSigned
	if err := json.Unmarshal(publicGoodRoot, &doc); err != nil {
		t.Fatal(err)
	}
	if err := verifyRole(doc, r, "root"); err != nil || r.Version < 14 {
		t.Fatalf("the embedded root (version %d) does not verify under its own keys: %v", r.Version, err)
	}
}
