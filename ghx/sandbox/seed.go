package sandbox

import (
	"fmt"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/aayudha/aayu/actions/initrepo/templates"
	"github.com/aayudha/aayu/proof"
)

// The demo's issue and pull request numbers, one or more per inbox kind.
const (
	DemoDecision          = 1  // open Decision, two-way door, option 1 recommended, with counsel
	DemoDecisionOneWay    = 2  // open Decision, one-way door
	DemoStoryReady        = 3  // Story whose PR is ready to ship
	DemoPRReady           = 4  // "Ready to ship" on its head; every merge-gate run kind
	DemoStoryReview       = 5  // Story whose PR waits at the human rung
	DemoPRReview          = 6  // aayudha/inspect pending "human rung…"; pack verifies
	DemoStoryStopped      = 7  // Story whose review stopped
	DemoPRStopped         = 8  // aayudha/inspect failure "stopped…"; pack does not verify
	DemoStoryMergedNoShip = 9  // Story still status:building with aayu:lease
	DemoPRMergedNoShip    = 10 // merged into dev without ship (branch story/9-…)
	DemoBug               = 11 // open Bug
	DemoPRBugFix          = 12 // "Fixes #11", merged into dev
	DemoReplaced          = 13 // open Story replaced by #14
	DemoReplacement       = 14 // "Replaces #13"; shipped on proof, closed, status:merged
	DemoPRAudit           = 15 // merged on proof, label aayu:audit, autonomy/audit/15.json on the ledger
)

// Run situations for RunID.
const (
	RunQualifying   = "pr4-qualifying"   // pull_request_target, success, pack verifies
	RunPullRequest  = "pr4-pull-request" // the PR's own copy of the gate
	RunOlderHead    = "pr4-older-head"   // a qualifying run for the PR's previous head
	RunFailed       = "pr4-failed"       // completed with failure, no artifact
	RunInProgress   = "pr4-in-progress"  // still running
	RunExpired      = "pr4-expired"      // artifact expired (download answers 410)
	RunTampered     = "pr4-tampered"     // artifact bytes do not match pack.json
	RunReviewPR     = "pr6-qualifying"   // qualifying run of PR 6, pack verifies
	RunUnverifiedPR = "pr8-unverified"   // qualifying run of PR 8, pack does not verify
	RunAuditPR      = "pr15-qualifying"  // the run PR 15 shipped from
)

// HumanFallbackTrailer tags every agent write the solo demo makes under the
// founder's token (ghx.HumanFallbackTrailer; ghx imports this package).
const HumanFallbackTrailer = "Aayudha-Identity: human-fallback"

// seeder writes the demo; the first error sticks and stops later steps.
type seeder struct {
	s   *Server
	t0  time.Time
	err error
	// agent is the login agents write as: BotLogin with a bot identity,
	// else the founder, whose token agents use in solo mode.
	agent string
	// packIdentity is an advisory pack's identity field: bot or human-fallback.
	packIdentity string
}

// soloDemo says agents write under the founder's token (no bot identity).
func (sd *seeder) soloDemo() bool { return sd.agent != BotLogin }

// agentMsg is an agent's commit message or pull request body: in solo mode
// it ends with the human-fallback trailer, as every write under the
// person's token does, so the shortcut stays visible.
func (sd *seeder) agentMsg(msg string) string {
	if !sd.soloDemo() {
		return msg
	}
	return msg + "\n\n" + HumanFallbackTrailer
}

func (sd *seeder) ago(hours float64) time.Time {
	return sd.t0.Add(-time.Duration(hours * float64(time.Hour)))
}

// commit writes files (content "" with del deletes) on top of parent.
func (sd *seeder) commit(parent plumbing.Hash, files map[string]string, msg, login string, when time.Time) plumbing.Hash {
	if sd.err != nil {
		return plumbing.ZeroHash
	}
	g := sd.s.git
	baseTree := plumbing.ZeroHash
	var parents []plumbing.Hash
	if !parent.IsZero() {
		c, err := g.commit(parent)
		if err != nil {
			sd.err = err
			return plumbing.ZeroHash
		}
		baseTree, parents = c.TreeHash, []plumbing.Hash{parent}
	}
	var changes []treeChange
	for _, p := range sortedKeys(stringsToBytes(files)) {
		h, err := g.writeBlob([]byte(files[p]))
		if err != nil {
			sd.err = err
			return plumbing.ZeroHash
		}
		changes = append(changes, treeChange{Path: p, Mode: filemode.Regular, Hash: h})
	}
	tree, err := g.applyTree(baseTree, changes)
	if err != nil {
		sd.err = err
		return plumbing.ZeroHash
	}
	sig := accountSignature(login, when)
	h, err := g.writeCommit(tree, parents, msg+"\n", sig, sig)
	if err != nil {
		sd.err = err
	}
	return h
}

