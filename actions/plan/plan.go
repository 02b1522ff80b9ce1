// Package plan records the plan-time review a never-layer change needs
// (SPEC §10): it reads a Story's "## Plan" section and, when a pull request
// links the Story, its changed files, finds the never layers (the base
// branch's autonomy.never over its LAYERS.md) they touch, and on the
// person's yes posts the comment on the Story and lands
// specs/STORY/plan-review.json on the ledger. A review is given by a person
// who is not the builder ("Plan reviewed:"); in solo mode, --solo-bypass
// records that no review happened ("Solo-mode bypass:"), refused exactly
// where ship refuses its bypass (identity.SoloBypassRefusals). Read only
// reads and says what would be written, or why nothing may be; Apply writes
// exactly that.
package plan

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/basepolicy"
	"github.com/aayudha/aayu/model/exitcode"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/model/untrusted"
)

// LedgerBranch is where the record lives (SPEC §4, §10).
const LedgerBranch = "ledger"

// Command is the command as a person types it: the presence check's
// Command: line and the bypass's, which an approval must match exactly.
func Command(story int, soloBypass bool) string {
	if soloBypass {
		return fmt.Sprintf("aayu plan %d --solo-bypass", story)
	}
	return fmt.Sprintf("aayu plan %d", story)
}

// Refusal is a reason nothing may be written, in words; it ends the run
// with exit 4. It is the one refusal type every action returns.
type Refusal = exitcode.Refusal

var refuse = exitcode.Refuse

// Options say which Story's plan to review, who reviews it and how.
type Options struct {
	Client      *github.Client
	Owner, Repo string
	Story       int
	// Viewer is the login the token belongs to: the reviewer, or the
	// person recording the bypass.
	Viewer string
	// SoloBypass records a solo-mode bypass instead of a review.
	SoloBypass bool
	// Env, Terminal, CI and Session are what the bypass's refusals judge
	// (identity.SoloBypassRefusals): the process's environment, whether it
	// has a terminal, --ci, and the presence approval this run holds.
	Env      func(string) string
	Terminal bool
	CI       bool
	Session  *identity.Session
	// Here is the command's one answer to whether a person is here
	// (identity.Here), taken once by the caller; when set, the bypass
	// reads it instead of Env, Terminal and CI.
	Here *identity.Decision
	// Now stamps recorded_at; nil is time.Now.
	Now func() time.Time
	// Batch names the approved batch this review is recorded from
	// (`aayu approve HASH` at the person's own terminal); the comment
	// says so. "" for a person's own aayu plan.
	Batch string
}

// Hit is one never layer the plan touches, with the paths that touch it.
type Hit struct {
	ID, Name string
	Paths    []string // "policy/limits.go (planned)", "policy/limits.go (changed in #5)"
}

// Review is what Read found and what Apply would write.
type Review struct {
	Owner, Repo string
	Story       int
	Kind        string // "Story" or "Bug"
	Title       string // one neutral line
	// Section is the "## Plan" section's lines as neutral lines; nil when
	// the issue has none.
	Section []string
	Planned []string // the paths the section names
	// PR is the open pull request that links the Story, 0 when none;
	// Changed its files.
	PR       int
	PRAuthor untrusted.Login
	Changed  []string
	Base     untrusted.Ref // the branch whose policy judged the layers
	Hits     []Hit
	// NotNeeded says why no plan review is needed; nothing is written.
	NotNeeded string
	// Existing is the record on the ledger now, nil when none; Same says
	// it already covers this plan, so nothing is written.
	Existing *pass.PlanRecord
	Same     bool
	// Reuse is the person's comment already on the Story that Apply
	// records instead of posting one; nil when Apply posts CommentBody.
	Reuse       *identity.Comment
	CommentBody string
	Record      pass.PlanRecord // as it lands, comment_url filled in by Apply
	bots        []string
}

// Bypass says this run records a solo-mode bypass.
func (r Review) Bypass() bool { return r.Record.Kind == pass.KindSoloBypass }

// LayerIDs are the never layers the plan touches.
func (r Review) LayerIDs() []string {
	out := make([]string, 0, len(r.Hits))
	for _, h := range r.Hits {
		out = append(out, h.ID)
	}
	return out
}

