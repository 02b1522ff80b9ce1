package ghx

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/gitsha"
)

// MaxCommitAttempts bounds how often CommitFiles rebuilds its commit on a
// branch that keeps moving under it, or whose move GitHub did not confirm.
const MaxCommitAttempts = 8

// maxCreateAttempts bounds the tries of one content-addressed create (a
// blob, a tree, a commit) whose answer was lost or was a 5xx.
const maxCreateAttempts = 6

// ErrAlreadyThere is returned (wrapped) by CommitFiles when
// CommitOptions.Unless found, at the branch's tip, that the commit is not
// needed: someone else landed it first.
var ErrAlreadyThere = errors.New("what this commit would write is already on the branch")

// CommitOptions shape the commit CommitFiles makes.
type CommitOptions struct {
	// Author of the commit; nil lets GitHub use the token's account.
	Author *github.CommitAuthor
	// Trailers are added as the message's last paragraph, one a line,
	// e.g. HumanFallbackTrailer.
	Trailers []string
	// Unless is asked with the tip before each attempt moves the branch;
	// true stops CommitFiles with ErrAlreadyThere (a concurrent run landed
	// the same record), so a retry never writes a second copy.
	Unless func(ctx context.Context, tip string) (bool, error)
	// Backoff is the wait before the attempt-th retry; nil means 250 ms
	// doubling up to 4 s (tests shorten it).
	Backoff func(attempt int) time.Duration
	// Tip is the branch's tip as the caller read it a moment ago
	// (ReadTip): the first attempt builds on it without reading the branch
	// again. It is only a starting point: the branch is moved without
	// force, so a tip that moved since is refused by GitHub (422, not a
	// fast forward) and the next attempt reads the branch afresh.
	Tip *Tip
}

// Tip is a branch's tip commit and that commit's tree.
type Tip struct {
	Commit, Tree string
}

// ReadTip reads branch's tip commit and its tree in one request (GitHub's
// get-branch, whose commit carries its tree), for CommitOptions.Tip. A
// branch that does not exist gives an error IsNotFound reports.
func ReadTip(ctx context.Context, client *github.Client, owner, repo, branch string) (Tip, error) {
	req, err := client.NewRequest(http.MethodGet, fmt.Sprintf("repos/%s/%s/branches/%s", owner, repo, url.PathEscape(branch)), nil)
	if err != nil {
		return Tip{}, err
	}
	var b github.Branch
	if _, err := client.Do(ctx, req, &b); err != nil {
		return Tip{}, err
	}
	tip := b.GetCommit().GetSHA()
	tree := b.GetCommit().GetCommit().GetTree().GetSHA()
	if tip == "" || tree == "" {
		return Tip{}, fmt.Errorf("%s/%s branch %s: GitHub named no tip commit or tree", owner, repo, branch)
	}
	return Tip{Commit: tip, Tree: tree}, nil
}

// CommitFiles writes files onto branch as one new commit through the Git
// Data API, so no checkout is touched: read the branch tip and its tree
// (or take CommitOptions.Tip), create a tree on the tip's tree holding the
// files (text inline, the rest as blobs created first), a commit on the
// tip, and move the branch without force. Unless is asked beside the
// tree and the commit, which nothing points at until the branch moves,
// and its answer comes before the move. A file whose value is nil is deleted.
// Blobs, trees and commits are content-addressed and nothing points at
// them until the branch moves, so each is created again when its answer is
// lost or is a 5xx. When the branch move is not confirmed (a lost answer, a
// 5xx, GitHub's 422 "not a fast forward") the tip is read again: a tip at
// the new commit means it landed; otherwise the commit is rebuilt on the
// tip, at most MaxCommitAttempts times; the branch is never forced. A
// branch that does not exist yet is created with a first commit holding
// only files. It returns the new commit's SHA.
func CommitFiles(ctx context.Context, client *github.Client, owner, repo, branch string, files map[string][]byte, message string, opts CommitOptions) (string, error) {
	if len(files) == 0 {
		return "", fmt.Errorf("writing to %s/%s branch %s: there are no files to commit", owner, repo, branch)
	}
	return CommitEdit(ctx, client, owner, repo, branch, message, opts, func(ReadAt) (map[string][]byte, error) { return files, nil })
}

