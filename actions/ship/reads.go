package ship

import (
	"context"
	"strconv"
	"sync"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/basepolicy"
	"github.com/aayudha/aayu/model/checks"
	"github.com/aayudha/aayu/model/gaterun"
	"github.com/google/go-github/v66/github"
)

// readsInFlight bounds the read-only round's concurrent requests: well
// under GitHub's secondary rate-limit guidance, and enough for the widest
// round (the pull request's own reads, then the head's and the base's).
const readsInFlight = 8

// zipsAhead is how many of the newest runs bound to this very head and
// pull request have their packs downloaded by the round before the pack
// gate asks: the newest is the one ship takes unless it is passed over
// (a re-run, a pack that does not verify), and the next ones cover a few
// pass-overs without a wait. Older ones are downloaded when the gate gets
// to them.
const zipsAhead = 3

// reads are the read-only gates' GitHub reads, each issued once per run and
// kept with its error. The gates still run one after another in their
// order and judge what they read exactly as before; what changes is when a
// read goes out: prefetch issues every read a gate will make as soon as
// what it depends on is known (the pull request number, then the pull
// request's head and base, then the merge gate's runs), all together, so
// the gates wait for one round of the network instead of one request after
// another. A gate that asks for a read the round has in flight waits for
// that answer; one the round did not issue is made there and then. An
// error is kept as it came, so each gate still refuses or fails with its
// own words and in its own order.
//
// Only reads before the confirmation go through here: after the yes every
// read is made afresh (a moved head, a comment another run posted). The
// one read after the yes the round carries is the ledger's tip, read at
// the yes as the record commit's starting point (readLedgerTip), which a
// moved ledger makes GitHub refuse, never overwrite.
type reads struct {
	ctx    context.Context // the run's, cancelled when the run ends
	cancel context.CancelFunc
	sem    chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex
	calls  map[string]*readCall
}

type readCall struct {
	done chan struct{}
	v    any
	err  error
}

func newReads(ctx context.Context) *reads {
	ctx, cancel := context.WithCancel(ctx)
	return &reads{ctx: ctx, cancel: cancel, sem: make(chan struct{}, readsInFlight), calls: map[string]*readCall{}}
}

// stop cancels the reads no gate took and waits for them, so none outlives
// the run.
func (rs *reads) stop() {
	rs.cancel()
	rs.wg.Wait()
}

// do returns key's read: the one kept, the one in flight once it lands, or
// f's answer now.
func (rs *reads) do(key string, f func(context.Context) (any, error)) (any, error) {
	rs.mu.Lock()
	if c, ok := rs.calls[key]; ok {
		rs.mu.Unlock()
		<-c.done
		return c.v, c.err
	}
	c := &readCall{done: make(chan struct{})}
	rs.calls[key] = c
	rs.mu.Unlock()
	c.v, c.err = f(rs.ctx)
	close(c.done)
	return c.v, c.err
}

// ahead issues fn on its own goroutine within the bound; fn reads through
// do, so whichever of the round and the gate asks first makes the request.
func (rs *reads) ahead(fn func()) {
	rs.wg.Add(1)
	go func() {
		defer rs.wg.Done()
		select {
		case rs.sem <- struct{}{}:
		case <-rs.ctx.Done():
			return
		}
		fn()
		<-rs.sem
	}()
}

// readAs is do with the answer's type.
func readAs[T any](rs *reads, key string, f func(context.Context) (T, error)) (T, error) {
	v, err := rs.do(key, func(ctx context.Context) (any, error) { return f(ctx) })
	t, _ := v.(T)
	return t, err
}

// round is the run's reads; a run built without do (unit tests) makes
// every read as it is asked for.
func (r *run) round() *reads {
	if r.reads == nil {
		r.reads = newReads(r.ctx)
	}
	return r.reads
}

// The reads, one function each, so the round and the gate make the very
// same call under the very same key.

func (r *run) readPull() (*github.PullRequest, error) {
	return readAs(r.round(), "pull", func(ctx context.Context) (*github.PullRequest, error) {
		pr, _, err := r.cfg.Client.PullRequests.Get(ctx, r.cfg.Owner, r.cfg.Repo, r.pr)
		return pr, err
	})
}

