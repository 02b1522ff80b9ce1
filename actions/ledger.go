package actions

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/aayudha/aayu/ghx"
	"github.com/google/go-github/v66/github"
)

// ledgerAttempts bounds how often a ledger write re-reads the branch after
// another writer moved it.
const ledgerAttempts = 5

// readLedger reads one file on the ledger at commit; found is false when
// the path does not exist there.
type readLedger func(path string) (content []byte, found bool, err error)

// ledgerEdit decides, from the ledger as it is at one commit, which files
// to write (nil content deletes). It runs again on every attempt, so an
// append made after another writer moved the branch appends to their
// version, never over it. No files means nothing needs writing.
type ledgerEdit func(read readLedger) (map[string][]byte, error)

// ledgerWrite is one ledger commit that landed, or was not needed.
type ledgerWrite struct {
	Commit  string // the new ledger commit; "" when nothing needed writing
	Already bool
}

// commitLedger writes to the ledger branch through the Git Data API
// (blobs, a tree on the tip's tree, a commit, the ref moved without force),
// so no checkout is touched. When another writer moved the branch first,
// the tip is read again and edit runs again; the branch is never forced.
//
// Appends use it: ghx.CommitFiles takes fixed contents, which on its
// retry after a moved branch would overwrite a line another writer
// appended meanwhile; this helper re-runs the edit on each attempt instead.
// Writes whose contents do not depend on what is there go through
// ghx.CommitFiles.
func (e *Executor) commitLedger(ctx context.Context, message string, edit ledgerEdit) (ledgerWrite, error) {
	git := e.cfg.Client.Git
	owner, repo, ref := e.cfg.Owner, e.cfg.Repo, "heads/"+e.cfg.Ledger
	var out ledgerWrite
	// Another writer moving the branch first is the one failure tried
	// again, at once: the next try reads the new tip and edits that.
	err := ghx.Steps{Attempts: ledgerAttempts, Delay: func(int) time.Duration { return 0 }}.Retry(ctx, ghx.IsNotFastForward, func() error {
		tip, err := e.ledgerTip(ctx)
		if err != nil {
			return err
		}
		files, err := edit(e.ledgerReader(ctx, tip.SHA))
		if err != nil {
			return err
		}
		if len(files) == 0 {
			out = ledgerWrite{Already: true}
			return nil
		}
		var entries []*github.TreeEntry
		for _, p := range sortedKeys(files) {
			entry := &github.TreeEntry{Path: github.String(p), Mode: github.String("100644"), Type: github.String("blob")}
			if b := files[p]; b != nil {
				blob, _, err := git.CreateBlob(ctx, owner, repo, &github.Blob{
					Content: github.String(base64.StdEncoding.EncodeToString(b)), Encoding: github.String("base64")})
				if err != nil {
					return fmt.Errorf("storing %s for the ledger: %w", p, err)
				}
				entry.SHA = blob.SHA
			}
			entries = append(entries, entry)
		}
		tree, _, err := git.CreateTree(ctx, owner, repo, tip.Tree, entries)
		if err != nil {
			return fmt.Errorf("building the ledger tree: %w", err)
		}
		commit, _, err := git.CreateCommit(ctx, owner, repo, &github.Commit{
			Message: github.String(message), Tree: &github.Tree{SHA: tree.SHA},
			Parents: []*github.Commit{{SHA: github.String(tip.SHA)}}}, nil)
		if err != nil {
			return fmt.Errorf("making the ledger commit: %w", err)
		}
		_, _, err = git.UpdateRef(ctx, owner, repo, &github.Reference{Ref: github.String("refs/" + ref),
			Object: &github.GitObject{SHA: commit.SHA}}, false)
		switch {
		case err == nil:
			out = ledgerWrite{Commit: commit.GetSHA()}
			return nil
		case ghx.IsNotFastForward(err):
			return err
		case errors.Is(err, ghx.ErrMayHaveLanded):
			if now, rerr := e.ledgerTip(ctx); rerr == nil && now.SHA == commit.GetSHA() {
				out = ledgerWrite{Commit: commit.GetSHA()}
				return nil
			}
		}
		return &commitError{Commit: commit.GetSHA(), Err: fmt.Errorf("moving the ledger branch: %w", err)}
	})
	if ghx.IsNotFastForward(err) {
		return ledgerWrite{}, fmt.Errorf("the ledger kept moving under %d attempts: %w", ledgerAttempts, err)
	}
	return out, err
}

// commitError carries the commit a failed write stopped at, for Details.
type commitError struct {
	Commit string
	Err    error
}

func (c *commitError) Error() string { return c.Err.Error() }
func (c *commitError) Unwrap() error { return c.Err }

type ledgerTip struct{ SHA, Tree string }

func (e *Executor) ledgerTip(ctx context.Context) (ledgerTip, error) {
	ref, _, err := e.cfg.Client.Git.GetRef(ctx, e.cfg.Owner, e.cfg.Repo, "heads/"+e.cfg.Ledger)
	if err != nil {
		return ledgerTip{}, fmt.Errorf("reading the ledger branch: %w", err)
	}
	sha := ref.GetObject().GetSHA()
	c, _, err := e.cfg.Client.Git.GetCommit(ctx, e.cfg.Owner, e.cfg.Repo, sha)
	if err != nil {
		return ledgerTip{}, fmt.Errorf("reading the ledger commit: %w", err)
	}
	return ledgerTip{SHA: sha, Tree: c.GetTree().GetSHA()}, nil
}

// ledgerReader reads files at one ledger commit through the contents API,
// falling back to the blob for files too large for it.
func (e *Executor) ledgerReader(ctx context.Context, commit string) readLedger {
	return func(p string) ([]byte, bool, error) {
		return readFileAt(ctx, e.cfg.Client, e.cfg.Owner, e.cfg.Repo, commit, p)
	}
}

func readFileAt(ctx context.Context, client *github.Client, owner, repo, ref, p string) ([]byte, bool, error) {
	b, err := ghx.ReadFile(ctx, client, owner, repo, ref, p)
	switch {
	case ghx.IsNotFound(err):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("reading %s on the ledger: %w", p, err)
	}
	return b, true, nil
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
