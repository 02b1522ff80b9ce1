package inboxread

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/inbox"
)

// candidate is a merged pull request and the open Story before
// status:merged it links.
type candidate struct{ pr, story int }

// readShipRecords marks the merged pull requests a ship record on the
// ledger covers (proof/STORY/HEAD/authoritative/ship.json), among those
// that would otherwise file an open Story as "merged without ship": a
// merge aayu ship made is never called one made without it. only, when
// not nil, limits the check to those pull requests (a refresh's changes).
// The ledger is listed by folder, through conditional requests, and only
// when some pull request needs it.
func (s *session) readShipRecords(snap *inbox.Snapshot, only map[int]bool) error {
	if snap.ShipRecords == nil {
		snap.ShipRecords = map[int]bool{}
	}
	stories := map[int]bool{}
	for _, is := range snap.Issues {
		if is.Open() && is.HasLabel(inbox.LabelStory) && !is.HasLabel(inbox.LabelMerged) {
			stories[is.Number] = true
		}
	}
	base := snap.IntegrationBranch
	if base == "" {
		base = "dev"
	}
	var todo []candidate
	for _, pr := range snap.PullRequests {
		if !pr.Merged || pr.BaseRef.Raw() != base || pr.HeadSHA == "" || snap.ShipRecords[pr.Number] || (only != nil && !only[pr.Number]) {
			continue
		}
		for _, n := range inbox.LinkedIssues(pr.HeadRef.Raw(), pr.Body.Raw()) {
			if stories[n] {
				todo = append(todo, candidate{pr.Number, n})
			}
		}
	}
	if len(todo) == 0 {
		return nil
	}
	list := func(dir string) (map[string]bool, error) {
		entries, err := ghx.ListTree(s.ctx, s.r.gh, s.r.owner, s.r.repo, LedgerBranch, dir)
		if ghx.IsNotFound(err) {
			return map[string]bool{}, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading the ship records on the %s branch: %w", LedgerBranch, err)
		}
		out := map[string]bool{}
		for _, e := range entries {
			out[strings.ToLower(e.Name)] = true
		}
		return out, nil
	}
	proofs, err := list("proof")
	if err != nil {
		return err
	}
	heads := map[int]map[string]bool{}
	for _, c := range todo {
		if !proofs[strconv.Itoa(c.story)] {
			continue
		}
		if heads[c.story] == nil {
			if heads[c.story], err = list(fmt.Sprintf("proof/%d", c.story)); err != nil {
				return err
			}
		}
		var head string
		for _, pr := range snap.PullRequests {
			if pr.Number == c.pr {
				head = strings.ToLower(pr.HeadSHA)
			}
		}
		if !heads[c.story][head] {
			continue
		}
		files, err := list(fmt.Sprintf("proof/%d/%s/authoritative", c.story, head))
		if err != nil {
			return err
		}
		if files["ship.json"] {
			snap.ShipRecords[c.pr] = true
		}
	}
	return s.readShipMerges(snap, todo)
}

// readShipMerges marks the candidates no ship record covers whose merge
// commit carries aayu ship's trailer block (inbox.ShipTrailerLines): ship
// merged them and stopped before its record, so their card is that ship's,
// finished by aayu ship, never a merge without ship. A merge commit never
// changes, so each is read once per read of the inbox.
func (s *session) readShipMerges(snap *inbox.Snapshot, todo []candidate) error {
	if snap.ShipMerges == nil {
		snap.ShipMerges = map[int]bool{}
	}
	shas := map[int]string{}
	for _, c := range todo {
		if snap.ShipRecords[c.pr] {
			continue
		}
		for _, pr := range snap.PullRequests {
			if pr.Number == c.pr && pr.MergeCommitSHA != "" {
				shas[c.pr] = pr.MergeCommitSHA
			}
		}
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for n, sha := range shas {
		if v, ok := s.r.shipMerge.Load(sha); ok {
			snap.ShipMerges[n] = v.(bool)
			continue
		}
		wg.Add(1)
		go func() { // the transport bounds how many are in flight
			defer wg.Done()
			commit, _, err := s.r.gh.Git.GetCommit(s.ctx, s.r.owner, s.r.repo, sha)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case ghx.IsNotFound(err):
			case err != nil:
				if first == nil {
					first = fmt.Errorf("reading #%d's merge commit: %s", n, ghx.Describe(err))
				}
			default:
				ship := inbox.ShipTrailerLines(commit.GetMessage()) != nil
				s.r.shipMerge.Store(sha, ship)
				snap.ShipMerges[n] = ship
			}
		}()
	}
	wg.Wait()
	return first
}