// Writes are the writes Apply makes, in order, in words.
func (r Review) Writes() []string {
	if r.NotNeeded != "" || r.Same {
		return nil
	}
	what, prefix := "review", pass.PlanReviewedPrefix
	if r.Bypass() {
		what, prefix = "solo-mode bypass", identity.SoloBypassPrefix
	}
	var out []string
	if r.Reuse != nil {
		out = append(out, fmt.Sprintf("reuses your %s comment already on #%d (%s)", prefix, r.Story, r.Reuse.URL))
	} else {
		out = append(out, fmt.Sprintf("posts your %s comment on #%d for never %s %s", prefix, r.Story, plural(len(r.Hits), "layer", "layers"), strings.Join(r.LayerIDs(), ", ")))
	}
	out = append(out, fmt.Sprintf("%s on the %s branch: the plan %s of #%d, kind %s, reviewer %s (one commit, fast-forward only)",
		pass.PlanRecordPath(r.Story), LedgerBranch, what, r.Story, r.Record.Kind, r.Record.Reviewer))
	return out
}

// Read reads the Story, its pull request, the base policy, the ledger and
// the Story's comments, and plans the record, or refuses with a *Refusal
// naming why.
func Read(ctx context.Context, o Options) (Review, error) {
	r := Review{Owner: o.Owner, Repo: o.Repo, Story: o.Story}
	gh := o.Client
	is, _, err := gh.Issues.Get(ctx, o.Owner, o.Repo, o.Story)
	if ghx.IsNotFound(err) {
		return r, refuse("%s/%s has no issue #%d", o.Owner, o.Repo, o.Story)
	}
	if err != nil {
		return r, fmt.Errorf("reading issue #%d of %s/%s: %w", o.Story, o.Owner, o.Repo, err)
	}
	if is.IsPullRequest() {
		return r, refuse("#%d is a pull request, not a Story; aayu plan reviews the plan of an issue labelled type:story or type:bug", o.Story)
	}
	var assignees []string
	for _, a := range is.Assignees {
		assignees = append(assignees, a.GetLogin())
	}
	for _, l := range is.Labels {
		switch strings.ToLower(l.GetName()) {
		case inbox.LabelStory:
			r.Kind = "Story"
		case inbox.LabelBug:
			if r.Kind == "" {
				r.Kind = "Bug"
			}
		}
	}
	if r.Kind == "" {
		return r, refuse("#%d is not a Story: it carries neither type:story nor type:bug, so it has no plan to review", o.Story)
	}
	r.Title = untrusted.RecordLine(is.GetTitle())
	r.Section, r.Planned = Section(is.GetBody())

	pr, err := openPR(ctx, gh, o.Owner, o.Repo, o.Story)
	if err != nil {
		return r, err
	}
	if pr != nil {
		r.PR, r.PRAuthor, r.Base = pr.GetNumber(), untrusted.Login(pr.GetUser().GetLogin()), untrusted.Ref(pr.GetBase().GetRef())
		files, err := ghx.ListAll(ctx, func(lo *github.ListOptions) ([]*github.CommitFile, *github.Response, error) {
			return gh.PullRequests.ListFiles(ctx, o.Owner, o.Repo, r.PR, lo)
		})
		if err != nil {
			return r, fmt.Errorf("reading the files of #%d: %w", r.PR, err)
		}
		for _, f := range files {
			r.Changed = append(r.Changed, untrusted.RecordLine(f.GetFilename()))
			if p := f.GetPreviousFilename(); p != "" && p != f.GetFilename() {
				r.Changed = append(r.Changed, untrusted.RecordLine(p))
			}
		}
	}
	if len(r.Section) == 0 && r.PR == 0 {
		return r, refuse("%s #%d has no \"## Plan\" section and no pull request links it, so there is no plan to review; add a \"## Plan\" section listing the paths or packages the work will touch, then run %s again", r.Kind, o.Story, Command(o.Story, o.SoloBypass))
	}
	if r.Base == "" {
		repo, _, err := gh.Repositories.Get(ctx, o.Owner, o.Repo)
		if err != nil {
			return r, fmt.Errorf("reading %s/%s: %w", o.Owner, o.Repo, err)
		}
		r.Base = untrusted.Ref(repo.GetDefaultBranch())
	}
	policy, err := ghx.ReadBasePolicy(ctx, gh, o.Owner, o.Repo, r.Base.Raw())
	if err != nil {
		return r, err
	}
	if s := policy.Sentence(); s != "" {
		return r, refuse("%s", strings.TrimSuffix(s, "."))
	}
	pol := policy.Pass()
	r.bots = pol.BotLogins
	r.Hits = hits(r.Planned, r.Changed, r.PR, policy.Layers(), pol.Never)
	if len(r.Hits) == 0 {
		r.NotNeeded = fmt.Sprintf("the plan of #%d touches no never layer (%s's autonomy.never: %s), so no plan review is needed", o.Story, r.Base, orNone(pol.Never))
		if policy.Layers() == nil {
			r.NotNeeded = fmt.Sprintf("%s has no LAYERS.md, so no path lies in a never layer and no plan review is needed", r.Base)
		}
		return r, nil
	}

	if r.Existing, err = Current(ctx, gh, o.Owner, o.Repo, o.Story); err != nil {
		return r, err
	}
	kind := pass.PlanKindReview
	if o.SoloBypass {
		kind = pass.KindSoloBypass
	}
	// A record stands when it covers these layers and is at least what is
	// asked for — unless it is a review by the pull request's author, which
	// ship never counts (in solo mode the person builds with their own
	// token, so a review they gave before the pull request opened is theirs).
	if e := r.Existing; e != nil && e.Covers(r.LayerIDs()) && (e.Kind == pass.PlanKindReview || kind == pass.KindSoloBypass) &&
		!(e.Kind == pass.PlanKindReview && r.PRAuthor.Is(e.Reviewer)) {
		r.Same = true
		r.Record = *e
		return r, nil
	}

	person, err := personOf(ctx, gh, o.Owner, o.Repo, o.Viewer)
	if err != nil {
		return r, err
	}
	comments, err := storyComments(ctx, gh, o.Owner, o.Repo, o.Story)
	if err != nil {
		return r, err
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	r.Record = pass.PlanRecord{Story: o.Story, Layers: r.LayerIDs(), Kind: kind, RecordedBy: o.Viewer,
		RecordedAt: now().UTC().Format(time.RFC3339)}
	if o.SoloBypass {
		err = r.planBypass(o, person, policy, comments)
	} else {
		err = r.planReview(o, person, assignees, comments)
	}
	return r, err
}

// planReview checks the reviewer and plans the "Plan reviewed:" comment:
// a review is a person's, never a bot's, and never the builder's (the pull
// request's author or an assignee of the Story).
func (r *Review) planReview(o Options, person identity.Account, assignees []string, comments []identity.Comment) error {
	var why []string
	if identity.IsBot(person, r.bots) {
		why = append(why, fmt.Sprintf("@%s is a bot, and a plan review is a person's", o.Viewer))
	}
	if r.PRAuthor.Is(o.Viewer) {
		why = append(why, fmt.Sprintf("you (@%s) opened #%d, which builds it, and the builder's own plan review never counts", o.Viewer, r.PR))
	}
	for _, a := range assignees {
		if identity.SameLogin(o.Viewer, a) {
			why = append(why, fmt.Sprintf("you (@%s) are assigned #%d, so you build it, and the builder's own plan review never counts", o.Viewer, r.Story))
			break
		}
	}
	if err := identity.CheckApprover(person, identity.AccessWrite, "", r.bots); err != nil && !identity.IsBot(person, r.bots) {
		why = append(why, "a plan review needs a person with write access: "+err.Error())
	}
	if len(why) > 0 {
		return refuse("%s. Ask a person who is not the builder to run %s; in solo mode, with nobody else to ask, run %s", strings.Join(why, "; "), Command(r.Story, false), Command(r.Story, true))
	}
	r.Record.Reviewer, r.Record.ApprovedBy = o.Viewer, o.Viewer
	r.Record.Note = fmt.Sprintf("reviewed with aayu plan by @%s, who is not the builder", o.Viewer)
	if c, ok := newestReview(comments, o.Viewer, r.bots); ok && !standsOn(c, r.Existing) {
		r.Reuse = &c
		return nil
	}
	r.CommentBody = actions.Neutralize(fmt.Sprintf("%s the plan of #%d is reviewed: it touches never %s %s, and @%s, who is not its builder, read the plan against them.\n\nRecorded with `%s` in `%s` on the `%s` branch%s.",
		pass.PlanReviewedPrefix, r.Story, plural(len(r.Hits), "layer", "layers"), r.layerWords(), o.Viewer, Command(r.Story, false), pass.PlanRecordPath(r.Story), LedgerBranch, batchWords(o.Batch)))
	return nil
}

// standsOn says whether the record already stands on comment c: a record
// replaced by aayu always names a new comment, which names the new layers
// (ledgertrust: the same comment's record rewritten is tampering).
func standsOn(c identity.Comment, rec *pass.PlanRecord) bool {
	if rec == nil {
		return false
	}
	if id := rec.CommentID(); id != 0 {
		return c.ID == id
	}
	return rec.CommentURL != "" && c.URL == rec.CommentURL
}

// planBypass judges the bypass exactly as ship judges its own
// (identity.SoloBypassRefusals), with the comment plan will post counted as
// posted: the comment is posted only for a bypass that is not refused.
func (r *Review) planBypass(o Options, person identity.Account, policy *basepolicy.Policy, comments []identity.Comment) error {
	r.CommentBody = actions.Neutralize(fmt.Sprintf("%s solo mode: GitHub refuses self-approval and no bot App exists, so no second person can review the plan of #%d; no review happened. It touches never %s %s.\n\nRecorded with `%s` in `%s` on the `%s` branch%s.",
		identity.SoloBypassPrefix, r.Story, plural(len(r.Hits), "layer", "layers"), r.layerWords(), Command(r.Story, true), pass.PlanRecordPath(r.Story), LedgerBranch, batchWords(o.Batch)))
	planned := comments
	if c, ok := identity.FindSoloBypassComment(comments, o.Viewer, "", r.bots); ok && !standsOn(c, r.Existing) {
		r.Reuse = &c
	} else {
		planned = append(append([]identity.Comment(nil), comments...), identity.Comment{Author: person, Body: untrusted.Text(r.CommentBody), CreatedAt: time.Now()})
	}
	refusals := identity.SoloBypassRefusals(identity.SoloBypassInput{
		Command: Command(r.Story, true), Env: o.Env, Terminal: o.Terminal, CI: o.CI, Session: o.Session, Here: o.Here,
		Identity: policy.Identity(), Person: person,
		Seats: map[string]string{"Engineering Manager": policy.Pass().EngineeringManager}, Comments: planned,
	})
	if len(refusals) > 0 {
		return refuse("the solo-mode bypass of #%d's plan review is refused: %s", r.Story, strings.Join(refusals, "; "))
	}
	r.Record.Reviewer, r.Record.ApprovedBy, r.Record.Note = pass.NoPlanReviewer, "", pass.PlanBypassNote
	return nil
}

// batchWords name the batch a review is recorded from, after the
// comment's last sentence.
func batchWords(batch string) string {
	if batch == "" {
		return ""
	}
	return fmt.Sprintf(", approving batch %s, which an agent started", batch)
}

func (r Review) layerWords() string {
	var out []string
	for _, h := range r.Hits {
		if h.Name != "" {
			out = append(out, fmt.Sprintf("%s (%s)", h.ID, h.Name))
		} else {
			out = append(out, h.ID)
		}
	}
	return strings.Join(out, ", ")
}

// newestReview is the newest "Plan reviewed:" comment by login that is
// not a bot's.
func newestReview(comments []identity.Comment, login string, bots []string) (identity.Comment, bool) {
	var found identity.Comment
	ok := false
	for _, c := range comments {
		if !identity.SameLogin(c.Author.Login, login) || identity.IsBot(c.Author, bots) ||
			!strings.HasPrefix(strings.TrimSpace(c.Body.Raw()), pass.PlanReviewedPrefix) {
			continue
		}
		if !ok || c.ID > found.ID {
			found, ok = c, true
		}
	}
	return found, ok
}

// Section finds the issue body's "## Plan" section: its non-empty lines as
// neutral lines, and the path each list item names first (in backticks, or
// its first word), without a leading "./" or "/".
func Section(body string) (lines, paths []string) {
	in := false
	for _, l := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") {
			h := strings.TrimSpace(strings.TrimLeft(t, "#"))
			in = strings.HasPrefix(t, "## ") && strings.EqualFold(h, "Plan")
			continue
		}
		if !in || t == "" {
			continue
		}
		lines = append(lines, untrusted.RecordLine(t))
		if p := itemPath(t); p != "" && !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	return lines, paths
}

