package ship

import (
	"fmt"
	"strconv"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/gitsha"
)

// LedgerBranch is where packs and ship records land.
const LedgerBranch = "ledger"

// checkPR is gate 1: the pull request is open, not a draft and not in
// conflict; its head, author, base and linked story are read. A pull request
// an earlier ship merged is resumed; one merged otherwise is refused.
func (r *run) checkPR() (gateOutcome, error) {
	pr, err := r.readPull()
	if ghx.IsNotFound(err) {
		return gateOutcome{refusals: []string{fmt.Sprintf("pull request #%d does not exist in %s, or your token cannot see it", r.pr, r.repoName())}}, nil
	}
	if err != nil {
		return gateOutcome{}, fmt.Errorf("reading pull request #%d: %s", r.pr, ghx.Describe(err))
	}
	r.target.pull = pr
	r.target.head = pr.GetHead().GetSHA()
	r.target.author = pr.GetUser().GetLogin()
	r.target.baseRef = pr.GetBase().GetRef()
	r.target.story = linkedStory(pr.GetHead().GetRef(), pr.GetBody())

	if pr.GetMerged() {
		return r.resumeMerged(pr.GetMergeCommitSHA())
	}
	var refusals []string
	switch {
	case pr.GetState() != "open":
		refusals = append(refusals, fmt.Sprintf("pull request #%d is closed without being merged", r.pr))
	case pr.GetDraft():
		refusals = append(refusals, fmt.Sprintf("pull request #%d is a draft; mark it ready for review first", r.pr))
	case pr.Mergeable != nil && !pr.GetMergeable():
		refusals = append(refusals, fmt.Sprintf("pull request #%d conflicts with %s; nothing can merge until its branch is brought up to date", r.pr, r.target.baseRef))
	}
	if len(refusals) > 0 {
		if pr.GetState() != "open" {
			r.target.head = "" // nothing further is worth checking
		}
		return gateOutcome{refusals: refusals}, nil
	}
	return gateOutcome{words: fmt.Sprintf("#%d is open into %s at head %s", r.pr, r.target.baseRef, gitsha.Short(r.target.head))}, nil
}

// resumeMerged handles a pull request that is already merged: only a merge
// an earlier ship made for this very head is finished; the record is then
// landed unless it already is.
func (r *run) resumeMerged(mergeSHA string) (gateOutcome, error) {
	tr, err := r.readMergeTrailers(mergeSHA)
	if err != nil {
		return gateOutcome{}, err
	}
	if tr == nil || tr.Head != r.target.head {
		msg := fmt.Sprintf("pull request #%d was merged as %s without aayu ship for head %s, so there is no gate pack ship may land; the inbox marks it merged without proof",
			r.pr, gitsha.Short(mergeSHA), gitsha.Short(r.target.head))
		r.target.head = ""
		return gateOutcome{refusals: []string{msg}}, nil
	}
	r.target.resume = tr
	r.res.Merged, r.res.MergeCommit, r.res.Resumed = true, mergeSHA, true
	if tr.Story != 0 {
		r.target.story = tr.Story
	}
	dir := ledgerDir(r.target.story, r.target.head)
	rec, err := ghx.ReadFile(r.ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, LedgerBranch, dir+"/ship.json")
	switch {
	case err == nil:
		r.res.Shipped, r.res.ShipRecord, r.res.LedgerDir = true, rec, dir
		r.res.ExitCode = ExitShipped
		return gateOutcome{words: fmt.Sprintf("#%d was merged as %s and its record is already on the ledger", r.pr, gitsha.Short(mergeSHA))}, nil
	case !ghx.IsNotFound(err):
		return gateOutcome{}, fmt.Errorf("reading the ledger's ship record: %s", ghx.Describe(err))
	}
	return gateOutcome{words: fmt.Sprintf("#%d was merged as %s by an earlier aayu ship; finishing its record", r.pr, gitsha.Short(mergeSHA))}, nil
}

var (
	storyBranch = lazyre.New(`^(?:story|fix)/([0-9]+)-`)
	storyRef    = lazyre.New(`(?i)\b(?:refs|closes|fixes|resolves)\s+#([0-9]+)\b`)
)

// linkedStory reads the item a pull request links: a story/N-… branch (a
// Bug's fix/N-…, the branch the merge gate builds a Bug's pack on), else
// the first Refs, Closes, Fixes or Resolves #N in its body.
func linkedStory(branch, body string) int {
	if m := storyBranch().FindStringSubmatch(branch); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	if m := storyRef().FindStringSubmatch(body); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

func (r *run) readMergeTrailers(sha string) (*mergeTrailers, error) {
	if sha == "" {
		return nil, nil
	}
	c, _, err := r.cfg.Client.Git.GetCommit(r.ctx, r.cfg.Owner, r.cfg.Repo, sha)
	if err != nil {
		return nil, fmt.Errorf("reading merge commit %s: %s", gitsha.Short(sha), ghx.Describe(err))
	}
	return parseTrailers(c.GetMessage()), nil
}

// ledgerDir is where the authoritative pack of a story's head lands.
func ledgerDir(story int, head string) string {
	return fmt.Sprintf("proof/%d/%s/authoritative", story, head)
}
