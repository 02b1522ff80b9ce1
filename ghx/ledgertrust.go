package ghx

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/ledgertrust"
)

// MaxLedgerCommitsPerRun bounds how many ledger commits one CheckLedger
// reads the files of; the rest are checked by the next run (the verified
// ones are kept in the cache), and LedgerHistory.Partial says so.
const MaxLedgerCommitsPerRun = 1000

// LedgerHistory is what CheckLedger found on the ledger branch.
type LedgerHistory struct {
	Tip      string
	Commits  int // the commits of the branch's history that were judged
	Partial  bool
	Findings []ledgertrust.Finding // oldest first
}

// Tampered reports the first (oldest) finding on path, if any: its Trusted
// commit holds the record's last untampered version.
func (h LedgerHistory) Tampered(path string) (ledgertrust.Finding, bool) {
	for _, f := range h.Findings {
		if f.Path == path {
			return f, true
		}
	}
	return ledgertrust.Finding{}, false
}

// ledgerTrustCache is what one repository's checked ledger history keeps
// between runs: each commit judged (by SHA, which names its contents and
// its whole history) with its findings, and the tip last seen.
type ledgerTrustCache struct {
	Version int                              `json:"v"`
	Tip     string                           `json:"tip"`
	Checked map[string][]ledgertrust.Finding `json:"checked"`
	Order   []string                         `json:"order"` // the judged commits, oldest first
	Gone    []ledgertrust.Finding            `json:"gone,omitempty"`
}

// CheckLedger walks the ledger branch's history through GitHub's REST API
// ("List commits" from the branch, newest first, until the tip it checked
// before; "Get a commit" for each new commit's files against its first
// parent) and judges each new commit with ledgertrust.Check, reading only
// the contents a documented update's shape needs. Verified commits are kept
// under cacheDir by SHA, so a run reads only what is new. A tip checked
// before that is no longer in the history is itself a finding: the
// history was rewritten. An empty cacheDir means the client's own cache
// folder (ClientOptions.CacheDir); a client with none keeps nothing.
func CheckLedger(ctx context.Context, client *github.Client, owner, repo, branch, cacheDir string) (LedgerHistory, error) {
	if cacheDir == "" {
		cacheDir = clientCacheDir(client)
	}
	file := ""
	if cacheDir != "" {
		host := strings.NewReplacer(":", "_", "/", "_").Replace(client.BaseURL.Host)
		name := url.PathEscape(owner) + "_" + url.PathEscape(repo)
		if branch != "ledger" {
			name += "@" + url.PathEscape(branch)
		}
		file = filepath.Join(cacheDir, "ledger-trust", host, name+".json")
	}
	cache := readLedgerTrustCache(file)
	var fresh []*github.RepositoryCommit // newest first
	reachedOld := cache.Tip == ""
	opts := &github.CommitsListOptions{SHA: branch, ListOptions: github.ListOptions{PerPage: 100}}
walk:
	for {
		page, resp, err := client.Repositories.ListCommits(ctx, owner, repo, opts)
		if IsNotFound(err) && opts.Page == 0 {
			if cache.Tip == "" {
				return LedgerHistory{}, nil // no ledger branch yet: no history to judge
			}
			// The branch aayu checked before is gone: deleting it deletes
			// every record.
			gone := ledgertrust.Finding{Commit: cache.Tip, Author: "a branch deletion", Path: branch + " branch", What: "deleted", Trusted: cache.Tip}
			return LedgerHistory{Tip: cache.Tip, Findings: append(slices.Clone(cache.Gone), gone)}, nil
		}
		if err != nil {
			return LedgerHistory{}, fmt.Errorf("reading the history of the %s branch: %w", branch, err)
		}
		for _, c := range page {
			if c.GetSHA() == cache.Tip {
				reachedOld = true
				break walk
			}
			fresh = append(fresh, c)
		}
		if resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	h := LedgerHistory{}
	if len(fresh) > 0 {
		h.Tip = fresh[0].GetSHA()
	} else {
		h.Tip = cache.Tip
	}
	if !reachedOld {
		// The tip checked before is not in the history: the branch was
		// forced over it.
		cache.Gone = append(cache.Gone, ledgertrust.Finding{Commit: cache.Tip, Author: "a force-push", Path: branch + " history (commit " + cache.Tip + " is gone)",
			What: "rewritten", Trusted: cache.Tip})
		// Everything is judged again from the new history; the finding
		// stays, and the next run does not take the missing tip again.
		cache.Checked, cache.Order, cache.Tip = map[string][]ledgertrust.Finding{}, nil, ""
	}
	var todo []*github.RepositoryCommit
	for _, sha := range cache.Order {
		if slices.ContainsFunc(cache.Checked[sha], ledgertrust.Recheck) {
			todo = append(todo, &github.RepositoryCommit{SHA: github.String(sha)})
		}
	}
	for i := len(fresh) - 1; i >= 0; i-- {
		if _, ok := cache.Checked[fresh[i].GetSHA()]; !ok {
			todo = append(todo, fresh[i])
		}
	}
	if len(todo) > MaxLedgerCommitsPerRun {
		todo, h.Partial = todo[:MaxLedgerCommitsPerRun], true
	}
	results := make([][]ledgertrust.Finding, len(todo))
	errs := make([]error, len(todo))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, c := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i], errs[i] = judgeLedgerCommit(ctx, client, owner, repo, c.GetSHA())
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return LedgerHistory{}, err
	}
	for i, c := range todo {
		if _, judged := cache.Checked[c.GetSHA()]; !judged {
			cache.Order = append(cache.Order, c.GetSHA())
		}
		cache.Checked[c.GetSHA()] = results[i]
	}
	if !h.Partial {
		cache.Tip = h.Tip
	}
	writeLedgerTrustCache(file, cache)
	h.Findings = append(h.Findings, cache.Gone...)
	for _, sha := range cache.Order {
		h.Findings = append(h.Findings, cache.Checked[sha]...)
	}
	h.Commits = len(cache.Order)
	return h, nil
}