var listMark = lazyre.New(`^(?:[-*+]|[0-9]+[.)])\s+`)

func itemPath(line string) string {
	m := listMark().FindString(line)
	if m == "" {
		return ""
	}
	rest := line[len(m):]
	var p string
	if i := strings.Index(rest, "`"); i >= 0 {
		if j := strings.Index(rest[i+1:], "`"); j > 0 {
			p = rest[i+1 : i+1+j]
		}
	}
	if p == "" {
		f := strings.Fields(rest)
		if len(f) == 0 {
			return ""
		}
		p = f[0]
	}
	p = strings.TrimRight(strings.TrimSpace(p), ":,;.")
	p = strings.TrimPrefix(strings.TrimPrefix(p, "./"), "/")
	if p == "" || strings.ContainsAny(p, " \t") {
		return ""
	}
	return untrusted.RecordLine(p)
}

// hits are the never layers the planned paths (a directory or package
// counts as anything in it) and the changed files touch, in never's order.
func hits(planned, changed []string, pr int, layers []pass.Layer, never []string) []Hit {
	var out []Hit
	for _, id := range never {
		var l *pass.Layer
		for i := range layers {
			if layers[i].ID == id {
				l = &layers[i]
			}
		}
		if l == nil {
			continue
		}
		h := Hit{ID: id, Name: untrusted.RecordLine(l.Name)}
		for _, p := range planned {
			if l.Matches(p) || l.Matches(strings.TrimSuffix(p, "/")+"/_") {
				h.Paths = append(h.Paths, p+" (planned)")
			}
		}
		for _, p := range changed {
			if l.Matches(p) {
				h.Paths = append(h.Paths, fmt.Sprintf("%s (changed in #%d)", p, pr))
			}
		}
		if len(h.Paths) > 0 {
			out = append(out, h)
		}
	}
	return out
}

