package ship

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
)

// maxTeamReads bounds the membership reads of one ship: teams named by
// the changed paths' CODEOWNERS times the people who approved. Past it a
// membership is unknown, and unknown grants nothing.
const maxTeamReads = 60

// teams reads, for each @org/team a changed path's CODEOWNERS names, which
// of the people who approved are its members, so pass.IsOwner can count a
// team owner's approval. Only approvals are asked about: a team whose
// membership is never read can never pass a path (the gap it closes).
func (r *run) teams(in pass.PassInput) (map[string][]string, []string, error) {
	if in.Codeowners == nil {
		return nil, nil, nil
	}
	set := map[string]bool{}
	for _, f := range in.Changed {
		for _, p := range []string{f.Path, f.PreviousPath} {
			if p == "" {
				continue
			}
			for _, o := range in.Codeowners.Owners(p) {
				if strings.HasPrefix(o, "@") && strings.Contains(o, "/") {
					set[strings.ToLower(o)] = true
				}
			}
		}
	}
	if len(set) == 0 {
		return nil, nil, nil
	}
	var teams, approvers []string
	for t := range set {
		teams = append(teams, t)
	}
	sort.Strings(teams)
	seen := map[string]bool{}
	for _, v := range in.Reviews {
		l := strings.ToLower(v.Author.Login)
		if v.State == "APPROVED" && l != "" && !seen[l] && !identity.IsBot(v.Author, in.Policy.BotLogins) {
			seen[l] = true
			approvers = append(approvers, v.Author.Login)
		}
	}
	sort.Strings(approvers)
	out := map[string][]string{}
	var notes []string
	reads := 0
	for _, t := range teams {
		for _, a := range approvers {
			if reads >= maxTeamReads {
				return out, append(notes, fmt.Sprintf("team membership past %d reads was not asked, so it grants nothing", maxTeamReads)), nil
			}
			reads++
			member, err := ghx.TeamMember(r.ctx, r.cfg.Client, t, a)
			switch {
			case ghx.IsForbidden(err):
				notes = append(notes, fmt.Sprintf("whether @%s is in %s could not be read (GitHub refused: the token needs read:org), so it grants nothing", a, t))
			case err != nil:
				return nil, nil, fmt.Errorf("reading whether @%s is a member of %s: %s", a, t, ghx.Describe(err))
			case member:
				out[t] = append(out[t], a)
			}
		}
	}
	return out, notes, nil
}
