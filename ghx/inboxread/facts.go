package inboxread

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/basepolicy"
	"github.com/aayudha/aayu/model/checks"
	"github.com/aayudha/aayu/model/gaterun"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/ledgertrust"
)

// session is one Read, Refresh or Reread: the context that counts its
// requests, the permissions it already asked for, and what the lists said
// about items beyond the model's fields.
type session struct {
	r    *Reader
	ctx  context.Context
	bots []string

	perms      map[string]string // lower-case login → permission ("" unknown)
	permDenied bool              // GitHub will not show permissions to this account

	comments map[int]int       // comment counts the lists gave
	created  map[int]time.Time // pull requests' created_at
	seen     map[int]time.Time // updated_at of every item read
	start    time.Time         // when the session began, by the reader's own clock

	future    *pullFactsFuture // a full Read's GraphQL pages, asked at its start
	gateFirst *gateRunsFuture  // and page 1 of the merge gate's runs

	// configs are the base branches' config files this session read
	// (settingsOf), so the story loop judges by the same bytes and does not
	// ask again.
	configMu sync.Mutex
	configs  map[string]*basepolicy.Policy
}

func gateRunsOptions() *github.ListWorkflowRunsOptions {
	return &github.ListWorkflowRunsOptions{Event: "pull_request_target", ListOptions: github.ListOptions{PerPage: 100, Page: 1}}
}

// gateRunsFuture is page 1 of the merge gate's runs, asked at the start of
// a full Read: what the last step of the read waits for is then already
// there.
type gateRunsFuture struct {
	done chan struct{}
	runs *github.WorkflowRuns
	resp *github.Response
	err  error
}

func startGateRuns(s *session) *gateRunsFuture {
	f := &gateRunsFuture{done: make(chan struct{})}
	go func() {
		defer close(f.done)
		f.runs, f.resp, f.err = s.r.gh.Actions.ListWorkflowRunsByFileName(s.ctx, s.r.owner, s.r.repo, GateFile, gateRunsOptions())
	}()
	return f
}

func (f *gateRunsFuture) wait() (*github.WorkflowRuns, *github.Response, error) {
	<-f.done
	return f.runs, f.resp, f.err
}

func (r *Reader) newSession(ctx context.Context, bots []string) *session {
	return &session{r: r, ctx: ctx, bots: bots, perms: map[string]string{},
		comments: map[int]int{}, created: map[int]time.Time{}, seen: map[int]time.Time{},
		start: r.opts.Now()}
}

// issue is an issue as this session read it.
func (s *session) issue(is *github.Issue) inbox.Issue {
	i := issueFrom(is)
	i.ReadAt = s.readAt()
	return i
}

// readAt is a time on GitHub's clock no later than the moment this session
// began: every version it read was read at or after it. Zero while no
// answer has given GitHub's clock.
func (s *session) readAt() time.Time {
	return s.r.clock.atOrBefore(s.start)
}

// settled reports whether a version with this updated_at, read no earlier
// than readAt (GitHub's clock), is known to be the item's latest whenever
// GitHub later reports the same updated_at. updated_at counts whole
// seconds: two writes in one second share it, and a read between them
// holds a version that the second write made stale without moving
// updated_at. Only a version read after its second had passed is settled;
// any other is read again, conditionally, so an unchanged one is a 304
// that GitHub does not count.
func settled(updated, readAt time.Time) bool {
	return !readAt.IsZero() && !updated.Add(time.Second).After(readAt)
}

// note records what a list or a get said about an issue or pull request.
func (s *session) note(is *github.Issue) {
	s.seen[is.GetNumber()] = timeOf(is.UpdatedAt)
	s.comments[is.GetNumber()] = is.GetComments()
	if is.IsPullRequest() {
		s.created[is.GetNumber()] = timeOf(is.CreatedAt)
	}
}

