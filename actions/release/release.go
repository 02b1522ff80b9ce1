// Package release is `aayu release --to BRANCH`'s core: what the
// integration branch holds that the stable branch lacks, story by story
// (each Story's ship record and its pack on the ledger, verified again),
// what it carries without proof, what blocks it, and then the writes the
// person approves: the promotion, the promotion record on the ledger
// (SPEC §11), the tag and the GitHub release.
package release

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/ledgerpack"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/checks"
	"github.com/aayudha/aayu/model/exitcode"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/proof"
	"github.com/aayudha/aayu/proof/attest"
)

// LedgerBranch is where the promotion record lands.
const LedgerBranch = ledgerpack.LedgerBranch

// Refusal is a release that will not be made, with its reason in words.
type Refusal = exitcode.Refusal

// The ways the stable branch is brought to the integration branch's tip.
const (
	// MethodFastForward moves the stable branch's ref to the tip (the
	// refs API, never forced).
	MethodFastForward = "fast-forward"
	// MethodPullRequest opens a pull request from the integration branch
	// into the stable branch and merges it as the person, where the
	// stable branch's rulesets ask for a pull request.
	MethodPullRequest = "pull request"
)

// Command is the command line the person runs.
func Command(to string) string { return "aayu release --to " + to }

// RecordPath is the promotion record of tag on the ledger.
func RecordPath(tag string) string { return "releases/" + tag + ".json" }

// Options are what Read reads with.
type Options struct {
	Client      *github.Client
	Owner, Repo string
	To          string // the stable branch, e.g. "main"
	Tag         string // "" picks vYYYY.M.D (then -2, -3, … when taken)
	Viewer      string // the account whose token writes
	WorkDir     string // where ledger packs are fetched to be verified
	Now         func() time.Time
}

// Story is one Story the release carries with its proof.
type Story struct {
	Story       int      `json:"story"`
	PR          int      `json:"pr"`
	Title       string   `json:"-"` // untrusted: the issue's title
	Goal        []string `json:"-"` // the Ready snapshot's criteria, untrusted
	PackSHA256  string   `json:"pack_sha256"`
	ShipRecord  string   `json:"ship_record"` // its ship.json on the ledger
	Head        string   `json:"-"`
	MergeCommit string   `json:"-"`
	Attested    string   `json:"-"` // who signed the pack, from the ship record; "" unattested
}

// Unproven is a merge the release carries without proof.
type Unproven struct {
	PR  int    `json:"pr"`
	Why string `json:"why"`
}

// Plan is what Read found: what would be promoted, and why not.
type Plan struct {
	Owner, Repo        string
	From, To           string
	FromSHA, ToSHA     string
	Tag                string
	Method             string
	Viewer             string
	Stories            []Story
	Unproven           []Unproven
	Blocks             []string // non-empty: the release is refused, each reason in words
	Commits            int      // commits From holds that To lacks
	RequireAttestation bool
}