// ReadAt reads one file at the commit an Edit is asked about; found is
// false when the path does not exist there.
type ReadAt func(path string) (content []byte, found bool, err error)

// Edit decides, from the branch as it is at its tip, which files to write
// (nil content deletes). CommitEdit runs it again on every attempt, so an
// append made after another writer moved the branch appends to their
// version, never over it. No files means nothing needs writing.
type Edit func(read ReadAt) (map[string][]byte, error)

// ErrNothingToWrite is returned (wrapped) by CommitEdit when the edit, at
// the branch's tip, found nothing to write: the write already happened.
var ErrNothingToWrite = errors.New("nothing needs writing: it is already on the branch")

// MoveError is a branch move that failed after its commit was made: the
// commit it stopped at, for a person reading what happened.
type MoveError struct {
	Commit string
	Err    error
}

func (e *MoveError) Error() string { return e.Err.Error() }
func (e *MoveError) Unwrap() error { return e.Err }

// CommitEdit is the one ledger writer: CommitFiles with the files decided
// by edit from the branch's tip on each attempt (see CommitFiles for how a
// lost answer, a 5xx or a moved branch is handled; the branch is never
// forced). A blob already created for the same bytes in an earlier
// attempt is not created again.
func CommitEdit(ctx context.Context, client *github.Client, owner, repo, branch, message string, opts CommitOptions, edit Edit) (string, error) {
	w := ledgerWriter{ctx: ctx, client: client, gh: client.Git, owner: owner, repo: repo, branch: branch, opts: opts,
		message: withTrailers(message, opts.Trailers), made: map[string]string{}, hint: opts.Tip}
	if hc := client.Client(); hc != nil {
		w.retry, _ = hc.Transport.(*retryTransport)
	}
	var (
		sha string
		err error
	)
	moved := func(err error) bool { return IsNotFastForward(err) || isRefExists(err) }
	policy := w.steps(MaxCommitAttempts)
	wait := policy.Delay
	policy.Delay = func(attempt int) time.Duration {
		if moved(err) {
			return 0 // someone else moved the branch: re-read it at once
		}
		return wait(attempt)
	}
	err = policy.Retry(w.ctx, func(err error) bool { return moved(err) || retryableCreate(err) }, func() error {
		sha, err = w.commitOnce(edit)
		return err
	})
	switch {
	case err == nil || errors.Is(err, ErrAlreadyThere) || errors.Is(err, ErrNothingToWrite):
		return sha, err
	case !moved(err) && !retryableCreate(err):
		return "", err
	case w.ctx.Err() != nil:
		return "", w.ctx.Err()
	}
	var me *MoveError
	if errors.As(err, &me) {
		return "", &MoveError{Commit: me.Commit, Err: fmt.Errorf("writing to %s/%s branch %s: the branch did not take the commit in %d attempts; nothing was forced: %w",
			owner, repo, branch, MaxCommitAttempts, err)}
	}
	return "", fmt.Errorf("writing to %s/%s branch %s: the branch did not take the commit in %d attempts; nothing was forced: %w",
		owner, repo, branch, MaxCommitAttempts, err)
}

// Retryable reports a failure after which repeating an idempotent write,
// or one that re-reads first, is safe: the same rule the ledger writer uses.
func Retryable(err error) bool { return retryableCreate(err) }

// retryableCreate is a failure after which a content-addressed create, or
// a re-read followed by a non-forced move, is safe to repeat: a lost
// answer, a 5xx, a dropped connection, GitHub's secondary rate limit.
func retryableCreate(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrMayHaveLanded) || transient(err) {
		return true
	}
	var secondary *SecondaryRateLimitError
	if errors.As(err, &secondary) {
		return true
	}
	status, ok := statusOf(err)
	return ok && status >= 500
}