func (s *session) listIssues(opts github.IssueListByRepoOptions) ([]*github.Issue, error) {
	return listPages(s.ctx, func(ctx context.Context, lo *github.ListOptions) ([]*github.Issue, *github.Response, error) {
		o := opts
		o.ListOptions = *lo
		return s.r.gh.Issues.ListByRepo(ctx, s.r.owner, s.r.repo, &o)
	})
}

func (s *session) getPull(n int) (*github.PullRequest, error) {
	pr, _, err := s.r.gh.PullRequests.Get(s.ctx, s.r.owner, s.r.repo, n)
	if err != nil {
		return nil, fmt.Errorf("reading pull request #%d: %w", n, err)
	}
	s.seen[n] = timeOf(pr.UpdatedAt)
	s.comments[n] = pr.GetComments()
	s.created[n] = timeOf(pr.CreatedAt)
	return pr, nil
}

// comments lists an issue's or pull request's comments, each author's
// permission filled in (a rule counts only comments by write access).
func (s *session) commentsOf(n int) ([]identity.Comment, error) {
	if count, known := s.comments[n]; known && count == 0 {
		return nil, nil
	}
	list, err := ghx.ListAll(s.ctx, func(lo *github.ListOptions) ([]*github.IssueComment, *github.Response, error) {
		return s.r.gh.Issues.ListComments(s.ctx, s.r.owner, s.r.repo, n, &github.IssueListCommentsOptions{ListOptions: *lo})
	})
	if err != nil {
		return nil, fmt.Errorf("reading the comments of #%d: %w", n, err)
	}
	out := make([]identity.Comment, 0, len(list))
	for _, c := range list {
		cm := commentFrom(c)
		if err := s.fillPermission(&cm.Author); err != nil {
			return nil, err
		}
		out = append(out, cm)
	}
	return out, nil
}

// fillPermission asks GitHub once per login per session. Bots are never
// asked: no rule counts a bot's comment. An account below push access may
// not see permissions at all (403); then every permission stays unknown,
// which no rule counts as write access.
func (s *session) fillPermission(a *identity.Account) error {
	if a.Login == "" || identity.IsBot(*a, s.bots) {
		return nil
	}
	key := strings.ToLower(a.Login)
	if p, ok := s.perms[key]; ok {
		a.Permission = p
		return nil
	}
	if s.permDenied {
		return nil
	}
	level, _, err := s.r.gh.Repositories.GetPermissionLevel(s.ctx, s.r.owner, s.r.repo, a.Login)
	p := ""
	switch {
	case err == nil:
		p = level.GetPermission()
	case statusOf(err) == http.StatusForbidden:
		s.permDenied = true
		s.r.logf("GitHub shows collaborators' permissions only to accounts with push access; comments that need write access are not counted")
		return nil
	case ghx.IsNotFound(err):
		p = "none"
	default:
		return fmt.Errorf("reading @%s's permission on %s/%s: %w", a.Login, s.r.owner, s.r.repo, err)
	}
	s.perms[key] = p
	a.Permission = p
	return nil
}

func statusOf(err error) int {
	var e *github.ErrorResponse
	if errors.As(err, &e) && e.Response != nil {
		return e.Response.StatusCode
	}
	return 0
}