// openPR is the open pull request that links the Story (a story/N-… or
// fix/N-… branch, or Refs/Fixes #N), the newest when several do.
func openPR(ctx context.Context, gh *github.Client, owner, repo string, story int) (*github.PullRequest, error) {
	prs, err := ghx.ListAll(ctx, func(lo *github.ListOptions) ([]*github.PullRequest, *github.Response, error) {
		return gh.PullRequests.List(ctx, owner, repo, &github.PullRequestListOptions{State: "open", ListOptions: *lo})
	})
	if err != nil {
		return nil, fmt.Errorf("listing the pull requests of %s/%s: %w", owner, repo, err)
	}
	var best *github.PullRequest
	for _, pr := range prs {
		if slices.Contains(inbox.LinkedIssues(pr.GetHead().GetRef(), pr.GetBody()), story) && (best == nil || pr.GetNumber() > best.GetNumber()) {
			best = pr
		}
	}
	return best, nil
}

// Current reads the Story's plan record on the ledger; nil when there is
// none. A record that does not read is an error in words, never a review.
func Current(ctx context.Context, gh *github.Client, owner, repo string, story int) (*pass.PlanRecord, error) {
	b, err := ghx.ReadFile(ctx, gh, owner, repo, LedgerBranch, pass.PlanRecordPath(story))
	if ghx.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s on the ledger: %w", pass.PlanRecordPath(story), err)
	}
	if f, err := ghx.RecordTampered(ctx, gh, owner, repo, LedgerBranch, pass.PlanRecordPath(story)); err != nil {
		return nil, fmt.Errorf("checking the ledger's history of %s: %w", pass.PlanRecordPath(story), err)
	} else if f != nil {
		return nil, refuse("%s, so this plan review is not trusted; nothing was written", f.Line())
	}
	rec, err := pass.ParsePlanRecord(b)
	if err != nil {
		// An unreadable record counts as none: this run writes a whole one
		// over it, and the old stays in the ledger's history.
		return nil, nil
	}
	return &rec, nil
}

