package ship

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions/mediastore"
	"github.com/aayudha/aayu/actions/mediastore/mediatest"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/proof"
)

// TestShipCopiesMediaToEveryBucket ships the demo's ready pull request
// whose gate pack holds a screenshot, with [proof] media naming each kind
// of bucket on its test server. A wrong credential is refused at the pack
// gate, before anything is written: its words print no credential,
// nothing is merged, nothing lands in the bucket. With the right one the
// screenshot is copied before the merge under its content-addressed key,
// and the ledger's authoritative pack names it in the bucket.
func TestShipCopiesMediaToEveryBucket(t *testing.T) {
	t.Parallel()
	pr := sandbox.DemoPRReady
	shot := []byte("\x89PNG the deductible shows on the summary page")
	sum := sha256.Sum256(shot)
	key := "acme/" + owner + "/" + repo + "/sha256/" + hex.EncodeToString(sum[:]) + ".png"
	for name, start := range mediatest.Kinds() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			kind := start(t)
			f := newBotFixture(t)
			f.review("founder", pr, "APPROVE", "")
			if err := f.srv.AddRunPackMedia(f.srv.RunID(sandbox.RunQualifying), "screens/1.png", proof.KindScreenshot, shot); err != nil {
				t.Fatal(err)
			}
			f.baseConfig("[proof]\n", "[proof]\nmedia = \""+kind.URL+"\"\n")
			cred, err := mediastore.CredentialFromEnv(kind.URL, envOf(kind.Good))
			if err != nil {
				t.Fatal(err)
			}
			store, err := mediastore.Open(kind.URL, cred)
			if err != nil {
				t.Fatal(err)
			}

			cfg := f.config("founder")
			cfg.Env = envOf(kind.Bad)
			before := f.snapshot(pr)
			res, _, err := f.ship(cfg, pr)
			if err != nil || res.ExitCode != ExitRefused || !hasWords(res.Refusals, "refused the credential") || !hasWords(res.Refusals, "nothing was merged") {
				t.Fatalf("a wrong credential: err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
			}
			for _, s := range kind.Secrets {
				if hasWords(res.Refusals, s) {
					t.Fatalf("the refusal prints a credential: %q", res.Refusals)
				}
			}
			f.assertUnchanged(before, pr)
			if _, err := store.Stat(context.Background(), key); !errors.Is(err, mediastore.ErrNotFound) {
				t.Fatalf("after the refusal the bucket holds %s (%v)", key, err)
			}

			cfg.Env = envOf(kind.Good)
			res, _, err = f.ship(cfg, pr)
			if err != nil || res.ExitCode != ExitShipped {
				t.Fatalf("err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
			}
			if got, err := store.Get(context.Background(), key); err != nil || string(got) != string(shot) {
				t.Fatalf("the bucket's %s: %q %v", key, got, err)
			}
			raw, err := ghx.ReadFile(context.Background(), f.client("founder"), owner, repo, "ledger", res.LedgerDir+"/pack.json")
			if err != nil {
				t.Fatal(err)
			}
			named, err := mediatest.NamesInBucket(raw, "screens/1.png", key)
			if err != nil {
				t.Fatal(err)
			}
			if !named {
				t.Fatalf("the authoritative pack does not name %s in the bucket:\n%s", key, raw)
			}
			if _, err := ghx.ReadFile(context.Background(), f.client("founder"), owner, repo, "ledger", res.LedgerDir+"/artifacts/screens/1.png"); !ghx.IsNotFound(err) {
				t.Fatalf("the screenshot reached the ledger (%v)", err)
			}
			if strings.Contains(string(raw), "never-printed") {
				t.Fatal("the pack holds a credential")
			}
		})
	}
}

// TestShipResumedAfterTheMergeCopiesTheMediaAtLanding: a ship killed right
// after its merge is finished by the next one, which copies the media
// again at landing (write-once: the same bytes under the same key are
// kept) so the authoritative pack still names the object; here the
// object was removed in between, and is there again.
func TestShipResumedAfterTheMergeCopiesTheMediaAtLanding(t *testing.T) {
	t.Parallel()
	pr := sandbox.DemoPRReady
	shot := []byte("\x89PNG the summary page after a crash")
	sum := sha256.Sum256(shot)
	key := "acme/" + owner + "/" + repo + "/sha256/" + hex.EncodeToString(sum[:]) + ".png"
	kind := mediatest.Kinds()["s3"](t)
	f := newBotFixture(t)
	f.review("founder", pr, "APPROVE", "")
	if err := f.srv.AddRunPackMedia(f.srv.RunID(sandbox.RunQualifying), "screens/1.png", proof.KindScreenshot, shot); err != nil {
		t.Fatal(err)
	}
	f.baseConfig("[proof]\n", "[proof]\nmedia = \""+kind.URL+"\"\n")
	store := must(mediastore.Open(kind.URL, must(mediastore.CredentialFromEnv(kind.URL, envOf(kind.Good)))))
	cfg := f.config("founder")
	cfg.Env = envOf(kind.Good)
	killed := errors.New("killed")
	cfg.AfterStep = func(g GateID) error {
		if g == GateMerge {
			return killed
		}
		return nil
	}
	if res, _, err := f.ship(cfg, pr); !errors.Is(err, killed) || !res.Merged {
		t.Fatalf("first ship: err %v, merged %v", err, res.Merged)
	}
	if err := store.Delete(context.Background(), key); err != nil {
		t.Fatalf("the merge's copy is not in the bucket: %v", err)
	}
	cfg.AfterStep = nil
	res, _, err := f.ship(cfg, pr)
	if err != nil || res.ExitCode != ExitShipped || !res.Resumed {
		t.Fatalf("second ship: err %v, exit %d, resumed %v, refusals %q", err, res.ExitCode, res.Resumed, res.Refusals)
	}
	if got, err := store.Get(context.Background(), key); err != nil || string(got) != string(shot) {
		t.Fatalf("the bucket's %s after the resumed ship: %q %v", key, got, err)
	}
	raw, err := ghx.ReadFile(context.Background(), f.client("founder"), owner, repo, "ledger", res.LedgerDir+"/pack.json")
	if err != nil || !strings.Contains(string(raw), `"object": "`+key+`"`) {
		t.Fatalf("the authoritative pack does not name %s (%v):\n%s", key, err, raw)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