// steps is the one step policy (Steps) for attempts tries, with the waits
// shaped by CommitOptions.Backoff, else by the client's retry policy
// (ClientOptions.Retry and Sleep), else StepDelay.
func (w *ledgerWriter) steps(attempts int) Steps {
	switch {
	case w.opts.Backoff != nil:
		return Steps{Attempts: attempts, Delay: w.opts.Backoff}
	case w.retry != nil:
		return Steps{Attempts: attempts, Delay: w.retry.backoff, Sleep: w.retry.sleep}
	}
	return Steps{Attempts: attempts}
}

type ledgerWriter struct {
	ctx                 context.Context
	client              *github.Client
	gh                  *github.GitService
	owner, repo, branch string
	message             string
	opts                CommitOptions
	retry               *retryTransport   // the client's own, whose policy shapes the waits
	made                map[string]string // blobs created in an earlier attempt, by their bytes' git id
	hint                *Tip              // CommitOptions.Tip, taken by the first attempt only
	mu                  sync.Mutex
}

// readAt reads files at one commit of the branch for an Edit.
func (w *ledgerWriter) readAt(commit string) ReadAt {
	return func(p string) ([]byte, bool, error) {
		b, err := ReadFile(w.ctx, w.client, w.owner, w.repo, commit, p)
		switch {
		case IsNotFound(err):
			return nil, false, nil
		case err != nil:
			return nil, false, fmt.Errorf("reading %s on %s: %w", p, w.where(), err)
		}
		return b, true, nil
	}
}

// files runs the edit against the branch at commit ("" for a branch not
// there yet) and creates its blobs.
func (w *ledgerWriter) files(edit Edit, commit string) ([]*github.TreeEntry, error) {
	read := func(string) ([]byte, bool, error) { return nil, false, nil }
	if commit != "" {
		read = w.readAt(commit)
	}
	files, err := edit(read)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("writing to %s: %w", w.where(), ErrNothingToWrite)
	}
	return w.blobs(files)
}

func (w *ledgerWriter) where() string {
	return fmt.Sprintf("%s/%s branch %s", w.owner, w.repo, w.branch)
}

// blobs returns the tree entries, sorted by path: text (inlineable) as
// the entry's content, every other file as a blob created first
// (content-addressed, so creating it once serves every attempt).
func (w *ledgerWriter) blobs(files map[string][]byte) ([]*github.TreeEntry, error) {
	paths := make([]string, 0, len(files))
	for p := range files {
		if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "//") || strings.Contains(p, "\\") {
			return nil, fmt.Errorf("writing to %s: %q is not a clean relative path", w.where(), p)
		}
		paths = append(paths, p)
	}
	sort.Strings(paths)
	// The blobs are created side by side, a few at a time: each is
	// content-addressed and reachable from nothing until the tree names
	// it, so their order is no write anyone sees, and every one lands
	// before the tree. The first failure in path order is the one named.
	entries := make([]*github.TreeEntry, len(paths))
	errs := make([]error, len(paths))
	sem := make(chan struct{}, blobsInFlight)
	var wg sync.WaitGroup
	inlined := 0
	for i, p := range paths {
		entries[i] = &github.TreeEntry{Path: github.String(p), Mode: github.String("100644"), Type: github.String("blob")}
		if files[p] == nil {
			continue
		}
		// Text goes in the tree request itself (GitHub writes the blob
		// from the entry's content): no request of its own, no round trip
		// before the tree. Only bytes a JSON string carries unchanged, and
		// a bounded amount, so the request stays small.
		if b := files[p]; inlineable(b) && inlined+len(b) <= inlineTotal {
			inlined += len(b)
			entries[i].Content = github.String(string(b))
			continue
		}
		id := plumbingBlobID(files[p])
		w.mu.Lock()
		sha, ok := w.made[id]
		w.mu.Unlock()
		if ok {
			entries[i].SHA = github.String(sha)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			var blob *github.Blob
			errs[i] = w.retryCreate(func() (err error) {
				blob, _, err = w.gh.CreateBlob(w.ctx, w.owner, w.repo, &github.Blob{
					Content: github.String(base64.StdEncoding.EncodeToString(files[p])), Encoding: github.String("base64")})
				return err
			})
			if errs[i] == nil {
				entries[i].SHA = blob.SHA
				w.mu.Lock()
				w.made[id] = blob.GetSHA()
				w.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("writing %s to %s: creating its blob: %w", paths[i], w.where(), err)
		}
	}
	return entries, nil
}