func personOf(ctx context.Context, gh *github.Client, owner, repo, login string) (identity.Account, error) {
	lvl, _, err := gh.Repositories.GetPermissionLevel(ctx, owner, repo, login)
	perm, err := ghx.Access(lvl, err)
	a := identity.Account{Login: login, Permission: perm, Bot: lvl.GetUser().GetType() == "Bot"}
	if err != nil {
		return a, fmt.Errorf("reading your access to %s/%s: %w", owner, repo, err)
	}
	return a, nil
}

func storyComments(ctx context.Context, gh *github.Client, owner, repo string, story int) ([]identity.Comment, error) {
	list, err := ghx.ListAll(ctx, func(lo *github.ListOptions) ([]*github.IssueComment, *github.Response, error) {
		return gh.Issues.ListComments(ctx, owner, repo, story, &github.IssueListCommentsOptions{ListOptions: *lo})
	})
	if err != nil {
		return nil, fmt.Errorf("reading the comments on #%d: %w", story, err)
	}
	out := make([]identity.Comment, 0, len(list))
	for _, c := range list {
		out = append(out, identity.Comment{ID: c.GetID(), Body: untrusted.Text(c.GetBody()), CreatedAt: c.GetCreatedAt().Time, UpdatedAt: c.GetUpdatedAt().Time, URL: c.GetHTMLURL(),
			Author: identity.Account{Login: c.GetUser().GetLogin(), Bot: c.GetUser().GetType() == "Bot"}})
	}
	return out, nil
}

