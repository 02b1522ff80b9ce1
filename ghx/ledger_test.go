package ghx_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

const ledgerRef = "/repos/acme/benefits/git/refs/heads/ledger"

// moveLedgerFirst is a sandbox hook: before the first `times` updates of
// the ledger ref by CommitFiles, another writer commits to the ledger, so
// CommitFiles finds the branch moved under it.
func moveLedgerFirst(t *testing.T, times int32, moved *atomic.Int32) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		var busy atomic.Bool
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPatch && r.URL.Path == ledgerRef && moved.Load() < times && busy.CompareAndSwap(false, true) {
				other, err := ghx.NewClient(ghx.ClientOptions{APIURL: "http://" + r.Host + "/", Token: ghx.NewToken("sandbox-writer", "test")})
				if err == nil {
					n := moved.Add(1)
					path := fmt.Sprintf("autonomy/other-%d.txt", n)
					_, err = ghx.CommitFiles(r.Context(), other, owner, repo, "ledger", map[string][]byte{path: []byte("the other writer\n")},
						"ledger: the other writer", ghx.CommitOptions{})
				}
				busy.Store(false)
				if err != nil {
					t.Errorf("the concurrent writer: %v", err)
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// TestCommitFilesRebuildsOnAMovedBranch: the ledger moves between
// CommitFiles' read and its update; GitHub's 422 "not a fast forward" makes
// it re-read the tip and commit again on top, never by force, and the real
// git binary then shows both writers' files.
func TestCommitFilesRebuildsOnAMovedBranch(t *testing.T) {
	t.Parallel()
	var moved atomic.Int32
	env := startSandbox(t, envConfig{sandbox: sandbox.Options{StateDir: t.TempDir(), Wrap: moveLedgerFirst(t, 1, &moved)}})
	ctx := context.Background()
	files := map[string][]byte{
		"proof/3/abc/authoritative/ship.json": []byte(`{"pr":4}` + "\n"),
		"autonomy/audit/15.json":              nil, // deleted
	}
	mark := env.served.mark()
	sha, err := ghx.CommitFiles(ctx, env.client, owner, repo, "ledger", files, "ledger: ship PR 4",
		ghx.CommitOptions{Author: &github.CommitAuthor{Name: github.String("Demo Founder"), Email: github.String("founder@example.com")},
			Trailers: []string{ghx.HumanFallbackTrailer}})
	if err != nil {
		t.Fatalf("CommitFiles: %v", err)
	}
	lines, _ := env.served.since(mark)
	var refused int
	for _, l := range lines {
		if strings.HasPrefix(l, "PATCH "+ledgerRef+" 422") {
			refused++
		}
	}
	if moved.Load() != 1 || refused != 1 || env.srv.BranchSHA("ledger") != sha {
		t.Errorf("moved %d times, %d refused updates, ledger at %s, want 1, 1, %s", moved.Load(), refused, env.srv.BranchSHA("ledger"), sha)
	}
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"--git-dir", env.srv.GitDir()}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if got := git("show", "ledger:proof/3/abc/authoritative/ship.json"); got != `{"pr":4}`+"\n" {
		t.Errorf("git show ship.json: %q", got)
	}
	if got := git("show", "ledger:autonomy/other-1.txt"); got != "the other writer\n" {
		t.Errorf("the other writer's file is gone: %q", got)
	}
	if got := git("ls-tree", "-r", "--name-only", "ledger", "autonomy/audit/"); strings.Contains(got, "15.json") {
		t.Errorf("autonomy/audit/15.json was not deleted: %q", got)
	}
	if msg := git("log", "-1", "--format=%an%n%B", "ledger"); !strings.Contains(msg, "Demo Founder\nledger: ship PR 4\n\n"+ghx.HumanFallbackTrailer) {
		t.Errorf("commit: %q", msg)
	}
	if parent := strings.TrimSpace(git("rev-parse", "ledger^")); !strings.Contains(git("show", "--format=%s", "-s", parent), "the other writer") {
		t.Errorf("the commit is not on top of the other writer's")
	}
}

// TestCommitEditAppendsToWhatAnotherWriterLanded: the one ledger writer
// runs its edit again on the tip after the branch moved under it, so an
// append reads the other writer's line and keeps it; and an edit that, at
// the tip, finds nothing to write makes no commit (ErrNothingToWrite).
func TestCommitEditAppendsToWhatAnotherWriterLanded(t *testing.T) {
	t.Parallel()
	var moved atomic.Int32
	env := startSandbox(t, envConfig{sandbox: sandbox.Options{StateDir: t.TempDir(), Wrap: moveLedgerFirst(t, 1, &moved)}})
	ctx := context.Background()
	const path = "autonomy/other-1.txt" // the file the other writer lands
	edits := 0
	appendLine := func(read ghx.ReadAt) (map[string][]byte, error) {
		edits++
		cur, _, err := read(path)
		if err != nil {
			return nil, err
		}
		if strings.Contains(string(cur), "ours\n") {
			return nil, nil
		}
		return map[string][]byte{path: append(cur, "ours\n"...)}, nil
	}
	sha, err := ghx.CommitEdit(ctx, env.client, owner, repo, "ledger", "ledger: append", ghx.CommitOptions{}, appendLine)
	if err != nil {
		t.Fatalf("CommitEdit: %v", err)
	}
	if edits != 2 || moved.Load() != 1 {
		t.Errorf("the edit ran %d times over %d moves, want 2 over 1", edits, moved.Load())
	}
	out, err := exec.Command("git", "--git-dir", env.srv.GitDir(), "show", "ledger:"+path).CombinedOutput()
	if err != nil || string(out) != "the other writer\nours\n" {
		t.Errorf("the append did not keep the other writer's line: %q, %v", out, err)
	}
	again, err := ghx.CommitEdit(ctx, env.client, owner, repo, "ledger", "ledger: append", ghx.CommitOptions{}, appendLine)
	if !errors.Is(err, ghx.ErrNothingToWrite) || env.srv.BranchSHA("ledger") != sha || again != sha {
		t.Errorf("a second append: %v, ledger at %s (was %s), returned %s", err, env.srv.BranchSHA("ledger"), sha, again)
	}
}

// TestCommitFilesGivesUp: a branch that moves before every update wins;
// CommitFiles stops after MaxCommitAttempts and says so, without force.
func TestCommitFilesGivesUp(t *testing.T) {
	t.Parallel()
	var moved atomic.Int32
	env := startSandbox(t, envConfig{sandbox: sandbox.Options{Wrap: moveLedgerFirst(t, 100, &moved)}})
	_, err := ghx.CommitFiles(context.Background(), env.client, owner, repo, "ledger",
		map[string][]byte{"autonomy/samples.jsonl": []byte("{}\n")}, "ledger: sample", ghx.CommitOptions{})
	if !ghx.IsNotFastForward(err) || !strings.Contains(err.Error(), "nothing was forced") {
		t.Errorf("err = %v, want a not-fast-forward after %d attempts", err, ghx.MaxCommitAttempts)
	}
	if moved.Load() != ghx.MaxCommitAttempts {
		t.Errorf("%d attempts, want %d", moved.Load(), ghx.MaxCommitAttempts)
	}
}

// TestLedgerReads: ReadFile and ListTree read what CommitFiles wrote, on a
// new branch too, and a missing path reads as not found.
func TestLedgerReads(t *testing.T) {
	t.Parallel()
	env := startSandbox(t, envConfig{})
	ctx := context.Background()
	big := []byte(strings.Repeat("0123456789abcdef", 4096)) // wraps base64 over many lines
	sha, err := ghx.CommitFiles(ctx, env.client, owner, repo, "scratch/notes",
		map[string][]byte{"a/one.json": []byte("{}\n"), "a/two.bin": big}, "scratch: first", ghx.CommitOptions{})
	if err != nil || env.srv.BranchSHA("scratch/notes") != sha {
		t.Fatalf("a new branch: %v", err)
	}
	got, err := ghx.ReadFile(ctx, env.client, owner, repo, "scratch/notes", "a/two.bin")
	if err != nil || string(got) != string(big) {
		t.Errorf("ReadFile: %d bytes, %v", len(got), err)
	}
	entries, err := ghx.ListTree(ctx, env.client, owner, repo, "scratch/notes", "a")
	if err != nil || len(entries) != 2 || entries[0].Name != "one.json" || entries[0].Type != "file" || entries[1].Size != int64(len(big)) {
		t.Errorf("ListTree: %+v, %v", entries, err)
	}
	root, err := ghx.ListTree(ctx, env.client, owner, repo, "ledger", "")
	if err != nil || len(root) == 0 {
		t.Errorf("ledger root: %+v, %v", root, err)
	}
	for _, e := range root {
		if e.Type != "dir" && e.Type != "file" {
			t.Errorf("root entry %+v", e)
		}
	}
	packs, err := ghx.ListTree(ctx, env.client, owner, repo, "ledger", "proof")
	if err != nil || len(packs) == 0 || packs[0].Type != "dir" {
		t.Errorf("ledger proof/: %+v, %v", packs, err)
	}
	ready, err := ghx.ReadFile(ctx, env.client, owner, repo, "ledger", "specs/3/ready.md")
	if err != nil || !strings.HasPrefix(string(ready), "# Ready: story 3") {
		t.Errorf("ready.md: %.40q, %v", ready, err)
	}
	if _, err := ghx.ReadFile(ctx, env.client, owner, repo, "ledger", "specs/999/ready.md"); !ghx.IsNotFound(err) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := ghx.ListTree(ctx, env.client, owner, repo, "ledger", "specs/999"); !ghx.IsNotFound(err) {
		t.Errorf("missing folder: %v", err)
	}
	if _, err := ghx.ReadFile(ctx, env.client, owner, repo, "ledger", "specs"); err == nil {
		t.Errorf("ReadFile of a folder succeeded")
	}
}

// TestCommitFilesCarriesTextInTheTree: text files ride in the tree request
// as content, with no blob request of their own; bytes a JSON string may
// not carry unchanged (not UTF-8, a NUL) and a file over the inline bound
// are created as blobs first. The real git binary shows every file byte
// for byte.
func TestCommitFilesCarriesTextInTheTree(t *testing.T) {
	t.Parallel()
	env := startSandbox(t, envConfig{sandbox: sandbox.Options{StateDir: t.TempDir()}})
	files := map[string][]byte{
		"notes/a.json":    []byte("{\"é\": \"<&>\"}\r\n"),
		"notes/b.bin":     {0xff, 0xfe, 'x', '\n'},
		"notes/c.txt":     []byte("one\x00two\n"),
		"notes/d.txt":     []byte(strings.Repeat("x", 300<<10)),
		"notes/e.jsonl":   []byte("{}\n{}\n"),
		"notes/empty.txt": {},
	}
	mark := env.served.mark()
	sha, err := ghx.CommitFiles(context.Background(), env.client, owner, repo, "ledger", files, "ledger: notes", ghx.CommitOptions{})
	if err != nil || env.srv.BranchSHA("ledger") != sha {
		t.Fatalf("CommitFiles: %v (ledger at %s, returned %s)", err, env.srv.BranchSHA("ledger"), sha)
	}
	lines, _ := env.served.since(mark)
	blobs := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "POST /repos/acme/benefits/git/blobs ") {
			blobs++
		}
	}
	if blobs != 3 {
		t.Errorf("%d blob requests, want 3 (the binary, the NUL, the big file):\n%s", blobs, strings.Join(lines, "\n"))
	}
	for p, want := range files {
		out, err := exec.Command("git", "--git-dir", env.srv.GitDir(), "cat-file", "blob", "ledger:"+p).Output()
		if err != nil || string(out) != string(want) {
			t.Errorf("%s on the ledger: %d bytes (%v), want %d bytes as sent", p, len(out), err, len(want))
		}
	}
}