// blobsInFlight bounds the blobs one commit creates at once.
const blobsInFlight = 6

// inlineFile and inlineTotal bound the text one tree request carries as
// its entries' content: a file above inlineFile, or past inlineTotal in
// all, is created as a blob first.
const (
	inlineFile  = 256 << 10
	inlineTotal = 1 << 20
)

// inlineable is a file the tree request can carry as content and GitHub
// stores byte for byte: valid UTF-8 (a JSON string carries it exactly)
// with no NUL, within inlineFile.
func inlineable(b []byte) bool {
	return len(b) <= inlineFile && utf8.Valid(b) && bytes.IndexByte(b, 0) < 0
}

// commitOnce builds the commit on the branch's current tip and moves the
// branch to it without force. The first attempt takes CommitOptions.Tip
// when given; every other reads the branch.
func (w *ledgerWriter) commitOnce(edit Edit) (string, error) {
	var tip, base string
	if h := w.hint; h != nil {
		w.hint = nil
		tip, base = h.Commit, h.Tree
	} else {
		ref, _, err := w.gh.GetRef(w.ctx, w.owner, w.repo, "heads/"+w.branch)
		if IsNotFound(err) {
			entries, err := w.files(edit, "")
			if err != nil {
				return "", err
			}
			return w.createBranch(entries)
		}
		if err != nil {
			return "", fmt.Errorf("reading the tip of %s: %w", w.where(), err)
		}
		tip = ref.GetObject().GetSHA()
		parent, _, err := w.gh.GetCommit(w.ctx, w.owner, w.repo, tip)
		if err != nil {
			return "", fmt.Errorf("reading commit %s of %s: %w", gitsha.Short(tip), w.where(), err)
		}
		base = parent.GetTree().GetSHA()
	}
	// Unless reads the tip beside the tree and the commit: both are
	// content-addressed and reachable from nothing until the branch moves,
	// so making them before its answer is no write anyone sees. Its answer
	// still comes first: the branch moves only when it says to.
	var (
		done    bool
		doneErr error
		asked   = make(chan struct{})
	)
	go func() {
		defer close(asked)
		if w.opts.Unless != nil {
			done, doneErr = w.opts.Unless(w.ctx, tip)
		}
	}()
	commit, err := w.build(edit, tip, base)
	<-asked
	switch {
	case doneErr != nil:
		return "", doneErr
	case done:
		return tip, fmt.Errorf("writing to %s at %s: %w", w.where(), gitsha.Short(tip), ErrAlreadyThere)
	case err != nil:
		return commit, err
	}
	update := &github.Reference{Ref: github.String("refs/heads/" + w.branch), Object: &github.GitObject{SHA: github.String(commit)}}
	_, _, err = w.gh.UpdateRef(w.ctx, w.owner, w.repo, update, false)
	if retryableCreate(err) || IsNotFastForward(err) {
		// The answer was lost, or GitHub failed or refused: the branch
		// tells whether the move happened (a lost answer to a move that
		// landed reads as "not a fast forward" when repeated).
		if now, _, rerr := w.gh.GetRef(w.ctx, w.owner, w.repo, "heads/"+w.branch); rerr == nil && now.GetObject().GetSHA() == commit {
			return commit, nil
		}
	}
	if err != nil {
		return "", &MoveError{Commit: commit, Err: fmt.Errorf("moving %s from %s to %s: %w", w.where(), gitsha.Short(tip), gitsha.Short(commit), err)}
	}
	return commit, nil
}

