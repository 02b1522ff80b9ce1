package e2e

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/actions/ledgerpack"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/tui"
)

// proofPushCheckout writes .aayudha/proof/STORY/ into a fresh checkout for
// the demo's story 5 (pull request 6), as aayu verify would build it: every
// criterion of the ledger's Ready snapshot proven by test events, every
// floor holding, and one screenshot beside it kept by hash only. The
// gate's own pack for that head has a coverage floor that does not hold.
func proofPushCheckout(t *testing.T, home string) (dir, head string) {
	t.Helper()
	c := sandboxAs(t, home, "founder")
	ctx := context.Background()
	ready, _, err := ledgerpack.ReadReady(ctx, c, "acme", "benefits", sandbox.DemoStoryReview)
	if err != nil || ready == nil {
		t.Fatalf("story 5's Ready snapshot: %v", err)
	}
	pr, _, err := c.PullRequests.Get(ctx, "acme", "benefits", sandbox.DemoPRReview)
	if err != nil {
		t.Fatal(err)
	}
	closeSandboxes(t)
	head = pr.GetHead().GetSHA()
	files := map[string][]byte{"reports/vet.txt": []byte("go vet: no findings\n"), "screens/balance.png": []byte("\x89PNG the copay on screen")}
	p := &proof.Pack{Schema: 1, Repo: "acme/benefits", Story: sandbox.DemoStoryReview, PR: sandbox.DemoPRReview, PRHeadSHA: head,
		Seat: "ai-native-engineer", Host: "cli", Identity: proof.IdentityHuman, Authority: proof.Authority{Kind: proof.AuthorityAdvisory},
		CompletionGoalHash: ready.RecordedHash, CreatedAt: time.Now().UTC().Format(time.RFC3339)}
	for _, cr := range ready.Criteria {
		path := proof.EvidencePath(cr.ID)
		ev := `"Package":"example.com/benefits","Test":"TestCriterion` + strconv.Itoa(cr.ID) + `"}` + "\n"
		files[path] = []byte(`{"Action":"run",` + ev + `{"Action":"pass",` + ev)
		p.Criteria = append(p.Criteria, proof.Criterion{ID: cr.ID, Evidence: []string{path}})
		p.Artifacts = append(p.Artifacts, proof.ArtifactFromBytes(path, proof.KindAPITrace, files[path]))
	}
	p.Artifacts = append(p.Artifacts, proof.ArtifactFromBytes("reports/vet.txt", proof.KindReport, files["reports/vet.txt"]))
	shot := proof.ArtifactFromBytes("screens/balance.png", proof.KindScreenshot, files["screens/balance.png"])
	shot.Store = proof.StoreNone
	p.Artifacts = append(p.Artifacts, shot)
	ran, zero := float64(len(ready.Criteria)), 0.0
	p.Checks = []proof.Check{{Floor: "tests", Result: proof.ResultPass, Value: &ran, Tool: "go test -json", Version: "go1.26.8", Network: proof.NetworkIsolated},
		{Floor: "vet", Result: proof.ResultPass, Value: &zero, Threshold: &zero, Tool: "go vet", Version: "go1.26.8", Network: proof.NetworkIsolated}}
	dir = t.TempDir()
	if _, err := proof.WriteLocal(filepath.Join(dir, ".aayudha", "proof", "5"), p, files); err != nil {
		t.Fatal(err)
	}
	return dir, head
}