// TestCommitFilesStartsFromTheTipGiven: with CommitOptions.Tip the first
// attempt reads nothing before it builds (the tree on the given tree, the
// commit on the given tip); when another writer moved the branch since the
// tip was read, GitHub refuses the move (422), the branch is read again
// and the commit rebuilt on top, never forced, and Unless is asked at each
// tip the commit is built on.
func TestCommitFilesStartsFromTheTipGiven(t *testing.T) {
	t.Parallel()
	env := startSandbox(t, envConfig{sandbox: sandbox.Options{StateDir: t.TempDir()}})
	ctx := context.Background()
	tip, err := ghx.ReadTip(ctx, env.client, owner, repo, "ledger")
	if err != nil || tip.Commit != env.srv.BranchSHA("ledger") || tip.Tree == "" {
		t.Fatalf("ReadTip: %+v, %v (ledger at %s)", tip, err, env.srv.BranchSHA("ledger"))
	}
	var asked []string
	unless := func(_ context.Context, at string) (bool, error) { asked = append(asked, at); return false, nil }
	mark := env.served.mark()
	first, err := ghx.CommitFiles(ctx, env.client, owner, repo, "ledger", map[string][]byte{"notes/one.txt": []byte("one\n")}, "ledger: one",
		ghx.CommitOptions{Tip: &tip, Unless: unless})
	if err != nil || env.srv.BranchSHA("ledger") != first {
		t.Fatalf("CommitFiles on the tip given: %v", err)
	}
	lines, _ := env.served.since(mark)
	for _, l := range lines {
		if strings.HasPrefix(l, "GET /repos/acme/benefits/git/") {
			t.Errorf("read the branch though its tip was given: %s", l)
		}
	}
	if len(asked) != 1 || asked[0] != tip.Commit {
		t.Errorf("Unless asked at %v, want once at %s", asked, tip.Commit)
	}
	// The same tip again, now stale: the branch is at first.
	asked = nil
	mark = env.served.mark()
	second, err := ghx.CommitFiles(ctx, env.client, owner, repo, "ledger", map[string][]byte{"notes/two.txt": []byte("two\n")}, "ledger: two",
		ghx.CommitOptions{Tip: &tip, Unless: unless})
	if err != nil || env.srv.BranchSHA("ledger") != second {
		t.Fatalf("CommitFiles on a stale tip: %v", err)
	}
	lines, _ = env.served.since(mark)
	refused := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "PATCH "+ledgerRef+" 422") {
			refused++
		}
	}
	if refused != 1 || len(asked) != 2 || asked[0] != tip.Commit || asked[1] != first {
		t.Errorf("%d refused moves, Unless asked at %v; want 1, at %s then %s:\n%s", refused, asked, tip.Commit, first, strings.Join(lines, "\n"))
	}
	out, err := exec.Command("git", "--git-dir", env.srv.GitDir(), "show", "ledger:notes/one.txt").CombinedOutput()
	if err != nil || string(out) != "one\n" {
		t.Errorf("the first commit's file is gone after a commit on a stale tip: %q, %v", out, err)
	}
	out, err = exec.Command("git", "--git-dir", env.srv.GitDir(), "rev-parse", "ledger^").CombinedOutput()
	if parent := strings.TrimSpace(string(out)); err != nil || parent != first {
		t.Errorf("the second commit's parent is %s (%v), want %s", parent, err, first)
	}
}
