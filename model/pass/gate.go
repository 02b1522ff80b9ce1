package pass

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"
)

// GateInput is what the protected-paths gate reads: the base branch's
// CODEOWNERS text and the pull request's facts.
type GateInput struct {
	Codeowners string // the base branch's .github/CODEOWNERS; "" when it has none
	Changed    []ChangedFile
	Reviews    []Review
	Author     string
	Head       string
	BotLogins  []string
	Teams      map[string][]string // "@org/team" → member logins, when read
}

// PathApproval is one protected path and who passed it.
type PathApproval struct {
	Path       string
	Owners     []string
	ApprovedBy string // "" when no owner approved
}

// GateResult is the protected-paths gate's answer.
type GateResult struct {
	Pass     bool
	Paths    []PathApproval // every protected path the pull request touches
	Refusals []string
}

// ProtectedPathsGate passes only when every changed protected path — a
// path CODEOWNERS gives an owner, the old path of a rename included — has a
// human pass (an approval of the head, by a person who is not the author)
// from one of that path's CODEOWNERS. A missing CODEOWNERS or a pattern the
// gate cannot evaluate fails closed (seed invariant 2).
func ProtectedPathsGate(in GateInput) GateResult {
	if strings.TrimSpace(in.Codeowners) == "" {
		return GateResult{Refusals: []string{"the base branch has no CODEOWNERS, so no path's owners are known; the gate fails closed"}}
	}
	co, err := ParseCodeowners(in.Codeowners)
	if err != nil {
		return GateResult{Refusals: []string{fmt.Sprintf("the base branch's CODEOWNERS cannot be evaluated (%v); the gate fails closed", err)}}
	}
	approvers := humanApprovals(in.Reviews, in.Author, in.Head, in.BotLogins)
	res := GateResult{Pass: true}
	for _, p := range uniqueSorted(paths(in.Changed)) {
		owners := co.Owners(p)
		if len(owners) == 0 {
			continue
		}
		pa := PathApproval{Path: p, Owners: owners}
		for _, login := range approvers {
			if IsOwner(owners, login, in.Teams) {
				pa.ApprovedBy = login
				break
			}
		}
		if pa.ApprovedBy == "" {
			res.Pass = false
			res.Refusals = append(res.Refusals, fmt.Sprintf("protected path %s needs an approval of head %s from one of its CODEOWNERS (%s); none has given one",
				p, short(in.Head), strings.Join(owners, ", ")))
		}
		res.Paths = append(res.Paths, pa)
	}
	return res
}

// humanApprovals lists, sorted, the logins whose latest decisive review
// approves head and who are neither a bot nor the author.
func humanApprovals(reviews []Review, author, head string, botLogins []string) []string {
	var out []string
	for _, r := range LatestDecisive(reviews) {
		if countsAsPass(r, author, head, botLogins) == "" {
			out = append(out, r.Author.Login)
		}
	}
	sort.Strings(out)
	return out
}

// countsAsPass says why a latest decisive review is not a human pass of
// head, or "" when it is one (seed invariant 1).
func countsAsPass(r Review, author, head string, botLogins []string) string {
	switch {
	case identity.IsBot(r.Author, botLogins):
		return fmt.Sprintf("@%s is a bot", r.Author.Login)
	case identity.SameLogin(r.Author.Login, author):
		return fmt.Sprintf("@%s is the author", r.Author.Login)
	case head == "" || !strings.EqualFold(r.CommitID, head):
		return fmt.Sprintf("@%s reviewed an older commit, %s, not head %s", r.Author.Login, short(r.CommitID), short(head))
	case !strings.EqualFold(r.State, StateApproved):
		return fmt.Sprintf("@%s requested changes", r.Author.Login)
	}
	return ""
}

func short(sha string) string {
	if sha == "" {
		return "(none)"
	}
	return gitsha.Short(sha)
}

func uniqueSorted(in []string) []string {
	set := map[string]bool{}
	var out []string
	for _, s := range in {
		if !set[s] {
			set[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
