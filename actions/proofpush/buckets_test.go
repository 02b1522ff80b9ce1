package proofpush

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions/mediastore"
	"github.com/aayudha/aayu/actions/mediastore/mediatest"
	"github.com/aayudha/aayu/ghx"
)

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestProofPushMediaToEveryBucket pushes a pack with a screenshot to each
// kind of bucket on its test server: a wrong credential is refused in
// words that print no credential, and neither the bucket nor the ledger
// got anything; the right one lands the screenshot under its
// content-addressed key, the ledger copy names it, and the lifecycle rule
// is set or its note says why not, without the credential.
func TestProofPushMediaToEveryBucket(t *testing.T) {
	t.Parallel()
	for name, start := range mediatest.Kinds() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			kind := start(t)
			f := newFixture(t)
			shot := []byte("\x89PNG the deductible on the summary page, " + name)
			dir := f.checkout(story, pr, map[string][]byte{"screens/1.png": shot})
			push := func(env map[string]string) (*Result, error) {
				return Push(f.ctx, Options{Client: f.gh, Owner: owner, Repo: repo, Story: story, Checkout: dir, Media: true,
					MediaURL: kind.URL, RetentionDays: 30, Getenv: func(k string) string { return env[k] }})
			}
			key := "acme/acme/benefits/sha256/" + sha256Hex(shot) + ".png"
			cred, err := mediastore.CredentialFromEnv(kind.URL, func(k string) string { return kind.Good[k] })
			if err != nil {
				t.Fatal(err)
			}
			store, err := mediastore.Open(kind.URL, cred)
			if err != nil {
				t.Fatal(err)
			}

			_, err = push(kind.Bad)
			if !errors.Is(err, mediastore.ErrCredentialRefused) || !IsRefusal(err) || !strings.Contains(err.Error(), "the ledger was not touched") {
				t.Fatalf("a wrong credential: %v, want a refusal", err)
			}
			for _, s := range kind.Secrets {
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

			res, err := push(kind.Good)
			if err != nil {
				t.Fatal(err)
			}
			if res.Media["screens/1.png"] != key || res.Bucket != kind.URL {
				t.Fatalf("copied %v to %s, want %s", res.Media, res.Bucket, key)
			}
			if got, err := store.Get(f.ctx, key); err != nil || string(got) != string(shot) {
				t.Fatalf("the bucket's %s: %q %v", key, got, err)
			}
			raw, err := ledgerFile(f, res.Path+"/pack.json")
			if err != nil {
				t.Fatal(err)
			}
			found, err := mediatest.NamesInBucket(raw, "screens/1.png", key)
			if err != nil {
				t.Fatal(err)
			}
			if !found {
				t.Fatalf("the ledger's pack does not name %s in the bucket", key)
			}
			// None of the test servers keeps lifecycle rules (Azure's are
			// the account's): each push says so in words.
			if !strings.Contains(res.LifecycleNote, "lifecycle rule") {
				t.Errorf("lifecycle note %q", res.LifecycleNote)
			}
			for _, s := range kind.Secrets {
				if strings.Contains(res.LifecycleNote, s) {
					t.Fatalf("the lifecycle note prints a credential: %s", res.LifecycleNote)
				}
			}
		})
	}
}