// pullFacts reads what an open pull request's step depends on: the head's
// combined status always; the comments only when it could be ready to ship
// (links an open Story, not a draft); the reviews only while inspect is
// pending. needGate says a "Ready to ship" comment names the head, so the
// merge gate's run decides.
func (s *session) pullFacts(open map[int]inbox.Issue, pr inbox.PullRequest) (facts inbox.PRFacts, needGate bool, err error) {
	if pr.HeadSHA == "" {
		return facts, false, nil
	}
	combined, _, err := s.r.gh.Repositories.GetCombinedStatus(s.ctx, s.r.owner, s.r.repo, pr.HeadSHA, &github.ListOptions{PerPage: 100})
	if err != nil {
		return facts, false, fmt.Errorf("reading the commit statuses of #%d's head: %w", pr.Number, err)
	}
	inspectPending := false
	var list []checks.Check
	for _, st := range combined.Statuses {
		status := statusFrom(st, checks.RunsPath(s.r.owner, s.r.repo))
		facts.Statuses = append(facts.Statuses, status)
		inspectPending = inspectPending || (status.Context == inbox.InspectContext && status.State == "pending")
		list = append(list, checks.FromStatus(st.GetContext(), st.GetState(), st.GetCreator().GetLogin(), st.GetTargetURL()))
	}
	runs, _, err := s.r.gh.Checks.ListCheckRunsForRef(s.ctx, s.r.owner, s.r.repo, pr.HeadSHA, &github.ListCheckRunsOptions{
		Filter: github.String("latest"), ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		return facts, false, fmt.Errorf("reading the check runs of #%d's head: %w", pr.Number, err)
	}
	for _, cr := range runs.CheckRuns {
		list = append(list, checks.FromCheckRun(cr.GetName(), cr.GetStatus(), cr.GetConclusion(), cr.GetApp().GetSlug(), cr.GetDetailsURL()))
	}
	facts.Failing = failingChecks(list)
	if !pr.Draft && linksOpen(open, pr, inbox.LabelStory) {
		if facts.Comments, err = s.commentsOf(pr.Number); err != nil {
			return facts, false, err
		}
		_, needGate = inbox.ReadyToShipComment(facts.Comments, pr.HeadSHA, s.bots)
	}
	if inspectPending {
		reviews, err := ghx.ListAll(s.ctx, func(lo *github.ListOptions) ([]*github.PullRequestReview, *github.Response, error) {
			return s.r.gh.PullRequests.ListReviews(s.ctx, s.r.owner, s.r.repo, pr.Number, lo)
		})
		if err != nil {
			return facts, false, fmt.Errorf("reading the reviews of #%d: %w", pr.Number, err)
		}
		for _, rv := range reviews {
			facts.Reviews = append(facts.Reviews, reviewFrom(rv))
		}
	}
	return facts, needGate, nil
}

// gateConclusions finds, for each pull request number → head, the newest
// completed pull_request_target run of the merge gate on exactly that head
// (gaterun.Decides: the rule ship and the pack viewer use).
// Such a run's head_sha is the base branch's (REFERENCE.md §7), so it is
// bound through its pull_requests[] entry: the number and the head's SHA.
// A run still in progress does not undo the last finished one. One shared
// list, newest first, read only until every head is decided or the runs
// are older than the oldest of these pull requests.
func (s *session) gateConclusions(heads map[int]string) (map[int]string, error) {
	out := map[int]string{}
	if len(heads) == 0 {
		return out, nil
	}
	var oldest time.Time // zero: no bound, read to the end of the list
	for n := range heads {
		c, known := s.created[n]
		if !known || c.IsZero() {
			oldest = time.Time{}
			break
		}
		if oldest.IsZero() || c.Before(oldest) {
			oldest = c
		}
	}
	opts := gateRunsOptions()
	for pages := 1; ; pages++ {
		var (
			runs *github.WorkflowRuns
			resp *github.Response
			err  error
		)
		if pages == 1 && s.gateFirst != nil {
			runs, resp, err = s.gateFirst.wait()
		} else {
			runs, resp, err = s.r.gh.Actions.ListWorkflowRunsByFileName(s.ctx, s.r.owner, s.r.repo, GateFile, opts)
		}
		if ghx.IsNotFound(err) {
			s.r.logf("the merge gate %s is not on %s/%s; no pull request is green", GateFile, s.r.owner, s.r.repo)
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("reading the merge gate's runs: %w", err)
		}
		older := false
		for _, run := range runs.WorkflowRuns {
			if !oldest.IsZero() && timeOf(run.CreatedAt).Before(oldest) {
				older = true
			}
			facts := ghx.GateRunFacts(run)
			for _, p := range facts.PullRequests {
				head, want := heads[p.Number]
				if _, decided := out[p.Number]; want && !decided && gaterun.Decides(facts, gaterun.Target{PR: p.Number, Head: head}) {
					out[p.Number] = run.GetConclusion()
				}
			}
		}
		if len(out) == len(heads) || older || resp.NextPage == 0 || resp.NextPage <= opts.Page || pages >= ghx.MaxListPages {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// auditEntries lists the pull requests with autonomy/audit/PR.json on the
// ledger. No ledger branch or no folder means none.
func (s *session) auditEntries() (map[int]bool, map[int]string, error) {
	out := map[int]bool{}
	tampered, err := s.tamperedAuditEntries()
	if err != nil {
		return nil, nil, err
	}
	for n := range tampered {
		out[n] = true
	}
	entries, err := ghx.ListTree(s.ctx, s.r.gh, s.r.owner, s.r.repo, LedgerBranch, "autonomy/audit")
	if ghx.IsNotFound(err) {
		return out, tampered, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading the audit entries on the %s branch: %w", LedgerBranch, err)
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name, ".json")
		if n, err := strconv.Atoi(name); ok && err == nil && e.Type == "file" && n > 0 {
			out[n] = true
		}
	}
	return out, tampered, nil
}

// tamperedAuditEntries are the audit entries the ledger's history shows
// deleted by a commit that is none of aayu's own updates, whose audit is
// not done (ledgertrust.RestoredAuditEntries), with the finding's words:
// the inbox never takes the deletion's word for it.
func (s *session) tamperedAuditEntries() (map[int]string, error) {
	h, err := ghx.CheckLedger(s.ctx, s.r.gh, s.r.owner, s.r.repo, LedgerBranch, "")
	if err != nil {
		return nil, fmt.Errorf("checking the history of the %s branch: %w", LedgerBranch, err)
	}
	out := map[int]string{}
	if len(h.Findings) == 0 {
		return out, nil
	}
	samples, err := ghx.ReadFile(s.ctx, s.r.gh, s.r.owner, s.r.repo, LedgerBranch, ledgertrust.SamplesPath)
	if err != nil && !ghx.IsNotFound(err) {
		return nil, fmt.Errorf("reading %s on the %s branch: %w", ledgertrust.SamplesPath, LedgerBranch, err)
	}
	for _, n := range ledgertrust.RestoredAuditEntries(h.Findings, samples) {
		f, _ := h.Tampered(inbox.AuditPath(n))
		out[n] = f.Line()
	}
	return out, nil
}

// openIssues indexes the snapshot's open issues by number.
func openIssues(snap *inbox.Snapshot) map[int]inbox.Issue {
	open := map[int]inbox.Issue{}
	for _, is := range snap.Issues {
		if is.Open() {
			open[is.Number] = is
		}
	}
	return open
}

// linksOpen says whether pr links an open issue carrying one of labels.
func linksOpen(open map[int]inbox.Issue, pr inbox.PullRequest, labels ...string) bool {
	for _, n := range inbox.LinkedIssues(pr.HeadRef.Raw(), pr.Body.Raw()) {
		is, ok := open[n]
		for _, l := range labels {
			if ok && is.HasLabel(l) {
				return true
			}
		}
	}
	return false
}

// failingChecks are the checks on a head that fail by the one green rule
// (checks.Judge, as ship judges them), less aayudha's own: inspect's
// failure is its own card ("review stopped"), and the merge gate's decides
// whether a card is ready to ship at all.
func failingChecks(list []checks.Check) []checks.Check {
	var out []checks.Check
	for _, c := range checks.Judge(list, nil).Failing {
		if c.Name != inbox.InspectContext && c.Name != mergeGateCheck {
			out = append(out, c)
		}
	}
	return out
}

// mergeGateCheck is the commit status the merge gate's comment job posts.
const mergeGateCheck = "aayudha/merge-gate"
