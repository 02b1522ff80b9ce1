package inboxread

import (
	"errors"
	"fmt"

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
