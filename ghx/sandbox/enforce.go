package sandbox

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Rulesets are enforced here as GitHub enforces them: a merge or a push
// that would put a commit on a branch without every required status check
// green is refused, unless the caller is one of the ruleset's bypass actors.
//
// GitHub evaluates a required check by its name across commit statuses
// (the context) and check runs (the run's name): the newest of each. A
// status is green on success; a check run is green when completed with
// success, neutral or skipped ("Troubleshooting required status checks":
// skipped and neutral satisfy a required check).

// checkVerdict is one required check's state on a commit, in the words
// GitHub's rule-violation messages use.
type checkVerdict int

const (
	verdictGreen    checkVerdict = iota
	verdictExpected              // never reported, or still pending / in progress
	verdictFailing
)

// checkState judges one required check on sha: the newest commit status
// of its context and the newest check run of its name (a red one of
// either makes it red; neither is "expected"). A check pinned to an
// integration counts only a status or check run from that App, as the
// rule's integration_id says: "The optional integration ID that this
// status check must originate from" (github-api/openapi-subset.json,
// repository-rule-params-status-check-configuration). A status a person's
// token posts has no App; a job's GITHUB_TOKEN posts as GitHub Actions.
func (s *Server) checkState(sha string, rc requiredCheck) checkVerdict {
	from := func(app int64) bool { return rc.IntegrationID == nil || *rc.IntegrationID == app }
	v, seen := verdictExpected, false
	for _, st := range s.statusesFor(sha) { // newest first
		if st.Context != rc.Context || !from(s.loginAppID(st.Creator)) {
			continue
		}
		seen = true
		switch st.State {
		case "success":
			v = verdictGreen
		case "pending":
			v = verdictExpected
		default: // failure, error
			v = verdictFailing
		}
		break
	}
	for _, cr := range latestCheckRuns(s.checkRunsFor(sha)) {
		if cr.Name != rc.Context || !from(s.checkAppID(cr.App)) {
			continue
		}
		cv := verdictExpected
		if cr.Status == "completed" {
			cv = verdictFailing
			if checkGreen(cr.Conclusion) {
				cv = verdictGreen
			}
		}
		if !seen || cv > v {
			v, seen = cv, true
		}
	}
	return v
}

// refUpdate is one write to a branch the rulesets judge: a push's
// command or an API ref write (old → new, either zero for a creation or a
// deletion), or a pull request's merge (pr set; its head is what the
// required checks are read on).
type refUpdate struct {
	branch   string
	old, new plumbing.Hash
	pr       *issueRec
	git      *gitStore // where old and new are found; nil is the repository's
}

// ruleViolations lists, in GitHub's words, the rules of branch's active
// rulesets that the write breaks, leaving out the rulesets c may bypass
// (a "pull_request" bypass only for a merge).
func (s *Server) ruleViolations(c caller, u refUpdate) []string {
	g := u.git
	if g == nil {
		g = s.git
	}
	creating, deleting := u.old.IsZero() && u.pr == nil, u.new.IsZero() && u.pr == nil
	sha := u.new.String()
	if u.pr != nil {
		sha = s.headSHA(u.pr).String()
	}
	var out []string
	add := func(v string) {
		for _, have := range out {
			if have == v {
				return
			}
		}
		out = append(out, v)
	}
	for _, r := range s.activeRulesFor(u.branch) {
		if mode := r.set.bypassMode(c); mode == "always" || mode == "pull_request" && u.pr != nil {
			continue
		}
		switch r.Type {
		case "deletion": // "Only allow users with bypass permissions to delete matching refs."
			if deleting {
				add("Cannot delete this branch")
			}
		case "creation":
			if creating {
				add("Cannot create ref due to creations being restricted.")
			}
		case "update":
			if !creating && !deleting && u.pr == nil {
				add("Cannot update this protected ref.")
			}
		case "non_fast_forward": // "Prevent users with push access from force pushing to refs."
			if !creating && !deleting && u.pr == nil && !g.isAncestor(u.old, u.new) {
				add("Cannot force-push to this branch")
			}
		case "required_status_checks":
			var p statusChecksParams
			if deleting || !r.decode(&p) || creating && p.DoNotEnforceOnCreate {
				continue
			}
			for _, rc := range p.Checks {
				switch s.checkState(sha, rc) {
				case verdictExpected:
					add(fmt.Sprintf("Required status check %q is expected.", rc.Context))
				case verdictFailing:
					// GitHub's wording for a failing (not just missing)
					// check is not recorded in github-api/; "is failing"
					// is our assumption.
					add(fmt.Sprintf("Required status check %q is failing.", rc.Context))
				}
			}
		case "pull_request": // "Require all commits be made to a non-target branch and submitted via a pull request"
			var p pullRequestParams
			switch {
			case deleting:
			case u.pr == nil:
				add("Changes must be made through a pull request.")
			case r.decode(&p):
				for _, v := range s.reviewViolations(u.pr, p) {
					add(v)
				}
			}
		}
	}
	return out
}