// Writes are the writes answering yes makes, in order, in words.
func (p Plan) Writes() []string {
	promote := fmt.Sprintf("move %s from %s to %s's tip %s (a fast-forward through the refs API; never forced)", p.To, gitsha.Short(p.ToSHA), p.From, gitsha.Short(p.FromSHA))
	if p.Method == MethodPullRequest {
		promote = fmt.Sprintf("open a pull request from %s (%s) into %s and merge it as you: %s's rulesets ask for a pull request", p.From, gitsha.Short(p.FromSHA), p.To, p.To)
	}
	return []string{
		promote,
		fmt.Sprintf("the promotion record %s on the %s branch: you next to the agent marker, %d %s, %d carried without proof, the two tips",
			RecordPath(p.Tag), LedgerBranch, len(p.Stories), plural(len(p.Stories), "Story", "Stories"), len(p.Unproven)),
		fmt.Sprintf("the tag %s on %s's new tip", p.Tag, p.To),
		fmt.Sprintf("the GitHub release %s, its notes the Stories' titles and Completion Goals", p.Tag),
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Read reads what the release would promote and what blocks it. A
// release that cannot be made at all (nothing new, a person without
// admin, a stable branch that has commits the integration branch lacks)
// is a *Refusal; what blocks one otherwise is in Plan.Blocks, so the
// screen shows every Story before it says no.
func Read(ctx context.Context, o Options) (Plan, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	c := o.Client
	p := Plan{Owner: o.Owner, Repo: o.Repo, To: o.To, Viewer: o.Viewer}
	perm, _, err := c.Repositories.GetPermissionLevel(ctx, o.Owner, o.Repo, o.Viewer)
	if err != nil {
		return p, fmt.Errorf("reading @%s's access to %s/%s: %s", o.Viewer, o.Owner, o.Repo, ghx.Describe(err))
	}
	if lvl := perm.GetPermission(); lvl != "admin" {
		return p, &Refusal{Reason: fmt.Sprintf("@%s has %s access to %s/%s; promoting to %s is an admin's act (seed 001: a human admin publishes and promotes)", o.Viewer, orNone(lvl), o.Owner, o.Repo, o.To)}
	}
	toPolicy, err := ghx.ReadBasePolicy(ctx, c, o.Owner, o.Repo, o.To)
	if err != nil {
		return p, fmt.Errorf("reading %s's policy: %s", o.To, ghx.Describe(err))
	}
	p.From = toPolicy.Pass().IntegrationBranch
	if p.From == "" {
		p.From = "dev"
	}
	if p.From == o.To {
		return p, &Refusal{Reason: fmt.Sprintf("%s is the integration branch itself; give the stable branch with --to", o.To)}
	}
	if p.ToSHA, err = tip(ctx, c, o.Owner, o.Repo, o.To); err != nil {
		return p, err
	}
	if p.FromSHA, err = tip(ctx, c, o.Owner, o.Repo, p.From); err != nil {
		return p, err
	}
	commits, behind, err := compare(ctx, c, o.Owner, o.Repo, p.ToSHA, p.FromSHA)
	if err != nil {
		return p, err
	}
	p.Commits = len(commits)
	if behind > 0 {
		return p, &Refusal{Reason: fmt.Sprintf("%s holds %d %s %s lacks, so %s cannot be brought to %s's tip without losing them; merge %s into %s first", o.To, behind, plural(behind, "commit", "commits"), p.From, o.To, p.From, o.To, p.From)}
	}
	if len(commits) == 0 {
		return p, &Refusal{Reason: fmt.Sprintf("nothing new: %s already holds %s's tip %s, so there is nothing to release", o.To, p.From, gitsha.Short(p.FromSHA))}
	}
	if p.Tag, err = pickTag(ctx, c, o.Owner, o.Repo, o.Tag, o.Now()); err != nil {
		return p, err
	}
	if p.Method, err = method(ctx, c, o.Owner, o.Repo, o.To); err != nil {
		return p, err
	}
	fromPolicy, err := ghx.ReadBasePolicy(ctx, c, o.Owner, o.Repo, p.From)
	if err != nil {
		return p, fmt.Errorf("reading %s's policy: %s", p.From, ghx.Describe(err))
	}
	p.RequireAttestation = fromPolicy.Config() != nil && fromPolicy.Config().Bool("proof.require_attestation")
	prs, err := mergedInto(ctx, c, o.Owner, o.Repo, p.From, commits)
	if err != nil {
		return p, err
	}
	rd := reader{o: o, p: &p, floors: fromPolicy.Floors()}
	for _, pr := range prs {
		if err := rd.pull(ctx, pr); err != nil {
			return p, err
		}
	}
	blocks, err := requiredChecks(ctx, c, o.Owner, o.Repo, p.From, p.FromSHA, prs)
	if err != nil {
		return p, err
	}
	p.Blocks = append(p.Blocks, blocks...)
	return p, nil
}

func orNone(s string) string {
	if s == "" {
		return "no"
	}
	return s
}

func tip(ctx context.Context, c *github.Client, owner, repo, branch string) (string, error) {
	ref, _, err := c.Git.GetRef(ctx, owner, repo, "heads/"+branch)
	if ghx.IsNotFound(err) {
		return "", &Refusal{Reason: fmt.Sprintf("%s/%s has no branch %s", owner, repo, branch)}
	}
	if err != nil {
		return "", fmt.Errorf("reading %s's tip: %s", branch, ghx.Describe(err))
	}
	return ref.GetObject().GetSHA(), nil
}

// maxCommits bounds the comparison read: a release of more commits than
// this is refused in words rather than read in part.
const maxCommits = 1000

// compare lists the commits head holds that base lacks, and how many base
// holds that head lacks.
func compare(ctx context.Context, c *github.Client, owner, repo, base, head string) (map[string]bool, int, error) {
	out := map[string]bool{}
	opts := &github.ListOptions{PerPage: 100}
	behind := 0
	for {
		cmp, resp, err := c.Repositories.CompareCommits(ctx, owner, repo, base, head, opts)
		if err != nil {
			return nil, 0, fmt.Errorf("comparing %s with %s: %s", gitsha.Short(base), gitsha.Short(head), ghx.Describe(err))
		}
		behind = cmp.GetBehindBy()
		for _, cm := range cmp.Commits {
			out[cm.GetSHA()] = true
		}
		if cmp.GetAheadBy() > maxCommits {
			return nil, 0, &Refusal{Reason: fmt.Sprintf("the release would carry %d commits, more than the %d aayu reads; release in smaller steps", cmp.GetAheadBy(), maxCommits)}
		}
		if resp == nil || resp.NextPage == 0 {
			return out, behind, nil
		}
		opts.Page = resp.NextPage
	}
}

// pickTag is the tag given, refused when it exists, or the day's.
func pickTag(ctx context.Context, c *github.Client, owner, repo, given string, now time.Time) (string, error) {
	exists := func(tag string) (bool, error) {
		_, _, err := c.Git.GetRef(ctx, owner, repo, "tags/"+tag)
		if ghx.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("reading the tag %s: %s", tag, ghx.Describe(err))
		}
		return true, nil
	}
	if given != "" {
		ok, err := exists(given)
		if err != nil {
			return "", err
		}
		if ok {
			return "", &Refusal{Reason: fmt.Sprintf("the tag %s exists already; give another with --tag", given)}
		}
		return given, nil
	}
	base := "v" + now.UTC().Format("2006.1.2")
	for n := 1; n < 100; n++ {
		tag := base
		if n > 1 {
			tag = fmt.Sprintf("%s-%d", base, n)
		}
		ok, err := exists(tag)
		if err != nil || !ok {
			return tag, err
		}
	}
	return "", &Refusal{Reason: "99 releases today already; give a tag with --tag"}
}

// method is how the stable branch is moved: a fast-forward unless its
// rules ask for a pull request (a pull_request or update rule), read from
// what GitHub says applies to the branch.
func method(ctx context.Context, c *github.Client, owner, repo, branch string) (string, error) {
	rules, _, err := c.Repositories.GetRulesForBranch(ctx, owner, repo, branch)
	if err != nil {
		return "", fmt.Errorf("reading the rules of %s: %s", branch, ghx.Describe(err))
	}
	for _, r := range rules {
		if r.Type == "pull_request" || r.Type == "update" {
			return MethodPullRequest, nil
		}
	}
	return MethodFastForward, nil
}

// mergedInto lists the pull requests merged into branch whose merge
// commit is one of commits, oldest merge first.
func mergedInto(ctx context.Context, c *github.Client, owner, repo, branch string, commits map[string]bool) ([]*github.PullRequest, error) {
	var out []*github.PullRequest
	opts := &github.PullRequestListOptions{State: "closed", Base: branch, ListOptions: github.ListOptions{PerPage: 100}}
	for page := 0; page < 20; page++ {
		prs, resp, err := c.PullRequests.List(ctx, owner, repo, opts)
		if err != nil {
			return nil, fmt.Errorf("listing the pull requests merged into %s: %s", branch, ghx.Describe(err))
		}
		for _, pr := range prs {
			if pr.MergedAt != nil && commits[pr.GetMergeCommitSHA()] {
				out = append(out, pr)
			}
		}
		if resp == nil || resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].GetMergedAt().Before(out[j].GetMergedAt().Time) })
	return out, nil
}

