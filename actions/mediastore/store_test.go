package mediastore

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions/mediastore/mediatest"
)

// roundTrip holds one store to the API's promises against a real server
// of its protocol: put, get and stat give back the bytes and their hash;
// the same bytes again are fine; other bytes under the key are refused and
// the object is left as it was; delete removes it. Then the store opened
// with a wrong credential (wrongSecret in it) is refused in words that
// name neither secret, and nothing landed.
func roundTrip(t *testing.T, good, bad *Store, secrets ...string) {
	t.Helper()
	ctx := context.Background()
	shot := []byte("\x89PNG the deductible on the summary page")
	sum := sha256.Sum256(shot)
	key := good.Key("acme", "benefits", hex.EncodeToString(sum[:]), "screens/1.PNG")
	if want := "acme/acme/benefits/sha256/" + hex.EncodeToString(sum[:]) + ".png"; key != want {
		t.Fatalf("key %q, want %q", key, want)
	}
	if err := good.Put(ctx, key, shot); err != nil {
		t.Fatalf("put: %v", err)
	}
	if got, err := good.Get(ctx, key); err != nil || !bytes.Equal(got, shot) {
		t.Fatalf("get: %q, %v", got, err)
	}
	if a, err := good.Stat(ctx, key); err != nil || a.Size != int64(len(shot)) || a.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("stat: %+v, %v", a, err)
	}
	if err := good.Put(ctx, key, shot); err != nil {
		t.Fatalf("the same bytes put again: %v", err)
	}
	if err := good.Put(ctx, key, []byte("other bytes")); !errors.Is(err, ErrOverwrite) || !strings.Contains(err.Error(), "never overwritten") {
		t.Fatalf("other bytes under the key: %v, want ErrOverwrite", err)
	}
	if got, err := good.Get(ctx, key); err != nil || !bytes.Equal(got, shot) {
		t.Fatalf("after the refused overwrite the object holds %q (%v)", got, err)
	}
	if err := good.Delete(ctx, key); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err := good.Stat(ctx, key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("stat after delete: %v, want ErrNotFound", err)
	}

	// A wrong credential: refused, redacted, nothing landed.
	err := bad.Put(ctx, key, shot)
	if !errors.Is(err, ErrCredentialRefused) {
		t.Fatalf("a wrong credential's put: %v, want ErrCredentialRefused", err)
	}
	for _, s := range secrets {
		if strings.Contains(err.Error(), s) {
			t.Fatalf("the refusal prints a credential: %v", err)
		}
	}
	if _, err := good.Stat(ctx, key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after the refused put the bucket holds the object (%v)", err)
	}
}

func TestStoreS3(t *testing.T) {
	t.Parallel()
	const id, secret, wrong = "AKIAEXAMPLEPROOFKEY", "proof-media-secret-never-printed", "a-wrong-secret-never-printed"
	endpoint := mediatest.StartS3(t, id, secret, "us-east-1").URL
	good := must(Open("s3://proof-media/acme", Credential{AccessKeyID: id, SecretAccessKey: secret, Endpoint: endpoint}))
	bad := must(Open("s3://proof-media/acme", Credential{AccessKeyID: id, SecretAccessKey: wrong, Endpoint: endpoint}))
	roundTrip(t, good, bad, secret, wrong)
	// gofakes3 serves no lifecycle configuration: the rule is written and
	// read back, and its absence is said in words (the rule's shape is held
	// by TestExpireKeepsTheBucketsOtherRules).
	err := good.SetRetention(context.Background(), 30)
	if !errors.Is(err, ErrRetentionNotSet) || !strings.Contains(err.Error(), "by hand") || strings.Contains(err.Error(), secret) {
		t.Fatalf("retention on a server without lifecycle rules: %v", err)
	}
}

// TestStoreR2: r2:// is S3's protocol at the account's endpoint, signed
// for the region "auto"; the server checks that scope.
func TestStoreR2(t *testing.T) {
	t.Parallel()
	const id, secret, wrong = "r2-access-key-id", "r2-secret-never-printed", "r2-wrong-secret-never-printed"
	endpoint := mediatest.StartS3(t, id, secret, "auto").URL
	good := must(Open("r2://proof-media/acme", Credential{AccessKeyID: id, SecretAccessKey: secret, Endpoint: endpoint}))
	bad := must(Open("r2://proof-media/acme", Credential{AccessKeyID: id, SecretAccessKey: wrong, Endpoint: endpoint}))
	roundTrip(t, good, bad, secret, wrong)
	if _, err := Open("r2://proof-media/acme", Credential{AccessKeyID: id, SecretAccessKey: secret}); !errors.Is(err, ErrUnusable) || !strings.Contains(err.Error(), "r2.cloudflarestorage.com") {
		t.Fatalf("r2:// without its endpoint: %v", err)
	}
}