// readRepo is the repository's settings: its merge methods (gate 1) and
// whether it is private (gate 2), one request for both.
func (r *run) readRepo() (*github.Repository, error) {
	return readAs(r.round(), "repo", func(ctx context.Context) (*github.Repository, error) {
		repo, _, err := r.cfg.Client.Repositories.Get(ctx, r.cfg.Owner, r.cfg.Repo)
		return repo, err
	})
}

type requiredRead struct {
	required []checks.Required
	unread   bool
}

func (r *run) readRequired(baseRef string) (requiredRead, error) {
	return readAs(r.round(), "required\x00"+baseRef, func(ctx context.Context) (requiredRead, error) {
		req, unread, err := ghx.RequiredOf(ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, baseRef)
		return requiredRead{req, unread}, err
	})
}

func (r *run) readHeadChecks(head string) ([]checks.Check, error) {
	return readAs(r.round(), "checks\x00"+head, func(ctx context.Context) ([]checks.Check, error) {
		return ghx.HeadChecks(ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, head)
	})
}

func (r *run) readBasePolicy(baseRef string) (*basepolicy.Policy, error) {
	return readAs(r.round(), "policy\x00"+baseRef, func(ctx context.Context) (*basepolicy.Policy, error) {
		return ghx.ReadBasePolicy(ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, baseRef)
	})
}

// readFile is a file at ref (a branch or a commit), as ghx.ReadFile reads it.
func (r *run) readFile(ref, path string) ([]byte, error) {
	return readAs(r.round(), "file\x00"+ref+"\x00"+path, func(ctx context.Context) ([]byte, error) {
		return ghx.ReadFile(ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, ref, path)
	})
}

func (r *run) readGateRuns(created string) ([]*github.WorkflowRun, error) {
	return readAs(r.round(), "runs\x00"+created, func(ctx context.Context) ([]*github.WorkflowRun, error) {
		opts := &github.ListWorkflowRunsOptions{Created: created}
		return ghx.ListWorkflowRuns(ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, GateWorkflowFile, opts)
	})
}

func (r *run) readArtifacts(runID int64) (*github.ArtifactList, error) {
	return readAs(r.round(), "artifacts\x00"+itoa64(runID), func(ctx context.Context) (*github.ArtifactList, error) {
		arts, _, err := r.cfg.Client.Actions.ListWorkflowRunArtifacts(ctx, r.cfg.Owner, r.cfg.Repo, runID, &github.ListOptions{PerPage: 100})
		return arts, err
	})
}

// zipRead is an artifact downloaded to its zip: its SHA-256, or why the
// run is passed over.
type zipRead struct{ sum, reason string }

// readZip downloads an artifact to zipPath once per run: the round starts
// the downloads of the newest runs' packs as soon as their artifact lists
// are read, so a pack passed over does not hold up the next one.
func (r *run) readZip(id int64, zipPath string) (zipRead, error) {
	return readAs(r.round(), "zip\x00"+itoa64(id)+"\x00"+zipPath, func(context.Context) (zipRead, error) {
		sum, reason, err := r.download(id, zipPath)
		return zipRead{sum, reason}, err
	})
}

func (r *run) readReviews() ([]*github.PullRequestReview, error) {
	return readAs(r.round(), "reviews", func(ctx context.Context) ([]*github.PullRequestReview, error) {
		return ghx.ListAll(ctx, func(lo *github.ListOptions) ([]*github.PullRequestReview, *github.Response, error) {
			return r.cfg.Client.PullRequests.ListReviews(ctx, r.cfg.Owner, r.cfg.Repo, r.pr, lo)
		})
	})
}

func (r *run) readFiles() ([]*github.CommitFile, error) {
	return readAs(r.round(), "files", func(ctx context.Context) ([]*github.CommitFile, error) {
		return ghx.ListAll(ctx, func(lo *github.ListOptions) ([]*github.CommitFile, *github.Response, error) {
			return r.cfg.Client.PullRequests.ListFiles(ctx, r.cfg.Owner, r.cfg.Repo, r.pr, lo)
		})
	})
}