func stringsToBytes(m map[string]string) map[string][]byte {
	out := make(map[string][]byte, len(m))
	for k, v := range m {
		out[k] = []byte(v)
	}
	return out
}

func (sd *seeder) branch(name string, h plumbing.Hash) {
	if sd.err == nil {
		sd.err = sd.s.git.setRef("heads/"+name, h)
	}
}

func (sd *seeder) issue(user, title, body string, labels []string, created time.Time) *issueRec {
	is := sd.s.newIssue(user, title, body, nil)
	is.CreatedAt, is.UpdatedAt = created, created
	sd.s.addIssueLabels(is, labels)
	return is
}

func (sd *seeder) pull(user, title, body, head, base string, labels []string, created time.Time) *issueRec {
	is := sd.issue(user, title, body, labels, created)
	is.PR = &prRec{ID: sd.s.st.newID(), Head: head, Base: base}
	return is
}

func (sd *seeder) comment(is *issueRec, user, body string, at time.Time) {
	c := &commentRec{ID: sd.s.st.newID(), Issue: is.Number, User: user, Body: body, CreatedAt: at, UpdatedAt: at}
	sd.s.st.Comments = append(sd.s.st.Comments, c)
	touch(is, at)
}

func touch(is *issueRec, at time.Time) {
	if at.After(is.UpdatedAt) {
		is.UpdatedAt = at
	}
}

func (sd *seeder) status(sha plumbing.Hash, context, state, desc string, at time.Time) {
	st := sd.s.addStatus(sha.String(), context, state, desc, "", "founder")
	st.CreatedAt = at
	if context == "aayudha/inspect" || context == "aayudha/merge-gate" {
		st.Creator = sd.agent
	}
}

// gateStatus is inspect's judgement on head as a merge gate's run posts it
// on GitHub: by github-actions[bot], with the run as its target (a run id
// of its own; the scaled items carry no run records), so the inbox counts
// it as the gate's own (checks.InspectFromGate).
func (sd *seeder) gateStatus(head plumbing.Hash, state, desc string, at time.Time) {
	st := sd.s.addStatus(head.String(), "aayudha/inspect", state, desc, "", "founder")
	st.CreatedAt, st.Creator = at, ActionsBotLogin
	st.TargetURL = fmt.Sprintf("https://github.com/%s/%s/actions/runs/%d", RepoOwner, RepoName, 9000000000+sd.s.st.newID())
}

func (sd *seeder) merge(is *issueRec, by string, at time.Time) plumbing.Hash {
	if sd.err != nil {
		return plumbing.ZeroHash
	}
	h, err := sd.s.squashMerge(is, by, "", "", at)
	sd.err = err
	touch(is, at)
	return h
}

func (sd *seeder) close(is *issueRec, reason, by string, at time.Time) {
	is.State, is.StateReason, is.ClosedAt, is.ClosedBy = "closed", reason, &at, by
	touch(is, at)
}

// gateRun adds a merge-gate run; with pack set it also uploads the
// aayudha-pack artifact kept for retention days.
func (sd *seeder) gateRun(situation string, run runRec, pack func(runID int64) *packFolder, retention int) *runRec {
	r := run
	r.Situation = situation
	if r.Title == "" {
		r.Title = "aayudha merge gate"
	}
	if r.UpdatedAt.IsZero() {
		r.UpdatedAt = r.CreatedAt.Add(4 * time.Minute)
	}
	added := sd.s.addRun(&r)
	sd.runChecks(added)
	if pack != nil {
		f := pack(added.ID)
		created := added.CreatedAt.Add(3 * time.Minute)
		sd.s.st.Artifacts = append(sd.s.st.Artifacts, &artifactRec{ID: 5000000000 + sd.s.st.newID(), RunID: added.ID,
			Name: "aayudha-pack", Zip: zipPack(*f, created), CreatedAt: created,
			ExpiresAt: created.Add(time.Duration(retention) * 24 * time.Hour)})
	}
	return added
}