// Result is what Apply wrote.
type Result struct {
	CommentURL string
	Posted     bool   // Apply posted the comment (rather than reusing one)
	Commit     string // the ledger commit holding the record
}

// Apply posts the comment (or reuses the one found), reads the Story's
// comments back to find it there — a comment that is not there when read
// back refuses, and nothing lands on the ledger — then lands the record
// (Git Data API, fast-forward only; one already there is not written
// twice). Each step is safe to run again.
func Apply(ctx context.Context, gh *github.Client, r Review, trailers []string) (Result, error) {
	var res Result
	if r.NotNeeded != "" || r.Same {
		return res, nil
	}
	var posted int64
	if r.Reuse == nil {
		c, _, err := gh.Issues.CreateComment(ctx, r.Owner, r.Repo, r.Story, &github.IssueComment{Body: github.String(r.CommentBody)})
		if err != nil {
			return res, fmt.Errorf("posting the comment on #%d: %s; nothing was written to the ledger", r.Story, ghx.Describe(err))
		}
		posted, res.Posted, res.CommentURL = c.GetID(), true, c.GetHTMLURL()
	}
	comments, err := storyComments(ctx, gh, r.Owner, r.Repo, r.Story)
	if err != nil {
		return res, fmt.Errorf("%w; nothing was written to the ledger", err)
	}
	var found *identity.Comment
	for _, c := range comments {
		if (r.Reuse != nil && c.ID == r.Reuse.ID) || (posted != 0 && c.ID == posted) {
			found = &c
			break
		}
	}
	if found == nil || !stillSays(*found, r) {
		prefix := pass.PlanReviewedPrefix
		if r.Bypass() {
			prefix = identity.SoloBypassPrefix
		}
		return res, refuse("no %s comment by @%s is on #%d when read back (deleted or edited since it was posted), so there is nothing to record; nothing was written to the ledger — run %s again",
			prefix, r.Record.RecordedBy, r.Story, Command(r.Story, r.Bypass()))
	}
	res.CommentURL = found.URL
	rec := r.Record
	rec.CommentURL = found.URL
	msg := fmt.Sprintf("Plan review of #%d: %s by %s for %s", r.Story, rec.Kind, rec.Reviewer, strings.Join(rec.Layers, ", "))
	sha, err := ghx.CommitFiles(ctx, gh, r.Owner, r.Repo, LedgerBranch, map[string][]byte{pass.PlanRecordPath(r.Story): rec.Encode()}, msg, ghx.CommitOptions{
		Trailers: trailers,
		Unless: func(ctx context.Context, tip string) (bool, error) {
			b, err := ghx.ReadFile(ctx, gh, r.Owner, r.Repo, tip, pass.PlanRecordPath(r.Story))
			if ghx.IsNotFound(err) {
				return false, nil
			}
			if err != nil {
				return false, err
			}
			now, err := pass.ParsePlanRecord(b)
			return err == nil && now.Kind == rec.Kind && now.CommentID() == rec.CommentID() && now.Covers(rec.Layers), nil
		},
	})
	if err != nil && !errors.Is(err, ghx.ErrAlreadyThere) {
		return res, fmt.Errorf("writing %s to the ledger: %w; the comment %s stays on #%d and the next run records it", pass.PlanRecordPath(r.Story), err, found.URL, r.Story)
	}
	res.Commit = sha
	return res, nil
}

// stillSays checks the comment read back is still the person's review or
// bypass, as ship will judge it.
func stillSays(c identity.Comment, r Review) bool {
	if r.Bypass() {
		_, ok := identity.FindSoloBypassComment([]identity.Comment{c}, r.Record.RecordedBy, "", r.bots)
		return ok
	}
	_, ok := newestReview([]identity.Comment{c}, r.Record.RecordedBy, r.bots)
	return ok
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}
