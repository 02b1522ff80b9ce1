package proofpush

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/actions/ledgerpack"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/proof"
)

const story, pr = sandbox.DemoStoryReview, sandbox.DemoPRReview

// refused runs a push that must be refused with want, and checks that
// nothing was written: the ledger did not move and no comment appeared.
func refused(t *testing.T, f *fixture, o Options, want error, words string) error {
	t.Helper()
	before, comments := f.srv.BranchSHA(ledgerpack.LedgerBranch), len(f.comments(pr))
	o.Client, o.Owner, o.Repo = f.gh, owner, repo
	_, err := Push(f.ctx, o)
	if !errors.Is(err, want) || !strings.Contains(err.Error(), words) {
		t.Fatalf("got %v, want %v saying %q", err, want, words)
	}
	if !strings.Contains(err.Error(), "othing was pushed") {
		t.Errorf("the refusal does not say nothing was pushed: %v", err)
	}
	if f.srv.BranchSHA(ledgerpack.LedgerBranch) != before || len(f.comments(pr)) != comments {
		t.Fatal("a refused push wrote to GitHub")
	}
	return err
}

func TestProofPushRefusesCI(t *testing.T) {
	f := newFixture(t)
	refused(t, f, Options{Story: story, Checkout: f.checkout(story, pr, nil), CI: true}, ErrCIPush, "CI writes nothing to the ledger")
}

func TestProofPushRefusesNoPack(t *testing.T) {
	f := newFixture(t)
	refused(t, f, Options{Story: story, Checkout: t.TempDir()}, ErrNoLocalPack, "aayu verify 5 builds it")
}

func TestProofPushRefusesAPackForAnotherStory(t *testing.T) {
	f := newFixture(t)
	dir := f.checkout(story, pr, nil)
	if err := os.Rename(Dir(dir, story), Dir(dir, 99)); err != nil {
		t.Fatal(err)
	}
	refused(t, f, Options{Story: 99, Checkout: dir}, ErrOtherStory, "names story 5, not 99")
}