// judgeLedgerCommit reads one commit's files (every page GitHub gives) and
// the contents its documented updates are checked against, then judges it.
func judgeLedgerCommit(ctx context.Context, client *github.Client, owner, repo, sha string) ([]ledgertrust.Finding, error) {
	var rc *github.RepositoryCommit
	opts := &github.ListOptions{} // GitHub pages a commit's files 300 at a time
	var files []*github.CommitFile
	for {
		c, resp, err := client.Repositories.GetCommit(ctx, owner, repo, sha, opts)
		if err != nil {
			return nil, fmt.Errorf("reading ledger commit %s: %w", sha, err)
		}
		rc = c
		files = append(files, c.Files...)
		if resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	c := ledgertrust.Commit{SHA: sha, Author: commitAuthor(rc)}
	if len(rc.Parents) > 0 {
		c.Parent = rc.Parents[0].GetSHA()
	}
	read := func(ref, path string) ([]byte, error) {
		b, err := ReadFile(ctx, client, owner, repo, ref, path)
		if IsNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s at ledger commit %s: %w", path, ref, err)
		}
		return b, nil
	}
	for _, f := range files {
		ch := ledgertrust.Change{Path: f.GetFilename(), Previous: f.GetPreviousFilename(), Status: f.GetStatus()}
		if ledgertrust.NeedsContent(ch) && c.Parent != "" {
			var err error
			if ch.Old, err = read(c.Parent, ch.Path); err != nil {
				return nil, err
			}
			if ch.New, err = read(sha, ch.Path); err != nil {
				return nil, err
			}
		}
		c.Changes = append(c.Changes, ch)
	}
	if ledgertrust.NeedsSamples(c) {
		var err error
		if c.Samples, err = read(sha, ledgertrust.SamplesPath); err != nil {
			return nil, err
		}
	}
	for _, n := range ledgertrust.NeedsComments(c) {
		comments, err := ListAll(ctx, func(o *github.ListOptions) ([]*github.IssueComment, *github.Response, error) {
			return client.Issues.ListComments(ctx, owner, repo, n, &github.IssueListCommentsOptions{ListOptions: *o})
		})
		if err != nil && !IsNotFound(err) {
			return nil, fmt.Errorf("reading the comments on #%d for ledger commit %s: %w", n, sha, err)
		}
		if c.Comments == nil {
			c.Comments = map[int][]string{}
		}
		for _, cm := range comments {
			c.Comments[n] = append(c.Comments[n], cm.GetBody())
		}
	}
	return ledgertrust.Check(c), nil
}

// commitAuthor is the commit's author as git records it, with GitHub's
// login beside it when GitHub links one.
func commitAuthor(rc *github.RepositoryCommit) string {
	a := rc.GetCommit().GetAuthor()
	s := strings.TrimSpace(fmt.Sprintf("%s <%s>", a.GetName(), a.GetEmail()))
	if login := rc.GetAuthor().GetLogin(); login != "" {
		s += " (@" + login + ")"
	}
	return s
}

func readLedgerTrustCache(file string) ledgerTrustCache {
	empty := ledgerTrustCache{Version: 1, Checked: map[string][]ledgertrust.Finding{}}
	if file == "" {
		return empty
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return empty
	}
	var c ledgerTrustCache
	if json.Unmarshal(b, &c) != nil || c.Version != 1 || c.Checked == nil || len(c.Order) != len(c.Checked) {
		return empty
	}
	for _, sha := range c.Order {
		if _, ok := c.Checked[sha]; !ok {
			return empty
		}
	}
	if c.Tip != "" && !slices.Contains(c.Order, c.Tip) {
		return empty
	}
	return c
}

// writeLedgerTrustCache keeps the judged history; a cache that cannot be
// written only costs the next run the same reads again.
func writeLedgerTrustCache(file string, c ledgerTrustCache) {
	if file == "" {
		return
	}
	b, err := json.Marshal(c)
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(file), 0o700) != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(file), ".ledger-trust-*")
	if err != nil {
		return
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr != nil || cerr != nil {
		_ = os.Remove(f.Name())
		return
	}
	if os.Rename(f.Name(), file) != nil {
		_ = os.Remove(f.Name())
	}
}

// clientCacheDir is the cache folder the client was built with
// (ClientOptions.CacheDir), "" when it has none: the judged ledger history
// is kept beside the conditional-request cache, per user.
func clientCacheDir(client *github.Client) string {
	hc := client.Client()
	if hc == nil {
		return ""
	}
	rt := hc.Transport
	for range 8 { // a transport wrapped around ghx's says so by Unwrap
		switch t := rt.(type) {
		case *cacheTransport:
			return t.dir
		case *retryTransport:
			rt = t.next
		case interface{ Unwrap() http.RoundTripper }:
			rt = t.Unwrap()
		default:
			return ""
		}
	}
	return ""
}

// RecordTampered walks the ledger's history (CheckLedger, with the
// client's cache) and reports the first tampering of the record at path, if any: a
// reader then never trusts the record as it stands.
func RecordTampered(ctx context.Context, client *github.Client, owner, repo, branch, path string) (*ledgertrust.Finding, error) {
	h, err := CheckLedger(ctx, client, owner, repo, branch, "")
	if err != nil {
		return nil, err
	}
	if f, ok := h.Tampered(path); ok {
		return &f, nil
	}
	return nil, nil
}
