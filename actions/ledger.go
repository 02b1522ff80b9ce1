package actions

import (
	"context"
	"errors"
	"fmt"

	"github.com/aayudha/aayu/ghx"
	"github.com/google/go-github/v66/github"
)

// readLedger reads one file on the ledger at one commit; found is false
// when the path does not exist there.
type readLedger = ghx.ReadAt

// ledgerEdit decides, from the ledger as it is at one commit, which files
// to write (nil content deletes). It runs again on every attempt, so an
// append made after another writer moved the branch appends to their
// version, never over it. No files means nothing needs writing.
type ledgerEdit = ghx.Edit

// ledgerWrite is one ledger commit that landed, or was not needed.
type ledgerWrite struct {
	Commit  string // the new ledger commit; "" when nothing needed writing
	Already bool
}

// commitLedger writes to the ledger branch through the one ledger writer
// (ghx.CommitEdit), which runs edit again on the tip after another writer
// moved the branch, so an append never overwrites a line appended
// meanwhile; the branch is never forced.
func (e *Executor) commitLedger(ctx context.Context, message string, edit ledgerEdit) (ledgerWrite, error) {
	sha, err := ghx.CommitEdit(ctx, e.cfg.Client, e.cfg.Owner, e.cfg.Repo, e.cfg.Ledger, message, ghx.CommitOptions{}, edit)
	switch {
	case errors.Is(err, ghx.ErrNothingToWrite):
		return ledgerWrite{Already: true}, nil
	case err != nil:
		return ledgerWrite{}, err
	}
	return ledgerWrite{Commit: sha}, nil
}

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