// requiredChecks judges the integration branch's tip by the one green
// rule (checks.Judge): every check its rules require, green. A tip that is
// a pull request's merge commit carries none of them on GitHub (the merge
// gate runs on the pull request, not on a push), so where the tip reports
// no required check and one of prs merged as it, the checks judged are the
// ones that gated that merge: on that pull request's head.
func requiredChecks(ctx context.Context, c *github.Client, owner, repo, branch, sha string, prs []*github.PullRequest) ([]string, error) {
	required, _, err := ghx.RequiredOf(ctx, c, owner, repo, branch)
	if err != nil {
		return nil, fmt.Errorf("reading the checks %s requires: %s", branch, ghx.Describe(err))
	}
	list, err := ghx.HeadChecks(ctx, c, owner, repo, sha)
	if err != nil {
		return nil, fmt.Errorf("reading the checks on %s's tip: %s", branch, ghx.Describe(err))
	}
	at := fmt.Sprintf("at its tip %s", gitsha.Short(sha))
	if pr := mergedAs(prs, sha); pr != nil && !reportsAny(list, required) {
		head := pr.GetHead().GetSHA()
		if list, err = ghx.HeadChecks(ctx, c, owner, repo, head); err != nil {
			return nil, fmt.Errorf("reading the checks on #%d's head: %s", pr.GetNumber(), ghx.Describe(err))
		}
		sha, at = head, fmt.Sprintf("on #%d's head %s, whose merge is its tip %s", pr.GetNumber(), gitsha.Short(head), gitsha.Short(pr.GetMergeCommitSHA()))
	}
	v := checks.Judge(list, required)
	if v.Green() {
		return nil, nil
	}
	var out []string
	for _, r := range v.Refusals(sha, branch) {
		out = append(out, fmt.Sprintf("%s's required checks are not green %s: %s", branch, at, r))
	}
	return out, nil
}

