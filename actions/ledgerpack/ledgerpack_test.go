package ledgerpack

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/proof"
)

func TestProofPushVerifyCLI(t *testing.T) {
	f := newFixture(t)
	dir := f.localPack(packSpec{story: sandbox.DemoStoryReview, pr: sandbox.DemoPRReview})
	head := f.srv.HeadSHA(sandbox.DemoPRReview)
	before := f.srv.BranchSHA(LedgerBranch)

	// Under --ci nothing is pushed and the ledger does not move.
	if _, err := PushAdvisory(f.ctx, f.bot, owner, repo, dir, PushOptions{CI: true}); !errors.Is(err, ErrCIPush) {
		t.Fatalf("push with --ci: %v, want ErrCIPush", err)
	}
	if got := f.srv.BranchSHA(LedgerBranch); got != before {
		t.Fatal("a push refused under --ci moved the ledger")
	}

	logDir := t.TempDir()
	pushed, err := PushAdvisory(f.ctx, f.bot, owner, repo, dir, PushOptions{Log: actions.OpenLog(logDir, nil)})
	if err != nil {
		t.Fatalf("push: %v", err)
	}
	want := "proof/5/" + head + "/advisory"
	if pushed.Path != want {
		t.Fatalf("landed at %s, want %s", pushed.Path, want)
	}
	if f.srv.BranchSHA(LedgerBranch) != pushed.Commit {
		t.Fatalf("the ledger tip is %s, the push says %s", f.srv.BranchSHA(LedgerBranch), pushed.Commit)
	}
	for _, p := range []string{"/pack.json", "/artifacts/evidence/criterion-1.jsonl", "/artifacts/evidence/criterion-2.jsonl", "/artifacts/reports/vet.txt"} {
		if _, err := ghx.ReadFile(f.ctx, f.gh, owner, repo, LedgerBranch, want+p); err != nil {
			t.Errorf("the ledger lacks %s%s: %v", want, p, err)
		}
	}
	raw, _ := ghx.ReadFile(f.ctx, f.gh, owner, repo, LedgerBranch, want+"/pack.json")
	landed, err := proof.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if landed.Authority.Kind != proof.AuthorityAdvisory || landed.Authority.Writer != sandbox.BotLogin+" (aayu proof push)" {
		t.Errorf("landed authority %+v, want advisory written by the bot through aayu proof push", landed.Authority)
	}

	// pack STORY reads it back as the story's best pack, and it verifies
	// against the ledger's Ready snapshot and the pull request's head.
	l := f.load(sandbox.DemoStoryReview)
	if l.Kind != proof.AuthorityAdvisory || l.Path != want || l.PRHead != head || l.Ready == nil {
		t.Fatalf("loaded %+v", l.Candidate)
	}
	r := f.verify(l)
	if !r.Verified() || !r.FloorsHold || r.PackSHA256 != pushed.PackSHA256 {
		t.Fatalf("the pushed pack read back does not verify (sha %s, pushed %s): %v", r.PackSHA256, pushed.PackSHA256, r.Problems)
	}

	// Its own comment, under the advisory marker, never the gate's.
	comments := f.comments(sandbox.DemoPRReview)
	adv := withMarker(comments, gatecomment.AdvisoryMarker)
	if len(adv) != 1 || len(withMarker(comments, gatecomment.Marker)) != 0 {
		t.Fatalf("want one advisory comment and no gate comment, got %d and %d", len(adv), len(withMarker(comments, gatecomment.Marker)))
	}
	if adv[0].GetUser().GetLogin() != sandbox.BotLogin || !strings.Contains(adv[0].GetBody(), "never counts for ship") {
		t.Errorf("advisory comment by %s:\n%s", adv[0].GetUser().GetLogin(), adv[0].GetBody())
	}
	// Pushing the same pack again keeps that one comment.
	if _, err := PushAdvisory(f.ctx, f.bot, owner, repo, dir, PushOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := len(withMarker(f.comments(sandbox.DemoPRReview), gatecomment.AdvisoryMarker)); n != 1 {
		t.Fatalf("a second push left %d advisory comments, want 1", n)
	}
	entries, _ := os.ReadDir(logDir)
	if len(entries) == 0 {
		t.Error("the push wrote nothing to the actions log")
	}
}

func TestPushVerifyBucket(t *testing.T) {
	shot := []byte("\x89PNG fake screenshot bytes")
	media := func(store string) packSpec {
		a := proof.ArtifactFromBytes("screens/1.png", proof.KindScreenshot, shot)
		a.Store = store
		if store == proof.StoreBucket {
			a.Object = "acme/benefits/5/screens/1.png"
		}
		return packSpec{story: sandbox.DemoStoryReview, pr: sandbox.DemoPRReview, media: []proof.Artifact{a},
			mediaData: map[string][]byte{"screens/1.png": shot}}
	}
	cases := []struct {
		name, store, bucket string
		refused             bool
	}{
		{"git-stored screenshot without a bucket", proof.StoreGit, "", true},
		{"git-stored screenshot even with a bucket", proof.StoreGit, "s3://acme-proof", true},
		{"bucket-stored screenshot without a bucket", proof.StoreBucket, "", true},
		{"bucket-stored screenshot with a bucket", proof.StoreBucket, "s3://acme-proof", false},
		{"screenshot kept as a hash only", proof.StoreNone, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			dir := f.localPack(media(c.store))
			before := f.srv.BranchSHA(LedgerBranch)
			pushed, err := PushAdvisory(f.ctx, f.bot, owner, repo, dir, PushOptions{MediaBucket: c.bucket})
			if c.refused {
				if !errors.Is(err, proof.ErrMediaRefused) || !strings.Contains(err.Error(), "screens/1.png") {
					t.Fatalf("got %v, want ErrMediaRefused naming screens/1.png", err)
				}
				if f.srv.BranchSHA(LedgerBranch) != before {
					t.Fatal("a refused push moved the ledger")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Media never reach the ledger: only their hash, as store none.
			if _, err := ghx.ReadFile(f.ctx, f.gh, owner, repo, LedgerBranch, pushed.Path+"/artifacts/screens/1.png"); !ghx.IsNotFound(err) {
				t.Fatalf("the screenshot's bytes reached the ledger (err %v)", err)
			}
			raw, _ := ghx.ReadFile(f.ctx, f.gh, owner, repo, LedgerBranch, pushed.Path+"/pack.json")
			p, _ := proof.Decode(raw)
			for _, a := range p.Artifacts {
				if a.Path == "screens/1.png" && a.Store != proof.StoreNone {
					t.Fatalf("the ledger copy stores the screenshot as %q", a.Store)
				}
			}
			if r := f.verify(f.load(sandbox.DemoStoryReview)); !r.Verified() || r.ArtifactsNotStored != 1 {
				t.Fatalf("read back: verified=%v not stored=%d %v", r.Verified(), r.ArtifactsNotStored, r.Problems)
			}
		})
	}
}

func TestPushRefusesABrokenLocalPack(t *testing.T) {
	f := newFixture(t)
	dir := f.localPack(packSpec{story: sandbox.DemoStoryReview, pr: sandbox.DemoPRReview})
	if err := os.WriteFile(filepath.Join(dir, "artifacts", "reports", "vet.txt"), []byte("edited after the pack was built\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := f.srv.BranchSHA(LedgerBranch)
	_, err := PushAdvisory(f.ctx, f.bot, owner, repo, dir, PushOptions{})
	if !errors.Is(err, ErrPackIntegrity) || !strings.Contains(err.Error(), "reports/vet.txt") {
		t.Fatalf("got %v, want ErrPackIntegrity naming reports/vet.txt", err)
	}
	if f.srv.BranchSHA(LedgerBranch) != before {
		t.Fatal("a refused push moved the ledger")
	}
}

func TestBestPackSelection(t *testing.T) {
	f := newFixture(t)
	// The seeded ledger: story 14 has an authoritative pack, story 3 and
	// story 7 an advisory one each (7's does not verify).
	l := f.load(sandbox.DemoReplacement)
	if l.Kind != proof.AuthorityAuthoritative {
		t.Fatalf("story 14: best is %s", l.Candidate)
	}
	if r := f.verify(l); !r.Verified() {
		t.Errorf("story 14's shipped pack does not verify: %v", r.Problems)
	}
	if r := f.verify(f.load(sandbox.DemoStoryReady)); !r.Verified() {
		t.Errorf("story 3's advisory pack does not verify: %v", r.Problems)
	}
	if r := f.verify(f.load(sandbox.DemoStoryStopped)); r.Verified() {
		t.Error("story 7's advisory pack verifies; the demo says it does not")
	}

	// A newer advisory never beats an authoritative pack. (These packs name
	// no pull request, so the pushes write no comment.)
	newer := f.localPack(packSpec{story: sandbox.DemoReplacement, head: strings.Repeat("f", 40)})
	if _, err := PushAdvisory(f.ctx, f.bot, owner, repo, newer, PushOptions{}); err != nil {
		t.Fatal(err)
	}
	all, err := Find(f.ctx, f.gh, owner, repo, sandbox.DemoReplacement, Caps{})
	if err != nil || len(all) != 2 {
		t.Fatalf("story 14: %d candidates, %v", len(all), err)
	}
	if all[0].Kind != proof.AuthorityAuthoritative || all[1].Kind != proof.AuthorityAdvisory || !all[1].CreatedAt.After(all[0].CreatedAt) {
		t.Fatalf("story 14 ranked %v", all)
	}

	// Without an authoritative pack the newest advisory wins, by created_at
	// and not by folder name: the older push sorts last by name.
	seeded := f.srv.HeadSHA(sandbox.DemoPRReady)
	older := f.localPack(packSpec{story: sandbox.DemoStoryReady, head: strings.Repeat("f", 40), created: time.Now().Add(-1000 * time.Hour)})
	if _, err := PushAdvisory(f.ctx, f.bot, owner, repo, older, PushOptions{}); err != nil {
		t.Fatal(err)
	}
	if l := f.load(sandbox.DemoStoryReady); l.Head != seeded || len(l.Others) != 1 {
		t.Fatalf("story 3: best is %s (others %v), want the seeded advisory on %s", l.Candidate, l.Others, seeded)
	}
	newest := f.localPack(packSpec{story: sandbox.DemoStoryReady, head: strings.Repeat("0", 40)})
	if _, err := PushAdvisory(f.ctx, f.bot, owner, repo, newest, PushOptions{}); err != nil {
		t.Fatal(err)
	}
	if l := f.load(sandbox.DemoStoryReady); l.Head != strings.Repeat("0", 40) {
		t.Fatalf("story 3: best is %s, want the newest advisory", l.Candidate)
	}

	if _, err := Find(f.ctx, f.gh, owner, repo, 999, Caps{}); !errors.Is(err, ErrNoPack) {
		t.Fatalf("a story with no pack: %v, want ErrNoPack", err)
	}
}

func TestLedgerPackThatLiesDoesNotVerify(t *testing.T) {
	f := newFixture(t)
	l := f.load(sandbox.DemoStoryReady)
	cases := []struct {
		name  string
		bytes []byte
		code  proof.Code
	}{
		{"flipped bytes", nil, proof.CodeHashMismatch},
		{"larger than declared", []byte(strings.Repeat("x", 5000)), proof.CodeSizeMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := l.Path + "/artifacts/evidence/criterion-1.jsonl"
			b, err := ghx.ReadFile(f.ctx, f.gh, owner, repo, LedgerBranch, path)
			if err != nil {
				t.Fatal(err)
			}
			if c.bytes == nil {
				b[3] ^= 1
			} else {
				b = c.bytes
			}
			if _, err := ghx.CommitFiles(f.ctx, f.gh, owner, repo, LedgerBranch, map[string][]byte{path: b}, "tamper", ghx.CommitOptions{}); err != nil {
				t.Fatal(err)
			}
			r := f.verify(f.load(sandbox.DemoStoryReady))
			if r.Verified() || !hasCode(r.Problems, c.code) {
				t.Fatalf("want %s, got %v", c.code, r.Problems)
			}
		})
	}
}

func TestGateArtifact(t *testing.T) {
	f := newFixture(t)
	head := f.srv.HeadSHA(sandbox.DemoPRReady)
	ready, _, err := ReadReady(f.ctx, f.gh, owner, repo, sandbox.DemoStoryReady)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		run      int64
		verified bool
		expired  bool
	}{
		{"qualifying", f.srv.RunID(sandbox.RunQualifying), true, false},
		{"newest by its record (tampered)", 0, false, false},
		{"expired", f.srv.RunID(sandbox.RunExpired), false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "gate")
			g, err := GateArtifact(f.ctx, f.gh, owner, repo, sandbox.DemoPRReady, head, dir, GateOptions{RunID: c.run})
			if c.expired {
				if !IsExpired(err) || !strings.Contains(err.Error(), "expired") {
					t.Fatalf("got %v, want an expiry in words", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r, err := proof.VerifyDir(f.ctx, g.Dir, proof.Options{Ready: ready, HeadSHA: head})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verified() != c.verified {
				t.Fatalf("run %d: verified=%v, want %v: %v", g.RunID, r.Verified(), c.verified, r.Problems)
			}
		})
	}
}

func hasCode(ps []proof.Problem, c proof.Code) bool {
	for _, p := range ps {
		if p.Code == c {
			return true
		}
	}
	return false
}

func (f *fixture) comments(pr int) []*github.IssueComment {
	f.t.Helper()
	cs, err := ghx.ListAll(f.ctx, func(o *github.ListOptions) ([]*github.IssueComment, *github.Response, error) {
		return f.gh.Issues.ListComments(f.ctx, owner, repo, pr, &github.IssueListCommentsOptions{ListOptions: *o})
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return cs
}

func withMarker(cs []*github.IssueComment, marker string) []*github.IssueComment {
	var out []*github.IssueComment
	for _, c := range cs {
		if hasMarkerLine(c.GetBody(), marker) {
			out = append(out, c)
		}
	}
	return out
}

func hasMarkerLine(body, marker string) bool {
	for _, l := range strings.Split(body, "\n") {
		if l == marker {
			return true
		}
	}
	return false
}

// TestPushUnderHumanFallbackIsTagged: an advisory push an agent lane makes
// under the person's token carries the human-fallback trailer in its ledger
// commit, so aayu audit lists it (seed 001); a push without it does not.
func TestPushUnderHumanFallbackIsTagged(t *testing.T) {
	for _, trailers := range [][]string{{ghx.HumanFallbackTrailer}, nil} {
		f := newFixture(t)
		dir := f.localPack(packSpec{story: sandbox.DemoStoryReview, pr: sandbox.DemoPRReview})
		pushed, err := PushAdvisory(f.ctx, f.gh, owner, repo, dir, PushOptions{Trailers: trailers})
		if err != nil {
			t.Fatal(err)
		}
		c, _, err := f.gh.Git.GetCommit(f.ctx, owner, repo, pushed.Commit)
		if err != nil {
			t.Fatal(err)
		}
		tagged := strings.HasSuffix(strings.TrimSpace(c.GetMessage()), ghx.HumanFallbackTrailer)
		if tagged != (trailers != nil) {
			t.Errorf("trailers %v: the ledger commit's message is\n%s", trailers, c.GetMessage())
		}
	}
}