func TestProofPushRefusesTamperedPack(t *testing.T) {
	f := newFixture(t)
	dir := f.checkout(story, pr, nil)
	if err := os.WriteFile(filepath.Join(Dir(dir, story), "artifacts", "reports", "vet.txt"), []byte("edited after aayu verify built it\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	refused(t, f, Options{Story: story, Checkout: dir}, ledgerpack.ErrPackIntegrity, "reports/vet.txt")
}

func TestProofPushRefusesMediaWithoutBucket(t *testing.T) {
	f := newFixture(t)
	dir := f.checkout(story, pr, map[string][]byte{"screens/home.png": []byte("\x89PNG home screen")})
	// --media with no [proof] media: refused in words, whatever the pack holds.
	refused(t, f, Options{Story: story, Checkout: dir, Media: true}, proof.ErrMediaRefused, "[proof] media names, and none is set")
	// Without --media a pack whose media would go to git is refused too,
	// naming the file.
	addMedia(t, Dir(dir, story), "recordings/approve.webm", []byte("WEBM"), proof.StoreGit)
	refused(t, f, Options{Story: story, Checkout: dir}, proof.ErrMediaRefused, "recordings/approve.webm (store git)")
}

func TestProofPushRefusesBucketWithoutCredential(t *testing.T) {
	f := newFixture(t)
	dir := f.checkout(story, pr, map[string][]byte{"screens/home.png": []byte("\x89PNG home screen")})
	_, vars := s3Server(t)
	delete(vars, "AWS_SECRET_ACCESS_KEY")
	err := refused(t, f, Options{Story: story, Checkout: dir, Media: true, MediaURL: "s3://proof-media/acme",
		Getenv: func(k string) string { return vars[k] }}, ErrNoBucketCredential, "AWS_SECRET_ACCESS_KEY")
	if strings.Contains(err.Error(), vars["AWS_ACCESS_KEY_ID"]) {
		t.Fatalf("the refusal prints the access key: %v", err)
	}
}

// TestProofPushRoundTrip pushes the local pack on the sandbox and reads it
// back: every data artifact is on the ledger with the hash pack.json
// gives, the ledger's pack.json says advisory, and the pull request has
// the push's own comment, which the gate's marker never matches.
func TestProofPushRoundTrip(t *testing.T) {
	f := newFixture(t)
	shot := []byte("\x89PNG kept by hash only without --media")
	dir := f.checkout(story, pr, nil)
	// A media file kept by hash only is fine without --media.
	addMedia(t, Dir(dir, story), "screens/none.png", shot, proof.StoreNone)
	res, err := Push(f.ctx, Options{Client: f.gh, Owner: owner, Repo: repo, Story: story, Checkout: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := packPath(f, story, pr)
	if res.Path != want || f.srv.BranchSHA(ledgerpack.LedgerBranch) != res.Commit {
		t.Fatalf("landed at %s (commit %s), want %s at the ledger's tip", res.Path, res.Commit, want)
	}
	local, _, err := proof.ReadPackDir(Dir(dir, story), proof.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := ledgerFile(f, want+"/pack.json")
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != res.PackSHA256 {
		t.Fatal("the ledger's pack.json is not the one the push reports")
	}
	landed, err := proof.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if landed.Authority.Kind != proof.AuthorityAdvisory || landed.Authority.Writer != "founder (aayu proof push)" {
		t.Fatalf("the ledger's pack says %+v", landed.Authority)
	}
	for _, a := range local.Artifacts {
		b, err := ledgerFile(f, want+"/artifacts/"+a.Path)
		if proof.IsMedia(a) {
			if !ghx.IsNotFound(err) {
				t.Errorf("media %s reached the ledger (%v)", a.Path, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("the ledger lacks %s: %v", a.Path, err)
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != a.SHA256 || int64(len(b)) != a.Size {
			t.Errorf("%s on the ledger does not match its hash in pack.json", a.Path)
		}
	}
	var gate, advisory []*github.IssueComment
	for _, c := range f.comments(pr) {
		if hasLine(c.GetBody(), gatecomment.Marker) {
			gate = append(gate, c)
		}
		if hasLine(c.GetBody(), gatecomment.AdvisoryMarker) {
			advisory = append(advisory, c)
		}
	}
	if len(advisory) != 1 || len(gate) != 0 {
		t.Fatalf("want one advisory comment and no gate comment, got %d and %d", len(advisory), len(gate))
	}
	body := advisory[0].GetBody()
	if advisory[0].GetUser().GetLogin() != "founder" || !strings.Contains(body, "Advisory pack") || !strings.Contains(body, "never counts for ship") {
		t.Fatalf("the advisory comment by %s says:\n%s", advisory[0].GetUser().GetLogin(), body)
	}
	if !strings.Contains(body, res.PackSHA256) {
		t.Errorf("the advisory comment does not name the pack's hash %s:\n%s", res.PackSHA256, body)
	}

	// The same pack pushed again commits nothing and keeps one comment.
	again, err := Push(f.ctx, Options{Client: f.gh, Owner: owner, Repo: repo, Story: story, Checkout: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !again.Unchanged || again.Commit != "" || f.srv.BranchSHA(ledgerpack.LedgerBranch) != res.Commit || again.PackSHA256 != res.PackSHA256 {
		t.Fatalf("a second push of the same pack: unchanged=%v commit %q, ledger tip %s (was %s)", again.Unchanged, again.Commit, f.srv.BranchSHA(ledgerpack.LedgerBranch), res.Commit)
	}
	n := 0
	for _, c := range f.comments(pr) {
		if hasLine(c.GetBody(), gatecomment.AdvisoryMarker) {
			n++
		}
	}
	if n != 1 || again.Comment.ID != advisory[0].GetID() {
		t.Fatalf("a second push left %d advisory comments (kept %d, first %d)", n, again.Comment.ID, advisory[0].GetID())
	}
}

// TestProofPushMediaToS3 copies the pack's media to a bucket on a real
// S3-speaking server with the real client: the object's bytes are the
// artifact's, the ledger copy says store bucket and names the key, and the
// bytes never reach the ledger.
func TestProofPushMediaToS3(t *testing.T) {
	f := newFixture(t)
	backend, vars := s3Server(t)
	shot, clip := []byte("\x89PNG the balance on the home page"), []byte("WEBM one-click approval")
	dir := f.checkout(story, pr, map[string][]byte{"screens/home.png": shot})
	addMedia(t, Dir(dir, story), "recordings/approve.webm", clip, proof.StoreGit)
	res, err := Push(f.ctx, Options{Client: f.gh, Owner: owner, Repo: repo, Story: story, Checkout: dir, Media: true,
		MediaURL: "s3://proof-media/acme/", RetentionDays: 30, Getenv: func(k string) string { return vars[k] }})
	if err != nil {
		t.Fatal(err)
	}
	wantKeys := map[string]string{
		"screens/home.png":        "acme/acme/benefits/sha256/" + sha256Hex(shot) + ".png",
		"recordings/approve.webm": "acme/acme/benefits/sha256/" + sha256Hex(clip) + ".webm",
	}
	if res.Bucket != "s3://proof-media/acme" || len(res.Media) != 2 {
		t.Fatalf("bucket %q, media %v", res.Bucket, res.Media)
	}
	raw, err := ledgerFile(f, res.Path+"/pack.json")
	if err != nil {
		t.Fatal(err)
	}
	landed, err := proof.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	bodies := map[string][]byte{"screens/home.png": shot, "recordings/approve.webm": clip}
	for _, a := range landed.Artifacts {
		want, ok := bodies[a.Path]
		if !ok {
			continue
		}
		if a.Store != proof.StoreBucket || a.Object != wantKeys[a.Path] || res.Media[a.Path] != a.Object {
			t.Errorf("%s landed as store %q object %q, want bucket %q", a.Path, a.Store, a.Object, wantKeys[a.Path])
		}
		obj, err := backend.GetObject("proof-media", a.Object, nil)
		if err != nil {
			t.Fatalf("the bucket lacks %s: %v", a.Object, err)
		}
		got, _ := io.ReadAll(obj.Contents)
		_ = obj.Contents.Close()
		if !bytes.Equal(got, want) {
			t.Errorf("the object %s holds other bytes than %s", a.Object, a.Path)
		}
		if sum := sha256.Sum256(got); hex.EncodeToString(sum[:]) != a.SHA256 {
			t.Errorf("the object %s does not match the pack's hash", a.Object)
		}
		if _, err := ledgerFile(f, res.Path+"/artifacts/"+a.Path); !ghx.IsNotFound(err) {
			t.Errorf("media %s reached the ledger (%v)", a.Path, err)
		}
	}
	if strings.Contains(res.LifecycleNote, vars["AWS_SECRET_ACCESS_KEY"]) || strings.Contains(res.LifecycleNote, vars["AWS_ACCESS_KEY_ID"]) {
		t.Fatalf("the lifecycle note prints the credential: %s", res.LifecycleNote)
	}
	// The ledger copy still verifies: bucket media are not fetched, and
	// never prove a criterion.
	l, err := ledgerpack.Load(f.ctx, f.gh, owner, repo, story, filepath.Join(t.TempDir(), "pack"), ledgerpack.Caps{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := proof.VerifyDir(f.ctx, l.Dir, proof.Options{Ready: l.Ready, HeadSHA: l.PRHead})
	if err != nil || !r.Verified() {
		t.Fatalf("the pushed pack read back does not verify: %v %v", err, r.Problems)
	}
}

// addMedia adds one media artifact to a local pack already written, as an
// agent adds a screenshot to its preview.
func addMedia(t *testing.T, dir, path string, b []byte, store string) {
	t.Helper()
	p, _, err := proof.ReadPackDir(dir, proof.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{path: b}
	for _, a := range p.Artifacts {
		if files[a.Path], err = os.ReadFile(filepath.Join(dir, "artifacts", filepath.FromSlash(a.Path))); err != nil {
			t.Fatal(err)
		}
	}
	a := proof.ArtifactFromBytes(path, proof.KindRecording, b)
	if strings.HasSuffix(path, ".png") {
		a.Kind = proof.KindScreenshot
	}
	a.Store = store
	p.Artifacts = append(p.Artifacts, a)
	if _, err := proof.WriteLocal(dir, p, files); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) comments(n int) []*github.IssueComment {
	f.t.Helper()
	cs, err := ghx.ListAll(f.ctx, func(o *github.ListOptions) ([]*github.IssueComment, *github.Response, error) {
		return f.gh.Issues.ListComments(f.ctx, owner, repo, n, &github.IssueListCommentsOptions{ListOptions: *o})
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return cs
}

func hasLine(body, line string) bool {
	for _, l := range strings.Split(body, "\n") {
		if strings.TrimRight(l, "\r ") == line {
			return true
		}
	}
	return false
}