// mergedAs is the pull request of prs whose merge commit is sha, or nil.
func mergedAs(prs []*github.PullRequest, sha string) *github.PullRequest {
	for _, pr := range prs {
		if pr.GetMergeCommitSHA() == sha {
			return pr
		}
	}
	return nil
}

// reportsAny says whether list holds a check of one of the required names.
func reportsAny(list []checks.Check, required []checks.Required) bool {
	for _, c := range list {
		for _, r := range required {
			if c.Name == r.Name {
				return true
			}
		}
	}
	return false
}

// reader reads each merged pull request's proof.
type reader struct {
	o      Options
	p      *Plan
	floors proof.FloorPolicy
	n      int
}

func (rd *reader) unproven(pr int, why string) {
	rd.p.Unproven = append(rd.p.Unproven, Unproven{PR: pr, Why: why})
}

// pull files one merged pull request: a Story with its ship record and
// its pack verified again, or a merge carried without proof; an open
// audit or a correction is carried without proof too.
func (rd *reader) pull(ctx context.Context, pr *github.PullRequest) error {
	c, o := rd.o.Client, rd.o
	n := pr.GetNumber()
	labels := map[string]bool{}
	for _, l := range pr.Labels {
		labels[l.GetName()] = true
	}
	rec, recPath, err := rd.shipRecord(ctx, pr)
	if err != nil {
		return err
	}
	if rec == nil && recPath == "" {
		rd.unproven(n, "merged without aayu ship: no ship record on the ledger covers it, so no proof pack does")
	} else if rec != nil {
		if err := rd.story(ctx, pr, rec, recPath); err != nil {
			return err
		}
	}
	audit := inbox.AuditPath(n)
	if _, err := ghx.ReadFile(ctx, c, o.Owner, o.Repo, LedgerBranch, audit); err == nil {
		rd.unproven(n, fmt.Sprintf("merged unreviewed: its audit is still open (%s on the ledger)", audit))
	} else if !ghx.IsNotFound(err) {
		return fmt.Errorf("reading %s on the ledger: %s", audit, ghx.Describe(err))
	} else if labels[inbox.LabelAudit] {
		rd.unproven(n, "merged unreviewed: it is still labelled "+inbox.LabelAudit)
	}
	if labels[inbox.LabelCorrection] {
		rd.unproven(n, "a correction: its audit found a mistake, and its revert is not shipped in this release")
	}
	return nil
}

