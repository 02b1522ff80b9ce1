package inboxread

import (
	"errors"
	"fmt"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/inbox"
)

// errReplaced says the repository under the owner and name is not the one
// the previous read saw: deleted and created again on GitHub, or a sandbox
// reset. Nothing a "since" question answers can be trusted against the old
// read then — the new repository's items may carry older updated_at than
// the last read, and reuse its numbers — so the caller reads everything.
var errReplaced = errors.New("the repository was replaced since the last read")

// identityFuture is the repository's identity, asked beside a read's other
// questions.
type identityFuture struct {
	done  chan struct{}
	ident inbox.RepoIdentity
	err   error
}

// startIdentity asks GitHub for the repository object, a conditional
// request (a 304 that GitHub does not count while nothing about the
// repository changed), and keeps its id and created_at.
func startIdentity(s *session) *identityFuture {
	f := &identityFuture{done: make(chan struct{})}
	go func() {
		defer close(f.done)
		repo, _, err := s.r.gh.Repositories.Get(s.ctx, s.r.owner, s.r.repo)
		if err != nil {
			f.err = fmt.Errorf("reading which repository %s/%s is: %w", s.r.owner, s.r.repo, err)
			return
		}
		f.ident = inbox.RepoIdentity{ID: repo.GetID(), CreatedAt: repo.GetCreatedAt().Time.UTC()}
	}()
	return f
}

func (f *identityFuture) wait() (inbox.RepoIdentity, error) {
	<-f.done
	return f.ident, f.err
}

// sameRepository reports whether now is the repository prev was read from.
// A snapshot without an identity (a cache kept by an older aayu) is not
// known to be the same one.
func sameRepository(prev, now inbox.RepoIdentity) bool {
	return prev.ID != 0 && prev.ID == now.ID && prev.CreatedAt.Equal(now.CreatedAt)
}

// runsPage is what page 1 of the repository's workflow runs says.
type runsPage struct {
	// changed is false only when GitHub answered 304 to the ETag kept from
	// the last time the page was read.
	changed bool
	// repoID is the id of the repository every run on the page belongs to
	// (each run's repository.id); 0 when the page holds no run, or runs
	// that do not agree.
	repoID int64
}

// readRunsPage asks for page 1 of the repository's workflow runs, a
// conditional request. Read, Refresh and Warm ask the very same URL, so
// the ETag cache can answer each 304.
func (s *session) readRunsPage() (runsPage, error) {
	runs, resp, err := s.r.gh.Actions.ListRepositoryWorkflowRuns(s.ctx, s.r.owner, s.r.repo,
		&github.ListWorkflowRunsOptions{ListOptions: github.ListOptions{PerPage: runsPerPage}})
	if err != nil {
		return runsPage{changed: true}, err
	}
	page := runsPage{changed: resp.Header.Get(ghx.CacheHeader) != "hit"}
	for i, run := range runs.WorkflowRuns {
		id := run.GetRepository().GetID()
		if id == 0 || (i > 0 && id != page.repoID) {
			page.repoID = 0
			break
		}
		page.repoID = id
	}
	return page, nil
}

// runsFuture is page 1 of the workflow runs, asked beside the since
// question.
type runsFuture struct {
	done chan struct{}
	page runsPage
	err  error
}

func startRuns(s *session) *runsFuture {
	f := &runsFuture{done: make(chan struct{})}
	go func() {
		defer close(f.done)
		f.page, f.err = s.readRunsPage()
		if f.err != nil {
			f.err = fmt.Errorf("asking GitHub which workflows ran: %w", f.err)
		}
	}()
	return f
}

func (f *runsFuture) wait() (runsPage, error) {
	<-f.done
	return f.page, f.err
}

// isRepositoryOf reports whether the repository GitHub serves under the
// name is the one prev was read from. GitHub describes every workflow run
// with its repository (the workflow-run object's required repository, whose
// id GitHub never gives another repository), so when the runs page holds a
// run, its repository.id answers without another request: a 304 repeats a
// body that names the repository, and a repository created again under the
// name has other runs, so another body. Only a page with no run (a
// repository where no workflow ran yet) leaves the repository to be read
// itself — one more conditional request, after the page's answer.
func (s *session) isRepositoryOf(prev inbox.RepoIdentity, page runsPage) (bool, error) {
	if page.repoID != 0 {
		return prev.ID != 0 && prev.ID == page.repoID, nil
	}
	now, err := startIdentity(s).wait()
	if err != nil {
		return false, err
	}
	return sameRepository(prev, now), nil
}