// readComments is an issue's or pull request's comments as the human pass
// reads them; the bypass after the yes reads them afresh (bypassComments).
func (r *run) readComments(n int) ([]*github.IssueComment, error) {
	return readAs(r.round(), "comments\x00"+itoa64(int64(n)), func(ctx context.Context) ([]*github.IssueComment, error) {
		return r.listComments(ctx, n)
	})
}

func (r *run) listComments(ctx context.Context, n int) ([]*github.IssueComment, error) {
	return ghx.ListAll(ctx, func(lo *github.ListOptions) ([]*github.IssueComment, *github.Response, error) {
		return r.cfg.Client.Issues.ListComments(ctx, r.cfg.Owner, r.cfg.Repo, n, &github.IssueListCommentsOptions{ListOptions: *lo})
	})
}

func (r *run) readPermission() (*github.RepositoryPermissionLevel, error) {
	return readAs(r.round(), "permission", func(ctx context.Context) (*github.RepositoryPermissionLevel, error) {
		lvl, _, err := r.cfg.Client.Repositories.GetPermissionLevel(ctx, r.cfg.Owner, r.cfg.Repo, r.cfg.Viewer)
		return lvl, err
	})
}

// prefetch is the read-only round. What needs only the pull request's
// number goes out at once; what needs its head, base or story goes out the
// moment the pull request is read; the merge gate's runs' artifact lists
// the moment the runs are. A new gate read is one more r.reads.ahead here
// and the same read function at its gate. Nothing here touches the run's
// own fields but the immutable ones: the gates own those.
func (r *run) prefetch() {
	rs := r.reads
	rs.ahead(func() {
		pull, err := r.readPull()
		if err != nil || pull.GetHead().GetSHA() == "" {
			return
		}
		r.prefetchHead(pull)
	})
	rs.ahead(func() { _, _ = r.readRepo() })
	rs.ahead(func() { _, _ = r.readReviews() })
	rs.ahead(func() { _, _ = r.readFiles() })
	rs.ahead(func() { _, _ = r.readComments(r.pr) })
	rs.ahead(func() { _, _ = r.readPermission() })
	rs.ahead(func() { _, _ = r.readFile(LedgerBranch, SamplesPath) })
}

// prefetchHead issues the reads that need the pull request's head, base
// or linked story.
func (r *run) prefetchHead(pull *github.PullRequest) {
	rs := r.reads
	head, baseRef := pull.GetHead().GetSHA(), pull.GetBase().GetRef()
	if pull.GetMerged() {
		return // a resumed merge reads its own way (resumeMerged)
	}
	rs.ahead(func() { _, _ = r.readBasePolicy(baseRef) })
	rs.ahead(func() { _, _ = r.readRequired(baseRef) })
	rs.ahead(func() { _, _ = r.readHeadChecks(head) })
	rs.ahead(func() { _, _ = r.readFile(LedgerBranch, ReviewRecordPath(r.pr, head)) })
	rs.ahead(func() {
		runs, err := r.readGateRuns(gateRunsSince(pull))
		if err != nil {
			return
		}
		target := gateTarget(r.pr, pull)
		candidates := 0
		for _, run := range runs {
			if ours, reason := gaterun.Judge(ghx.GateRunFacts(run), target); ours && reason == "" {
				id, download := run.GetID(), candidates < zipsAhead
				candidates++
				rs.ahead(func() {
					arts, err := r.readArtifacts(id)
					if err != nil || !download {
						return
					}
					if art, reason := r.packArtifact(arts); reason == "" {
						_, _ = r.readZip(art.GetID(), r.runDir(id)+".zip")
					}
				})
			}
		}
	})
	if story := linkedStory(pull.GetHead().GetRef(), pull.GetBody()); story != 0 {
		// The pack names its story; the one the pull request links is the
		// one it must name, so its snapshot and evidence map are read now.
		rs.ahead(func() { _, _ = r.readFile(LedgerBranch, readyPath(story)) })
		rs.ahead(func() { _, _ = r.readFile(head, evidencePath(story)) })
		rs.ahead(func() { _, _ = r.readFile(head, "go.mod") })
	}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