// TestProofPushCLI drives `aayu proof push` as a person runs it, in the
// checkout that holds the pack, against the sandbox GitHub and a real
// S3-speaking server: each refusal writes nothing and says why; the push
// lands the pack, copies its screenshot to the bucket and comments; and
// afterwards neither ship nor the inbox takes the advisory pack for the
// gate's (TestProofPushNeverCountsAsTheGate below).
//
// It must not run in parallel: proof push reads the working directory,
// which t.Chdir sets for the whole process.
func TestProofPushCLI(t *testing.T) {
	home := t.TempDir()
	dir, head := proofPushCheckout(t, home)
	t.Chdir(dir)
	backend := s3mem.New()
	s3 := httptest.NewServer(gofakes3.New(backend, gofakes3.WithAutoBucket(true)).Server())
	defer s3.Close()
	vars := func() map[string]string {
		return map[string]string{"HOME": home, "AWS_ACCESS_KEY_ID": "AKIAPROOFPUSHTEST", "AWS_SECRET_ACCESS_KEY": "s3cr3t-never-printed",
			"AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL_S3": s3.URL}
	}
	ledgerTip := func() string {
		c := sandboxAs(t, home, "founder")
		defer closeSandboxes(t)
		ref, _, err := c.Git.GetRef(context.Background(), "acme", "benefits", "heads/"+ledgerpack.LedgerBranch)
		if err != nil {
			t.Fatal(err)
		}
		return ref.GetObject().GetSHA()
	}
	before := ledgerTip()
	bucket := "--set=proof.media=s3://proof-media/acme"
	for _, c := range []struct {
		name string
		args []string
		code int
		say  string
	}{
		{"refuses --ci", []string{"proof", "push", "5", "--ci"}, tui.ExitRefused, "refuses --ci"},
		{"refuses no pack", []string{"proof", "push", "9"}, tui.ExitRefused, "aayu verify 9 builds it"},
		{"refuses media without a bucket", []string{"proof", "push", "5", "--media"}, tui.ExitRefused, "media refused"},
		{"refuses dry run", []string{"proof", "push", "5", "--dry-run"}, tui.ExitUsage, "--dry-run is not built"},
		{"usage without push", []string{"proof", "5"}, tui.ExitUsage, "the aayu proof commands are comment, push, verify"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runAayuEnv(t, vars(), append([]string{"--sandbox"}, c.args...)...)
			if code != c.code || !strings.Contains(out+errOut, c.say) {
				t.Fatalf("exit %d, want %d saying %q:\n%s%s", code, c.code, c.say, out, errOut)
			}
		})
	}
	if ledgerTip() != before {
		t.Fatal("a refused push moved the ledger")
	}

	code, out, errOut := runAayuEnv(t, vars(), "--sandbox", "proof", "push", "5", "--media", bucket)
	if code != tui.ExitOK {
		t.Fatalf("push: exit %d:\n%s%s", code, out, errOut)
	}
	shot := sha256.Sum256([]byte("\x89PNG the copay on screen"))
	key := "acme/acme/benefits/sha256/" + hex.EncodeToString(shot[:]) + ".png" // content-addressed
	for _, want := range []string{"landed: the local pack is on the ledger as an advisory pack", "proof/5/" + head + "/advisory",
		"media: 1 copied to s3://proof-media/acme", "screens/balance.png → " + key, "the advisory comment on the pull request", "never counts for ship"} {
		if !strings.Contains(out, want) {
			t.Errorf("the confirmation does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out+errOut, "s3cr3t-never-printed") || strings.Contains(out+errOut, "AKIAPROOFPUSHTEST") {
		t.Fatal("proof push printed the bucket's credential")
	}
	obj, err := backend.HeadObject("proof-media", key)
	if err != nil || obj.Size != int64(len("\x89PNG the copay on screen")) {
		t.Fatalf("the bucket does not hold %s: %v", key, err)
	}

	c := sandboxAs(t, home, "founder")
	raw, err := ghx.ReadFile(context.Background(), c, "acme", "benefits", ledgerpack.LedgerBranch, "proof/5/"+head+"/advisory/pack.json")
	if err != nil {
		t.Fatal(err)
	}
	landed, err := proof.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range landed.Artifacts {
		if a.Path == "screens/balance.png" && (a.Store != proof.StoreBucket || a.Object != key) {
			t.Errorf("the ledger's pack says the screenshot is store %q object %q", a.Store, a.Object)
		}
	}
	closeSandboxes(t)

	// With --sandbox and no endpoint of one's own, the sandbox serves the
	// bucket, reached by the same client.
	code, out, errOut = runAayuEnv(t, map[string]string{"HOME": home}, "--sandbox", "proof", "push", "5", "--media", bucket)
	if code != tui.ExitOK || !strings.Contains(out, "media: 1 copied to s3://proof-media/acme") || !strings.Contains(out, "the sandbox's bucket at http://127.0.0.1:") {
		t.Fatalf("push to the sandbox's bucket: exit %d:\n%s%s", code, out, errOut)
	}

	// A tampered pack is refused with the reason, and nothing moves.
	tip := ledgerTip()
	if err := os.WriteFile(filepath.Join(dir, ".aayudha", "proof", "5", "artifacts", "reports", "vet.txt"), []byte("edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runAayuEnv(t, vars(), "--sandbox", "proof", "push", "5")
	if code != tui.ExitRefused || !strings.Contains(out, "refused: the local pack does not hold together") || !strings.Contains(out, "reports/vet.txt") {
		t.Fatalf("a tampered pack: exit %d:\n%s%s", code, out, errOut)
	}
	if ledgerTip() != tip {
		t.Fatal("a tampered pack moved the ledger")
	}

	t.Run("never counts as the gate", func(t *testing.T) { proofPushNeverCountsAsTheGate(t, home) })
}

// proofPushNeverCountsAsTheGate: after an advisory push whose every floor
// holds, ship still judges pull request 6 by the merge gate's own pack (its
// coverage floor does not hold) and refuses; the inbox still lists 6 as
// waiting for a review, never as ready to ship; and the advisory comment
// carries no line the gate's marker matches.
func proofPushNeverCountsAsTheGate(t *testing.T, home string) {
	c := sandboxAs(t, home, "founder")
	cs, _, err := c.Issues.ListComments(context.Background(), "acme", "benefits", sandbox.DemoPRReview, nil)
	if err != nil {
		t.Fatal(err)
	}
	closeSandboxes(t)
	advisory := 0
	for _, cm := range cs {
		for _, l := range strings.Split(cm.GetBody(), "\n") {
			if strings.TrimRight(l, "\r ") == gatecomment.Marker {
				t.Fatalf("a comment on #6 carries the gate's marker:\n%s", cm.GetBody())
			}
			if l == gatecomment.AdvisoryMarker {
				advisory++
			}
		}
		if strings.HasPrefix(strings.TrimSpace(cm.GetBody()), "Ready to ship") {
			t.Fatalf("a comment on #6 reads as Ready to ship:\n%s", cm.GetBody())
		}
	}
	if advisory != 1 {
		t.Fatalf("#6 has %d advisory comments, want 1", advisory)
	}
	code, out, errOut := runAayuEnv(t, map[string]string{"HOME": home}, "--sandbox", "--plain", "ship", "6")
	if code != tui.ExitRefused || !strings.Contains(out, "the merge gate's pack for this head: refused") || !strings.Contains(out, "a floor does not hold") {
		t.Fatalf("ship 6 after an advisory push: exit %d:\n%s%s", code, out, errOut)
	}
	code, out, errOut = runAayuEnv(t, map[string]string{"HOME": home}, "--sandbox", "inbox", "--list")
	if code != tui.ExitOK || !strings.Contains(out, "PR that needs your review #6") {
		t.Fatalf("inbox --list after an advisory push: exit %d:\n%s%s", code, out, errOut)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "ready to ship #6") {
			t.Fatalf("the inbox takes the advisory pack for the gate's: %s", l)
		}
	}
}

// TestProofPushRefusesABucketTheSandboxDoesNotServe: the demo serves an
// s3:// bucket only, so --media to a gs:// or azblob:// bucket with no test
// server of the person's own named is refused in words, exit 4, and the
// person's real credential never goes to a real bucket from the demo.
func TestProofPushRefusesABucketTheSandboxDoesNotServe(t *testing.T) {
	t.Parallel()
	for _, media := range []string{"gs://proof-media/acme", "azblob://proof-media/acme"} {
		code, out, errOut := runAayuEnv(t, map[string]string{"GOOGLE_OAUTH_ACCESS_TOKEN": "ya29.real-token-never-sent", "AZURE_STORAGE_ACCOUNT": "acme",
			"AZURE_STORAGE_KEY": "cmVhbCBrZXk="}, "--sandbox", "proof", "push", "5", "--media", "--set=proof.media="+media)
		if code != tui.ExitRefused || !strings.Contains(out+errOut, "the sandbox serves an s3:// media bucket only") || strings.Contains(out+errOut, "ya29.real") {
			t.Fatalf("%s: exit %d:\n%s%s", media, code, out, errOut)
		}
	}
}