// shipFields are the parts of a ship record (ship.ShipRecord) a release
// reads: which Story, pull request, head and merge it covers, the
// pack.json it landed, and who signed that pack. Read alone, so a record
// an older aayu wrote (its run and artifact in another shape) still says
// what it covers.
type shipFields struct {
	Story            int              `json:"story"`
	PR               int              `json:"pr"`
	PRHeadSHA        string           `json:"pr_head_sha"`
	MergeCommit      string           `json:"merge_commit"`
	PackSHA256       string           `json:"pack_sha256"`
	LedgerPackSHA256 string           `json:"ledger_pack_sha256"`
	Attestation      *attest.Identity `json:"attestation,omitempty"`
}

// shipRecord finds the ship record of the pull request's head under each
// issue it links; nil when none is on the ledger.
func (rd *reader) shipRecord(ctx context.Context, pr *github.PullRequest) (*shipFields, string, error) {
	c, o := rd.o.Client, rd.o
	head := pr.GetHead().GetSHA()
	for _, story := range inbox.LinkedIssues(pr.GetHead().GetRef(), pr.GetBody()) {
		p := path.Join(fmt.Sprintf("proof/%d/%s/%s", story, head, proof.AuthorityAuthoritative), "ship.json")
		b, err := ghx.ReadFile(ctx, c, o.Owner, o.Repo, LedgerBranch, p)
		if ghx.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, "", fmt.Errorf("reading %s on the ledger: %s", p, ghx.Describe(err))
		}
		var rec shipFields
		if err := json.Unmarshal(b, &rec); err != nil {
			rd.p.Blocks = append(rd.p.Blocks, fmt.Sprintf("#%d's ship record %s cannot be read (%v)", pr.GetNumber(), p, err))
			return nil, p, nil
		}
		if rec.Story == 0 {
			rec.Story = story
		}
		return &rec, p, nil
	}
	return nil, "", nil
}

