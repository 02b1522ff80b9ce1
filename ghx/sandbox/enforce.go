package sandbox

import (
	"fmt"
	"net/http"
	"strings"
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

// ruleBypassRole is the repository role whose members bypass the demo's
// rulesets: GitHub's bypass_actors entry {"actor_type":"RepositoryRole",
// "actor_id":5 (admin), "bypass_mode":"always"}, the usual set-up, which
// is also what `gh pr merge --admin` relies on.
const ruleBypassRole = "admin"

// checkVerdict is one required check's state on a commit, in the words
// GitHub's rule-violation messages use.
type checkVerdict int

const (
	verdictGreen    checkVerdict = iota
	verdictExpected              // never reported, or still pending / in progress
	verdictFailing
)

// checkStates reads the newest state of every check name on sha: commit
// statuses by context, then check runs by name (a check run and a status
// of one name both count; a red one of either makes the name red).
func (s *Server) checkStates(sha string) map[string]checkVerdict {
	out := map[string]checkVerdict{}
	seen := map[string]bool{}
	for _, st := range s.statusesFor(sha) { // newest first
		if seen[st.Context] {
			continue
		}
		seen[st.Context] = true
		switch st.State {
		case "success":
			out[st.Context] = verdictGreen
		case "pending":
			out[st.Context] = verdictExpected
		default: // failure, error
			out[st.Context] = verdictFailing
		}
	}
	for name, v := range s.checkRunStates(sha) {
		if cur, ok := out[name]; !ok || v > cur {
			out[name] = v
		}
	}
	return out
}

// checkRunStates is the newest check run of each name on sha, judged as a
// required check: completed with success, neutral or skipped is green;
// queued or in progress is expected; any other conclusion fails.
func (s *Server) checkRunStates(sha string) map[string]checkVerdict {
	out := map[string]checkVerdict{}
	for _, cr := range latestCheckRuns(s.checkRunsFor(sha)) {
		v := verdictExpected
		if cr.Status == "completed" {
			v = verdictFailing
			if checkGreen(cr.Conclusion) {
				v = verdictGreen
			}
		}
		if cur, ok := out[cr.Name]; !ok || v > cur {
			out[cr.Name] = v
		}
	}
	return out
}

// ruleViolations lists, in GitHub's words, the rules a commit breaks for
// branch: each required status check that is not green on sha.
func (s *Server) ruleViolations(branch, sha string) []string {
	required := s.st.Rules[branch]
	if len(required) == 0 {
		return nil
	}
	states := s.checkStates(sha)
	var out []string
	for _, name := range required {
		v, ok := states[name]
		switch {
		case !ok || v == verdictExpected:
			out = append(out, fmt.Sprintf("Required status check %q is expected.", name))
		case v == verdictFailing:
			// GitHub's wording for a failing (not just missing) check is
			// not recorded in github-api/; "is failing" is our assumption.
			out = append(out, fmt.Sprintf("Required status check %q is failing.", name))
		}
	}
	return out
}

// bypassesRules says the caller is a bypass actor of the branch's rulesets.
func bypassesRules(c caller) bool { return !c.anonymous && c.Permission == ruleBypassRole }

// ruleViolationMessage is the message of GitHub's 405 for a merge and 422
// for a ref update that a ruleset refuses: "Repository rule violations
// found", a blank line, then one line per rule (REFERENCE.md lists
// `repository-rule-violation-error` among git/create-blob's answers; the
// merge endpoint answers 405 for a blocked pull request).
func ruleViolationMessage(violations []string) string {
	return "Repository rule violations found\n\n" + strings.Join(violations, "\n") + "\n\n"
}

const rulesDocs = "https://docs.github.com/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/about-rulesets"

// refuseByRules writes the refusal when a write by c would put sha on
// branch against its rulesets, and says whether it did.
func (s *Server) refuseByRules(w http.ResponseWriter, c caller, status int, branch, sha string) bool {
	if bypassesRules(c) {
		return false
	}
	v := s.ruleViolations(branch, sha)
	if len(v) == 0 {
		return false
	}
	writeErrorDoc(w, status, ruleViolationMessage(v), rulesDocs)
	return true
}

// pushRefusal is the text git shows for a push a ruleset refuses, as
// GitHub words it (remote: error: GH013 …), one line per rule; "" when the
// push may go ahead.
func (s *Server) pushRefusal(c caller, repo, ref, sha string) string {
	branch, ok := strings.CutPrefix(ref, "refs/heads/")
	if !ok || bypassesRules(c) {
		return ""
	}
	v := s.ruleViolations(branch, sha)
	if len(v) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "error: GH013: Repository rule violations found for %s.\n", ref)
	fmt.Fprintf(&b, "Review all repository rules at https://github.com/%s/%s/rules?ref=%s\n\n", RepoOwner, repo, strings.ReplaceAll(ref, "/", "%2F"))
	for _, line := range v {
		fmt.Fprintf(&b, "- %s\n\n", line)
	}
	return b.String()
}
