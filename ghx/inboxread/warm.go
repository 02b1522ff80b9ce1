package inboxread

import (
	"context"
	"errors"
	"time"

	"github.com/aayudha/aayu/model/inbox"
)

// MaxWarmAge bounds how old a kept read may be for Warm to start from it:
// what a refresh cannot see (a status set by hand) is read whole at least
// this often.
const MaxWarmAge = 12 * time.Hour

// runsPerPage is the size of the workflow-runs page Read, Refresh and Warm
// ask for. All ask the very same URL, so the ETag cache can answer 304.
const runsPerPage = 30

// Warm starts a new process from the last read kept on disk (LoadCache's
// snapshot and time) instead of reading everything again. It is a Refresh
// from the kept read: two conditional questions side by side, each a 304
// that GitHub does not count when nothing changed, whatever the number of
// items —
//
//   - the refresh's issues?state=all&since= query, for every issue and pull
//     request whose updated_at moved (comments, labels, pushes, closes);
//   - page 1 of the repository's workflow runs, for what does not move an
//     updated_at: the merge gate finishing, the inspect workflow setting
//     its status, a workflow writing the ledger. Only when that page
//     changed are the open pull requests' facts and the audit entries read
//     again, in pages. Its runs also name the repository (its id): another
//     one under the same name (created again, or the sandbox reset) is read
//     whole. A repository where no workflow ran yet is asked about itself,
//     a third conditional request.
//
// Only the items that changed are read again. A commit status set outside
// any workflow is seen by the next full Read (at least every MaxWarmAge).
func (r *Reader) Warm(ctx context.Context, cached inbox.Snapshot, readAt time.Time) (inbox.Snapshot, Stats, error) {
	ctx, count := withCounter(ctx)
	r.mu.Lock()
	r.readAt = readAt
	r.mu.Unlock()
	s := r.newSession(ctx, cached.BotLogins)
	s.rememberPermissions(cached)
	snap, err := r.refresh(s, cached, readAt)
	if errors.Is(err, errReplaced) {
		// Not the repository the kept read was of: read it whole.
		snap, err = r.readAgain(ctx, cached)
		return snap, count.stats(), err
	}
	if err != nil {
		return cached, count.stats(), err
	}
	return snap, count.stats(), nil
}

// rereadFacts reads again what a workflow can change without moving an
// updated_at: every open pull request's facts and the audit entries.
func (s *session) rereadFacts(snap *inbox.Snapshot) error {
	var open []int
	audit := false
	for _, pr := range snap.PullRequests {
		if pr.Open() {
			open = append(open, pr.Number)
		}
		audit = audit || (pr.Merged && pr.HasLabel(inbox.LabelAudit))
	}
	if err := s.pullDetails(snap, open); err != nil {
		return err
	}
	if err := s.readReviewRecords(snap, setOf(open)); err != nil {
		return err
	}
	if !audit {
		return nil
	}
	entries, tampered, err := s.auditEntries()
	if err != nil {
		return err
	}
	snap.AuditTampering = tampered
	snap.AuditEntries = map[int]bool{}
	for n := range entries {
		snap.AuditEntries[n] = true
	}
	return nil
}