// reviewViolations judges a pull request's reviews against a pull_request
// rule: the newest review of each reviewer with write access other than
// the author counts; with dismiss_stale_reviews_on_push only an approval
// of the current head counts; with require_last_push_approval one
// approval must come from someone other than the head branch's last
// pusher. GitHub's words for the first are branch protection's ("At least
// 1 approving review is required by reviewers with write access."); the
// second's are our assumption.
func (s *Server) reviewViolations(is *issueRec, p pullRequestParams) []string {
	head := s.headSHA(is).String()
	latest := map[string]*reviewRec{}
	var order []string
	for _, rv := range s.st.Reviews {
		if rv.PR != is.Number || rv.State == "COMMENTED" || rv.State == "PENDING" {
			continue
		}
		if _, ok := latest[rv.User]; !ok {
			order = append(order, rv.User)
		}
		latest[rv.User] = rv
	}
	pusher := s.lastPusher(is)
	approvals, byOther := 0, false
	for _, login := range order {
		rv := latest[login]
		a, known := accountByLogin(login)
		if rv.State != "APPROVED" || strings.EqualFold(login, is.User) || !known || !a.canPush() ||
			p.DismissStale && rv.CommitID != head {
			continue
		}
		approvals++
		byOther = byOther || !strings.EqualFold(login, pusher)
	}
	var out []string
	if approvals < p.Approvals {
		noun := "approving review is"
		if p.Approvals > 1 {
			noun = "approving reviews are"
		}
		out = append(out, fmt.Sprintf("At least %d %s required by reviewers with write access.", p.Approvals, noun))
	}
	if p.LastPushApproval && approvals > 0 && !byOther {
		out = append(out, "The most recent push must be approved by someone other than the person who pushed it.")
	}
	return out
}

// lastPusher is who last moved the pull request's head branch, as far as
// the sandbox saw (a push or an API ref write), else its author.
func (s *Server) lastPusher(is *issueRec) string {
	if login := s.st.Pushers[is.PR.Head]; login != "" {
		return login
	}
	return is.User
}

// notePush records who moved a branch, for require_last_push_approval.
func (s *Server) notePush(ref, login string) {
	branch, ok := strings.CutPrefix(strings.TrimPrefix(ref, "refs/"), "heads/")
	if !ok || login == "" {
		return
	}
	if s.st.Pushers == nil {
		s.st.Pushers = map[string]string{}
	}
	s.st.Pushers[branch] = login
}

// ruleViolationMessage is the message of GitHub's 405 for a merge and 422
// for a ref update that a ruleset refuses: "Repository rule violations
// found", a blank line, then one line per rule (REFERENCE.md lists
// `repository-rule-violation-error` among git/create-blob's answers; the
// merge endpoint answers 405 for a blocked pull request).
func ruleViolationMessage(violations []string) string {
	return "Repository rule violations found\n\n" + strings.Join(violations, "\n") + "\n\n"
}

const rulesDocs = "https://docs.github.com/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/about-rulesets"

// refuseMergeByRules writes the 405 when the base's rulesets refuse c's
// merge of is, and says whether it did.
func (s *Server) refuseMergeByRules(w http.ResponseWriter, c caller, is *issueRec) bool {
	v := s.ruleViolations(c, refUpdate{branch: is.PR.Base, pr: is})
	if len(v) == 0 {
		return false
	}
	writeErrorDoc(w, http.StatusMethodNotAllowed, ruleViolationMessage(v), rulesDocs)
	return true
}

// refuseRefByRules writes git/refs' 422 (repository-rule-violation-error)
// when the rulesets refuse c's move of ref (refs/… or heads/…) from old
// to new, and says whether it did.
func (s *Server) refuseRefByRules(w http.ResponseWriter, c caller, ref string, old, new plumbing.Hash) bool {
	branch, ok := strings.CutPrefix(strings.TrimPrefix(ref, "refs/"), "heads/")
	if !ok {
		return false
	}
	v := s.ruleViolations(c, refUpdate{branch: branch, old: old, new: new})
	if len(v) == 0 {
		return false
	}
	writeErrorDoc(w, http.StatusUnprocessableEntity, ruleViolationMessage(v), rulesDocs)
	return true
}

// pushRefusal is the text git shows for a push a ruleset refuses, as
// GitHub words it (remote: error: GH013 …), one line per rule; "" when the
// push may go ahead. g holds the push's objects.
func (s *Server) pushRefusal(c caller, repo string, cmd pushCommand, g *gitStore) string {
	branch, ok := strings.CutPrefix(cmd.Ref, "refs/heads/")
	if !ok {
		return ""
	}
	v := s.ruleViolations(c, refUpdate{branch: branch, old: plumbing.NewHash(cmd.Old), new: plumbing.NewHash(cmd.New), git: g})
	if len(v) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "error: GH013: Repository rule violations found for %s.\n", cmd.Ref)
	fmt.Fprintf(&b, "Review all repository rules at https://github.com/%s/%s/rules?ref=%s\n\n", RepoOwner, repo, strings.ReplaceAll(cmd.Ref, "/", "%2F"))
	for _, line := range v {
		fmt.Fprintf(&b, "- %s\n\n", line)
	}
	return b.String()
}

// loginAppID is the App a status's creator acts for: github-actions[bot]
// is GitHub Actions, APP[bot] an App's installation, a person none.
func (s *Server) loginAppID(login string) int64 {
	slug, ok := strings.CutSuffix(login, "[bot]")
	if !ok {
		return 0
	}
	return s.checkAppID(slug)
}

// checkAppID is the id of the App with that slug.
func (s *Server) checkAppID(slug string) int64 {
	if a, ok := checkApps[slug]; ok {
		return a.ID
	}
	s.apps.mu.Lock()
	defer s.apps.mu.Unlock()
	for _, a := range s.apps.apps {
		if a.Slug == slug {
			return a.ID
		}
	}
	return appOf(slug).ID
}