// seed writes the fixed demo and then Scale more items.
func (s *Server) seed() error { return s.seedAt(s.now().Truncate(time.Second)) }

// seedAt seeds the demo with its dates relative to t0.
func (s *Server) seedAt(t0 time.Time) error {
	sd := &seeder{s: s, t0: t0, agent: "founder", packIdentity: proof.IdentityHumanFallback}
	if s.opts.BotIdentity {
		sd.agent, sd.packIdentity = BotLogin, proof.IdentityBot
	}
	s.st.RepoCreated, s.st.Retention = sd.ago(720), 30
	for _, l := range []struct{ name, color, desc string }{
		{"type:decision", "5319e7", "A choice a person makes"}, {"type:story", "1d76db", "A unit of product work"},
		{"type:bug", "d73a4a", "Something is broken"}, {"status:proposed", "fbca04", ""}, {"status:building", "0e8a16", ""},
		{"status:accepted", "0e8a16", ""}, {"status:merged", "6f42c1", ""}, {"status:done", "6f42c1", ""},
		{"status:cancelled", "cccccc", ""}, {"aayu:lease", "bfdadc", "An agent holds this item"},
		{"aayu:audit", "e99695", "Merged without a person's review; audit it"}, {"aayu:correction", "b60205", "An audit found a mistake"},
	} {
		s.st.Labels = append(s.st.Labels, &labelRec{ID: s.st.newID(), Name: l.name, Color: l.color, Description: l.desc})
	}
	s.st.Variables = []*variableRec{{Name: DeviceClientVariable, Value: DeviceClientID, CreatedAt: sd.ago(700), UpdatedAt: sd.ago(700)}}
	s.st.Rulesets = demoRulesets([]string{"dev", "main"}, s.opts.BotIdentity, true, sd.ago(700))
	sd.seedDemo()
	if sd.err == nil && s.opts.Scale > 0 {
		sd.seedScale(s.opts.Scale)
	}
	s.st.PushedAt = sd.t0.Add(-time.Hour)
	return sd.err
}

func (sd *seeder) seedDemo() {
	files := map[string]string{
		"go.mod": fileGoMod, "README.md": fileReadme, ".gitignore": fileGitignore,
		".aayudha/config.toml": demoConfig(!sd.soloDemo()), "LAYERS.md": fileLayers, "CODEOWNERS": fileCodeowners,
		"deductible/deductible.go": fileDeductible, "deductible/deductible_test.go": fileDeductibleTest,
		"policy/policy.go": filePolicy, "policy/policy_test.go": filePolicyTest,
		"web/web.go": fileWebApp,
	}
	// The very workflows init writes (pinned as it pins them), so doctor
	// finds the demo current.
	for _, f := range templates.Workflows() {
		files[f.Path] = f.Body
	}
	if sd.s.opts.BotApp {
		// The App's broker, as aayu init --identity writes it.
		for _, f := range templates.IdentityWorkflows() {
			files[f.Path] = f.Body
		}
	}
	root := sd.commit(plumbing.ZeroHash, files, "Start the benefits service", "founder", sd.ago(720))
	sd.branch("main", root)
	sd.branch("dev", root)
	sd.seedItems(root)
}

// runChecks gives a seeded run the check suite Actions reports it in, on
// the run's head_sha. Its id is the one the run always showed, so seeding
// it shifts no other id; it holds no check runs (the demo's commits carry
// only the checks its tests stage), so its state is its run's
// (checkSuiteJSON).
func (sd *seeder) runChecks(run *runRec) {
	cs := &checkSuiteRec{ID: run.ID + 1000000, HeadSHA: run.HeadSHA, HeadBranch: run.HeadBranch, App: AppActions,
		RunID: run.ID, CreatedAt: run.CreatedAt, UpdatedAt: run.UpdatedAt}
	sd.s.st.CheckSuites = append(sd.s.st.CheckSuites, cs)
	run.CheckSuiteID = cs.ID
}