// story verifies a shipped Story's pack on the ledger again, as ship
// verified it: its bytes, its Ready snapshot, its head, its story and pull
// request, the integration branch's floors and evidence map, and the
// pack.json the ship record names.
func (rd *reader) story(ctx context.Context, pr *github.PullRequest, rec *shipFields, recPath string) error {
	c, o := rd.o.Client, rd.o
	n, head := pr.GetNumber(), pr.GetHead().GetSHA()
	st := Story{Story: rec.Story, PR: n, ShipRecord: recPath, Head: head, MergeCommit: pr.GetMergeCommitSHA()}
	block := func(format string, args ...any) error {
		rd.p.Blocks = append(rd.p.Blocks, fmt.Sprintf("Story #%d (pull request #%d): ", st.Story, n)+fmt.Sprintf(format, args...))
		rd.p.Stories = append(rd.p.Stories, st)
		return nil
	}
	if is, _, err := c.Issues.Get(ctx, o.Owner, o.Repo, st.Story); err == nil {
		st.Title = is.GetTitle()
	} else if !ghx.IsNotFound(err) {
		return fmt.Errorf("reading #%d: %s", st.Story, ghx.Describe(err))
	}
	switch {
	case rec.PR != n:
		return block("its ship record names pull request #%d", rec.PR)
	case rec.PRHeadSHA != head:
		return block("its ship record names head %s, not the pull request's %s", gitsha.Short(rec.PRHeadSHA), gitsha.Short(head))
	case rec.MergeCommit != "" && rec.MergeCommit != st.MergeCommit:
		return block("its ship record names merge %s, not the pull request's %s", gitsha.Short(rec.MergeCommit), gitsha.Short(st.MergeCommit))
	}
	if rec.Attestation != nil {
		st.Attested = rec.Attestation.Words()
	}
	if rd.p.RequireAttestation && rec.Attestation == nil {
		return block("%s requires an attested pack ([proof] require_attestation) and its ship record names no attestation", rd.p.From)
	}
	rd.n++
	dir := filepath.Join(rd.o.WorkDir, fmt.Sprintf("pack-%d", rd.n))
	folder := path.Dir(recPath)
	if _, err := ledgerpack.Fetch(ctx, c, o.Owner, o.Repo, folder, dir, ledgerpack.Caps{}); err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ready, why, err := ledgerpack.ReadReady(ctx, c, o.Owner, o.Repo, st.Story)
	if err != nil {
		return err
	}
	if ready == nil {
		return block("its pack can no longer be verified: %s", why)
	}
	for _, cr := range ready.Criteria {
		st.Goal = append(st.Goal, cr.Text)
	}
	evidence, module, why, err := evidenceAt(ctx, c, o.Owner, o.Repo, head, st.Story)
	if err != nil {
		return err
	}
	if why != "" {
		return block("%s", why)
	}
	rep, err := proof.VerifyDir(ctx, dir, proof.Options{Ready: ready, HeadSHA: head, Story: st.Story, PR: n,
		EvidenceMap: evidence, ModulePath: module, RequiredFloors: rd.floors.Required, CoverageThreshold: rd.floors.CoverageThreshold})
	if err != nil {
		return fmt.Errorf("verifying Story #%d's pack again: %w", st.Story, err)
	}
	st.PackSHA256 = rep.PackSHA256
	want := rec.LedgerPackSHA256
	if want == "" {
		want = rec.PackSHA256
	}
	if !rep.Verified() {
		return block("its pack no longer verifies: %s", problems(rep.Problems))
	}
	if want != rep.PackSHA256 {
		return block("its pack.json on the ledger (sha256 %s) is not the one its ship record names (sha256 %s)", gitsha.Short(rep.PackSHA256), gitsha.Short(want))
	}
	rd.p.Stories = append(rd.p.Stories, st)
	return nil
}

// problems puts a report's problems in one line.
func problems(ps []proof.Problem) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Message)
	}
	return strings.Join(slices.Compact(out), "; ")
}

// evidenceAt reads the Story's evidence map at the head, as ship does
// (.aayudha/evidence/N.toml and go.mod's module path); none is no map.
func evidenceAt(ctx context.Context, c *github.Client, owner, repo, head string, story int) (proof.EvidenceMap, string, string, error) {
	p := fmt.Sprintf(".aayudha/evidence/%d.toml", story)
	raw, err := ghx.ReadFile(ctx, c, owner, repo, head, p)
	if ghx.IsNotFound(err) {
		return nil, "", "", nil
	}
	if err != nil {
		return nil, "", "", fmt.Errorf("reading %s at %s: %s", p, gitsha.Short(head), ghx.Describe(err))
	}
	m, err := proof.LoadEvidenceMap(raw)
	if err != nil {
		return nil, "", fmt.Sprintf("the head's %s cannot be read (%v), so no criterion's tests can be checked", p, err), nil
	}
	module := ""
	if gomod, err := ghx.ReadFile(ctx, c, owner, repo, head, "go.mod"); err == nil {
		module = proof.ModulePathOf(gomod)
	}
	return m, module, "", nil
}