func TestStoreGCS(t *testing.T) {
	t.Parallel()
	srv := mediatest.StartGCS(t, "proof-media")
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	goodKey, badKey := srv.KeyJSON(t, srv.Key), srv.KeyJSON(t, other)
	good := must(Open("gs://proof-media/acme", Credential{ServiceAccountJSON: goodKey, Endpoint: srv.URL}))
	bad := must(Open("gs://proof-media/acme", Credential{ServiceAccountJSON: badKey, Endpoint: srv.URL}))
	badKeyPEM := must(parseServiceAccount(badKey)).PrivateKey
	roundTrip(t, good, bad, string(badKey), badKeyPEM, srv.Token)
	// A given token that is not the server's is refused the same way.
	tok := must(Open("gs://proof-media/acme", Credential{AccessToken: "ya29.not-granted-token", Endpoint: srv.URL}))
	if err := tok.Put(context.Background(), "acme/x.png", []byte("x")); !errors.Is(err, ErrCredentialRefused) || strings.Contains(err.Error(), "ya29.not-granted") {
		t.Fatalf("a wrong token: %v", err)
	}
	// fake-gcs-server takes a bucket PATCH and keeps no lifecycle: the rule
	// aayu sent is Cloud Storage's Delete-after-age for the prefix, and
	// its absence from the answer is said in words.
	err = good.SetRetention(context.Background(), 30)
	if !errors.Is(err, ErrRetentionNotSet) || !strings.Contains(err.Error(), "does not keep it") {
		t.Fatalf("retention: %v", err)
	}
	if p := srv.Patches(); len(p) != 1 || p[0] != `{"lifecycle":{"rule":[{"action":{"type":"Delete"},"condition":{"age":30,"matchesPrefix":["acme/"]}}]}}` {
		t.Fatalf("the bucket PATCH sent %q", p)
	}
}

func TestStoreAzureBlob(t *testing.T) {
	t.Parallel()
	endpoint := mediatest.StartAzurite(t)
	wrong := base64.StdEncoding.EncodeToString([]byte("a wrong account key never printed"))
	good := must(Open("azblob://proof-media/acme", Credential{Account: mediatest.AzuriteAccount, AccountKey: mediatest.AzuriteKey, Endpoint: endpoint}))
	bad := must(Open("azblob://proof-media/acme", Credential{Account: mediatest.AzuriteAccount, AccountKey: wrong, Endpoint: endpoint}))
	mediatest.AzuriteContainer(t, endpoint, "proof-media")
	roundTrip(t, good, bad, mediatest.AzuriteKey, wrong)
	// Azure's lifecycle rules live on the storage account, behind Azure
	// Resource Manager: a SharedKey cannot set them, and says so.
	err := good.SetRetention(context.Background(), 30)
	if !errors.Is(err, ErrRetentionNotSet) || !strings.Contains(err.Error(), "Azure Resource Manager") || !strings.Contains(err.Error(), "proof-media/acme/ 30 days") {
		t.Fatalf("retention: %v", err)
	}
}

// TestGCSRetentionKeepsTheBucketsOtherRules: on a bucket that keeps its
// lifecycle (as Cloud Storage does; fake-gcs-server does not), aayu's
// Delete rule replaces its own earlier one for the prefix, every other
// rule is sent back as it came, and the rule read back in the answer is
// success.
func TestGCSRetentionKeepsTheBucketsOtherRules(t *testing.T) {
	t.Parallel()
	other := `{"action":{"type":"SetStorageClass","storageClass":"COLDLINE"},"condition":{"age":90,"matchesPrefix":["logs/"]}}`
	bucket := `{"name":"proof-media","lifecycle":{"rule":[{"action":{"type":"Delete"},"condition":{"age":7,"matchesPrefix":["acme/"]}},` + other + `]}}`
	var patched string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/storage/v1/b/proof-media" || r.Header.Get("Authorization") != "Bearer ya29.given" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if r.Method == http.MethodPatch {
			b, _ := io.ReadAll(r.Body)
			patched = string(b)
			bucket = `{"name":"proof-media",` + strings.TrimPrefix(patched, "{")
		}
		_, _ = io.WriteString(w, bucket)
	}))
	t.Cleanup(ts.Close)
	s := must(Open("gs://proof-media/acme", Credential{AccessToken: "ya29.given", Endpoint: ts.URL}))
	if err := s.SetRetention(context.Background(), 30); err != nil {
		t.Fatal(err)
	}
	want := `{"lifecycle":{"rule":[{"action":{"type":"Delete"},"condition":{"age":30,"matchesPrefix":["acme/"]}},` + other + `]}}`
	if patched != want {
		t.Fatalf("the PATCH sent\n%s\nwant\n%s", patched, want)
	}
}