// build makes the commit of the edit on tip, whose tree is base: the
// files, the tree, the commit, each after the one before. When the edit
// fails it returns tip with the error (ErrNothingToWrite: the tip holds
// it already).
func (w *ledgerWriter) build(edit Edit, tip, base string) (string, error) {
	entries, err := w.files(edit, tip)
	if err != nil {
		return tip, err // ErrNothingToWrite says the tip already holds it
	}
	sha, err := w.tree(base, entries)
	if err != nil {
		return "", err
	}
	return w.commit(sha, []string{tip})
}

// createBranch starts a branch whose first commit holds only the files.
func (w *ledgerWriter) createBranch(entries []*github.TreeEntry) (string, error) {
	var kept []*github.TreeEntry
	for _, e := range entries {
		if e.SHA != nil || e.Content != nil {
			kept = append(kept, e)
		}
	}
	if len(kept) == 0 {
		return "", fmt.Errorf("writing to %s: the branch does not exist and there is nothing to add", w.where())
	}
	tree, err := w.tree("", kept)
	if err != nil {
		return "", err
	}
	commit, err := w.commit(tree, nil)
	if err != nil {
		return "", err
	}
	ref := &github.Reference{Ref: github.String("refs/heads/" + w.branch), Object: &github.GitObject{SHA: github.String(commit)}}
	if _, _, err := w.gh.CreateRef(w.ctx, w.owner, w.repo, ref); err != nil {
		if retryableCreate(err) || isRefExists(err) {
			if now, _, rerr := w.gh.GetRef(w.ctx, w.owner, w.repo, "heads/"+w.branch); rerr == nil && now.GetObject().GetSHA() == commit {
				return commit, nil
			}
		}
		return "", fmt.Errorf("creating %s at %s: %w", w.where(), gitsha.Short(commit), err)
	}
	return commit, nil
}

