package proofpush

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions/mediastore"
	"github.com/aayudha/aayu/actions/mediastore/mediatest"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/proof"
)

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// bucketKind is one kind of [proof] media bucket on its test server: the
// variables of a credential it takes and of one it refuses, and the
// secrets neither refusal nor note may print.
type bucketKind struct {
	url       string
	good, bad map[string]string
	secrets   []string
}

func bucketKinds(t *testing.T) map[string]func(t *testing.T) bucketKind {
	return map[string]func(t *testing.T) bucketKind{
		"s3": func(t *testing.T) bucketKind {
			srv := mediatest.StartS3(t, "AKIAPROOFMEDIA", "s3-secret-never-printed", "us-east-1")
			env := func(secret string) map[string]string {
				return map[string]string{"AWS_ACCESS_KEY_ID": "AKIAPROOFMEDIA", "AWS_SECRET_ACCESS_KEY": secret, "AWS_ENDPOINT_URL_S3": srv.URL}
			}
			return bucketKind{"s3://proof-media/acme", env("s3-secret-never-printed"), env("s3-wrong-never-printed"), []string{"s3-secret-never-printed", "s3-wrong-never-printed"}}
		},
		"r2": func(t *testing.T) bucketKind {
			srv := mediatest.StartS3(t, "r2-key-id", "r2-secret-never-printed", "auto")
			env := func(secret string) map[string]string {
				return map[string]string{"AWS_ACCESS_KEY_ID": "r2-key-id", "AWS_SECRET_ACCESS_KEY": secret, "AWS_ENDPOINT_URL_S3": srv.URL}
			}
			return bucketKind{"r2://proof-media/acme", env("r2-secret-never-printed"), env("r2-wrong-never-printed"), []string{"r2-secret-never-printed", "r2-wrong-never-printed"}}
		},
		"gs": func(t *testing.T) bucketKind {
			srv := mediatest.StartGCS(t, "proof-media")
			other, err := rsa.GenerateKey(rand.Reader, 2048)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			goodFile, badFile := filepath.Join(dir, "good.json"), filepath.Join(dir, "bad.json")
			badKey := srv.KeyJSON(t, other)
			if os.WriteFile(goodFile, srv.KeyJSON(t, srv.Key), 0o600) != nil || os.WriteFile(badFile, badKey, 0o600) != nil {
				t.Fatal("writing the key files")
			}
			env := func(file string) map[string]string {
				return map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": file, "STORAGE_EMULATOR_HOST": srv.URL}
			}
			return bucketKind{"gs://proof-media/acme", env(goodFile), env(badFile), []string{string(badKey), srv.Token, "PRIVATE KEY"}}
		},
		"azblob": func(t *testing.T) bucketKind {
			endpoint := mediatest.StartAzurite(t)
			mediatest.AzuriteContainer(t, endpoint, "proof-media")
			const wrong = "d3Jvbmcga2V5IG5ldmVyIHByaW50ZWQ="
			env := func(key string) map[string]string {
				return map[string]string{"AZURE_STORAGE_CONNECTION_STRING": "DefaultEndpointsProtocol=http;AccountName=" + mediatest.AzuriteAccount +
					";AccountKey=" + key + ";BlobEndpoint=" + endpoint + ";"}
			}
			return bucketKind{"azblob://proof-media/acme", env(mediatest.AzuriteKey), env(wrong), []string{mediatest.AzuriteKey, wrong}}
		},
	}
}

// TestProofPushMediaToEveryBucket pushes a pack with a screenshot to each
// kind of bucket on its test server: a wrong credential is refused in
// words that print no credential, and neither the bucket nor the ledger
// got anything; the right one lands the screenshot under its
// content-addressed key, the ledger copy names it, and the lifecycle rule
// is set or its note says why not, without the credential.
func TestProofPushMediaToEveryBucket(t *testing.T) {
	t.Parallel()
	for name, start := range bucketKinds(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			kind := start(t)
			f := newFixture(t)
			shot := []byte("\x89PNG the deductible on the summary page, " + name)
			dir := f.checkout(story, pr, map[string][]byte{"screens/1.png": shot})
			push := func(env map[string]string) (*Result, error) {
				return Push(f.ctx, Options{Client: f.gh, Owner: owner, Repo: repo, Story: story, Checkout: dir, Media: true,
					MediaURL: kind.url, RetentionDays: 30, Getenv: func(k string) string { return env[k] }})
			}
			key := "acme/acme/benefits/sha256/" + sha256Hex(shot) + ".png"
			cred, err := mediastore.CredentialFromEnv(kind.url, func(k string) string { return kind.good[k] })
			if err != nil {
				t.Fatal(err)
			}
			store, err := mediastore.Open(kind.url, cred)
			if err != nil {
				t.Fatal(err)
			}

			_, err = push(kind.bad)
			if !errors.Is(err, mediastore.ErrCredentialRefused) || !IsRefusal(err) || !strings.Contains(err.Error(), "the ledger was not touched") {
				t.Fatalf("a wrong credential: %v, want a refusal", err)
			}
			for _, s := range kind.secrets {
				if strings.Contains(err.Error(), s) {
					t.Fatalf("the refusal prints a credential: %v", err)
				}
			}
			if _, err := store.Stat(f.ctx, key); !errors.Is(err, mediastore.ErrNotFound) {
				t.Fatalf("after the refusal the bucket holds %s (%v)", key, err)
			}
			if _, err := ledgerFile(f, packPath(f, story, pr)+"/pack.json"); !ghx.IsNotFound(err) {
				t.Fatalf("after the refusal the ledger holds the pack (%v)", err)
			}

			res, err := push(kind.good)
			if err != nil {
				t.Fatal(err)
			}
			if res.Media["screens/1.png"] != key || res.Bucket != kind.url {
				t.Fatalf("copied %v to %s, want %s", res.Media, res.Bucket, key)
			}
			if got, err := store.Get(f.ctx, key); err != nil || string(got) != string(shot) {
				t.Fatalf("the bucket's %s: %q %v", key, got, err)
			}
			raw, err := ledgerFile(f, res.Path+"/pack.json")
			if err != nil {
				t.Fatal(err)
			}
			landed, err := proof.Decode(raw)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, a := range landed.Artifacts {
				if a.Path == "screens/1.png" {
					found = a.Store == proof.StoreBucket && a.Object == key
				}
			}
			if !found {
				t.Fatalf("the ledger's pack does not name %s in the bucket", key)
			}
			// None of the test servers keeps lifecycle rules (Azure's are
			// the account's): each push says so in words.
			if !strings.Contains(res.LifecycleNote, "lifecycle rule") {
				t.Errorf("lifecycle note %q", res.LifecycleNote)
			}
			for _, s := range kind.secrets {
				if strings.Contains(res.LifecycleNote, s) {
					t.Fatalf("the lifecycle note prints a credential: %s", res.LifecycleNote)
				}
			}
		})
	}
}