func (w *ledgerWriter) tree(base string, entries []*github.TreeEntry) (string, error) {
	var tree *github.Tree
	err := w.retryCreate(func() (err error) {
		tree, _, err = w.gh.CreateTree(w.ctx, w.owner, w.repo, base, entries)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("writing to %s: creating the tree: %w", w.where(), err)
	}
	return tree.GetSHA(), nil
}

func (w *ledgerWriter) commit(tree string, parents []string) (string, error) {
	c := &github.Commit{Message: github.String(w.message), Tree: &github.Tree{SHA: github.String(tree)}, Author: w.opts.Author}
	for _, p := range parents {
		c.Parents = append(c.Parents, &github.Commit{SHA: github.String(p)})
	}
	var made *github.Commit
	err := w.retryCreate(func() (err error) {
		made, _, err = w.gh.CreateCommit(w.ctx, w.owner, w.repo, c, nil)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("writing to %s: creating the commit: %w", w.where(), err)
	}
	return made.GetSHA(), nil
}

// retryCreate repeats a create whose answer was lost or was a 5xx. Blobs
// and trees are content-addressed and a commit nothing points at yet is
// harmless, so creating one twice changes nothing that matters.
func (w *ledgerWriter) retryCreate(create func() error) error {
	err := w.steps(maxCreateAttempts).Retry(w.ctx, retryableCreate, create)
	if retryableCreate(err) && w.ctx.Err() != nil {
		return w.ctx.Err()
	}
	return err
}

// plumbingBlobID is git's id for a blob of b, to know bytes already
// stored in an earlier attempt.
func plumbingBlobID(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// withTrailers appends the trailers as the message's last paragraph.
func withTrailers(message string, trailers []string) string {
	message = strings.TrimRight(message, "\n")
	if len(trailers) == 0 {
		return message + "\n"
	}
	return message + "\n\n" + strings.Join(trailers, "\n") + "\n"
}

// isRefExists is create-ref's 422 for a branch someone else just created.
func isRefExists(err error) bool {
	var resp *github.ErrorResponse
	return errors.As(err, &resp) && resp.Response != nil && resp.Response.StatusCode == http.StatusUnprocessableEntity &&
		strings.Contains(strings.ToLower(resp.Message), "already exists")
}

// TreeEntry is one entry of a folder on a branch.
type TreeEntry struct {
	Name string // the last element of Path
	Path string // from the repository's root
	Type string // "file", "dir", "symlink" or "submodule"
	SHA  string // the blob's (or tree's) git SHA
	Size int64  // bytes, for files
}

// ReadFile returns a file's bytes at ref (a branch, tag or commit) through
// the contents API, falling back to the blob for files over GitHub's 1 MB
// inline limit. A missing file gives an error that IsNotFound reports.
func ReadFile(ctx context.Context, client *github.Client, owner, repo, ref, path string) ([]byte, error) {
	file, dir, _, err := client.Repositories.GetContents(ctx, owner, repo, path, &github.RepositoryContentGetOptions{Ref: ref})
	if err != nil {
		return nil, fmt.Errorf("reading %s at %s of %s/%s: %w", path, ref, owner, repo, err)
	}
	if file == nil {
		return nil, fmt.Errorf("reading %s at %s of %s/%s: it is a folder of %d entries, not a file", path, ref, owner, repo, len(dir))
	}
	if file.GetEncoding() == "none" {
		blob, _, err := client.Git.GetBlob(ctx, owner, repo, file.GetSHA())
		if err != nil {
			return nil, fmt.Errorf("reading %s at %s of %s/%s (blob %s): %w", path, ref, owner, repo, gitsha.Short(file.GetSHA()), err)
		}
		return base64.StdEncoding.DecodeString(blob.GetContent())
	}
	text, err := file.GetContent()
	if err != nil {
		return nil, fmt.Errorf("reading %s at %s of %s/%s: GitHub's content did not decode: %w", path, ref, owner, repo, err)
	}
	return []byte(text), nil
}

// ListTree lists the entries of the folder dir at ref, sorted by name,
// through the contents API ("" lists the root through the trees API). A
// missing folder gives an error that IsNotFound reports.
func ListTree(ctx context.Context, client *github.Client, owner, repo, ref, dir string) ([]TreeEntry, error) {
	dir = strings.Trim(dir, "/")
	var out []TreeEntry
	if dir == "" {
		tree, _, err := client.Git.GetTree(ctx, owner, repo, ref, false)
		if err != nil {
			return nil, fmt.Errorf("listing the root of %s/%s at %s: %w", owner, repo, ref, err)
		}
		kinds := map[string]string{"blob": "file", "tree": "dir", "commit": "submodule"}
		for _, e := range tree.Entries {
			kind := kinds[e.GetType()]
			if e.GetMode() == "120000" {
				kind = "symlink"
			}
			out = append(out, TreeEntry{Name: e.GetPath(), Path: e.GetPath(), Type: kind, SHA: e.GetSHA(), Size: int64(e.GetSize())})
		}
	} else {
		file, entries, _, err := client.Repositories.GetContents(ctx, owner, repo, dir, &github.RepositoryContentGetOptions{Ref: ref})
		if err != nil {
			return nil, fmt.Errorf("listing %s at %s of %s/%s: %w", dir, ref, owner, repo, err)
		}
		if file != nil {
			return nil, fmt.Errorf("listing %s at %s of %s/%s: it is a file, not a folder", dir, ref, owner, repo)
		}
		for _, e := range entries {
			out = append(out, TreeEntry{Name: e.GetName(), Path: e.GetPath(), Type: e.GetType(), SHA: e.GetSHA(), Size: int64(e.GetSize())})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
